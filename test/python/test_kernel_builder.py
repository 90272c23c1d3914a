"""The TS-style kernel builder: Kernel, pipelines, tasks and schedules.

The builder emits tspipe IR text; the C++ verifiers decide. Rule failures
come back as ScheduleError / PipelineConfigError (ValueError) carrying the
rule id and the Python line of the offending schedule step.
"""

import os

import pytest

import tspipe
import tspipe.ir as ir
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
    assert len(ops_of(module, "tspipe.task")) == 2
    assert len(ops_of(module, "tspipe.producer_acquire")) == 1
    assert len(ops_of(module, "tspipe.stage_buffer")) == 1
    assert k.block_threads == 160
    text = k.to_mlir()
    assert '#nvvm.target<chip = "sm_90a", features = "+ptx80">' in text
    assert "gpu.func @stream(%out: !llvm.ptr<1>) kernel" in text
    assert "tspipe.task @load warps(0, 1) produces [@ring]" in text
    assert "tspipe.task @math warps(1, 4) consumes [@ring]" in text
    # Every emitted op carries the location of the line that wrote it.
    assert f'{THIS_FILE}":' in text
    k.verify()


def test_build_in_given_context():
    k, _, _, _ = producer_consumer()
    with ir.Context() as context:
        module = k.build(context)
        assert module.context is context


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
    text = k.to_mlir()
    assert text.count("tspipe.producer_acquire @ring ready(") == 1
    assert text.count("tspipe.consumer_wait @ring ready(") == 1
    assert text.count("tspipe.consumer_wait @ring loc(") == 1
    k.build()


def test_guards_current_stage_and_tail():
    k = Kernel(num_warps=3)
    acc = k.pipeline("acc", PipelineConfig.create_async_async_pipeline_cfg(
        2, G(T, 32), G(T, 64), None, advance_on_acquire=False), smem_bytes=2048)
    p = k.task("p", 0, 1, produces=[acc], num_registers=232)
    with p.domain_loop(0, 8) as iv:
        assert iv.startswith("%")
        with p.last_iter():
            p.acquire(acc).index()
            p.commit(acc)
    p.producer_tail(acc)
    c = k.task("c", 1, 2, consumes=[acc])
    with c.domain_loop(0, 8):
        with c.first_iter():
            stage = c.wait(acc)
            stage.empty_barrier()
        c.current_stage(acc, "consumer").buffer()
        c.release(acc)
    module = k.build()
    assert len(ops_of(module, "tspipe.last_iter")) == 1
    assert len(ops_of(module, "tspipe.first_iter")) == 1
    assert len(ops_of(module, "tspipe.producer_tail")) == 1
    assert "registers(232)" in str(module)


def test_cluster_and_cta_task():
    cfg = tma_cfg(cta_layout_vmnk=(1, 2, 1, 1),
                  consumer_signaling_threads=SignalingThreads.CtaLeader)
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
    k = Kernel(num_warps=1, args=["n_ptr"])
    k.prologue(f"%n = llvm.load {k.arg('n_ptr')} : !llvm.ptr<1> -> i64\n"
               "%n_idx = arith.index_cast %n : i64 to index")
    ring = k.pipeline("ring", PipelineConfig.create_async_async_pipeline_cfg(
        2, G(T, 32), G(T, 32), None))
    t = k.task("t", 0, 1, produces=[ring], consumes=[ring])
    with t.domain_loop(0, "%n_idx", 1):
        t.acquire(ring)
        t.commit(ring)
        t.wait(ring)
        t.release(ring)
    k.build()
    with pytest.raises(KeyError):
        k.arg("missing")


def test_names_needing_quotes():
    k = Kernel(num_warps=2)
    ring = k.pipeline("smem ring", tma_cfg())
    p = k.task("tma load", 0, 1, produces=[ring])
    with p.domain_loop(0, 2):
        p.acquire("smem ring")
        p.commit(ring)
    c = k.task("consumer", 1, 1, consumes=["smem ring"])
    with c.domain_loop(0, 2):
        c.wait(ring)
        c.release(ring)
    assert '@"smem ring"' in str(k.build())


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
    k = Kernel(num_warps=1)
    t = k.task("t", 0, 1, num_registers=230)
    with t.domain_loop(0, 1):
        pass
    expect_schedule_error(k, "R18")


def test_r57_layout_vs_cluster():
    # A (1,1,1,1) layout in a 2-CTA cluster.
    k, _, _, _ = producer_consumer(cluster=(2, 1, 1))
    err = expect_schedule_error(k, "R57")
    assert "cluster" in err.message


def test_config_error_from_factory_is_pipeline_config_error():
    with pytest.raises(PipelineConfigError) as info:
        tma_cfg(num_stages=0)
    assert info.value.rule == "R9"
    assert tspipe.PipelineConfigError is PipelineConfigError
    assert tspipe.ScheduleError is ScheduleError


def test_python_type_errors():
    with pytest.raises(TypeError):
        Kernel(num_warps="4")
    k = Kernel(num_warps=1)
    with pytest.raises(TypeError):
        k.pipeline("ring", "#tspipe.config<...>")
    with pytest.raises(TypeError):
        k.task("t", 0.5, 1)
    with pytest.raises(ValueError):
        Kernel(num_warps=1, args=["stage0"])  # clashes with generated names
