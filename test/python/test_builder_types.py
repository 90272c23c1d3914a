"""The builder for every pipeline type, and errors at the user's line.

Each kernel is built through the generated op classes (no MLIR text) and
verified by the C++ verifiers; a broken rule raises one exception that lists
every diagnostic, each with the Python line of the op it concerns.
"""

import os

import pytest

import tspipe.ir as ir
from tspipe.dialects import arith
from tspipe.ts import (
    Agent,
    CooperativeGroup,
    Kernel,
    PipelineConfig,
    PipelineConfigError,
    PipelineType,
    ScheduleError,
)

G, T = CooperativeGroup, Agent.Thread
P = PipelineConfig
THIS_FILE = os.path.basename(__file__)
LAYOUT = (1, 1, 1, 1)

# (factory call, producer arrivals, consumer arrivals) per type: one
# producer warp and one consumer warp.
CONFIGS = {
    PipelineType.AsyncAsync:
        lambda: P.create_async_async_pipeline_cfg(2, G(T, 32), G(T, 32), None),
    PipelineType.TmaAsync:
        lambda: P.create_tma_async_pipeline_cfg(2, 1024, G(T, 1), G(T, 1)),
    PipelineType.TmaUmma:
        lambda: P.create_tma_umma_pipeline_cfg(2, 1024, G(T, 1), G(T, 1), LAYOUT),
    PipelineType.UmmaAsync:
        lambda: P.create_umma_async_pipeline_cfg(2, G(T, 1), G(T, 32), LAYOUT),
    PipelineType.AsyncUmma:
        lambda: P.create_async_umma_pipeline_cfg(2, G(T, 32), G(T, 1), LAYOUT),
    PipelineType.UmmaUmma:
        lambda: P.create_umma_umma_pipeline_cfg(1, G(T, 1), G(T, 1), LAYOUT),
    PipelineType.ClcFetchAsync:
        lambda: P.create_clc_fetch_async_pipeline_cfg(1, 16, G(T, 1), G(T, 32),
                                                      LAYOUT),
}


def ops_of(module, name):
    found = []

    def visit(op):
        if op.name == name:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def two_task_kernel(cfg, arch="sm_100a"):
    k = Kernel(num_warps=2, arch=arch, args=["out"])
    ring = k.pipeline("ring", cfg)
    p = k.task("p", 0, 1, produces=[ring])
    with p.domain_loop(0, 4):
        stage = p.acquire(ring)
        p.work(lambda: stage.full_barrier())
        p.commit(ring)
    c = k.task("c", 1, 1, consumes=[ring])
    with c.domain_loop(0, 4):
        stage = c.wait(ring)
        c.work(lambda: arith.index_cast(ir.IntegerType.get_signless(32),
                                        stage.index()))
        c.release(ring)
    return k


@pytest.mark.parametrize("ptype", list(CONFIGS), ids=lambda t: t.name)
def test_every_pipeline_type_builds_and_verifies(ptype):
    cfg = CONFIGS[ptype]()
    assert cfg.pipeline_type is ptype
    k = two_task_kernel(cfg)
    module = k.build()
    (pipe,) = ops_of(module, "tspipe.pipeline")
    # The attribute is the C API's; reading it back gives the same config.
    back = P.from_attr(pipe.attributes["config"])
    assert str(back) == str(cfg) and back.pipeline_type is ptype
    assert back.num_stages == cfg.num_stages and back.strides == cfg.strides
    assert len(ops_of(module, "tspipe.producer_acquire")) == 1
    assert len(ops_of(module, "tspipe.consumer_wait")) == 1
    for op in ops_of(module, "tspipe.full_barrier") + \
            ops_of(module, "arith.index_cast"):
        assert THIS_FILE in str(op.location), op.location


def test_rule_error_points_at_the_schedule_line():
    k = Kernel(num_warps=2)
    ring = k.pipeline("ring", CONFIGS[PipelineType.AsyncAsync]())
    p = k.task("p", 0, 1)                       # produces=[ring] forgotten
    with p.domain_loop(0, 2):
        p.acquire(ring); acquire_line = _line()  # noqa: E702
        p.commit(ring)
    with pytest.raises(ScheduleError) as info:
        k.build()
    err = info.value
    assert err.rule == "R27"
    assert err.location.endswith(f'{THIS_FILE}":{acquire_line}:1)'), err.location


def test_every_failure_is_listed_with_its_line():
    k = Kernel(num_warps=2)
    k.pipeline("ring", CONFIGS[PipelineType.AsyncAsync]())
    a = k.task("a", 0, 1)
    with a.domain_loop(0, 2, 0):                # R17
        pass
    b = k.task("b", 1, 1)
    with b.domain_loop(0, 2):
        pass
    guard_line = _line() + 1
    with b.first_iter():                        # R22: outside the loop
        pass
    with pytest.raises(ScheduleError) as info:
        k.build()
    err = info.value
    assert isinstance(err, ValueError)
    assert sorted(d.rule for d in err.diagnostics) == ["R17", "R22"], \
        err.diagnostics
    text = str(err)
    assert "1 more error(s)" in text
    assert f"{THIS_FILE}:{guard_line}:1" in text
    assert all(THIS_FILE in d.location for d in err.diagnostics)


def test_config_error_points_at_the_factory_call():
    line = _line() + 2
    with pytest.raises(PipelineConfigError) as info:
        P.create_tma_async_pipeline_cfg(6, 1024, G(T, 1), G(T, 1),
                                        interleave_stride=4)
    assert info.value.rule == "R5"
    assert f'{THIS_FILE}":{line}:1' in info.value.location


def test_work_step_ops_carry_their_own_lines():
    k = Kernel(num_warps=1)
    t = k.task("t", 0, 1)
    i32 = ir.IntegerType.get_signless

    def step():
        one = arith.constant(i32(32), 1); line = _line()  # noqa: E702
        return one, line

    with t.domain_loop(0, 1):
        _, line = t.work(step)
    module = k.build()
    located = [str(op.location) for op in ops_of(module, "arith.constant")
               if "i32" in str(op.result.type)]
    assert any(f":{line}:" in loc or f'":{line}' in loc for loc in located), \
        located


def test_no_mlir_text_in_python_kernels():
    # The examples and the tests build kernels with builders only: no op
    # text (an SSA definition, a tspipe kernel, an MLIR type literal, a
    # parse of text) in their sources. Exempt are the tests whose subject
    # is MLIR text itself: the parser and printer bindings, the demo's
    # .mlir example input, and the printed config attribute parsing back.
    root = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
    folders = [os.path.join(root, "examples", "python"),
               os.path.dirname(os.path.abspath(__file__))]
    sources = [os.path.join(folder, f) for folder in folders
               for f in sorted(os.listdir(folder)) if f.endswith(".py")]
    # Spelled in pieces so that this file does not contain them.
    needles = ["= " + "tspipe.", "!llvm" + ".ptr<", "Module" + ".parse(",
               "Attribute" + ".parse(", "Type" + ".parse(", "%" + "c0 =",
               "tspipe" + ".kernel warps"]
    exempt = {"test_bindings.py": set(needles), "test_demo.py": set(needles),
              "test_config.py": {"Attribute" + ".parse("}}
    assert len(sources) > 10
    for path in sources:
        text = open(path).read()
        for needle in needles:
            if needle in exempt.get(os.path.basename(path), ()):
                continue
            assert needle not in text, (path, needle)


def _line():
    import sys

    return sys._getframe(1).f_lineno
