"""tspipe.progress: the deadlock and credit-balance checker from Python.

The verdicts come from the C++ pass tspipe-check-progress; these tests check
what the Python entry point returns for a kernel that is free of hangs and
for kernels that hang at some domain length, and that the front end's
verification and lowering reject the latter.
"""

import os
import re
import shutil

import pytest

import tspipe.ir as ir
from tspipe.compile import lower_to_ptx
from tspipe.dialects import arith
from tspipe.progress import ProgressReport, check_progress, check_progress_all
from tspipe.ts import Agent, CooperativeGroup, Kernel, PipelineConfig, ScheduleError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")

IDX = ir.IndexType


def two_tasks(name, producer_end, consumer_end, *, consumer_warp=1,
              context=None):
    """A producer and a consumer task on one 2-stage ring, built with the
    builders; the domain ends are ints or ``"n"`` (the kernel argument
    ``n: index``) or ``"n+1"``."""
    cfg = PipelineConfig.create_async_async_pipeline_cfg(
        2, CooperativeGroup(Agent.Thread, 32), CooperativeGroup(Agent.Thread, 32),
        None)
    k = Kernel(num_warps=2, name=name, args=[("n", "index")], context=context)
    ends = {"n": k.arg("n")}
    if "n+1" in (producer_end, consumer_end):
        ends["n+1"] = k.prologue(lambda: arith.addi(
            k.arg("n"), arith.constant(IDX.get(), 1)))
    ring = k.pipeline("ring", cfg)
    producer = k.task("producer", 0, 1, produces=[ring])
    with producer.domain_loop(0, ends.get(producer_end, producer_end)):
        producer.acquire(ring)
        producer.commit(ring)
    consumer = k.task("consumer", consumer_warp, 1, consumes=[ring])
    return k, ring, consumer, ends.get(consumer_end, consumer_end)


def balanced(name, producer_end, consumer_end, **kwargs):
    """:func:`two_tasks` with the consumer's wait and release in its loop."""
    k, ring, consumer, end = two_tasks(name, producer_end, consumer_end,
                                       **kwargs)
    with consumer.domain_loop(0, end):
        consumer.wait(ring)
        consumer.release(ring)
    return k


def mismatch(**kwargs):
    """The producer runs n iterations, the consumer n + 1 (R70 at n = 0)."""
    return balanced("mismatch", "n", "n+1", **kwargs)


def squares(producer_iters, consumer_iters):
    cfg = PipelineConfig.create_async_async_pipeline_cfg(
        num_stages=2, producer_group=CooperativeGroup(Agent.Thread, 32),
        consumer_group=CooperativeGroup(Agent.Thread, 32), cta_layout_vmnk=None)
    k = Kernel(num_warps=2, name="squares", args=["out"])
    ring = k.pipeline("ring", cfg, smem_bytes=2 * 16)
    produce = k.task("produce", warp_idx=0, num_warps=1, produces=[ring])
    with produce.domain_loop(0, producer_iters):
        produce.acquire(ring)
        produce.commit(ring)
    consume = k.task("consume", warp_idx=1, num_warps=1, consumes=[ring])
    with consume.domain_loop(0, consumer_iters):
        consume.wait(ring)
        consume.release(ring)
    return k


@pytest.mark.parametrize("example", sorted(
    f for f in os.listdir(EXAMPLES) if f.endswith(".mlir")))
def test_every_example_is_free_of_hangs(example):
    with open(os.path.join(EXAMPLES, example)) as f:
        text = f.read()
    # An example may hold several kernels (examples/pdl_pair.mlir).
    reports = check_progress_all(text)
    assert reports
    for report in reports:
        assert report.ok, report.message
        assert report.rule is None and report.timeline_dot is None
        assert report.warnings == []
        assert report.assignments_checked >= 1
        assert report.graph_dot.startswith("digraph")
    pipelines = re.findall(r"tspipe\.pipeline @([\w$.]+)", text)
    assert pipelines
    graphs = "".join(report.graph_dot for report in reports)
    for name in pipelines:
        assert f"pipe:{name}" in graphs, name


