"""The ports of CUTLASS's TS tutorials that use the work model
(examples/python): ``copy_persistent_skip_tile`` and
``copy_varlen_dynamic_domain`` (tutorial 3, sm_90a, with launch specs) and
``gemm_cluster_2sm`` and ``gemm_cute_cluster_2sm`` with their CLC
variants (tutorial 4: a 2-CTA cluster, static and CLC work queues, PDL in
the first, real tcgen05 work methods in the second; sm_100a,
compile-only). Each verifies,
lowers and (where ptxas is found) assembles; the key sequence of each is
pinned on the IR or the PTX, and the launch specs' references and checkers
are run on a NumPy model of the kernel's tile walk."""

from __future__ import annotations

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
CTX = {"sm_count": 132, "ctas_per_sm": 1, "cluster": (1, 1, 1)}


def _example(name):
    folder = ROOT / "examples" / "python"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location(
            f"tspipe_tutorial_{name}", folder / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(folder))


def _spec(name):
    return load_spec(ROOT / "examples" / f"{name}.py")


def _assemble(ptx: str, tmp_path: Path, name: str, arch: str):
    ptxas = shutil.which("ptxas")
    if ptxas is None:
        return
    path = tmp_path / f"{name}.ptx"
    path.write_text(ptx)
    proc = subprocess.run([ptxas, f"-arch={arch}", "-o",
                           str(path.with_suffix(".cubin")), str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _entry_matches_spec(spec, ptx: str):
    """The PTX entry's parameters have the sizes the spec's kinds give (as
    the runner checks them before a launch)."""
    from tspipe.runtime import ptx as ptxmod

    entry = ptxmod.parse_entries(ptx)[spec.KERNEL]
    sizes = {"ptr": 8, "i32": 4, "i64": 8}
    assert [p.size for p in entry.params] == [sizes[k] for _, k in
                                              spec.PARAMS]


def _task(text: str, name: str) -> str:
    """The text of ``tspipe.task @name`` up to the next task (or the end)."""
    start = text.index(f"tspipe.task @{name} ")
    nxt = text.find("tspipe.task @", start + 1)
    return text[start:nxt if nxt >= 0 else len(text)]


def _in_order(text: str, *needles: str) -> bool:
    at = 0
    for needle in needles:
        at = text.find(needle, at)
        if at < 0:
            return False
        at += len(needle)
    return True


# -- copy_persistent_skip_tile ------------------------------------------------

def test_copy_persistent_skip_tile_verifies_and_lowers(tmp_path):
    example = _example("copy_persistent_skip_tile")
    tm = example.build()
    text = str(tm.module)
    task = _task(text, "PersistentCopyTask")
    # The queue's skip_if: tile >= logical_tiles; the copy loop skippable;
    # the bookkeeping (a static queue's advance) on every tile.
    assert _in_order(task, "tspipe.work_tile_loop @WorkQueue skip_if",
                     "arith.cmpi uge", "tspipe.skip_tile",
                     "tspipe.skippable", "tspipe.domain_loop", "llvm.load",
                     "llvm.store", "tspipe.advance_work_tile @WorkQueue"), task
    ptx = tm.to_ptx("sm_90a")
    # The static walk: from this CTA's linear id, stride the CTAs launched.
    assert "%nctaid.x" in ptx and "ld.global" in ptx and "st.global" in ptx
    _entry_matches_spec(_spec("copy_persistent_skip_tile"), ptx)
    _assemble(ptx, tmp_path, "copy_persistent_skip_tile", "sm_90a")


def _walk_skip_tile(spec, inputs, grid, skip_from=None):
    """What the kernel does: CTA c walks tiles c, c + G, ... of the queue
    and copies those below logical_tiles (or ``skip_from``)."""
    logical, launched = int(inputs["logical_tiles"]), int(inputs["launch_tiles"])
    skip_from = logical if skip_from is None else skip_from
    a = inputs["a"].reshape(spec.ROWS, spec.TILE_COLS * logical)
    b = np.full(a.shape, 0xFFFF, np.uint16)
    for cta in range(grid):
        for tile in range(cta, launched, grid):
            if tile >= skip_from:
                continue
            cols = slice(tile * spec.TILE_COLS, (tile + 1) * spec.TILE_COLS)
            b[:, cols] = a[:, cols]
    return b.reshape(-1)


def test_copy_persistent_skip_tile_spec():
    spec = _spec("copy_persistent_skip_tile")
    example = _example("copy_persistent_skip_tile")
    tm = example.build()
    assert spec.KERNEL == tm.kernel.name
    assert [p for p, _ in spec.PARAMS] == [
        a if isinstance(a, str) else a[0] for a in tm.kernel.args]
    assert spec.BLOCK_THREADS == tm.kernel.block_threads
    assert (spec.ROWS, spec.TILE_COLS) == (example.ROWS, example.TILE_COLS)
    checks = spec.problems("check", CTX)
    assert any(p["launch_tiles"] > p["logical_tiles"] for p in checks)
    assert any(p["launch_tiles"] < p["grid"][0] for p in checks)
    assert any(p["logical_tiles"] % p["grid"][0] for p in checks)
    (small,) = spec.problems("sanitize", CTX)
    assert small["launch_tiles"] > small["logical_tiles"] > small["grid"][0]
    inputs = spec.make_inputs(np.random.default_rng(3), small)
    got = {"b": _walk_skip_tile(spec, inputs, small["grid"][0])}
    assert spec.check(got, inputs)["mismatches"] == 0
    # A tile skipped that should not be (the skip off by one) fails.
    short = _walk_skip_tile(spec, inputs, small["grid"][0],
                            skip_from=small["logical_tiles"] - 1)
    with pytest.raises(CheckFailure) as err:
        spec.check({"b": short}, inputs)
    assert err.value.mismatches == spec.ROWS * spec.TILE_COLS


# -- copy_varlen_dynamic_domain -----------------------------------------------

def test_copy_varlen_dynamic_domain_verifies_and_lowers(tmp_path):
    example = _example("copy_varlen_dynamic_domain")
    tm = example.build()
    text = str(tm.module)
    # The domain start (the thread index) is computed before the kernel's
    # tasks; the end per tile, inside the tile loop, from the offsets (R20).
    assert text.index("gpu.thread_id  x") < text.index("tspipe.kernel")
    task = _task(text, "VarlenCopyTask")
    assert _in_order(task, "tspipe.work_tile_loop @WorkQueue", "llvm.load",
                     "llvm.load", "arith.subi", "tspipe.domain_loop",
                     "tspipe.advance_work_tile @WorkQueue"), task
    assert re.search(r"tspipe.domain_loop %\w+ = %\w+ to %\w+ step %c128",
                     task), task
    ptx = tm.to_ptx("sm_90a")
    assert "%tid.x" in ptx
    _entry_matches_spec(_spec("copy_varlen_dynamic_domain"), ptx)
    _assemble(ptx, tmp_path, "copy_varlen_dynamic_domain", "sm_90a")


def _walk_varlen(inputs, grid, block):
    """What the kernel does: tile i copies its segment, thread t taking
    elements t, t + block, ..."""
    n, width = int(inputs["num_segments"]), int(inputs["max_len"])
    offsets, a = inputs["offsets"], inputs["a"].view(np.uint32)
    b = np.full(n * width, 0xFFFFFFFF, np.uint32)
    for cta in range(grid):
        for tile in range(cta, n, grid):
            length = int(offsets[tile + 1] - offsets[tile])
            for t in range(block):
                for j in range(t, length, block):
                    b[tile * width + j] = a[offsets[tile] + j]
    return b


def test_copy_varlen_dynamic_domain_spec():
    spec = _spec("copy_varlen_dynamic_domain")
    tm = _example("copy_varlen_dynamic_domain").build()
    assert spec.KERNEL == tm.kernel.name
    assert [p for p, _ in spec.PARAMS] == [
        a if isinstance(a, str) else a[0] for a in tm.kernel.args]
    assert spec.BLOCK_THREADS == tm.kernel.block_threads
    # Segments longer than two CTA-widths: threads run several iterations.
    assert spec.MAX_LEN > 2 * spec.BLOCK_THREADS
    (small,) = spec.problems("sanitize", CTX)
    inputs = spec.make_inputs(np.random.default_rng(5), small)
    got = {"b": _walk_varlen(inputs, small["grid"][0], spec.BLOCK_THREADS)}
    assert spec.check(got, inputs)["mismatches"] == 0
    # A write past a segment's end (into the padding) fails.
    bad = got["b"].copy()
    row = 0
    length = int(inputs["offsets"][1] - inputs["offsets"][0])
    if length < small["max_len"]:
        bad[row * small["max_len"] + length] = 0
        with pytest.raises(CheckFailure):
            spec.check({"b": bad}, inputs)


# -- gemm_cluster_2sm and its CLC variant ----------------------------------------

@pytest.mark.parametrize("name", ["gemm_cluster_2sm", "gemm_cluster_2sm_clc"])
def test_gemm_cluster_2sm_verifies_and_lowers(name, tmp_path):
    tm = _example(name).build()
    text = str(tm.module)
    # PDL: the A loads wait for the previous grid once, before the first
    # tile, and launch the dependents after the last (R37; R22 lets the PDL
    # points surround the tile loop).
    load_a = _task(text, "LoadATask")
    assert _in_order(load_a, "tspipe.pdl_wait", "tspipe.work_tile_loop",
                     "tspipe.producer_acquire @SmemA",
                     "tspipe.advance_work_tile @WorkQueue",
                     "tspipe.pdl_launch_dependents"), load_a
    assert "tspipe.pdl_pipelines = [@SmemA]" in text
    # The 2-CTA pair: cluster layout (2, 1, 1, 1), pair-leader signalling.
    assert tm.kernel.num_warps == 8 and tm.kernel.cluster == (2, 1, 1)
    assert " cluster([2, 1, 1])" in text, text
    assert text.count("cta_layout_vmnk = [2, 1, 1, 1]") == (4 if "clc" in name
                                                           else 3), text
    assert ("num_bytes = 32768, producer_group = <thread, 1>, consumer_group "
            "= <thread, 1>, cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling"
            " = cta_leader, num_bytes_per_warp_per_cta = 16384") in text
    assert ("consumer_group = <thread, 256>, cta_layout_vmnk = [2, 1, 1, 1], "
            "producer_signaling = cta_leader") in text
    ptx = tm.to_ptx("sm_100a")
    assert ptx.index("griddepcontrol.wait") < \
        ptx.index("griddepcontrol.launch_dependents")
    assert "tcgen05.commit.cta_group::2" in ptx
    assert ".reqnctapercluster 2, 1, 1" in ptx
    if name.endswith("_clc"):
        sched = _task(text, "WorkScheduleTask")
        assert _in_order(sched, "tspipe.work_tile_loop @WorkQueue",
                         "tspipe.producer_acquire @WorkQueue_clc",
                         "tspipe.fetch_work_tile @WorkQueue",
                         "tspipe.producer_commit @WorkQueue_clc",
                         "tspipe.consumer_wait @WorkQueue_clc",
                         "tspipe.advance_work_tile @WorkQueue",
                         "tspipe.consumer_release @WorkQueue_clc"), sched
        assert "clusterlaunchcontrol.try_cancel" in ptx
        assert "clusterlaunchcontrol.query_cancel.is_canceled" in ptx
    else:
        assert "tspipe.work_queue @WorkQueue grid(" in text
        assert "clusterlaunchcontrol" not in ptx
        assert "tspipe.task @PaddingTask warps(7, 1)" in text
    _assemble(ptx, tmp_path, name, "sm_100a")


# -- gemm_cute_cluster_2sm (the CuTe version) and its CLC variant -------------

@pytest.mark.parametrize("name", ["gemm_cute_cluster_2sm",
                                  "gemm_cute_cluster_2sm_clc"])
def test_gemm_cute_cluster_2sm_verifies_and_lowers(name, tmp_path):
    example = _example("gemm_cute_cluster_2sm")
    tm = _example(name).build()
    text = str(tm.module)
    clc = name.endswith("_clc")
    # The tutorial's layout: one load task for A and B, the MMA warp, the
    # epilogue warpgroup, then the scheduler (CLC) and padding warps.
    assert tm.kernel.num_warps == 8 and tm.kernel.cluster == (2, 1, 1)
    for header in ("tspipe.task @LoadTask warps(4, 1) produces [@SmemAb]",
                   "tspipe.task @MmaTask warps(5, 1) produces [@TmemC] "
                   "consumes [@SmemAb",
                   "tspipe.task @StoreTask warps(0, 4) consumes [@TmemC",
                   "tspipe.task @PaddingTask warps(7, 1)" if clc else
                   "tspipe.task @PaddingTask warps(6, 2)"):
        assert header in text, header
    assert ("tspipe.task @WorkScheduleTask warps(6, 1)" in text) == clc
    # One A/B ring of 6 stages: the pair leader's full barrier expects both
    # CTAs' A and B boxes (2 x 32 KiB), each CTA loading 32 KiB.
    assert ("tspipe.pipeline @SmemAb config(<tma_umma, num_stages = 6, "
            "num_bytes = 65536, producer_group = <thread, 1>, consumer_group "
            "= <thread, 1>, cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling"
            " = cta_leader, num_bytes_per_warp_per_cta = 32768>) smem_bytes("
            f"{example.STAGE_BYTES * example.AB_STAGES})") in text, text
    assert ("tspipe.pipeline @TmemC config(<umma_async, num_stages = 2, "
            "producer_group = <thread, 1>, consumer_group = <thread, 256>, "
            "cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader>)"
            " tmem_columns(512)") in text, text
    # The load task's copies complete on the pair leader's full barrier;
    # the MMA gets the waited stage's tiles through the schedule's data flow.
    load = _task(text, "LoadTask")
    assert _in_order(load, "tspipe.work_tile_loop @WorkQueue",
                     "tspipe.domain_loop", "tspipe.producer_acquire @SmemAb",
                     "tspipe.full_barrier", "{pair_leader}",
                     "nvvm.cp.async.bulk.tensor.shared.cluster.global",
                     "nvvm.cp.async.bulk.tensor.shared.cluster.global",
                     "tspipe.producer_commit @SmemAb",
                     "tspipe.advance_work_tile @WorkQueue"), load
    mma = _task(text, "MmaTask")
    assert _in_order(mma, "tspipe.work_tile_loop @WorkQueue",
                     "tspipe.producer_acquire @TmemC", "tspipe.domain_loop",
                     "tspipe.consumer_wait @SmemAb", "nvvm.tcgen05.mma",
                     "tspipe.consumer_release @SmemAb",
                     "tspipe.producer_commit @TmemC",
                     "tspipe.advance_work_tile @WorkQueue"), mma
    # No PDL in this tutorial kernel.
    assert "tspipe.pdl" not in text
    ptx = tm.to_ptx("sm_100a")
    assert "griddepcontrol" not in ptx
    assert ".reqnctapercluster 2, 1, 1" in ptx
    # TMEM: both CTAs allocate the 2 x 256 columns together and free them
    # after a cluster barrier.
    assert _in_order(ptx, "tcgen05.alloc.cta_group::2",
                     "tcgen05.relinquish_alloc_permit.cta_group::2",
                     "barrier.cluster.arrive.aligned",
                     "barrier.cluster.wait.aligned",
                     "tcgen05.dealloc.cta_group::2"), ptx
    # SmemAb's producer: wait on the empty barrier, the elected thread arms
    # the full barrier with the pair's 65536 bytes, then the A and B copies
    # complete on the leader's barrier (peer bit 24 cleared).
    copy = ("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
            ".mbarrier::complete_tx::bytes.cta_group::2")
    assert _in_order(ptx, "mbarrier.try_wait.parity.shared.b64",
                     "mov.b32", "65536", "mbarrier.arrive.expect_tx.shared.b64",
                     "and.b32", "-16777217", copy, copy), ptx
    assert ptx.count(copy) == 2 * example.K_TILES  # the k-loop unrolled
    # The MMA: NUM_K_BLOCKS tcgen05.mma.cta_group::2 per k-tile, then the
    # stage's release and the accumulator's commit, both tcgen05 commits
    # multicast to the pair (mask 0b11).
    mma_op = "tcgen05.mma.cta_group::2.kind::f16"
    commit = ("tcgen05.commit.cta_group::2.mbarrier::arrive::one"
              ".shared::cluster.multicast::cluster.b64")
    assert ptx.count(mma_op) == example.NUM_K_BLOCKS
    assert _in_order(ptx, "tcgen05.fence::after_thread_sync",
                     *[mma_op] * example.NUM_K_BLOCKS, commit, "mov.b16",
                     "3", commit), ptx
    assert "tcgen05.mma.cta_group::1" not in ptx
    # The epilogue: SUBTILES tcgen05.ld of 32 columns, each waited, to fp16
    # stores; the release arrives on the pair leader's empty barrier.
    load_op = "tcgen05.ld.sync.aligned.32x32b.x32.b32"
    assert ptx.count(load_op) == example.SUBTILES
    assert _in_order(ptx, load_op, "tcgen05.wait::ld.sync.aligned",
                     "cvt.rn.f16x2.f32", "st.global.v4.b32"), ptx
    assert _in_order(ptx, "mapa.shared::cluster.u32",
                     "mbarrier.arrive.release.cluster.shared::cluster.b64"), \
        ptx
    if clc:
        sched = _task(text, "WorkScheduleTask")
        assert _in_order(sched, "tspipe.work_tile_loop @WorkQueue",
                         "tspipe.producer_acquire @WorkQueue_clc",
                         "tspipe.fetch_work_tile @WorkQueue",
                         "tspipe.producer_commit @WorkQueue_clc",
                         "tspipe.consumer_wait @WorkQueue_clc",
                         "tspipe.advance_work_tile @WorkQueue",
                         "tspipe.consumer_release @WorkQueue_clc"), sched
        assert "consumer_group = <thread, 512>" in text
        assert "clusterlaunchcontrol.try_cancel" in ptx
        assert [a if isinstance(a, str) else a[0] for a in tm.kernel.args] \
            == ["tmap_a", "tmap_b", "c", "n"]
    else:
        assert "tspipe.work_queue @WorkQueue grid(" in text
        assert "clusterlaunchcontrol" not in ptx
        assert [a if isinstance(a, str) else a[0] for a in tm.kernel.args] \
            == ["tmap_a", "tmap_b", "c", "n", "tiles_m", "tiles_n", "tiles_l"]
    _assemble(ptx, tmp_path, name, "sm_100a")


def test_gemm_cute_cluster_2sm_copies_need_the_leader_barrier(monkeypatch):
    """The port's copies complete on the pair leader's full barrier; on the
    CTA's own one (which the peer's acquire never arms) the kernel is
    rejected (X5)."""
    from tspipe.diagnostics import ScheduleError
    from tspipe.ts import brackets

    example = _example("gemm_cute_cluster_2sm")
    monkeypatch.setattr(brackets.Stage, "leader_full_barrier",
                        brackets.Stage.full_barrier)
    with pytest.raises(ScheduleError) as err:
        example.build()
    assert "[X5]" in str(err.value) and "pair leader" in str(err.value)


def test_leader_full_barrier_needs_a_cta_pair():
    """Stage.leader_full_barrier on a pipeline without a CTA pair (V = 1)
    is rejected (X5), naming the pipeline."""
    from tspipe import ts

    G, T = ts.CooperativeGroup, ts.Agent.Thread
    k = ts.Kernel(num_warps=2, arch="sm_100a", args=["out"])
    ring = k.pipeline("ring", ts.PipelineConfig.create_tma_async_pipeline_cfg(
        2, 1024, G(T, 1), G(T, 1)))
    p = k.task("p", 0, 1, produces=[ring])
    with p.domain_loop(0, 4):
        stage = p.acquire(ring)
        p.work(lambda: stage.leader_full_barrier())
        p.commit(ring)
    c = k.task("c", 1, 1, consumes=[ring])
    with c.domain_loop(0, 4):
        c.wait(ring)
        c.release(ring)
    with pytest.raises(ts.ScheduleError) as err:
        k.build()
    assert "[X5]" in str(err.value) and "V = 1" in str(err.value) and \
        "'@ring'" in str(err.value), str(err.value)


# -- the two Hopper ports through the example runner (fake driver) ------------

def _u16(drv, ptr, n):
    return drv.buffer(ptr)[:2 * n].view(np.uint16)


def _u32(drv, ptr, n):
    return drv.buffer(ptr)[:4 * n].view(np.uint32)


def _skip_tile_kernel(drv, launch):
    """What copy_persistent_skip_tile computes, from its launch."""
    a, b, logical, launched = launch["args"]
    rows, cols = 64, 128 * int(logical)
    src = _u16(drv, a, rows * cols).reshape(rows, cols)
    dst = _u16(drv, b, rows * cols).reshape(rows, cols)
    grid = launch["grid"][0]
    for cta in range(grid):
        for tile in range(cta, int(launched), grid):
            if tile < int(logical):
                dst[:, tile * 128:(tile + 1) * 128] = \
                    src[:, tile * 128:(tile + 1) * 128]


def _varlen_kernel(drv, launch):
    """What copy_varlen_dynamic_domain computes, from its launch."""
    a, b, offsets, n, width = launch["args"]
    n, width = int(n), int(width)
    offs = drv.buffer(offsets)[:4 * (n + 1)].view(np.int32)
    src = _u32(drv, a, int(offs[-1]))
    dst = _u32(drv, b, n * width)
    for i in range(n):
        length = int(offs[i + 1] - offs[i])
        dst[i * width:i * width + length] = src[offs[i]:offs[i + 1]]


def test_runner_checks_the_hopper_ports(monkeypatch, tmp_path):
    import json

    import fake_cuda_driver as fake

    from tspipe import demo
    from tspipe.runtime import _driver, launcher, run_examples

    names = ["copy_persistent_skip_tile", "copy_varlen_dynamic_domain"]
    drv = fake.FakeDriver(kernels={names[0]: _skip_tile_kernel,
                                   names[1]: _varlen_kernel})
    monkeypatch.setattr(_driver, "_driver", drv)
    monkeypatch.setattr(launcher, "_ctx", None)
    monkeypatch.setattr(launcher, "_device_info", None)
    monkeypatch.setattr(launcher, "_hung", False)
    out = tmp_path / "out"
    out.mkdir()
    for name in names:
        demo.compile_example(ROOT / "examples" / "python" / f"{name}.py",
                             out, ptxas=None, log=lambda *a: None)
    res = tmp_path / "res"
    rc = run_examples.main([str(out), "--examples", str(ROOT / "examples"),
                            "--results", str(res), "--no-subprocess",
                            "--mode", "check"])
    report = json.loads((res / "results.json").read_text())
    assert rc == 0, report
    by_name = {e["example"]: e for e in report["examples"]}
    for name in names:
        assert by_name[name]["status"] == "pass", by_name[name]
        checks = [p for p in by_name[name]["problems"] if p["mode"] == "check"]
        assert len(checks) == 3
        assert all(p["check"]["mismatches"] == 0 for p in checks)
    # Launched as the metadata says: 4 warps, the spec's grids.
    assert {launch["block"] for launch in drv.launches} == {(128, 1, 1)}
