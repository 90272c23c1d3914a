"""The Python front end's Blackwell GEMM (examples/python/gemm.py) issues
real tcgen05 instructions: TMEM allocated in the kernel's prologue and
freed in its epilogue, TMA tensor copies, tcgen05.mma with the instruction
and shared-memory descriptors of docs/blackwell-gemm.md, a tcgen05.ld
epilogue; and Kernel.epilogue builds after the tspipe.kernel."""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

import tspipe.ts as pl
from tspipe import ir
from tspipe.dialects import nvvm
from tspipe.ts import Kernel, PipelineConfig, ScheduleError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "python"


def _gemm_module():
    sys.path.insert(0, str(EXAMPLES))
    try:
        spec = importlib.util.spec_from_file_location(
            "tspipe_example_gemm_tcgen05", EXAMPLES / "gemm.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(EXAMPLES))


@pytest.fixture(scope="module")
def gemm():
    return _gemm_module()


@pytest.fixture(scope="module")
def ptx(gemm):
    return gemm.build().to_ptx("sm_100a")


def test_descriptor_fields(gemm):
    # kind::f16, D f32, A/B bf16, K-major, N = 128, M = 128.
    assert gemm.IDESC == 0x08200490
    assert (gemm.IDESC >> 17) & 0x3F == gemm.TILE_N >> 3
    assert (gemm.IDESC >> 24) & 0x1F == gemm.TILE_M >> 4
    assert gemm.SMEM_SBO == 64 and gemm.SMEM_SWIZZLE_128B == 2


def test_tmem_alloc_and_dealloc(ptx):
    alloc = re.findall(r"tcgen05\.alloc\.cta_group::1\.sync\.aligned"
                       r"\.shared::cta\.b32\s+\[gemm_tmem_base\]", ptx)
    assert len(alloc) == 1
    assert "tcgen05.relinquish_alloc_permit.cta_group::1" in ptx
    assert ptx.count("tcgen05.dealloc.cta_group::1.sync.aligned.b32") == 1
    # The dealloc follows the tasks (after the last tcgen05.ld).
    assert ptx.rindex("tcgen05.dealloc") > ptx.rindex("tcgen05.ld")


def test_mma_descriptors(gemm, ptx):
    mmas = re.findall(r"tcgen05\.mma\.cta_group::1\.kind::f16\S*\s+"
                      r"\[%r\d+\], (%rd\d+), (%rd\d+), (%r\d+), %p\d+;", ptx)
    per_tile = gemm.TILE_K // gemm.MMA_K
    # The schedule's first_iter / last_iter guards peel the loop: three
    # copies of the k-tile's MMAs.
    assert len(mmas) == 3 * per_tile
    idesc_regs = set(re.findall(r"mov\.b32\s+(%r\d+), 136316048;", ptx))
    assert {r for _, _, r in mmas} <= idesc_regs
    # A and B descriptors: the fixed fields (swizzle 2, version 1, SBO 64,
    # LBO 1) or-ed onto the start address, +2 per K step of 32 bytes.
    fixed = 0x4000404000010000
    for step in range(per_tile):
        assert f", {fixed + 2 * step};" in ptx


def test_tensor_copies_and_epilogue(ptx):
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cluster.global"
                     ".tile.mbarrier::complete_tx::bytes") == 2
    assert ptx.count("tcgen05.ld.sync.aligned.32x32b.x32.b32") == 4
    assert ptx.count("tcgen05.wait::ld.sync.aligned") == 4
    assert "tcgen05.commit.cta_group::1" in ptx


def test_kernel_epilogue_builds_after_the_kernel():
    T = pl.Agent.Thread
    k = Kernel(num_warps=1, arch="sm_100a")
    ring = k.pipeline("ring", PipelineConfig.create_async_async_pipeline_cfg(
        2, pl.CooperativeGroup(T, 32), pl.CooperativeGroup(T, 32), None))
    t = k.task("t", 0, 1, produces=[ring], consumes=[ring])
    with t.domain_loop(0, 4, 1):
        t.acquire(ring)
        t.commit(ring)
        t.wait(ring)
        t.release(ring)
    k.epilogue(lambda: nvvm.Tcgen05FenceOp(
        nvvm.Tcgen05FenceKind.BEFORE_THREAD_SYNC))
    text = str(k.build())
    assert text.index("tcgen05.fence") > text.index("tspipe.kernel")
    assert text.index("tcgen05.fence") < text.index("gpu.return")
    with pytest.raises(TypeError):
        k.epilogue("not a step")


def test_shared_variable():
    k = Kernel(num_warps=1, arch="sm_100a")
    with k:
        i32 = ir.IntegerType.get_signless(32)
    k.shared_variable("slot", i32, alignment=8)
    text = str(k.module)
    assert "llvm.mlir.global internal @slot()" in text
    assert "addr_space = 3" in text and "alignment = 8" in text
    with pytest.raises(ScheduleError) as info:
        k.shared_variable("slot", i32)
    assert info.value.rule == "X9"
    with pytest.raises(ScheduleError) as info:
        k.shared_variable("not a name", i32)
    assert info.value.rule == "X9"


def test_mixed_cta_groups_are_rule_x32(gemm, monkeypatch):
    # A cta_group::2 MMA in the 1-CTA kernel: ptxas would reject the
    # function without a location; tspipe names the op and its line.
    monkeypatch.setattr(gemm, "MMA_CTA_GROUP", nvvm.CTAGroupKind.CTA_2)
    with pytest.raises(ScheduleError) as info:
        gemm.build().to_ptx("sm_100a")
    assert info.value.rule == "X32", str(info.value)
    assert "'nvvm.tcgen05.mma' op [X32] uses cta_group::2" in str(info.value)
    assert "gemm.py:" in str(info.value)
