"""Fixed-seed crosscheck against real TS (crosscheck/run.py).

Runs only when ``TS_PYTHON`` names the interpreter of a venv holding
``nvidia-cutlass-dsl==4.8.1`` (``make crosscheck`` makes one in ``.venv-ts``):
``TS_PYTHON=.venv-ts/bin/python make pytest``. Every disagreement must fall
in a class of crosscheck/rules.py's table (a known tspipe bug, a TS defect,
an earlier check); a new class fails the test with its minimal case. Every
kernel TS builds must also round-trip through the importer (``from_ts``)
with the verdict and IR of the direct build (crosscheck/import_check.py).
"""

import json
import os
import sys

import pytest

TS_PYTHON = os.environ.get("TS_PYTHON")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.skipif(
    not TS_PYTHON, reason="TS_PYTHON (an interpreter with nvidia-cutlass-dsl "
    "4.8.1) is not set")


def _crosscheck():
    sys.path.insert(0, os.path.join(ROOT, "crosscheck"))
    import run  # noqa: E402
    return run


def test_fixed_seed_crosscheck_has_no_unexplained_class(tmp_path):
    run = _crosscheck()
    out = tmp_path / "classes.json"
    report = tmp_path / "crosscheck.md"
    status = run.main(["--ts-python", TS_PYTHON, "--configs", "400",
                       "--kernels", "80", "--seed", "7", "--json", str(out),
                       "--report", str(report), "--no-shrink"])
    classes = json.loads(out.read_text())["classes"]
    unexplained = [c for c in classes
                   if c["info"]["disposition"] == "unexplained"]
    details = "\n\n".join(
        f"{c['key']}: {c['count']} cases\nTS: {c['ts'].get('message', 'accept')}\n"
        f"tspipe: {c['tp'].get('message', 'accept')}\n{run.render_case(c['case'])}"
        for c in unexplained)
    assert not unexplained, f"new disagreement classes:\n{details}"
    assert status == 0
    assert report.read_text().startswith("# Crosscheck against real TS")
    # The importer round trip (import_check.py): every kernel TS builds is
    # imported with from_ts, verified by tspipe and compared with the
    # direct build -- same verdict, same IR.
    importer = json.loads(out.read_text())["stats"]["importer"]
    assert importer["imported"] > 0 and not importer["crashes"], importer
    problems = "\n".join(f"{m['id']}: {m['problems']}\n"
                         f"{run.render_case(m['case'])}"
                         for m in importer["mismatches"])
    assert not importer["mismatches"], f"importer mismatches:\n{problems}"
    assert "## Importer round trip" in report.read_text()


def test_both_sides_judge_a_known_good_kernel():
    """A two-task AsyncAsync ring that TS and tspipe both accept, and the
    same ring with a consumer count TS and tspipe both reject (R52)."""
    run = _crosscheck()
    import cases as C
    import tspipe_runner as TP

    def kernel(consumer_size):
        return {"kind": "kernel", "num_warps": 2, "cluster": [1, 1, 1],
                "pipelines": [{"name": "ring", "factory": "async_async",
                               "smem_bytes": 64,
                               "kwargs": {"num_stages": 2,
                                          "producer_group": C.group("Thread", 32),
                                          "consumer_group": C.group("Thread", consumer_size),
                                          "cta_layout_vmnk": None}}],
                "tasks": [
                    {"name": "p", "warp_idx": 0, "num_warps": 1, "produces": ["ring"],
                     "consumes": [], "cta": None, "registers": None, "head": [], "tail": [],
                     "loop": {"start": 0, "end": 4, "step": 1, "body": [
                         {"op": "acquire", "pipe": "ring"},
                         {"op": "producer_work", "pipe": "ring"},
                         {"op": "commit", "pipe": "ring"}]}},
                    {"name": "c", "warp_idx": 1, "num_warps": 1, "produces": [],
                     "consumes": ["ring"], "cta": None, "registers": None, "head": [],
                     "tail": [],
                     "loop": {"start": 0, "end": 4, "step": 1, "body": [
                         {"op": "wait", "pipe": "ring"},
                         {"op": "consumer_work", "pipe": "ring"},
                         {"op": "release", "pipe": "ring"}]}}]}

    good, bad = kernel(32), kernel(64)
    good["id"], bad["id"] = "good", "bad"
    ts = run.TSProcess(TS_PYTHON)
    try:
        ts_good, ts_bad = ts.ask(good), ts.ask(bad)
    finally:
        ts.close()
    assert ts_good["verdict"] == "accept", ts_good
    assert TP.judge(good)["verdict"] == "accept"
    assert ts_bad["verdict"] == "reject"
    tp_bad = TP.judge(bad)
    assert tp_bad["verdict"] == "reject" and tp_bad["rule"] == "R52", tp_bad
