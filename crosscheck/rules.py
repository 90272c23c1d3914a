"""Rule ids for both sides' rejections, and the table of known
disagreement classes.

TS names no rule ids; which of its checks raised is read from the function
names on the traceback (ts_runner.py's ``where``) and, inside the broad
checks, from the message. tspipe's errors carry the id (``.rule``).
Rule ids are those of docs/Rules.md.
"""

from __future__ import annotations

import re
from typing import Optional

# TS check function (innermost first match wins) -> rule id.
_TS_FUNCTIONS = [
    ("_verify_warp_group_registers", "R41"),
    ("_verify_register_budget", "R42"),
    ("_verify_resource_stage_roles", "R27"),
    ("_verify_resource_deps", "R29"),
    ("_verify_resource_coverage", "R30"),
    ("_verify_schedule_uses_all_resources", "R31"),
    ("_validate_try_before_blocking", "R34"),
    ("_validate_work_group_bracketing", "R32"),
    ("_verify_work_group_bracketing", "R32"),
    ("_verify_dma_ordering", "R36"),
    ("_verify_consumer_wait_signaling", "R47"),
    ("_verify_leader_routed_producer_completions", "R56"),
    ("_verify_pipeline_thread_counts", "R52"),
    ("_verify_interleaved_pipelines", "R62"),
    ("_verify_cta_layout_consistency", "R57"),
    ("_verify_head_loop_producer_overlap", "R40"),
    ("_verify_smem_capacity", "R43"),
    ("_verify_tmem_capacity", "R44"),
    ("_verify_ping_pong_resources", "R65"),
    ("check_all_interleavings", "R71"),
    ("_exhaustive_aliasing_races", "R71"),
    ("print_schedule_list", "R70"),
]

# Message refinements: (rule found by function, regex on message, rule).
_TS_MESSAGES = [
    (None, r"unexpected keyword argument|missing \d+ required", "signature"),
    (None, r"SignalingThreads", "R1"),
    (None, r"async_producer_op", "R2"),
    (None, r"umma_consumer_producer_op", "R3"),
    (None, r"interleave_stride (tuple must be|must be an int|must be >= 1)", "R4"),
    (None, r"evenly\s+divide num_stages", "R5"),
    (None, r"advance_on_acquire=True is required", "R6"),
    (None, r"advance_on_wait=True is required", "R7"),
    (None, r"CooperativeGroup must be greater than 0|Unsupported agent type", "R8"),
    (None, r"num_registers must be", "R18"),
    (None, r"domain_loop|no static domain", "R16"),
    ("R52", r"TaskWarpLeader", "R45"),
    ("R52", r"exactly 1 arrival per tcgen|TCGen05", "R48"),
    ("R52", r"ClcLoad|CLC", "R50"),
    ("R52", r"pipeline=TmaUmma\): consumer", "R49"),
    ("R52", r"pipeline=Tma(Async|Umma)\).*(producer|TMA producer)", "R53"),
    ("R52", r"pipeline=TmaAsync\): consumer", "R54"),
    ("R52", r"TMA producer task\(s\) with more than one warp", "R53"),
    ("R62", r"cluster_total|single CTA|one CTA", "R59"),
    ("R62", r"only (supported|allowed) (on|for)|not supported for pipeline", "R58"),
    ("R62", r"domain.?lane.*(equal|same)", "R63"),
    (None, r"Schedule is blocked|not consumed|imbalance|credits?", "R70"),
    (None, r"deadlock|race", "R71"),
]


def ts_rule(result: dict) -> Optional[str]:
    """The rule id of a TS rejection (or None)."""
    if result.get("verdict") != "reject":
        return None
    where = result.get("where") or []
    message = result.get("message", "")
    rule = None
    for name in reversed(where):
        for fn, rid in _TS_FUNCTIONS:
            if name == fn:
                rule = rid
                break
        if rule:
            break
    for scope, pattern, rid in _TS_MESSAGES:
        if scope is not None and scope != rule:
            continue
        if scope is None and rule is not None and rid not in ("signature",):
            # A function-level rule is already known; messages refine only
            # their own scope.
            continue
        if re.search(pattern, message, re.S):
            rule = rid
            break
    if rule is None and result.get("etype") == "TypeError":
        rule = "type"
    return rule or "?"


