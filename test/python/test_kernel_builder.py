"""The TS-style kernel builder: Kernel, pipelines, tasks and schedules.

The builder builds tspipe IR through the generated op classes; the C++
verifiers decide. Rule failures come back as ScheduleError /
PipelineConfigError (ValueError) carrying the rule id and the Python line of
the offending schedule step. No kernel here is written as MLIR text: work
steps build their ops with the dialect builders.
"""

import os

import numpy as np
import pytest

import tspipe.diagnostics
import tspipe.ir as ir
import tspipe.ts.errors
from tspipe.dialects import arith, llvm
from tspipe.ts import (
    Agent,
    CooperativeGroup,
    Kernel,
    PipelineConfig,
    PipelineConfigError,
    ScheduleError,
    SignalingThreads,
)

G = CooperativeGroup
T = Agent.Thread
THIS_FILE = os.path.basename(__file__)


def tma_cfg(**overrides):
    kwargs = dict(num_stages=4, num_bytes=4096, producer_group=G(T, 1),
                  consumer_group=G(T, 4))
    kwargs.update(overrides)
    return PipelineConfig.create_tma_async_pipeline_cfg(**kwargs)


def producer_consumer(cluster=(1, 1, 1), cfg=None):
    """A load task (warp 0) feeding a 4-warp consumer through one ring."""
    k = Kernel(num_warps=5, cluster=cluster, name="stream", args=["out"])
    ring = k.pipeline("ring", cfg or tma_cfg(), smem_bytes=4 * 4096)
    load = k.task("load", warp_idx=0, num_warps=1, produces=[ring])
    with load.domain_loop(0, 16, 1):
        stage = load.acquire(ring)
        stage.full_barrier()
        stage.buffer()
        load.commit(ring)
    math = k.task("math", warp_idx=1, num_warps=4, consumes=[ring])
    with math.domain_loop(0, 16, 1):
        math.wait(ring)
        math.release(ring)
    return k, ring, load, math


def ops_of(module, name):
    found = []

    def visit(op):
        if op.name == name:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def test_builds_and_verifies():
    k, _, _, _ = producer_consumer()
    module = k.build()
    assert isinstance(module, ir.Module)
    assert len(ops_of(module, "tspipe.kernel")) == 1
    (load, math) = ops_of(module, "tspipe.task")
    assert len(ops_of(module, "tspipe.producer_acquire")) == 1
    assert len(ops_of(module, "tspipe.stage_buffer")) == 1
    assert k.block_threads == 160
    (func,) = ops_of(module, "gpu.func")
    assert ir.StringAttr(func.attributes["sym_name"]).value == "stream"
    assert "gpu.kernel" in func.attributes
    assert [a.type for a in k._entry.arguments] == [llvm.PointerType.get(
        1, context=k.context)]
    (gpu_module,) = ops_of(module, "gpu.module")
    assert str(gpu_module.attributes["targets"]) == \
        '[#nvvm.target<chip = "sm_90a", features = "+ptx80">]'
    assert ir.IntegerAttr(load.attributes["warp_idx"]).value == 0
    assert ir.IntegerAttr(math.attributes["num_warps"]).value == 4
    # Every built op carries the location of the line that built it.
    every = []
    module.operation.walk(lambda op: every.append(op) or ir.WalkResult.ADVANCE)
    for op in every:
        if op.name != "builtin.module":
            assert THIS_FILE in str(op.location), (op.name, op.location)
    k.verify()


def test_build_in_given_context():
    context = ir.Context()
    k = Kernel(num_warps=1, context=context)
    t = k.task("t", 0, 1)
    with t.domain_loop(0, 1):
        pass
    assert k.build().context is context


def _ready_operands(module, name):
    return [len(op.operands) for op in ops_of(module, name)]


def test_try_tokens_pair_with_next_bracket():
    k = Kernel(num_warps=2)
    ring = k.pipeline("ring", PipelineConfig.create_async_async_pipeline_cfg(
        2, G(T, 32), G(T, 32), None))
    p = k.task("p", 0, 1, produces=[ring])
    with p.domain_loop(0, 4):
        p.try_acquire(ring)
        p.acquire(ring)          # uses the pending token
        p.commit(ring)
    c = k.task("c", 1, 1, consumes=[ring])
    with c.domain_loop(0, 4):
        with c.first_iter():
            c.try_wait(ring)     # made in the guard: not visible after it
        c.wait(ring)
        token = c.try_wait(ring)
        c.wait(ring, ready=token)
        c.release(ring)
    # This schedule waits twice for one stage before its release: the
    # second wait is for the same phase again, which the progress checker
    # accepts (build() runs it).
    module = k.build()
    assert _ready_operands(module, "tspipe.producer_acquire") == [1]
    assert sorted(_ready_operands(module, "tspipe.consumer_wait")) == [0, 1]