def test_domain_mismatch_gives_the_smallest_counterexample():
    report = check_progress(mismatch())
    assert not report.ok and not report
    assert (report.rule, report.kind) == ("R70", "deadlock")
    assert report.kernel == "mismatch"
    assert report.lengths == {"producer": 0, "consumer": 1}
    assert list(report.symbols.values()) == [0]
    blocked = [n for n in report.notes if n.op == "tspipe.consumer_wait"]
    assert blocked and "blocks in iteration 0" in blocked[0].text
    assert "stage 0, phase 0" in blocked[0].text
    holder = [n for n in report.notes if n.op == "tspipe.task"]
    assert holder and "held by @producer" in holder[0].text
    assert any(e["blocked"] and e["task"] == "@consumer" and e["stage"] == 0
               for e in report.timeline)
    assert report.timeline_dot.startswith("digraph")
    assert "[R70]" in report.timeline_dot


def test_raise_on_failure_carries_the_rule():
    with pytest.raises(ScheduleError) as err:
        check_progress(mismatch()).raise_on_failure()
    assert err.value.rule == "R70"
    assert "deadlock" in err.value.message
    assert err.value.diagnostics[0].notes


def test_x8_last_iter_release_with_empty_domain():
    # The wait in the head, the release under last_iter: an empty consumer
    # domain runs no guard and never releases the stage. The kernel verifier
    # rejects it (X8) before the checker runs; the checker's own X8
    # counterexample, for the verified form (a first_iter / last_iter pair),
    # is in check-progress-invalid.mlir.
    k, ring, consumer, n = two_tasks("x8", 1, "n")
    consumer.wait(ring)
    with consumer.domain_loop(0, n):
        with consumer.last_iter():
            consumer.release(ring)
    with pytest.raises(ScheduleError) as err:
        check_progress(k)
    assert err.value.rule == "X8"
    # Released in the tail instead, it is balanced for every length.
    k, ring, consumer, n = two_tasks("x8", 1, "n")
    consumer.wait(ring)
    with consumer.domain_loop(0, n):
        pass
    consumer.release(ring)
    assert check_progress(k).ok


def test_kernel_verify_runs_the_checker():
    squares(8, 8).verify()
    with pytest.raises(ScheduleError) as err:
        squares(8, 9).verify()
    assert err.value.rule == "R70"


def test_lowering_rejects_a_kernel_that_hangs():
    with pytest.raises(ScheduleError) as err:
        lower_to_ptx(squares(8, 9))
    assert err.value.rule == "R70"
    assert ".visible .entry squares(" in lower_to_ptx(squares(8, 8))


def test_every_kernel_of_a_module():
    fine = balanced("fine", "n", "n")
    bad = mismatch(context=fine.context)
    # One module holding both kernels' gpu.modules.
    bad._attach_target(bad.arch)
    with fine.context:
        bad._gpu_module.operation.clone(ip=ir.InsertionPoint(fine.module.body))
    fine._attach_target(fine.arch)
    reports = check_progress_all(fine.module)
    assert [(r.kernel, r.ok) for r in reports] == [("fine", True),
                                                  ("mismatch", False)]
    with pytest.raises(ValueError):
        check_progress(fine.module)


def test_svg_when_graphviz_is_present():
    report = check_progress(mismatch())
    assert isinstance(report, ProgressReport)
    if shutil.which("dot"):
        assert report.timeline_svg.lstrip().startswith(("<?xml", "<svg"))
        assert report._repr_svg_() == report.timeline_svg
    else:
        assert report._repr_svg_() is None


def test_invalid_module_raises_like_the_verifier():
    # The consumer on the producer's warp (X9): reported by the verifier.
    with pytest.raises(ScheduleError) as err:
        check_progress(mismatch(consumer_warp=0))
    assert err.value.rule == "X9"


def long_ring(stages, consumer_end="n", consumer_step=1, consumer_waits=1):
    """One ring of `stages` stages, built with the builders: a producer
    running n iterations, a consumer taking `consumer_waits` stages per
    iteration of its domain [0, consumer_end) with step consumer_step
    (consumer_end "n" or "n+1")."""
    cfg = PipelineConfig.create_async_async_pipeline_cfg(
        stages, CooperativeGroup(Agent.Thread, 32),
        CooperativeGroup(Agent.Thread, 32), None)
    k = Kernel(num_warps=2, name="long_ring", args=[("n", "index")])
    ends = {"n": k.arg("n")}
    if consumer_end == "n+1":
        ends["n+1"] = k.prologue(lambda: arith.addi(
            k.arg("n"), arith.constant(IDX.get(), 1)))
    ring = k.pipeline("ring", cfg)
    producer = k.task("producer", 0, 1, produces=[ring])
    with producer.domain_loop(0, ends["n"]):
        producer.acquire(ring)
        producer.commit(ring)
    consumer = k.task("consumer", 1, 1, consumes=[ring])
    with consumer.domain_loop(0, ends[consumer_end], consumer_step):
        for _ in range(consumer_waits):
            consumer.wait(ring)
            consumer.release(ring)
    return k


