"""Bad inputs a new user tried: none may abort the interpreter, and each
raises a tspipe error (a ValueError subclass with the rule id where a rule
applies, or a TypeError for a Python type mistake) with a clear message,
at the call where Python can tell."""

import os
import subprocess
import sys
import textwrap

import pytest

from tspipe.compile import lower_to_ptx
from tspipe.ts import (
    Agent,
    ArchError,
    CooperativeGroup,
    Kernel,
    PipelineConfig,
    ScheduleError,
    TSPipeError,
    from_ts,
)

G = CooperativeGroup
T = Agent.Thread
THIS_FILE = os.path.basename(__file__)


def ring_cfg():
    return PipelineConfig.create_async_async_pipeline_cfg(
        2, G(T, 32), G(T, 32), None)


def ring_kernel(name="k", start=0, end=8, step=1):
    k = Kernel(num_warps=2, name=name)
    ring = k.pipeline("ring", ring_cfg(), smem_bytes=64)
    p = k.task("p", 0, 1, produces=[ring])
    c = k.task("c", 1, 1, consumes=[ring])
    with p.domain_loop(start, end, step):
        p.acquire(ring)
        p.commit(ring)
    with c.domain_loop(start, end, step):
        c.wait(ring)
        c.release(ring)
    return k


def run_isolated(code: str) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter: an LLVM abort must not take
    the test run with it."""
    prelude = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from test_robust_inputs import ring_kernel
    """)
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=300)


# -- crashes ----------------------------------------------------------------


@pytest.mark.parametrize("features", ["ptx80", "garbage", "+ptx80,sm_90a",
                                      " +ptx80"])