def test_guards_current_stage_and_tail():
    # Registers on whole warpgroups (R41): p and c cover warps 0-3.
    k = Kernel(num_warps=4)
    acc = k.pipeline("acc", PipelineConfig.create_async_async_pipeline_cfg(
        2, G(T, 32), G(T, 96), None, advance_on_acquire=False), smem_bytes=2048)
    p = k.task("p", 0, 1, produces=[acc], num_registers=232)
    with p.domain_loop(0, 8) as iv:
        assert isinstance(iv, ir.Value) and str(iv.type) == "index"
        with p.last_iter():
            p.acquire(acc).index()
            p.commit(acc)
    p.producer_tail(acc)
    c = k.task("c", 1, 3, consumes=[acc], num_registers=232)
    with c.domain_loop(0, 8):
        with c.first_iter():
            stage = c.wait(acc)
            stage.empty_barrier()
        c.current_stage(acc, "consumer").buffer()
        c.release(acc)
    # The guards' structure only: one commit against eight releases is
    # unbalanced (R70, reported by build()'s progress checker).
    module = k.build(check_progress=False)
    assert len(ops_of(module, "tspipe.last_iter")) == 1
    assert len(ops_of(module, "tspipe.first_iter")) == 1
    assert len(ops_of(module, "tspipe.producer_tail")) == 1
    assert "registers(232)" in str(module)


def test_cluster_and_cta_task():
    # One consumer warp releasing both CTAs' stages: 2 arrivals (R54).
    # Both CTAs' copies land on the leader's barrier: bytes per warp per CTA
    # x 2 CTAs x 1 producer warp = num_bytes (R56).
    cfg = tma_cfg(cta_layout_vmnk=(1, 2, 1, 1), consumer_group=G(T, 2),
                  consumer_signaling_threads=SignalingThreads.CtaLeader,
                  num_bytes_per_warp_per_cta=2048)
    k = Kernel(num_warps=2, cluster=(2, 1, 1))
    ring = k.pipeline("ring", cfg, smem_bytes=4 * 4096)
    p = k.task("p", 0, 1, produces=[ring])
    with p.domain_loop(0, 4):
        p.acquire(ring)
        p.commit(ring)
    c = k.task("c", 1, 1, consumes=[ring], run_only_on_cta_id=0)
    with c.domain_loop(0, 4):
        c.wait(ring)
        c.release(ring)
    text = str(k.build())
    assert "cluster([2, 1, 1])" in text
    assert "cta(0)" in text


def test_dynamic_bound_and_kernel_args():
    k = Kernel(num_warps=1, args=["n_ptr", ("scale", "f32")])
    n = k.prologue(lambda: arith.index_cast(
        ir.IndexType.get(),
        llvm.load(ir.IntegerType.get_signless(64), k.arg("n_ptr"))))
    assert str(k.arg("scale").type) == "f32"
    ring = k.pipeline("ring", PipelineConfig.create_async_async_pipeline_cfg(
        2, G(T, 32), G(T, 32), None))
    t = k.task("t", 0, 1, produces=[ring], consumes=[ring])
    with t.domain_loop(0, n, 1):
        t.acquire(ring)
        t.commit(ring)
        t.wait(ring)
        t.release(ring)
    k.build()
    with pytest.raises(ScheduleError) as info:
        k.arg("missing")
    assert info.value.rule == "X9", str(info.value)
    with pytest.raises(TypeError):
        k.prologue("%n = arith.constant 1 : index")   # MLIR text is no step
    with pytest.raises(ValueError):
        Kernel(num_warps=1, args=[("x", "f128")])


# --------------------------------------------------------------------------
# Names: kernel, pipeline, task and argument names are C identifiers.
# --------------------------------------------------------------------------

BAD_NAMES = ["my kernel", "k-1", "", "123", "1abc", "a.b", "caf\u00e9", "a$b",
             "x\n"]


