"""The crosscheck's work-model kernels on the tspipe side (no TS needed):
work queues, per-tile domains, skip_if / skippable, PDL points and the
every / when guards (crosscheck/work_cases.py), the adapter that builds
them (tspipe_runner.py) and their known classes (rules_work.py). The
verdicts of real TS on the same cases are in docs/crosscheck.md."""

import copy
import os
import random
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "crosscheck"))

import cases as C  # noqa: E402
import rules as R  # noqa: E402
import tspipe_runner as TP  # noqa: E402
import work_cases as W  # noqa: E402


def ring():
    return {"kind": "kernel", "num_warps": 2, "cluster": [1, 1, 1],
            "pipelines": [{"name": "p0", "factory": "async_async",
                           "smem_bytes": 64,
                           "kwargs": {"num_stages": 2,
                                      "producer_group": C.group("Thread", 32),
                                      "consumer_group": C.group("Thread", 32),
                                      "cta_layout_vmnk": None}}],
            "tasks": [
                {"name": "p", "warp_idx": 0, "num_warps": 1,
                 "produces": ["p0"], "consumes": [], "cta": None,
                 "registers": None, "head": [], "tail": [],
                 "loop": {"start": 0, "end": 4, "step": 1, "body": [
                     {"op": "acquire", "pipe": "p0"},
                     {"op": "producer_work", "pipe": "p0"},
                     {"op": "commit", "pipe": "p0"}]}},
                {"name": "c", "warp_idx": 1, "num_warps": 1,
                 "produces": [], "consumes": ["p0"], "cta": None,
                 "registers": None, "head": [], "tail": [],
                 "loop": {"start": 0, "end": 4, "step": 1, "body": [
                     {"op": "wait", "pipe": "p0"},
                     {"op": "consumer_work", "pipe": "p0"},
                     {"op": "release", "pipe": "p0"}]}}]}


def tiled(k, skip=(False, False), dyn=None):
    k["wq"] = {"kind": "static", "grid": [4, 1]}
    for i, t in enumerate(k["tasks"]):
        t["tile"] = {"skip": skip[i], "skippable": skip[i],
                     "tail": list(W.WQ_TAIL)}
        if dyn:
            t["loop"]["end"] = {"dyn": list(dyn[i])}
    return k


def guarded(k, guards):
    for t, g in zip(k["tasks"], guards):
        t["loop"]["body"] = [dict(g, body=t["loop"]["body"])]
    return k


def pdl(k, where="pre"):
    k["pdl"] = {"deps": ["p0"]}
    (k["tasks"][0].setdefault(where, []) if where in ("pre", "post")
     else k["tasks"][0][where]).insert(0, {"op": "pdl_wait"})
    k["tasks"][1].setdefault("post", []).append({"op": "pdl_launch"})
    return k


def clc(k):
    k["tasks"].append({"name": "sched", "warp_idx": 2, "num_warps": 1,
                       "produces": [], "consumes": [], "cta": None,
                       "registers": None, "head": [], "tail": [],
                       "loop": {"start": 0, "end": 1, "step": 1, "body": []},
                       "tile": {"skip": False, "skippable": False,
                                "tail": list(W.CLC_SCHED_TAIL)}})
    k["num_warps"] = 3
    for t in k["tasks"][:2]:
        t["tile"] = {"skip": False, "skippable": False, "tail": list(W.WQ_TAIL)}
    k["wq"] = {"kind": "clc", "stages": 2, "consumers": 96}
    return k


EVERY = {"guard": "every", "period": 2, "start": 1}
WHEN = {"guard": "when_true", "key": 0}


@pytest.mark.parametrize("case, rule", [
    (tiled(ring()), None),
    (tiled(ring(), skip=(True, True)), None),
    (tiled(ring(), dyn=[(1, 1), (1, 1)]), None),
    (clc(ring()), None),
    (guarded(ring(), [EVERY, EVERY]), None),
    (guarded(ring(), [WHEN, WHEN]), None),
    (pdl(ring()), None),
    # PDL points beside the tile loop (R22 allows them).
    (tiled(pdl(ring())), None),
    (tiled(pdl(ring(), "head")), None),
    # Broken forms.
    (tiled(ring(), skip=(True, False)), "R70"),
    (tiled(ring(), dyn=[(1, 1), (2, 1)]), "R70"),
    (guarded(ring(), [dict(EVERY, start=3), dict(EVERY, start=3)]), "X22"),
    (guarded(ring(), [WHEN, dict(WHEN, guard="when_false")]), "R70"),
    (pdl(ring(), "post"), "R37"),
])
def test_tspipe_verdicts_of_work_model_cases(case, rule):
    verdict = TP.judge(copy.deepcopy(case))
    if rule is None:
        assert verdict["verdict"] == "accept", verdict
    else:
        assert verdict["verdict"] == "reject", verdict
        assert rule in verdict["rules"], verdict


def test_generated_work_kernels_are_built_by_the_adapter():
    """Every generated work-model kernel gets a verdict from tspipe's own
    rules: no adapter error (a rejection without a rule id)."""
    rng = random.Random(5)
    seen = {"wq": 0, "pdl": 0, "guards": 0}
    for _ in range(40):
        case = W.random_work_kernel(rng)
        assert W.has_work_model(case)
        seen["wq"] += bool(case.get("wq"))
        seen["pdl"] += case.get("pdl") is not None
        seen["guards"] += bool(W.cond_keys(case)) or any(
            s.get("guard") == "every" for t in case["tasks"]
            for s in t["loop"]["body"])
        verdict = TP.judge(case)
        if verdict["verdict"] == "reject":
            assert verdict["rule"], verdict
    assert all(seen.values()), seen


def test_work_model_classes_are_known():
    blind = tiled(ring(), dyn=[(1, 1), (2, 1)])
    key = ("kernel", "accept", "reject", None, "R70", "_ tasks deadlock")
    assert R.classify(key, blind)["disposition"] == "TS defect"
    launch = pdl(ring())
    key = ("kernel", "reject", "accept", "R71", None,
           "Exhaustive checker found _ PDL launch ordering violation_ after")
    assert R.classify(key, launch)["disposition"] == "intended difference"
    far = guarded(ring(), [dict(EVERY, start=3)] * 2)
    key = ("kernel", "accept", "reject", None, "X22", "_ op _ start_")
    assert R.classify(key, far)["disposition"] == "intended difference"
    # The same R70 class without a per-tile domain is not this row's.
    plain = ring()
    assert R.classify(("kernel", "accept", "reject", None, "R70", "x"),
                      plain)["disposition"] == "unexplained"