def test_features_without_plus_raise_x7_instead_of_aborting(features):
    proc = run_isolated(f"""
        from tspipe.ts import ArchError
        try:
            ring_kernel().to_ptx("sm_90a", features={features!r})
        except ArchError as err:
            assert err.rule == "X7", str(err)
            assert "+ptx" in str(err), str(err)
            print("ARCH-ERROR")
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "ARCH-ERROR" in proc.stdout


def test_features_of_module_text_are_checked_by_the_verifier():
    # lower_to_ptx with a module's own target: the kernel verifier (X7).
    proc = run_isolated("""
        from tspipe.compile import lower_to_ptx
        from tspipe.ts import TSPipeError
        text = ring_kernel().to_mlir("sm_90a").replace('"+ptx80"', '"ptx80"')
        try:
            lower_to_ptx(text)
        except TSPipeError as err:
            assert err.rule == "X7", str(err)
            print("X7")
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "X7" in proc.stdout


def test_percent_entry_name_is_x10_not_an_llvm_fatal_error():
    proc = run_isolated("""
        from tspipe.compile import lower_to_ptx
        from tspipe.ts import ScheduleError
        text = ring_kernel().to_mlir("sm_90a").replace("@k(", '@"%x"(')
        try:
            lower_to_ptx(text, arch="sm_90a")
        except ScheduleError as err:
            assert err.rule == "X10", str(err)
            print("X10")
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "X10" in proc.stdout


def test_reserved_ptx_name_is_x10():
    with pytest.raises(ScheduleError) as info:
        ring_kernel(name="WARP_SZ").build()
    assert info.value.rule == "X10", str(info.value)


def test_long_kernel_name_builds():
    # The progress checker's files are named by a bounded stem, not by the
    # kernel name (whose length is unbounded).
    name = "k" * 300
    k = ring_kernel(name=name)
    k.build()
    assert f".entry {name}(" in k.to_ptx("sm_90a")


# -- error contract ---------------------------------------------------------


def test_unknown_ptx_version_is_arch_error():
    with pytest.raises(ArchError) as info:
        lower_to_ptx(ring_kernel().to_mlir("sm_90a"), arch="sm_90a",
                     features="+ptx99")
    assert info.value.rule == "X7", str(info.value)


def test_negative_step_is_rejected_by_build():
    k = ring_kernel(start=8, end=0, step=-1)
    with pytest.raises(ScheduleError) as info:
        k.build()
    assert info.value.rule == "X11", str(info.value)
    assert "negative" in info.value.message


def test_tcgen05_on_sm_103a_is_rejected_by_build():
    cfg = PipelineConfig.create_umma_async_pipeline_cfg(
        num_stages=2, producer_group=G(T, 1), consumer_group=G(T, 32),
        cta_layout_vmnk=(1, 1, 1, 1))
    k = Kernel(num_warps=2, arch="sm_103a")
    acc = k.pipeline("acc", cfg)
    p = k.task("p", 0, 1, produces=[acc])
    c = k.task("c", 1, 1, consumes=[acc])
    with p.domain_loop(0, 4):
        p.acquire(acc)
        p.commit(acc)
    with c.domain_loop(0, 4):
        c.wait(acc)
        c.release(acc)
    with pytest.raises(ArchError) as info:
        k.build()
    assert info.value.rule == "X7", str(info.value)
    assert "sm_100a" in info.value.message


def _kernel(**kwargs):
    return lambda: Kernel(**{"num_warps": 2, **kwargs})


def _built_kernel(**kwargs):
    def make():
        k = Kernel(**{"num_warps": 2, **kwargs})
        t = k.task("t", 0, 1)
        with t.domain_loop(0, 1):
            pass
        return k
    return make


def _task(**kwargs):
    def make():
        k = Kernel(num_warps=2, cluster=(2, 1, 1))
        t = k.task("t", **{"warp_idx": 0, "num_warps": 1, **kwargs})
        with t.domain_loop(0, 1):
            pass
        return k
    return make


def _duplicate(kind):
    def make():
        k = Kernel(num_warps=2)
        if kind == "task":
            k.task("t", 0, 1)
            k.task("t", 1, 1)
        else:
            k.pipeline("r", ring_cfg())
            k.pipeline("r", ring_cfg())
    return make


def _group(mode, members):
    def make():
        k = Kernel(num_warps=2)
        k.pipeline("a", ring_cfg())
        k.pipeline_group("ab", mode, members)
        t = k.task("t", 0, 1)
        with t.domain_loop(0, 1):
            pass
        return k
    return make


# Python values the IR cannot take as they are (the argument list, which the
# IR does not name; symbols the symbol table would report without a rule; a
# group mode that is no GroupMode): raised at the call.
@pytest.mark.parametrize("make, rule", [
    (_kernel(args=[("n",)]), "X9"),
    (_kernel(args=[("n", "i32", 3)]), "X9"),
    (_kernel(args=[("n", "i128")]), "X9"),
    (_duplicate("task"), "X9"),
    (_duplicate("pipeline"), "X9"),
    (_group("zip", ["a"]), "R67"),
])
def test_mistakes_raise_at_the_call_with_their_rule(make, rule):
    with pytest.raises(ScheduleError) as info:
        make()
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).startswith(f"[{rule}]"), str(info.value)
    assert THIS_FILE in info.value.location, info.value.location


# Rules the C++ verifiers check: reported by build() with the C++ text, at
# the Python line of the op.
@pytest.mark.parametrize("make, rule", [
    (_built_kernel(num_warps=0), "R18"),
    (_built_kernel(num_warps=33), "R18"),
    (_built_kernel(num_warps=-1), "R18"),
    (_built_kernel(cluster=(17, 1, 1)), "X9"),
    (_built_kernel(cluster=(2, 1)), "X9"),
    (_built_kernel(cluster=(0, 1, 1)), "X9"),
    (_built_kernel(cluster=(16, 16, 1)), "X9"),
    (_task(warp_idx=-1), "R18"),
    (_task(num_warps=0), "R18"),
    (_task(warp_idx=1, num_warps=2), "X9"),
    (_task(num_registers=1000), "R18"),
    (_task(num_registers=100), "R18"),
    (_task(run_only_on_cta_id=-1), "R18"),
    (_task(run_only_on_cta_id=2), "R18"),
    (_group("merge", []), "R67"),
])
def test_verifier_mistakes_raise_at_build_with_their_rule(make, rule):
    k = make()
    with pytest.raises(ScheduleError) as info:
        k.build()
    assert info.value.rule == rule, str(info.value)
    assert f"[{rule}]" in info.value.message, str(info.value)
    assert THIS_FILE in info.value.location, info.value.location


def test_f64_arguments_are_accepted():
    k = Kernel(num_warps=1, args=[("x", "f64")])
    assert str(k.arg("x").type) == "f64"


def test_unknown_argument_is_x9():
    k = Kernel(num_warps=1, args=["out"])
    with pytest.raises(ScheduleError) as info:
        k.arg("nope")
    assert info.value.rule == "X9" and "'out'" in str(info.value)


@pytest.mark.parametrize("make", [
    _kernel(args=[5]),
    _task(produces=3),
])
def test_type_mistakes_are_type_errors_with_a_clear_message(make):
    with pytest.raises(TypeError) as info:
        make()
    assert "not iterable" not in str(info.value), str(info.value)


class _NoTasks:
    tasks = []


class _NotTasks:
    tasks = [object()]


@pytest.mark.parametrize("task_manager", [None, 5, _NoTasks(), _NotTasks()])
def test_from_ts_rejects_what_is_no_task_manager(task_manager):
    with pytest.raises(ScheduleError) as info:
        from_ts(task_manager)
    assert info.value.rule == "R26", str(info.value)


def test_from_ts_points_tspipes_own_task_manager_at_its_kernel():
    from tspipe.ts.task_manager import TaskManager

    class Own(TaskManager):
        def __init__(self):
            self.kernel = None
    with pytest.raises(ScheduleError) as info:
        from_ts(Own())
    assert "task_manager.kernel" in str(info.value)


@pytest.mark.parametrize("options", [dict(debug_hang_timeout=-1),
                                     dict(opt_level=9)])
def test_bad_options_are_tspipe_errors(options):
    with pytest.raises(TSPipeError):
        lower_to_ptx(ring_kernel().to_mlir("sm_90a"), **options)


# -- pipeline groups in a @schedule ----------------------------------------


def test_group_member_brackets_in_a_schedule():
    # TS's `ab.a.acquire()`: the member named through its group.
    from dataclasses import dataclass

    from tspipe.ts.enums import PipelineGroupMode
    from tspipe.ts.resources import MemoryResource, PipelineGroup
    from tspipe.ts.schedule_builder import domain_loop, schedule
    from tspipe.ts.task import Task
    from tspipe.ts.task_manager import TaskManager

    @dataclass
    class Ring(MemoryResource):
        pass

    a = Ring(name="a", pipeline_config=ring_cfg(), smem_bytes=64)
    b = Ring(name="b", pipeline_config=ring_cfg(), smem_bytes=64)
    ab = PipelineGroup(name="ab", members=[a, b], mode=PipelineGroupMode.Merge)

    @schedule
    def produce_a(ab):
        with domain_loop(0, 8, 1):
            ab.a.acquire()
            ab.a.commit()

    @schedule
    def produce_b(ab):
        with domain_loop(0, 8, 1):
            ab.b.acquire()
            ab.b.commit()

    @schedule
    def consume(ab):
        with domain_loop(0, 8, 1):
            ab.a.wait()
            ab.b.wait()
            ab.release()

    tm = TaskManager(
        tasks=[Task(name="PA", src_resources=[], dst_resources=[a], warp_idx=0,
                    num_warps=1, schedule=produce_a(ab)),
               Task(name="PB", src_resources=[], dst_resources=[b], warp_idx=1,
                    num_warps=1, schedule=produce_b(ab)),
               Task(name="C", src_resources=[a, b], dst_resources=[],
                    warp_idx=2, num_warps=1, schedule=consume(ab))],
        resource_dependency_graph={a: [], b: []}, name="merge_ab",
        arch="sm_90a")
    tm.setup_resources_and_tasks()
    tm.run()
    assert ".entry merge_ab(" in tm.to_ptx("sm_90a")
