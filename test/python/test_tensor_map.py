"""Tensor maps at launch (tspipe.runtime.tensor_map): the IR's type parsed,
cuTensorMapEncodeTiled called with the driver's dimension order, the map
passed by value as a 64-byte aligned 128-byte parameter (fake driver)."""

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
try:
    import tspipe.runtime  # noqa: F401
except ImportError:  # not installed: use the source tree
    sys.path.insert(0, str(ROOT / "python"))

import fake_cuda_driver as fake  # noqa: E402

from tspipe import runtime as rt  # noqa: E402
from tspipe.runtime import _driver, launcher  # noqa: E402
from tspipe.runtime.meta import KernelMeta  # noqa: E402
from tspipe.runtime.tensor_map import TensorMap, parse_tensor_map_type  # noqa: E402

A_TYPE = ("!nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, 3>, "
          "swizzle = swizzle_128b, l2promo = none, oob = zero, "
          "interleave = none>")

PTX_TMAP = r"""
.version 8.0
.target sm_90a
.address_size 64
.visible .entry takes_map(
	.param .align 64 .b8 takes_map_param_0[128],
	.param .u64 .ptr .global .align 1 takes_map_param_1,
	.param .u32 takes_map_param_2
)
.reqntid 128, 1, 1
{
	ret;
}
"""


@pytest.fixture
def fake_driver(monkeypatch):
    drv = fake.examples_driver()
    monkeypatch.setattr(_driver, "_driver", drv)
    monkeypatch.setattr(launcher, "_ctx", None)
    monkeypatch.setattr(launcher, "_device_info", None)
    monkeypatch.setattr(launcher, "_hung", False)
    return drv


def test_parse_type():
    spec = parse_tensor_map_type(A_TYPE)
    assert spec.box == (128, 64) and spec.element == "bf16"
    assert spec.swizzle == "swizzle_128b" and spec.box_bytes == 16384
    with pytest.raises(ValueError, match="not an"):
        parse_tensor_map_type("memref<4xf32>")
    with pytest.raises(ValueError, match="CUtensorMapDataType"):
        parse_tensor_map_type(A_TYPE.replace("bf16", "f8E4M3FN"))
    with pytest.raises(ValueError, match="interleaved"):
        parse_tensor_map_type(A_TYPE.replace("interleave = none",
                                             "interleave = interleave_16b"))


def test_encode_orders_dimensions_innermost_first(fake_driver):
    tmap = TensorMap.encode(A_TYPE, 0x1000, (4096, 8192))
    call = [c for c in fake_driver.calls if c[0] == "cuTensorMapEncodeTiled"]
    (_, dtype, rank, address, dims, strides, box) = call[-1]
    assert rank == 2 and address == 0x1000
    assert dtype == fake.CUtensorMapDataType.CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
    assert dims == [8192, 4096]          # K (inner), then M
    assert strides == [8192 * 2]         # bytes per row
    assert box == [64, 128]
    words = np.frombuffer(tmap.holder().tobytes(), dtype=np.uint64)
    assert words[3] == fake.CUtensorMapSwizzle.CU_TENSOR_MAP_SWIZZLE_128B
    assert tmap.holder().ctypes.data % 64 == 0
    assert tmap.holder().nbytes == 128


def test_encode_rejects_bad_shapes(fake_driver):
    with pytest.raises(ValueError, match="rank"):
        TensorMap.encode(A_TYPE, 0x1000, (4096,))
    with pytest.raises(ValueError, match="multiple of 16"):
        TensorMap.encode(A_TYPE, 0x1000, (64, 64), row_strides=[100])


def test_launch_passes_the_map_by_value(fake_driver):
    k = rt.Module.from_ptx(PTX_TMAP).kernel("takes_map")
    tmap = TensorMap.encode(A_TYPE, 0x2000, (256, 64))
    out = rt.DeviceArray.zeros(16, np.float32)
    rt.launch(k, (1, 1, 1), 128, [tmap, out, np.uint32(3)])
    (launch,) = fake_driver.launches
    assert launch["args"][0] == tmap.holder().tobytes()
    with pytest.raises(TypeError, match="128 bytes"):
        rt.launch(k, (1, 1, 1), 128, [np.uint64(1), out, np.uint32(3)])


def test_metadata_keeps_tensor_map_types():
    km = KernelMeta(name="k", gpu_module="m", warps=4, block_threads=128,
                    tensor_maps={"a_map": A_TYPE})
    from tspipe.runtime.meta import ExampleMeta
    meta = ExampleMeta("e", "sm_90a", "src", "e.ptx", None, [km])
    again = ExampleMeta.from_json(meta.to_json())
    assert again.kernel("k").tensor_maps == {"a_map": A_TYPE}


def test_unsigned_outputs_start_all_ones(fake_driver):
    # A uint16 output (bf16 bit patterns) starts as 0xFFFF, as a signed one
    # starts as -1, so that elements the kernel never writes fail the check.
    from types import SimpleNamespace

    from tspipe.runtime.harness import _upload
    spec = SimpleNamespace(KERNEL="k", PARAMS=[("c", "ptr"), ("d", "ptr")],
                           OUTPUTS=["c", "d"])
    _, bufs = _upload(spec, {"c": np.zeros(8, np.uint16),
                             "d": np.zeros(8, np.int32)})
    assert (bufs["c"].to_numpy() == 0xFFFF).all()
    assert (bufs["d"].to_numpy() == -1).all()
