"""The Hopper GEMM example (examples/python/hopper_gemm.py): it verifies,
lowers to PTX with wgmma and TMA tensor copies, passes its tensor maps as
__grid_constant__ parameters, and (where ptxas exists) assembles without
spills; its launch spec's reference and checker on a tiny product."""

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tspipe.runtime.checks import CheckFailure
from tspipe.runtime.harness import load_spec

ROOT = Path(__file__).resolve().parents[2]


def _example():
    folder = ROOT / "examples" / "python"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location(
            "tspipe_test_hopper_gemm", folder / "hopper_gemm.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # for its dataclasses
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(folder))


@pytest.fixture(scope="module")
def ptx():
    return _example().build().to_ptx("sm_90a")


def test_ptx_has_wgmma_and_tensor_copies(ptx):
    assert "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16" in ptx
    assert "cp.async.bulk.tensor.2d" in ptx
    assert ".multicast::cluster" in ptx
    assert re.search(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+232;", ptx)
    assert re.search(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40;", ptx)
    # The three tensor maps (A, B, C): 128-byte, 64-byte aligned parameters
    # read in place.
    params = re.findall(r"\.param \.align 64 \.b8 hopper_gemm_param_\d\[128\]",
                        ptx)
    assert len(params) == 3
    assert "cvta.param" in ptx


def test_tma_store_epilogue(ptx):
    # C leaves through shared memory: TMA stores, one bulk group each,
    # waited on (.read) only before a buffer is reused and at the end; a
    # named barrier of one warpgroup's 128 threads around the writes.
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx
    assert "cp.async.bulk.commit_group" in ptx
    assert re.search(r"cp\.async\.bulk\.wait_group\.read\s+1;", ptx)
    assert re.search(r"cp\.async\.bulk\.wait_group\.read\s+0;", ptx)
    assert "fence.proxy.async.shared::cta" in ptx
    assert re.search(r"bar\.sync\s+%r\d+, 128;", ptx)
    # No thread stores C itself.
    assert "st.global" not in ptx


def test_stage_release_is_cta_scope(ptx):
    # remote_arrive_scope(cta): the release to the peer CTA is
    # mbarrier.arrive.shared::cluster (.release.cta, the defaults), no
    # cluster-scope release (docs/Protocols.md, Remote-arrive scope).
    assert "mbarrier.arrive.shared::cluster.b64" in ptx
    assert "mbarrier.arrive.release.cluster" not in ptx
    cluster = _example().build(remote_arrive_scope="cluster").to_ptx("sm_90a")
    assert "mbarrier.arrive.release.cluster.shared::cluster.b64" in cluster


def test_register_epilogue_builds():
    tm = _example().build(epilogue="registers")
    assert tm.kernel.name == "hopper_gemm_regs"
    ptx = tm.to_ptx("sm_90a")
    assert "st.global" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" not in ptx


def test_variant_names():
    gemm = _example()
    assert gemm.kernel_name() == "hopper_gemm"
    assert gemm.kernel_name(k_sub=1, num_stages=4) == "hopper_gemm"
    assert gemm.kernel_name(k_sub=2, num_stages=2) == "hopper_gemm_k128x2"
    assert gemm.kernel_name(b_layout="n") == "hopper_gemm_nn"
    assert gemm.kernel_name(epilogue="registers",
                            remote_arrive_scope="cluster") == \
        "hopper_gemm_regs_cluster_release"
    assert gemm.kernel_name(release="drain") == "hopper_gemm_drain"
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from gemm_variants import VARIANTS
    finally:
        sys.path.remove(str(ROOT / "bench"))
    for name, facts in VARIANTS.items():
        assert gemm.kernel_name(**facts["build"]) == name


def test_transposed_b_builds():
    ptx = _example().build(b_layout="n").to_ptx("sm_90a")
    assert "wgmma.mma_async" in ptx and "cp.async.bulk.tensor.2d" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx


def test_two_stages_of_k128_build():
    ptx = _example().build(k_sub=2, num_stages=2).to_ptx("sm_90a")
    # Stage 0 in the head (a tile's first k-slice: scale-d zero only), the
    # loop's two chains (first k-slice of a tile or not), two 64-wide
    # sub-slices each: 8 + 2 x 8.
    assert ptx.count("wgmma.mma_async") == 24


def test_deferred_release(ptx):
    # Each stage is freed one iteration after its wait: the MMAs wait until
    # one group (the stage just issued) is pending; the epilogue and the
    # tail's release wait until none is.
    assert re.search(r"wgmma\.wait_group\.sync\.aligned\s+1;", ptx)
    assert re.search(r"wgmma\.wait_group\.sync\.aligned\s+0;", ptx)
    tm = _example().build()
    text = str(tm.kernel.module)
    assert "advance_on_wait = true" in text
    drained = _example().build(release="drain")
    assert drained.kernel.name == "hopper_gemm_drain"
    dptx = drained.to_ptx("sm_90a")
    assert not re.search(r"wgmma\.wait_group\.sync\.aligned\s+1;", dptx)
    assert "advance_on_wait" not in str(drained.kernel.module)


@pytest.mark.parametrize("release", ["deferred", "drain"])
def test_release_with_mma_in_flight_rejected(release, monkeypatch):
    # X25: a wait that leaves the released stage's MMA group pending (one
    # group more than the schedule allows) is a race the verifier reports.
    from tspipe.diagnostics import ScheduleError
    gemm = _example()
    retire = gemm._retire
    monkeypatch.setattr(gemm, "_retire",
                        lambda pending: retire(pending + 1))
    with pytest.raises(ScheduleError, match=r"\[X25\]"):
        gemm.build(release=release)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="no ptxas")
@pytest.mark.parametrize("options", [
    {}, {"epilogue": "registers"}, {"k_sub": 2, "num_stages": 2},
    {"b_layout": "n"}, {"release": "drain"}],
    ids=["default", "regs", "k128x2", "nn", "drain"])
def test_assembles_without_spills(options, tmp_path):
    ptx = _example().build(**options).to_ptx("sm_90a")
    path = tmp_path / "gemm.ptx"
    path.write_text(ptx)
    out = subprocess.run(["ptxas", "-arch=sm_90a", "-v", str(path), "-o",
                          str(tmp_path / "gemm.cubin")],
                         capture_output=True, text=True, check=True).stderr
    assert "0 bytes spill stores" in out and "0 bytes spill loads" in out
    # No wgmma serialized (ptxas C7514: a non-wgmma instruction may touch
    # an accumulator with a group in flight).
    assert "C7514" not in out, out


def test_spec_reference_and_checker():
    spec = load_spec(ROOT / "examples" / "hopper_gemm.py")
    (small,) = spec.problems("sanitize", {"sm_count": 132})
    rng = np.random.default_rng(0)
    inputs = spec.make_inputs(rng, small)
    ref = spec.expected(inputs)["c"]
    good = spec._bf16_bits(ref)
    assert spec.check({"c": good}, inputs)["elements"] == ref.size
    bad = good.copy()
    bad[3, 5] ^= 0x4000
    with pytest.raises(CheckFailure):
        spec.check({"c": bad}, inputs)
    for p in spec.problems("check", {"sm_count": 132}):
        assert p["grid"][0] % 2 == 0 and p["iters"] > 0


def test_stage_shape_checked():
    gemm = _example()
    with pytest.raises(ValueError, match="k_sub"):
        gemm.build(b_layout="n", k_sub=2)
    with pytest.raises(ValueError, match="shared memory"):
        gemm.build(k_sub=2, num_stages=3)
    with pytest.raises(ValueError, match="c_bufs"):
        gemm.build(c_bufs=9)
    with pytest.raises(ValueError, match="group_m"):
        gemm.build(group_m=0)
    with pytest.raises(ValueError, match="epilogue"):
        gemm.build(epilogue="smem")
    with pytest.raises(ValueError, match="remote_arrive_scope"):
        gemm.build(remote_arrive_scope="gpu")
    with pytest.raises(ValueError, match="release"):
        gemm.build(release="late")


def test_first_mma_of_a_tile_ignores_the_accumulator(ptx):
    # Scale-d zero on the first MMA of a tile, no select zeroing the
    # accumulator registers between MMAs.
    assert "setp.ne.b32 p, 0, 0;" in ptx
    assert "selp.f32" not in ptx
    # 4 MMAs in the head (stage 0 is a tile's first), 2 x 4 in the loop.
    assert ptx.count("wgmma.mma_async") == 12


def test_wgmma_shape_attribute():
    from tspipe import ir
    from tspipe.ts import nvgpu_bridge as bridge
    with ir.Context(), ir.Location.unknown():
        shape = bridge.wgmma_shape(64, 256, 16)
        assert "m = 64" in str(shape) and "n = 256" in str(shape)
        assert "k = 16" in str(shape)