def tspipe_rule(result: dict) -> Optional[str]:
    if result.get("verdict") != "reject":
        return None
    if result.get("rule"):
        return result["rule"]
    if result.get("etype") in ("TypeError", "ConfigTypeError"):
        return "type"
    message = result.get("message", "")
    if "unexpected keyword argument" in message or "required positional" in message:
        return "signature"
    return "untagged"


# Rule families: two rejections agree when their families match.
_FAMILIES = {
    "counts": {f"R{i}" for i in range(45, 55)} | {"R56"},
    "interleave": {"R5", "R61", "R58", "R59", "R60", "R62", "R63", "R64"},
    "bracketing": {"R32", "R33", "R34", "R70", "R71", "R66", "X8"},
    "registers": {"R18", "R41", "R42"},
    "types": {"type", "R1", "R4", "R8", "R10", "R15"},
}


def family(rule: Optional[str]) -> Optional[str]:
    if rule is None:
        return None
    for name, members in _FAMILIES.items():
        if rule in members:
            return name
    return rule


def class_key(case: dict, ts: dict, tp: dict) -> Optional[tuple]:
    """The disagreement class of a case, or None when the sides agree.

    ``(kind, ts_verdict, tspipe_verdict, ts_rule, tspipe_rule[, ...])``.
    Two rejections agree when one of tspipe's rules is in the family of
    TS's rule (TS stops at its first failing check, tspipe reports every
    failure)."""
    kind = case["kind"]
    tv, pv = ts.get("verdict"), tp.get("verdict")
    if tv in ("timeout", "crash") or pv in ("timeout", "crash"):
        return (kind, tv, pv, ts_rule(ts) or ts.get("etype"), tspipe_rule(tp))
    if tv == pv == "accept":
        return None
    if tv == pv == "reject":
        tr, pr = ts_rule(ts), tspipe_rule(tp)
        fams = {family(r) for r in (tp.get("rules") or [pr])} | {family(pr)}
        if family(tr) in fams:
            return None
        if kind == "config" and ts.get("etype") == "TypeError" and tp.get("etype") != "TypeError":
            return (kind, "reject", "reject", f"{tr}/TypeError", f"{pr}/ValueError")
        if kind == "config" and ts.get("etype") != "TypeError" and tp.get("etype") in ("TypeError", "ConfigTypeError"):
            return (kind, "reject", "reject", f"{tr}/ValueError", f"{pr}/TypeError")
        if kind == "config":
            return None  # both reject the config; which check fires first differs
        return (kind, "reject", "reject", tr, pr)
    if tv == "reject":
        return (kind, "reject", "accept", ts_rule(ts), None)
    return (kind, "accept", "reject", None, tspipe_rule(tp))


def key_text(key: tuple) -> str:
    kind, tv, pv, tr, pr = key[:5]
    left = f"TS {tv}" + (f" ({tr})" if tr else "")
    right = f"tspipe {pv}" + (f" ({pr})" if pr else "")
    return f"{kind}: {left} / {right}"


# ---------------------------------------------------------------------------
# Known classes: how each is classified. Matched on the class key (None is a
# wildcard) plus an optional predicate on the minimal case. Dispositions:
#   "tspipe bug"   tspipe's verdict is wrong: to fix.
#   "TS defect"    TS's verdict is wrong; tspipe keeps its rule (intended).
#   "earlier"      tspipe rejects at config/build time what TS rejects later
#                  (trace time): same final verdict, earlier.
#   "not modeled"  tspipe does not represent the concept.
#   "unexplained"  no entry: to be looked at.