@pytest.mark.parametrize("stages", [512, 1024, 2048])
def test_long_ring_is_decided_from_a_few_lengths(stages):
    # Producer and consumer move one stage per iteration: the endless run
    # repeats up to a rotation of the ring after one iteration, so a few
    # lengths decide every n, whatever the number of stages, and no warning
    # says that only some lengths were checked.
    report = check_progress(long_ring(stages))
    assert report.ok, report.message
    assert report.warnings == []
    assert report.assignments_checked <= 8


@pytest.mark.parametrize("stages", [512, 2048])
def test_long_ring_failures_keep_the_smallest_lengths(stages):
    # One wait more than the producer fills: fails from n = 0 on.
    report = check_progress(long_ring(stages, consumer_end="n+1"))
    assert (report.rule, report.kind) == ("R70", "deadlock")
    assert report.lengths == {"producer": 0, "consumer": 1}
    # Two stages per iteration over a step-2 domain: fails for odd n only,
    # first at n = 1.
    report = check_progress(long_ring(stages, consumer_step=2,
                                      consumer_waits=2))
    assert (report.rule, report.kind) == ("R70", "deadlock")
    assert report.lengths == {"producer": 1, "consumer": 1}
    assert list(report.symbols.values()) == [1]


def test_findings_carry_their_fields():
    # The checker's findings come through the C API as structured data: the
    # blocked task, its iteration, bracket, barrier and phase, and the task
    # holding the credit, without reading them from the note text.
    report = check_progress(mismatch())
    blocked = [n for n in report.notes if n.kind == "blocked"]
    assert [(n.task, n.iteration, n.bracket, n.pipeline, n.full, n.stage,
             n.phase) for n in blocked] == [
        ("@consumer", 0, "consumer_wait", "ring", True, 0, 0)]
    holders = [n for n in report.notes if n.kind == "credit-holder"]
    assert [(n.task, n.bracket, n.stage) for n in holders] == [
        ("@producer", "producer_commit", 0)]
    assert "error: [R70] tasks deadlock" in report.text
    assert "note: @consumer blocks in iteration 0" in report.text


def test_checks_a_module_in_place():
    # An ir.Module is checked as it is (no printing, no parsing), and gives
    # the verdict that its text gives.
    module = mismatch().build(check_progress=False)
    asm = str(module)
    report = check_progress(module)
    assert (report.rule, report.kind) == ("R70", "deadlock")
    assert report.lengths == check_progress(asm).lengths
    assert str(module) == asm
    assert check_progress(balanced("ok", "n", "n").build()).ok


def _remainder_lengths(name, assume=False):
    """Producer n remui 4 iterations, consumer (n + 4) remui 4: equal, but no
    quasi-affine function of n and different expressions."""
    cfg = PipelineConfig.create_async_async_pipeline_cfg(
        2, CooperativeGroup(Agent.Thread, 32), CooperativeGroup(Agent.Thread, 32),
        None)
    k = Kernel(num_warps=2, name=name, args=[("n", "index")])
    def four():
        return arith.constant(IDX.get(), 4)

    ends = [k.prologue(lambda: arith.remui(k.arg("n"), four())),
            k.prologue(lambda: arith.remui(arith.addi(k.arg("n"), four()),
                                           four()))]
    ring = k.pipeline("ring", cfg)
    producer = k.task("producer", 0, 1, produces=[ring])
    with producer.domain_loop(0, ends[0]):
        producer.acquire(ring)
        producer.commit(ring)
    consumer = k.task("consumer", 1, 1, consumes=[ring])
    with consumer.domain_loop(0, ends[1]):
        consumer.wait(ring)
        consumer.release(ring)
    module = k.build(check_progress=False)
    if assume:
        with module.context:
            k.op.attributes["tspipe.assume_progress"] = ir.UnitAttr.get()
    return module


def test_what_is_not_proven_is_an_error_unless_assumed():
    report = check_progress(_remainder_lengths("undecided"))
    assert not report.ok
    assert (report.rule, report.kind) == ("R70", "unproven")
    assert report.unproven and "no quasi-affine function" in report.unproven[0]
    assert "error: [R70] progress not proven" in report.text
    assumed = check_progress(_remainder_lengths("assumed", assume=True))
    assert assumed.ok and assumed.assume_progress
    assert assumed.unproven == report.unproven
    assert "warning: [R70] progress not proven" in assumed.text
