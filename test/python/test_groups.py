"""Pipeline groups in the TS front end: ``PipelineGroup`` with TS's names
(Merge and Fork), built into ``tspipe.pipeline_group`` and group-qualified
brackets, and a broken group rule reported at the user's line."""

import inspect
import os
from dataclasses import dataclass

import pytest

import tspipe.ts as pl
from tspipe.ts import Kernel, ScheduleError
from tspipe.ts.enums import PipelineGroupMode
from tspipe.ts.resources import MemoryResource, PipelineConfig, PipelineGroup
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

THIS_FILE = os.path.basename(__file__)


@dataclass
class Ring(MemoryResource):
    pass


def _cfg():
    g = pl.CooperativeGroup(pl.Agent.Thread, 32)
    return PipelineConfig.create_async_async_pipeline_cfg(2, g, g, None)


def merge_task_manager(bare_member=False):
    a = Ring(name="a", pipeline_config=_cfg())
    b = Ring(name="b", pipeline_config=_cfg())
    ab = PipelineGroup(name="ab", members=[a, b],
                       mode=PipelineGroupMode.Merge)

    @schedule
    def produce(r):
        with domain_loop(0, 4, 1):
            r.acquire(); r.commit()  # noqa: E702

    @schedule
    def consume(ra, rb, group):
        with domain_loop(0, 4, 1):
            ra.wait()
            rb.wait()
            group.release()

    first = a if bare_member else ab.a
    tasks = [Task([], [a], 0, 1, schedule=produce(ab.a), name="load_a"),
             Task([], [b], 1, 1, schedule=produce(ab.b), name="load_b"),
             Task([ab], [], 2, 1, schedule=consume(first, ab.b, ab),
                  name="use")]
    return TaskManager(tasks, {}, verbose=False)


def test_merge_group_builds_group_ir():
    text = str(merge_task_manager().module)
    assert "tspipe.pipeline_group @ab merge [@a, @b]" in text
    assert "tspipe.producer_acquire @a group(@ab)" in text
    assert "tspipe.consumer_wait @b group(@ab)" in text
    assert "tspipe.consumer_release @ab" in text


def test_merge_group_lowers_to_ptx():
    ptx = merge_task_manager().to_ptx("sm_90a")
    assert ".entry kernel(" in ptx
    # [F_a x 2][F_b x 2][E_shared x 2]: the shared empty barriers are
    # initialized once, so 6 inits, not 8.
    assert ptx.count("mbarrier.init.shared") == 6


def test_bare_member_reports_R24_at_the_users_line():
    with pytest.raises(ScheduleError) as info:
        merge_task_manager(bare_member=True)
    assert info.value.rule == "R24", str(info.value)
    assert THIS_FILE in info.value.location, str(info.value)
    # The line of ``ra.wait()`` in merge_task_manager's consume schedule.
    lines, first = inspect.getsourcelines(merge_task_manager)
    wait_line = first + next(i for i, line in enumerate(lines)
                             if "ra.wait()" in line)
    assert f":{wait_line}" in info.value.location, str(info.value)


def test_fork_group_and_kernel_builder():
    k = Kernel(num_warps=3, name="fork")
    x = k.pipeline("x", _cfg())
    y = k.pipeline("y", _cfg())
    k.pipeline_group("xy", "fork", [x, y])
    load = k.task("load", warp_idx=0, num_warps=1, produces=[x, y])
    with load.domain_loop(0, 8, 1):
        load.acquire(x, group="xy")
        load.acquire(y, group="xy")
        load.commit("xy")
    for i, pipe in enumerate((x, y)):
        use = k.task(f"use_{pipe.name}", warp_idx=1 + i, num_warps=1,
                     consumes=[pipe])
        with use.domain_loop(0, 8, 1):
            use.wait(pipe, group="xy")
            use.release(pipe, group="xy")
    text = str(k.build())
    assert "tspipe.pipeline_group @xy fork [@x, @y]" in text
    assert "tspipe.producer_commit @xy" in text
    assert ".entry fork(" in k.to_ptx("sm_90a")


def fused_task_manager(member_wait=False):
    a = Ring(name="a", pipeline_config=_cfg())
    b = Ring(name="b", pipeline_config=_cfg())
    ab = PipelineGroup(name="ab", members=[a, b],
                       mode=PipelineGroupMode.FusedMerge)

    @schedule
    def produce(r):
        with domain_loop(0, 4, 1):
            r.acquire(); r.commit()  # noqa: E702

    @schedule
    def consume(ra, rb, group):
        with domain_loop(0, 4, 1):
            if member_wait:
                ra.wait()
            else:
                group.wait()
            ra.consumer_work()
            rb.consumer_work()
            group.release()

    tasks = [Task([], [a], 0, 1, schedule=produce(ab.a), name="load_a"),
             Task([], [b], 1, 1, schedule=produce(ab.b), name="load_b"),
             Task([ab], [], 2, 1, schedule=consume(ab.a, ab.b, ab),
                  name="use")]
    return TaskManager(tasks, {}, verbose=False)


def test_fused_merge_builds_group_ir():
    text = str(fused_task_manager().module)
    assert "tspipe.pipeline_group @ab fused_merge [@a, @b]" in text
    assert "tspipe.producer_commit @a group(@ab)" in text
    # The consumer waits and releases once, on the group, and reads each
    # member's stage through its cursor.
    assert "tspipe.consumer_wait @ab" in text
    assert "tspipe.current_stage @b consumer group(@ab)" in text
    assert "tspipe.consumer_release @ab" in text


def test_fused_merge_lowers_to_ptx():
    ptx = fused_task_manager().to_ptx("sm_90a")
    # [F_shared x 2][E_shared x 2]: 4 inits; the shared full barrier counts
    # both members' 32 producer threads.
    assert ptx.count("mbarrier.init.shared") == 4
    assert ", 64;" in ptx


def test_fused_member_wait_reports_R24():
    with pytest.raises(ScheduleError) as info:
        fused_task_manager(member_wait=True)
    assert info.value.rule == "R24", str(info.value)
    assert THIS_FILE in info.value.location, str(info.value)


def test_kernel_builder_takes_fused_merge():
    k = Kernel(num_warps=3, name="fused")
    x = k.pipeline("x", _cfg())
    y = k.pipeline("y", _cfg())
    op = k.pipeline_group("xy", PipelineGroupMode.FusedMerge, [x, y])
    assert "fused_merge" in str(op)


def test_unknown_group_mode_of_resources_is_a_value_error():
    with pytest.raises(ValueError):
        PipelineGroup(name="g", members=[], mode="Scatter")


def test_unknown_group_mode_is_a_value_error():
    k = Kernel(num_warps=1, name="k")
    x = k.pipeline("x", _cfg())
    with pytest.raises(ValueError):
        k.pipeline_group("g", "fused", [x])