KNOWN = [
    # -- configs --------------------------------------------------------
    dict(key=("config", "accept", "reject", None, "R8"), disposition="earlier",
         reason="TS checks cooperative-group sizes when CuTe builds the "
                "pipeline (trace time, docs/Rules.md R8); tspipe at the factory."),
    dict(key=("config", "accept", "reject", None, "R9"), disposition="earlier",
         reason="TS checks num_stages / num_bytes when the pipeline is created or "
                "simulated (R9, trace/manager time; num_bytes has no upper bound "
                "in TS: ts-oracle.md, Where TS is not the truth); tspipe at the factory."),
    dict(key=("config", "accept", "reject", None, "R10"), disposition="earlier",
         reason="TS reads cta_layout_vmnk only at trace time and accepts any "
                "tuple at the factory (R10); tspipe requires four static extents "
                "in [1, 16] with V in {1, 2} at the factory (X1, ts-semantics §6.2)."),
    dict(key=("config", "accept", "reject", None, "R15"), disposition="earlier",
         reason="TS's mcast_mode_mn check is a CuTe assertion at trace time (R15)."),
    dict(key=("config", "accept", "reject", None, "type"), disposition="earlier",
         reason="a field of the wrong Python type (tuple given as a list, "
                "bool for an int) fails in TS only when the field is used "
                "(trace or manager time); tspipe's factory checks types."),
    dict(key=("config", "reject", "accept", "signature", None),
         disposition="tspipe bug",
         reason="tspipe's factory lacks a keyword TS 4.8.1 has "
                "(issue 5 item 3: create_tma_async_pipeline_cfg(advance_on_wait=...))."),
    dict(key=("config", "accept", "reject", None, "signature"),
         disposition="tspipe bug",
         reason="tspipe's factory lacks a keyword TS 4.8.1 has "
                "(issue 5 item 3: create_tma_async_pipeline_cfg(advance_on_wait=...))."),
    dict(key=("config", "reject", "accept", "R4", None), disposition="tspipe bug",
         reason="TS rejects interleave_stride given as a list or as a tuple "
                "whose length is not 4 (R4); tspipe accepts (issue 5 item 3)."),
    dict(key=("config", "reject", "accept", "type", None), disposition="tspipe bug",
         reason="TS's factory rejects a value of the wrong type that tspipe accepts."),
    dict(key=("config", "reject", "reject", "R8/ValueError", None),
         disposition="tspipe bug",
         reason="TS raises ValueError (CuTe's CooperativeGroup: unsupported agent "
                "or size <= 0, bool included), tspipe TypeError (issue 5 item 3)."),
    dict(key=("config", "reject", "reject", "R2/ValueError", None),
         disposition="tspipe bug",
         reason="TS raises ValueError for a producer_op that is no PipelineOp, "
                "tspipe TypeError (issue 5 item 3)."),
    dict(key=("config", "reject", "reject", "R3/ValueError", None),
         disposition="tspipe bug",
         reason="as R2, for AsyncUmma's producer_op (issue 5 item 3)."),
    # -- kernels --------------------------------------------------------
    dict(key=("kernel", "accept", "reject", None, "R57"), disposition="TS defect",
         reason="TS does not know the launch cluster; tspipe requires each "
                "layout's V*M*N*L to equal the kernel's cluster (R57). Issue 5 "
                "item 2 asks to allow a cluster that differs from the layouts "
                "when every layout is (1,1,1,1) (the split-K tutorial)."),
    dict(key=("kernel", "accept", "reject", None, "R8"), disposition="earlier",
         reason="as for configs: TS checks the group at trace time."),
    dict(key=("kernel", "accept", "reject", None, "R10"), disposition="earlier",
         reason="as for configs: TS checks the layout at trace time."),
    dict(key=("kernel", "accept", "reject", None, "R9"), disposition="earlier",
         reason="as for configs: TS checks stages/bytes at trace time."),
]


def classify(key: tuple, case: dict = None) -> dict:
    for entry in KNOWN:
        k = entry["key"]
        if all(a is None or a == b for a, b in zip(k, key)):
            if k[3] is None and key[3] is not None and k[2] != key[2]:
                continue
            return entry
    return {"disposition": "unexplained", "reason": ""}