def expect_name_error(kind, bad, call, *args, **kwargs):
    with pytest.raises(ScheduleError) as info:
        call(*args, **kwargs)
    err = info.value
    assert isinstance(err, ValueError)
    assert f"{kind} name {bad!r}" in err.message
    assert "[A-Za-z_][A-Za-z0-9_]*" in err.message
    assert THIS_FILE in err.location
    return err


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_names_are_rejected_at_the_call(name):
    expect_name_error("kernel", name, Kernel, num_warps=1, name=name)
    expect_name_error("kernel argument", name, Kernel, num_warps=1,
                      args=["ok", name])
    k = Kernel(num_warps=2)
    expect_name_error("pipeline", name, k.pipeline, name, tma_cfg())
    expect_name_error("task", name, k.task, name, 0, 1)
    ring = k.pipeline("ring", tma_cfg())
    expect_name_error("pipeline", name, k.task, "t", 0, 1, produces=[name])
    t = k.task("t", 0, 1, produces=[ring])
    with t.domain_loop(0, 1):
        expect_name_error("pipeline", name, t.acquire, name)
    assert k.pipelines == [ring] and k.tasks == [t]


def test_kernel_name_must_be_a_ptx_identifier():
    # ptxas rejects `.entry _` (checked with the CUDA driver's JIT on an H200):
    # the kernel verifier's X10.
    k = Kernel(num_warps=1, name="_")
    t = k.task("t", 0, 1)
    with t.domain_loop(0, 1):
        pass
    with pytest.raises(ScheduleError) as info:
        k.build()
    assert info.value.rule == "X10" and "PTX" in info.value.message
    assert Kernel(num_warps=1, name="__").name == "__"
    assert Kernel(num_warps=1, name="_1").name == "_1"


def test_hyphenated_names_from_the_trial():
    k = Kernel(num_warps=2)
    expect_name_error("pipeline", "my-ring", k.pipeline, "my-ring", tma_cfg())
    expect_name_error("task", "my-task", k.task, "my-task", 0, 1)
    expect_name_error("kernel", "k-1", Kernel, num_warps=1, name="k-1")


def test_name_types():
    with pytest.raises(TypeError):
        Kernel(num_warps=1, name=None)
    with pytest.raises(TypeError):
        Kernel(num_warps=1, args=[1])
    with pytest.raises(TypeError):
        Kernel(num_warps=1, args="ab")       # a str is not a list of names
    k = Kernel(num_warps=1)
    with pytest.raises(TypeError):
        k.task(b"t", 0, 1)
    with pytest.raises(TypeError):
        k.task("t", 0, 1, produces="ring")


def test_identifier_names_build_and_lower():
    cfg = tma_cfg(consumer_group=G(T, 1))   # one consumer warp (R54)
    k = Kernel(num_warps=2, name="_My_kernel2", args=["_out", "In1"])
    ring = k.pipeline("_ring_0", cfg, smem_bytes=4 * 4096)
    p = k.task("Load_1", 0, 1, produces=["_ring_0"])
    with p.domain_loop(0, 2):
        p.acquire(ring)
        p.commit("_ring_0")
    c = k.task("_", 1, 1, consumes=[ring])
    with c.domain_loop(0, 2):
        c.wait(ring)
        c.release(ring)
    text = str(k.build())
    assert "@_ring_0" in text and "@Load_1" in text
    assert ".visible .entry _My_kernel2(" in k.to_ptx()


# --------------------------------------------------------------------------
# Stages, tokens and values are used inside the scope that made them.
# --------------------------------------------------------------------------

def ring_kernel():
    k = Kernel(num_warps=2, args=["out"])
    ring = k.pipeline("ring", PipelineConfig.create_async_async_pipeline_cfg(
        2, G(T, 32), G(T, 32), None), smem_bytes=2 * 256)
    p = k.task("p", 0, 1, produces=[ring])
    c = k.task("c", 1, 1, consumes=[ring])
    return k, ring, p, c


def expect_scope_error(call, *args, **kwargs):
    with pytest.raises(ScheduleError) as info:
        call(*args, **kwargs)
    err = info.value
    assert THIS_FILE in err.location, err.location
    assert "use of undeclared SSA value" not in err.message
    return err


