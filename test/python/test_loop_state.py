"""Loop-carried task state: ``domain_loop(iter_args=...)`` in the kernel
builder and ``TaskLocalVariable`` in the TS-style front end (rule X26)."""

import pytest

import tspipe.ir as ir
from tspipe.dialects import arith, llvm
from tspipe.ts import Agent, CooperativeGroup, Kernel, PipelineConfig, ScheduleError
from tspipe.ts.resources import (
    MemoryResource,
    StageInfo,
    TaskLocalVariable,
    consumer_work,
    producer_work,
)
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

G = CooperativeGroup
T = Agent.Thread


def ring_cfg():
    return PipelineConfig.create_async_async_pipeline_cfg(
        num_stages=2, producer_group=G(T, 32), consumer_group=G(T, 32),
        cta_layout_vmnk=None)


def ops_of(module, name):
    found = []

    def visit(op):
        if op.name == name:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def counting_kernel(yield_next=True):
    k = Kernel(num_warps=2, name="count", args=["out"])
    ring = k.pipeline("ring", ring_cfg())
    prod = k.task("prod", warp_idx=0, num_warps=1, produces=[ring])
    with prod.domain_loop(0, 8, 1):
        prod.acquire(ring)
        prod.commit(ring)
    cons = k.task("cons", warp_idx=1, num_warps=1, consumes=[ring])
    with cons.ops():
        zero = arith.constant(ir.IntegerType.get_signless(32), 0)
    loop = cons.domain_loop(0, 8, 1, iter_args=[zero])
    with loop as (iv, (count,)):
        cons.wait(ring)
        with cons.ops():
            one = arith.constant(ir.IntegerType.get_signless(32), 1)
            nxt = arith.addi(count, one)
        cons.release(ring)
        if yield_next:
            cons.loop_yield(nxt)
    (total,) = loop.results
    with cons.ops():
        llvm.store(total, k.arg("out"))
    return k


def test_builder_carries_values_and_lowers():
    k = counting_kernel()
    module = k.build()
    (loop,) = [op for op in ops_of(module, "tspipe.domain_loop")
               if len(op.results) == 1]
    assert str(loop.results[0].type) == "i32"
    assert len(ops_of(module, "tspipe.yield")) == 1
    ptx = k.to_ptx()
    assert "st.global" in ptx


def test_builder_missing_yield_is_x26():
    k = counting_kernel(yield_next=False)
    with pytest.raises(ScheduleError) as e:
        k.build()
    assert e.value.rule == "X26"


def test_loop_yield_outside_the_loop_is_x26():
    k = Kernel(num_warps=1, name="k")
    t = k.task("t", warp_idx=0, num_warps=1)
    with pytest.raises(ScheduleError) as e:
        t.loop_yield()
    assert e.value.rule == "X26"


class Ring(MemoryResource):
    @producer_work
    def fill(self, stage_info: StageInfo):
        pass

    @consumer_work(returns="next")
    def count(self, stage_info: StageInfo, *, acc):
        one = arith.constant(ir.IntegerType.get_signless(32), 1)
        return arith.addi(acc, one)


class Sink(MemoryResource):
    @producer_work
    def store(self, stage_info, *, value):
        llvm.store(value, self.kernel.arg("out"))


def ts_kernel(assign_in_guard=False, init=0):
    ring = Ring(name="ring", pipeline_config=ring_cfg())
    sink = Sink(name="sink")
    acc = TaskLocalVariable(init, name="acc")

    @schedule
    def prod(r):
        with domain_loop(0, 4, 1):
            r.acquire()
            r.fill()
            r.commit()

    @schedule
    def cons(r, out):
        with domain_loop(0, 4, 1) as d:
            r.wait()
            if assign_in_guard:
                with d.first_iter():
                    acc.set(r.count(acc=acc))
            else:
                acc.set(r.count(acc=acc))
            r.release()
        out.store(value=acc)

    tasks = [Task(src_resources=[], dst_resources=[ring], warp_idx=0,
                  num_warps=1, schedule=prod(ring), name="P"),
             Task(src_resources=[ring], dst_resources=[sink], warp_idx=1,
                  num_warps=1, schedule=cons(ring, sink), name="C")]
    return TaskManager(tasks=tasks, resource_dependency_graph={sink: [ring]},
                       name="ts_count", args=["out"], arch="sm_90a")


def test_task_local_variable_is_carried():
    tm = ts_kernel()
    module = tm.module
    carried = [op for op in ops_of(module, "tspipe.domain_loop")
               if len(op.results) == 1]
    assert len(carried) == 1
    (store,) = ops_of(module, "llvm.store")
    # The tail stores the loop's result, not the initial value.
    assert store.operands[0] == carried[0].results[0]
    assert "st." in tm.to_ptx()


def test_task_local_variable_float_init():
    tm = ts_kernel(init=0)
    assert tm.module is not None
    with pytest.raises(TypeError):
        TaskLocalVariable("zero")


def test_task_local_variable_set_in_guard_is_x26():
    with pytest.raises(ScheduleError) as e:
        ts_kernel(assign_in_guard=True)
    assert e.value.rule == "X26"


def test_uninitialized_read_is_x26():
    acc = TaskLocalVariable.uninitialized("acc")
    ring = Ring(name="ring", pipeline_config=ring_cfg())
    sink = Sink(name="sink")

    @schedule
    def prod(r):
        with domain_loop(0, 4, 1):
            r.acquire()
            r.commit()

    @schedule
    def cons(r, out):
        with domain_loop(0, 4, 1):
            r.wait()
            r.release()
        out.store(value=acc)

    tasks = [Task(src_resources=[], dst_resources=[ring], warp_idx=0,
                  num_warps=1, schedule=prod(ring), name="P"),
             Task(src_resources=[ring], dst_resources=[sink], warp_idx=1,
                  num_warps=1, schedule=cons(ring, sink), name="C")]
    with pytest.raises(ScheduleError) as e:
        TaskManager(tasks=tasks, resource_dependency_graph={sink: [ring]},
                    name="ts_u", args=["out"], arch="sm_90a")
    assert e.value.rule == "X26"
