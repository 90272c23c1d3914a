"""TS code ported by changing imports: the schedule DSL, TaskManager, the
three tutorial skeletons of examples/python, and the importer of real TS
task managers (run when TS_PYTHON names an interpreter with
nvidia-cutlass-dsl 4.8.1)."""

import importlib.util
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

import tspipe.ts as pl
from tspipe.ts import ScheduleError
from tspipe.ts.resources import MemoryResource, PipelineConfig
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "python"
THIS_FILE = os.path.basename(__file__)


def load_example(name):
    sys.path.insert(0, str(EXAMPLES))
    try:
        spec = importlib.util.spec_from_file_location(
            f"tspipe_example_{name}", EXAMPLES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(EXAMPLES))


def _ptxas():
    sys.path.insert(0, str(EXAMPLES))
    try:
        from _common import find_ptxas
        return find_ptxas()
    finally:
        sys.path.remove(str(EXAMPLES))


@dataclass
class Ring(MemoryResource):
    pass


def small_task_manager(consumer_lists_ring=True, skip_validation=False):
    g = pl.CooperativeGroup(pl.Agent.Thread, 32)
    cfg = PipelineConfig.create_async_async_pipeline_cfg(2, g, g, None)
    ring = Ring(name="ring", pipeline_config=cfg)

    @schedule
    def produce(r):
        with domain_loop(0, 4, 1):
            r.acquire(); r.producer_work(); r.commit()  # noqa: E702

    @schedule
    def consume(r):
        with domain_loop(0, 4, 1) as d:
            r.wait(); r.consumer_work(); r.release()  # noqa: E702
            with d.last_iter():
                pass

    return TaskManager([Task([], [ring], 0, 1, schedule=produce(ring), name="p"),
                        Task([ring] if consumer_lists_ring else [], [], 1, 1,
                             schedule=consume(ring), name="c")],
                       {ring: []}, verbose=False, skip_validation=skip_validation)


def test_ts_oracle_kernel_runs_unchanged():
    tm = small_task_manager()
    module = tm.module
    assert "tspipe.task @p" in str(module)
    # Every replayed op sits at the line of its schedule call in this file.
    assert f'{THIS_FILE}":' in str(module.operation.get_asm(enable_debug_info=True))


def test_ts_schedule_error_points_at_the_schedule():
    # The consumer task does not list the ring it waits on (R27): reported
    # at the line of the schedule's wait in this file, as TS raises
    # ValueError at TaskManager construction.
    with pytest.raises(ScheduleError) as info:
        small_task_manager(consumer_lists_ring=False)
    assert isinstance(info.value, ValueError)
    assert info.value.rule == "R27", str(info.value)
    assert THIS_FILE in info.value.location, str(info.value)


def test_tma_copy_tutorial_port():
    example = load_example("tma_copy")
    tm = example.build()
    assert [t.name for t in tm.kernel.tasks] == ["LoadTask", "StoreTask",
                                                 "PaddingTask"]
    ptx = tm.to_ptx("sm_90a")
    assert ".entry tma_copy(" in ptx and "cp.async.bulk" in ptx
    assert "setmaxnreg" in ptx


def test_merge_copy_tutorial_port():
    example = load_example("merge_copy")
    tm = example.build()
    ptx = tm.to_ptx("sm_90a")
    assert ".entry merge_copy(" in ptx and "cp.async.bulk" in ptx


def test_gemm_tutorial_port():
    example = load_example("gemm")
    tm = example.build()
    kinds = sorted(str(p.config.pipeline_type) for p in tm.kernel.pipelines)
    assert kinds == ["tma_umma", "umma_async"]
    ptx = tm.to_ptx("sm_100a")
    assert ".target sm_100a" in ptx and ".entry gemm(" in ptx
    # The MMA warp releases the A/B stage and commits the accumulator with
    # tcgen05 commits.
    assert "tcgen05.commit" in ptx


@pytest.mark.parametrize("name,arch", [("tma_copy", "sm_90a"),
                                       ("merge_copy", "sm_90a"),
                                       ("gemm", "sm_100a")])