def expect_build_error(kernel, needle):
    """The verifier (dominance) rejects a Value used out of scope, at the
    Python line of the op that used it."""
    with pytest.raises(ScheduleError) as info:
        kernel.build()
    err = info.value
    assert needle in str(err), str(err)
    assert THIS_FILE in err.location, err.location
    return err


def test_stage_used_after_its_loop():
    k, ring, p, c = ring_kernel()
    with p.domain_loop(0, 4) as iv:
        stage = p.acquire(ring)
        stage.buffer()
        p.commit(ring)
    err = expect_scope_error(stage.buffer)
    assert "outside the bracket scope it came from" in err.message
    assert "acquire(@ring)" in err.message and "domain_loop" in err.message
    err = expect_scope_error(p.work, lambda: stage.index())
    assert "outside the bracket scope it came from" in err.message
    # A Value of the closed loop used after it: MLIR's dominance check.
    p.work(lambda: arith.index_cast(ir.IntegerType.get_signless(32), iv))
    with c.domain_loop(0, 4):
        c.wait(ring)
        c.release(ring)
    expect_build_error(k, "does not dominate")


def test_stage_used_after_its_guard():
    k, ring, p, c = ring_kernel()
    with c.domain_loop(0, 4):
        with c.first_iter():
            stage = c.wait(ring)
        err = expect_scope_error(stage.empty_barrier)
        assert "first_iter" in err.message
        c.release(ring)


def test_stage_used_in_another_task():
    k, ring, p, c = ring_kernel()
    with p.domain_loop(0, 4):
        stage = p.acquire(ring)
        buf = stage.buffer()
        with c.domain_loop(0, 4):
            err = expect_scope_error(c.work, lambda: stage.index())
            assert "comes from task 'p'" in err.message
            assert "task 'c'" in err.message
            token = p.try_acquire(ring)
            err = expect_scope_error(c.wait, ring, ready=token)
            assert "comes from task 'p'" in err.message
            c.wait(ring)
            c.work(lambda: llvm.load(ir.IntegerType.get_signless(32), buf))
            c.release(ring)
        p.acquire(ring, ready=token)
        p.commit(ring)
    expect_build_error(k, "does not dominate")


def test_values_in_scope_still_work():
    k, ring, p, c = ring_kernel()
    with k:                                     # the kernel's Context
        i32 = ir.IntegerType.get_signless(32)
    with p.domain_loop(0, 4) as iv:
        stage = p.acquire(ring)
        buf = stage.buffer()
        with p.last_iter():
            p.work(lambda: llvm.store(arith.index_cast(i32, iv), buf))
            stage.full_barrier()
        p.commit(ring)
    with c.domain_loop(0, 4):
        got = c.wait(ring)
        with c.first_iter():
            def step():
                value = llvm.load(i32, got.buffer())
                return arith.addi(value, value)
            total = c.work(step)
            assert str(total.type) == "i32"
        c.release(ring)
    module = k.build()
    # The work step's ops carry the lines inside `step`, or the work() call.
    (add,) = ops_of(module, "arith.addi")
    assert THIS_FILE in str(add.location)


def test_work_takes_a_callable():
    k, ring, p, c = ring_kernel()
    with p.domain_loop(0, 1):
        with pytest.raises(TypeError):
            p.work("llvm.store %x, %y")      # op text is not a work step


def test_ready_must_be_a_token():
    k, ring, p, c = ring_kernel()
    with p.domain_loop(0, 4):
        for bad in (True, 1, "%ready0", None.__class__):
            with pytest.raises(TypeError) as info:
                p.acquire(ring, ready=bad)
            assert "try_acquire" in str(info.value)
        probe = p.try_acquire(ring)
        p.acquire(ring, ready=probe)
        p.commit(ring)
    with c.domain_loop(0, 4):
        with pytest.raises(TypeError):
            c.wait(ring, ready=False)
        probe = c.try_wait(ring)
        c.wait(ring, ready=probe)
        c.release(ring)
    k.build()
    # A token of the other side, or of another pipeline.
    k = Kernel(num_warps=1)
    cfg = PipelineConfig.create_async_async_pipeline_cfg(2, G(T, 32), G(T, 32), None)
    ring, other = k.pipeline("ring", cfg), k.pipeline("other", cfg)
    t = k.task("t", 0, 1, produces=[ring, other], consumes=[ring])
    with t.domain_loop(0, 4):
        t.acquire(ring, ready=t.try_wait(ring))
        t.commit(ring)
        t.acquire(ring, ready=t.try_acquire(other))
        t.commit(ring)
        t.wait(ring)
        t.release(ring)
    # The verifier of the blocking op reports both (R34).
    with pytest.raises(ScheduleError) as info:
        k.build()
    assert info.value.rule == "R34", str(info.value)
    messages = [d.message for d in info.value.diagnostics]
    assert any("tspipe.consumer_try_wait" in m for m in messages), messages


