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

from tspipe.compile import lower_to_ptx
from tspipe.progress import ProgressReport, check_progress, check_progress_all
from tspipe.ts import Agent, CooperativeGroup, Kernel, PipelineConfig, ScheduleError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")

RING = ("tspipe.pipeline @ring config(<async_async, num_stages = 2, "
        "producer_group = <thread, 32>, consumer_group = <thread, 32>>)")


def two_tasks(name, producer_end, consumer_end, consumer_body=None, prologue=""):
    """Module text: a producer and a consumer task on one 2-stage ring, the
    domains ending at the given SSA values (%n is the kernel argument)."""
    consumer_body = consumer_body or (
        "%s = tspipe.consumer_wait @ring\n          tspipe.consumer_release @ring")
    return f"""
gpu.module @{name} {{
  gpu.func @{name}(%n: index) kernel {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    {prologue}
    tspipe.kernel warps(2) {{
      {RING}
      tspipe.task @producer warps(0, 1) produces [@ring] {{
        tspipe.domain_loop %i = %c0 to {producer_end} step %c1 {{
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }}
      }}
      tspipe.task @consumer warps(1, 1) consumes [@ring] {{
        tspipe.domain_loop %i = %c0 to {consumer_end} step %c1 {{
          {consumer_body}
        }}
      }}
    }}
    gpu.return
  }}
}}
"""


MISMATCH = two_tasks("mismatch", "%n", "%m", prologue="%m = arith.addi %n, %c1 : index")


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
    report = check_progress(text)
    assert report.ok, report.message
    assert report.rule is None and report.timeline_dot is None
    assert report.warnings == []
    assert report.assignments_checked >= 1
    assert report.graph_dot.startswith("digraph")
    pipelines = re.findall(r"tspipe\.pipeline @([\w$.]+)", text)
    assert pipelines
    for name in pipelines:
        assert f"pipe:{name}" in report.graph_dot, name


def test_domain_mismatch_gives_the_smallest_counterexample():
    report = check_progress(MISMATCH)
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
        check_progress(MISMATCH).raise_on_failure()
    assert err.value.rule == "R70"
    assert "deadlock" in err.value.message
    assert err.value.diagnostics[0].notes


def test_x8_last_iter_release_with_empty_domain():
    # The wait in the head, the release under last_iter: an empty consumer
    # domain runs no guard and never releases the stage. The kernel verifier
    # rejects it (X8) before the checker runs; the checker's own X8
    # counterexample, for the verified form (a first_iter / last_iter pair),
    # is in check-progress-invalid.mlir.
    head_wait = ("tspipe.task @consumer warps(1, 1) consumes [@ring] {\n"
                 "        %h = tspipe.consumer_wait @ring")
    text = two_tasks("x8", "%c1", "%n", consumer_body="""
          tspipe.last_iter {
            tspipe.consumer_release @ring
          }""").replace(
        "tspipe.task @consumer warps(1, 1) consumes [@ring] {", head_wait)
    with pytest.raises(ScheduleError) as err:
        check_progress(text)
    assert err.value.rule == "X8"
    # Released in the tail instead, it is balanced for every length.
    fixed = two_tasks("x8", "%c1", "%n", consumer_body="// nothing").replace(
        "tspipe.task @consumer warps(1, 1) consumes [@ring] {", head_wait)
    loop_end = "        }\n      }\n    }\n    gpu.return"
    fixed = fixed.replace(loop_end, "        }\n        tspipe.consumer_release @ring"
                          "\n      }\n    }\n    gpu.return")
    assert "tspipe.consumer_release" in fixed
    assert check_progress(fixed).ok


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
    ok = two_tasks("fine", "%n", "%n")
    reports = check_progress_all(ok + MISMATCH)
    assert [(r.kernel, r.ok) for r in reports] == [("fine", True),
                                                  ("mismatch", False)]
    with pytest.raises(ValueError):
        check_progress(ok + MISMATCH)


def test_svg_when_graphviz_is_present():
    report = check_progress(MISMATCH)
    assert isinstance(report, ProgressReport)
    if shutil.which("dot"):
        assert report.timeline_svg.lstrip().startswith(("<?xml", "<svg"))
        assert report._repr_svg_() == report.timeline_svg
    else:
        assert report._repr_svg_() is None


def test_invalid_module_raises_like_the_verifier():
    with pytest.raises(ScheduleError):
        check_progress(MISMATCH.replace("warps(1, 1)", "warps(0, 1)"))