def test_tutorial_ports_assemble(name, arch, tmp_path):
    if _ptxas() is None:
        pytest.skip("ptxas not found")
    example = load_example(name)
    sys.path.insert(0, str(EXAMPLES))
    try:
        assert example.main([str(tmp_path)]) == 0
    finally:
        sys.path.remove(str(EXAMPLES))
    assert (tmp_path / f"{name}.{arch}.cubin").stat().st_size > 0


# --------------------------------------------------------------------------
# Importer: a real TS TaskManager as tspipe IR (TS runs in its own venv).
# --------------------------------------------------------------------------

TS_PYTHON = os.environ.get("TS_PYTHON")


def _tspipe_path(tmp_path):
    """A folder holding links to the installed tspipe package and the LLVM
    library it loads, for TS's interpreter (never installing tspipe there)."""
    import tspipe

    package = Path(tspipe.__file__).resolve().parent
    site = package.parent
    for name in ("tspipe", "llvm"):
        if (site / name).exists():
            (tmp_path / name).symlink_to(site / name)
    return str(tmp_path)


@pytest.mark.skipif(not TS_PYTHON, reason="TS_PYTHON is not set")
def test_from_ts_round_trips_real_task_managers(tmp_path):
    code = textwrap.dedent("""
        from dataclasses import dataclass
        import cutlass.pipeline as pl
        from cutlass.experimental.task_scheduling import schedule, domain_loop
        from cutlass.experimental.task_scheduling.resources import (
            PipelineConfig, MemoryResource)
        from cutlass.experimental.task_scheduling.task import Task
        from cutlass.experimental.task_scheduling.task_manager import TaskManager
        from tspipe.ts import from_ts

        @dataclass
        class Ring(MemoryResource):
            pass

        def kernel(cfg, consumer_threads, guards):
            ring = Ring(name="ring", pipeline_config=cfg)

            @schedule
            def produce(r):
                with domain_loop(0, 4, 1):
                    r.try_acquire(); r.acquire(); r.producer_work(); r.commit()

            @schedule
            def consume(r):
                with domain_loop(0, 4, 1) as d:
                    if guards:
                        r.wait()
                        with d.first_iter():
                            r.consumer_work()
                        r.release()
                    else:
                        r.try_wait(); r.wait(); r.consumer_work(); r.release()

            return TaskManager(
                [Task([], [ring], 0, 1, schedule=produce(ring), name="p"),
                 Task([ring], [], 1, consumer_threads // 32 or 1,
                      schedule=consume(ring), name="c")],
                {ring: []}, verbose=False, skip_validation=True)

        g1, g32 = pl.CooperativeGroup(pl.Agent.Thread, 1), \\
            pl.CooperativeGroup(pl.Agent.Thread, 32)
        cases = {
            "async_async": (PipelineConfig.create_async_async_pipeline_cfg(
                2, g32, g32, (1, 1, 1, 1)), 32, False),
            "tma_async": (PipelineConfig.create_tma_async_pipeline_cfg(
                4, 4096, g1, g1), 32, False),
            "tma_umma": (PipelineConfig.create_tma_umma_pipeline_cfg(
                2, 1024, g1, g1, (1, 1, 1, 1)), 32, False),
            "umma_async": (PipelineConfig.create_umma_async_pipeline_cfg(
                2, g1, g32, (1, 1, 1, 1)), 32, False),
            "guards": (PipelineConfig.create_async_async_pipeline_cfg(
                2, g32, g32, (1, 1, 1, 1)), 32, True),
        }
        for name, (cfg, threads, guards) in cases.items():
            k = from_ts(kernel(cfg, threads, guards), arch="sm_100a")
            text = str(k.module)
            assert "tspipe.task @c" in text and "ts work: ring" in text, text
            if guards:
                assert "tspipe.first_iter" in text, text
            print(name, "ok")

        # The other types, a cluster, register counts and a split cursor.
        from cutlass.experimental.task_scheduling.enums import SignalingThreads
        def g(n):
            return pl.CooperativeGroup(pl.Agent.Thread, n)

        def pair(cfg, consumer_warps=1, registers=None):
            ring = Ring(name="ring", pipeline_config=cfg)

            @schedule
            def produce(r):
                with domain_loop(0, 8, 1):
                    r.acquire(); r.producer_work(); r.commit()

            @schedule
            def consume(r):
                with domain_loop(0, 8, 1):
                    r.wait(); r.consumer_work(); r.release()

            return TaskManager(
                [Task([], [ring], 0, 1, schedule=produce(ring), name="p",
                      num_registers=registers),
                 Task([ring], [], 1, consumer_warps, schedule=consume(ring),
                      name="c", num_registers=registers)],
                {ring: []}, verbose=False, skip_validation=True)

        more = {
            "clc_fetch_async": (pair(PipelineConfig.create_clc_fetch_async_pipeline_cfg(
                1, 16, g(1), g(32), (1, 1, 1, 1))), (1, 1, 1)),
            "umma_umma": (pair(PipelineConfig.create_umma_umma_pipeline_cfg(
                1, g(1), g(1), (1, 1, 1, 1))), (1, 1, 1)),
            "async_umma": (pair(PipelineConfig.create_async_umma_pipeline_cfg(
                2, g(32), g(1), (1, 1, 1, 1))), (1, 1, 1)),
            "cluster": (pair(PipelineConfig.create_tma_async_pipeline_cfg(
                4, 4096, g(1), g(2), (1, 2, 1, 1),
                consumer_signaling_threads=SignalingThreads.CtaLeader,
                num_bytes_per_warp_per_cta=2048)),
                (2, 1, 1)),
            "registers": (pair(PipelineConfig.create_async_async_pipeline_cfg(
                2, g(32), g(96), None), consumer_warps=3, registers=40),
                (1, 1, 1)),
            "split_wait": (pair(PipelineConfig.create_tma_umma_pipeline_cfg(
                4, 1024, g(1), g(1), (1, 1, 1, 1), advance_on_wait=True)),
                (1, 1, 1)),
        }
        for name, (manager, cluster) in more.items():
            k = from_ts(manager, arch="sm_100a")
            assert k.cluster == cluster, (name, k.cluster)
            print(name, "ok")

        # A Merge group: one group release is a release of every member.
        from cutlass.experimental.task_scheduling.resources import PipelineGroup
        from cutlass.experimental.task_scheduling.enums import PipelineGroupMode
        cfg = PipelineConfig.create_async_async_pipeline_cfg(
            2, g(32), g(32), (1, 1, 1, 1))
        a, b = Ring(name="a", pipeline_config=cfg), Ring(name="b", pipeline_config=cfg)
        group = PipelineGroup(name="ab", members=[a, b],
                              mode=PipelineGroupMode.Merge)

        @schedule
        def fill(r):
            with domain_loop(0, 4, 1):
                r.acquire(); r.producer_work(); r.commit()

        @schedule
        def drain(x, y, grp):
            with domain_loop(0, 4, 1):
                x.wait(); y.wait(); x.consumer_work(); y.consumer_work()
                grp.release()

        manager = TaskManager(
            [Task([], [a], 0, 1, schedule=fill(group.a), name="pa"),
             Task([], [b], 1, 1, schedule=fill(group.b), name="pb"),
             Task([a, b], [], 2, 1, schedule=drain(group.a, group.b, group),
                  name="c")],
            {a: [], b: []}, verbose=False, skip_validation=True)
        text = str(from_ts(manager, arch="sm_90a").module)
        assert "tspipe.pipeline_group @ab merge [@a, @b]" in text, text
        assert "tspipe.consumer_wait @a group(@ab)" in text, text
        assert "tspipe.producer_acquire @b group(@ab)" in text, text
        assert text.count("tspipe.consumer_release") == 1, text
        assert "tspipe.consumer_release @ab" in text, text
        print("merge_group ok")

        # A Fork group of TMA producers: member acquires, one group commit;
        # it lowers, and the shared full barrier is armed with the members'
        # common num_bytes once (1024, as TS 4.8.1 does), never their sum.
        tcfg = PipelineConfig.create_tma_async_pipeline_cfg(2, 1024, g(1), g(1))
        fx = Ring(name="fx", pipeline_config=tcfg)
        fy = Ring(name="fy", pipeline_config=tcfg)
        fork = PipelineGroup(name="fxy", members=[fx, fy],
                             mode=PipelineGroupMode.Fork)

        @schedule
        def load(x, y, grp):
            with domain_loop(0, 4, 1):
                x.acquire(); y.acquire(); x.producer_work(); y.producer_work()
                grp.commit()

        @schedule
        def use(r):
            with domain_loop(0, 4, 1):
                r.wait(); r.consumer_work(); r.release()

        manager = TaskManager(
            [Task([], [fx, fy], 0, 1, schedule=load(fork.fx, fork.fy, fork),
                  name="p"),
             Task([fx], [], 1, 1, schedule=use(fork.fx), name="cx"),
             Task([fy], [], 2, 1, schedule=use(fork.fy), name="cy")],
            {fx: [], fy: []}, verbose=False, skip_validation=True)
        k = from_ts(manager, arch="sm_90a")
        text = str(k.module)
        assert "tspipe.pipeline_group @fxy fork [@fx, @fy]" in text, text
        assert "tspipe.producer_acquire @fy group(@fxy)" in text, text
        assert "tspipe.consumer_release @fx group(@fxy)" in text, text
        assert "tspipe.producer_commit @fxy" in text, text
        ptx = k.to_ptx("sm_90a")
        assert "mbarrier.arrive.expect_tx.shared::cta.b64" in ptx or \
            "mbarrier.arrive.expect_tx.shared.b64" in ptx, ptx
        assert "2048" not in ptx, ptx
        assert "1024" in ptx, ptx
        print("fork_group ok")

        # A FusedMerge group (TS 4.8.1): producers commit their members, the
        # consumer waits and releases once on the group and reads each
        # member's stage through its cursor.
        ma = Ring(name="ma", pipeline_config=cfg)
        mb = Ring(name="mb", pipeline_config=cfg)
        fused = PipelineGroup(name="mab", members=[ma, mb],
                              mode=PipelineGroupMode.FusedMerge)

        @schedule
        def take(x, y, grp):
            with domain_loop(0, 4, 1):
                grp.wait(); x.consumer_work(); y.consumer_work(); grp.release()

        manager = TaskManager(
            [Task([], [ma], 0, 1, schedule=fill(fused.ma), name="pa"),
             Task([], [mb], 1, 1, schedule=fill(fused.mb), name="pb"),
             Task([ma, mb], [], 2, 1,
                  schedule=take(fused.ma, fused.mb, fused), name="c")],
            {ma: [], mb: []}, verbose=False, skip_validation=True)
        k = from_ts(manager, arch="sm_90a")
        text = str(k.module)
        assert "tspipe.pipeline_group @mab fused_merge [@ma, @mb]" in text, text
        assert "tspipe.consumer_wait @mab" in text, text
        assert "tspipe.current_stage @ma consumer group(@mab)" in text, text
        assert "tspipe.producer_commit @mb group(@mab)" in text, text
        assert ".entry kernel(" in k.to_ptx("sm_90a")
        print("fused_merge_group ok")
    """)
    env = dict(os.environ, PYTHONPATH=_tspipe_path(tmp_path))
    out = subprocess.run([TS_PYTHON, "-c", code], capture_output=True,
                         text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr[-4000:]
    assert out.stdout.count(" ok") == 14, out.stdout


def test_domain_loop_takes_range_bounds():
    g = pl.CooperativeGroup(pl.Agent.Thread, 32)
    cfg = PipelineConfig.create_async_async_pipeline_cfg(2, g, g, None)
    ring = Ring(name="ring", pipeline_config=cfg)

    @schedule
    def produce(r):
        with domain_loop(6, unroll=2):          # 0 .. 6, as range(6)
            r.acquire(); r.commit()  # noqa: E702

    @schedule
    def consume(r):
        with domain_loop(0, 6):
            r.wait(); r.release()  # noqa: E702

    tm = TaskManager([Task([], [ring], 0, 1, schedule=produce(ring), name="p"),
                      Task([ring], [], 1, 1, schedule=consume(ring), name="c")],
                     {ring: []})
    assert len(tm.kernel.tasks) == 2