def test_token_used_after_its_block():
    k, ring, p, c = ring_kernel()
    with p.domain_loop(0, 4):
        with p.first_iter():
            probe = p.try_acquire(ring)
        err = expect_scope_error(p.acquire, ring, ready=probe)
        assert "outside the bracket scope" in err.message
        p.acquire(ring)           # the stale probe is not picked up implicitly
        p.commit(ring)
    assert _ready_operands(k.module, "tspipe.producer_acquire") == [0]


# --------------------------------------------------------------------------
# Integers: 64-bit fields, numpy integers.
# --------------------------------------------------------------------------

BIG = 2 ** 70


def test_int_out_of_range_names_the_field():
    for field, call in (
            ("num_warps", lambda: Kernel(num_warps=BIG)),
            ("cluster extent", lambda: Kernel(num_warps=1, cluster=(1, BIG, 1))),
            ("smem_bytes", lambda: Kernel(num_warps=1).pipeline(
                "ring", tma_cfg(), smem_bytes=2 ** 63)),
            ("tmem_columns", lambda: Kernel(num_warps=1).pipeline(
                "ring", tma_cfg(), tmem_columns=-BIG)),
            ("warp_idx", lambda: Kernel(num_warps=1).task("t", BIG, 1)),
            ("num_registers", lambda: Kernel(num_warps=1).task(
                "t", 0, 1, num_registers=BIG))):
        with pytest.raises(ScheduleError) as info:
            call()
        assert field in info.value.message and "64-bit" in info.value.message
    t = Kernel(num_warps=1).task("t", 0, 1)
    with pytest.raises(ScheduleError) as info:
        t.domain_loop(0, 2 ** 64)
    assert "domain_loop end" in info.value.message


def test_numpy_integers_are_ints():
    k = Kernel(num_warps=np.int64(5), cluster=np.array([1, 1, 1]), args=["out"])
    assert type(k.num_warps) is int and k.cluster == (1, 1, 1)
    ring = k.pipeline("ring", tma_cfg(num_stages=np.int64(4)),
                      smem_bytes=np.int64(4 * 4096))
    load = k.task("load", np.int32(0), np.uint8(1), produces=[ring])
    with load.domain_loop(np.int64(0), np.int64(16), np.int16(1)):
        load.acquire(ring)
        load.commit(ring)
    math = k.task("math", np.int64(1), np.int64(4), consumes=[ring])
    with math.domain_loop(0, np.int64(16)):
        math.wait(ring)
        math.release(ring)
    module = k.build()
    constants = [ir.IntegerAttr(op.attributes["value"]).value
                 for op in ops_of(module, "arith.constant")]
    assert sorted(constants) == [0, 1, 16]   # shared by both tasks
    k.build()
    # A register count on a whole warpgroup (R41).
    regs = Kernel(num_warps=4)
    with regs.task("t", 0, np.int64(4), num_registers=np.int64(40)).domain_loop(0, 1):
        pass
    assert "registers(40)" in regs.to_mlir()
    regs.build()
    with pytest.raises(TypeError):
        Kernel(num_warps=np.bool_(True))
    with pytest.raises(TypeError):
        Kernel(num_warps=1).task("t", True, 1)
    with pytest.raises(TypeError):
        Kernel(num_warps=1).task("t", 0, 1).domain_loop(0, 2.0)


# --------------------------------------------------------------------------
# Rule failures reported by the C++ verifiers.
# --------------------------------------------------------------------------

def expect_schedule_error(kernel, rule):
    with pytest.raises(ScheduleError) as info:
        kernel.build()
    err = info.value
    assert isinstance(err, ValueError)
    assert err.rule == rule, err.message
    assert THIS_FILE in err.location, err.location
    return err


