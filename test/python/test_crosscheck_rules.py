"""crosscheck/rules.py's classification (no TS needed): the classes where
TS 4.8.1's simulators and tspipe's progress checker disagree, and TS
timeouts, which are no verdict."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "crosscheck"))

import rules as R  # noqa: E402


def _group(n):
    return {"$": "group", "agent": "Thread", "size": n}


def _tuple(*v):
    return {"$": "tuple", "v": list(v)}


def _task(name, warp, warps, produces, consumes, ops, start, end):
    return {"name": name, "warp_idx": warp, "num_warps": warps,
            "produces": produces, "consumes": consumes, "cta": None,
            "registers": None, "head": [], "tail": [],
            "loop": {"start": start, "end": end, "step": 1,
                     "body": [{"op": op, "pipe": "p0"} for op in ops]}}


def _umma_async(stages, strides, consumer_start, consumer_end, lane_warps):
    return {"kind": "kernel", "num_warps": 1 + lane_warps, "cluster": [1, 1, 1],
            "pipelines": [{"name": "p0", "factory": "umma_async", "smem_bytes": None,
                           "kwargs": {"num_stages": stages,
                                      "producer_group": _group(1),
                                      "consumer_group": _group(32),
                                      "cta_layout_vmnk": _tuple(1, 1, 1, 1),
                                      "interleave_stride": _tuple(*strides)}}],
            "tasks": [_task("prod0", 0, 1, ["p0"], [], ["acquire", "commit"], 0,
                            stages),
                      _task("cons0_0", 1, lane_warps, [], ["p0"],
                            ["wait", "release"], consumer_start, consumer_end)]}


def _reject(rule, message):
    return {"verdict": "reject", "rule": rule, "message": message, "etype": "ScheduleError"}


ACCEPT = {"verdict": "accept"}


def test_warp_lanes_against_a_dense_producer_are_a_ts_defect_both_ways():
    # TS accepts a hang (tspipe: R70 deadlock) ...
    hang = _umma_async(4, (1, 1, 4, 4), 0, 4, 4)
    tp = _reject("R70", "[R70] tasks deadlock with domain lengths @prod0 = 4, "
                        "@cons0_0 = 4: every unfinished task is blocked")
    key = R.class_key(hang, ACCEPT, tp)
    info = R.classify(key, hang)
    assert info["disposition"] == R.TS_DEFECT, info
    assert "warp_lane_hang" in info["reason"]
    # ... and rejects a balanced kernel (tspipe accepts).
    balanced = _umma_async(2, (1, 1, 2, 2), 1, 2, 2)
    ts = {"verdict": "reject", "etype": "ValueError",
          "message": "1x ProducerCommit from p0 not consumed!",
          "where": ["print_schedule_list"]}
    key = R.class_key(balanced, ts, ACCEPT)
    assert key[3] == "R70"
    info = R.classify(key, balanced)
    assert info["disposition"] == R.TS_DEFECT, info
    assert "warp_lane_balanced" in info["reason"]


def test_a_deadlock_without_warp_lanes_stays_unexplained():
    dense = _umma_async(4, (1, 1, 1, 1), 0, 5, 1)
    tp = _reject("R70", "[R70] tasks deadlock with domain lengths @prod0 = 4, "
                        "@cons0_0 = 5: every unfinished task is blocked")
    assert not R.warp_lane_rate_mismatch(dense)
    assert R.classify(R.class_key(dense, ACCEPT, tp), dense)["disposition"] == \
        "unexplained"


def test_an_unordered_release_phase_overrun_is_a_ts_defect():
    case = {"kind": "kernel", "num_warps": 3, "cluster": [1, 1, 1],
            "pipelines": [{"name": "p0", "factory": "async_async", "smem_bytes": None,
                           "kwargs": {"num_stages": 1, "producer_group": _group(32),
                                      "consumer_group": _group(32),
                                      "cta_layout_vmnk": _tuple(1, 1, 1, 1)}}],
            "tasks": [_task("prod0", 0, 1, ["p0"], [], ["acquire", "commit"], 0, 1),
                      _task("cons0_0", 1, 1, [], ["p0"], ["wait"], 0, 1),
                      _task("rel0", 2, 1, [], ["p0"], ["release"], 0, 1)]}
    tp = _reject("R71", "[R71] phase overrun with domain lengths @prod0 = 1, "
                        "@cons0_0 = 1, @rel0 = 1: @p0 empty barrier")
    info = R.classify(R.class_key(case, ACCEPT, tp), case)
    assert info["disposition"] == R.TS_DEFECT, info
    # The same overrun with the release ordered after a wait is not this class.
    case["tasks"][2]["loop"]["body"].insert(0, {"op": "wait", "pipe": "p0"})
    assert not R.unordered_release(case)


def test_a_ts_timeout_is_no_verdict():
    case = _umma_async(2, (1, 1, 2, 2), 1, 2, 2)
    timeout = {"verdict": "timeout"}
    assert R.inconclusive(timeout)
    assert R.class_key(case, timeout, ACCEPT) is None
    assert R.class_key(case, timeout, _reject("R70", "x")) is None
    assert not R.inconclusive({"verdict": "reject", "message": "x"})


def test_table_rows_expand_rule_tuples():
    keys = [e["key"] for e in R.KNOWN]
    for rule in ("R52", "R53", "R54", "R48", "R49", "R50", "R51"):
        assert ("kernel", "accept", "reject", None, rule) in keys
    assert all(e["disposition"] in (R.TS_DEFECT, R.TS_DEFECT_TO_CONFIRM,
                                    R.TSPIPE_BUG, R.INTENDED, R.EARLIER,
                                    R.NOT_MODELED) for e in R.KNOWN)
    assert all(e["reason"] for e in R.KNOWN)


def test_two_warp_lane_releasers_are_a_ts_defect():
    case = {"kind": "kernel", "num_warps": 6, "cluster": [1, 1, 1],
            "pipelines": [{"name": "p0", "factory": "tma_async", "smem_bytes": 128,
                           "kwargs": {"num_stages": 8, "num_bytes": 1024,
                                      "producer_group": _group(1),
                                      "consumer_group": _group(1),
                                      "interleave_stride": 2}}],
            "tasks": [_task("prod0", 0, 2, ["p0"], [], ["acquire", "commit"], 0, 8),
                      _task("cons0_0", 2, 2, [], ["p0"], ["release"], 0, 0),
                      _task("cons0_1", 4, 2, [], ["p0"], ["wait", "release"], 0, 8)]}
    assert R.shared_lane_release(case)
    tp = _reject("R54", "'tspipe.pipeline' op [R54] consumer_group gives 1 "
                        "arrivals per stage, but with consumer_release")
    info = R.classify(R.class_key(case, ACCEPT, tp), case)
    assert info["disposition"] == R.TS_DEFECT, info
    case["tasks"][1]["num_warps"] = 1
    assert not R.shared_lane_release(case)


def test_trace_time_checks_are_earlier():
    case = _umma_async(2, (1, 1, 1, 1), 0, 2, 1)
    tp = _reject("R25", "'tspipe.task' op [R25] runs on CTA 0 only and waits")
    assert R.classify(R.class_key(case, ACCEPT, tp), case)["disposition"] == R.EARLIER