def test_r16_needs_exactly_one_domain_loop():
    k = Kernel(num_warps=1)
    ring = k.pipeline("ring", tma_cfg())
    t = k.task("t", 0, 1, produces=[ring])
    t.acquire(ring)  # head only, no domain loop
    err = expect_schedule_error(k, "R16")
    assert "domain_loop" in err.message

    k2 = Kernel(num_warps=1)
    t2 = k2.task("t", 0, 1)
    with t2.domain_loop(0, 2):
        pass
    with t2.domain_loop(0, 2):
        pass
    expect_schedule_error(k2, "R16")


def test_r17_zero_step():
    k = Kernel(num_warps=1)
    t = k.task("t", 0, 1)
    with t.domain_loop(0, 8, 0):
        pass
    expect_schedule_error(k, "R17")


def test_r22_guard_outside_domain_loop():
    k = Kernel(num_warps=1)
    ring = k.pipeline("ring", tma_cfg())
    t = k.task("t", 0, 1, consumes=[ring])
    with t.domain_loop(0, 2):
        pass
    with t.first_iter():
        t.wait(ring)
    expect_schedule_error(k, "R22")


def test_r22_nested_domain_loop():
    k = Kernel(num_warps=1)
    t = k.task("t", 0, 1)
    with t.domain_loop(0, 2):
        with t.domain_loop(0, 2):
            pass
    expect_schedule_error(k, "R22")


def test_r27_bracket_on_unlisted_pipeline():
    k2 = Kernel(num_warps=2)
    ring2 = k2.pipeline("ring", tma_cfg())
    p = k2.task("p", 0, 1)  # forgot produces=[ring]
    with p.domain_loop(0, 2):
        p.acquire(ring2)
        p.commit(ring2)
    err = expect_schedule_error(k2, "R27")
    assert "produces" in err.message


def test_r18_task_parameters():
    # The C++ verifier of tspipe.task reports it (setmaxnreg takes multiples
    # of 8 in [24, 256]), at the line of the task call.
    k = Kernel(num_warps=1)
    t = k.task("t", 0, 1, num_registers=230)
    with t.domain_loop(0, 1):
        pass
    with pytest.raises(ScheduleError) as info:
        k.build()
    assert info.value.rule == "R18", str(info.value)
    assert "registers(230)" in info.value.message, str(info.value)
    assert THIS_FILE in info.value.location, info.value.location


def test_r57_layout_vs_cluster():
    # A CTA-local (1,1,1,1) pipeline runs on any cluster (TS's split-K).
    k, _, _, _ = producer_consumer(cluster=(2, 1, 1))
    k.build()
    # A pipeline spanning 2 CTAs of a 4-CTA cluster does not.
    k, _, _, _ = producer_consumer(
        cluster=(4, 1, 1),
        cfg=tma_cfg(cta_layout_vmnk=(1, 2, 1, 1), consumer_group=G(T, 8)))
    err = expect_schedule_error(k, "R57")
    assert "cluster" in err.message


def test_config_error_from_factory_is_pipeline_config_error():
    with pytest.raises(PipelineConfigError) as info:
        tma_cfg(num_stages=0)
    assert info.value.rule == "R9"
    # One class, whichever module it is imported from.
    assert tspipe.diagnostics.PipelineConfigError is PipelineConfigError
    assert tspipe.ts.errors.ScheduleError is ScheduleError


def test_python_type_errors():
    with pytest.raises(TypeError):
        Kernel(num_warps="4")
    k = Kernel(num_warps=1)
    with pytest.raises(TypeError):
        k.pipeline("ring", "#tspipe.config<...>")
    with pytest.raises(TypeError):
        k.task("t", 0.5, 1)
    with pytest.raises(TypeError):
        Kernel(num_warps=1).task("t", 0, 1).domain_loop(0, "%n")


def test_ptx_comment_marks_the_ptx():
    cfg = tma_cfg(consumer_group=G(T, 1))
    k = Kernel(num_warps=2)
    ring = k.pipeline("ring", cfg, smem_bytes=4 * 4096)
    p = k.task("p", 0, 1, produces=[ring])
    with p.domain_loop(0, 2):
        p.acquire(ring)
        p.ptx_comment("XMARK 7")
        p.commit(ring)
    c = k.task("c", 1, 1, consumes=[ring])
    with c.domain_loop(0, 2):
        c.wait(ring)
        c.release(ring)
    assert "// XMARK 7" in k.to_ptx()
    with pytest.raises(ValueError):
        p.ptx_comment("two\nlines")
