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
    message = result.get("message", "")
    if "unexpected keyword argument" in message or "required positional" in message:
        return "signature"
    if result.get("etype") in ("TypeError", "ConfigTypeError"):
        return "type"
    return "untagged"


def detail(result: dict) -> str:
    """A short shape of a rejection message: numbers, quoted names and
    values removed, first words kept; splits broad TS checks (the credit
    simulator, bracketing) into the distinct problems they report."""
    message = " ".join(str(result.get("message", "")).split())
    message = re.sub(r"'[^']*'|\([^)]*\)|\[[^\]]*\]|-?\d+", "_", message)
    words = message.split()[:9]
    return " ".join(words)


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
        # Same verdict. Only the exception class is compared (configs):
        # which check fires first differs legitimately (TS stops at its
        # first failing check, tspipe reports every failure).
        tr, pr = ts_rule(ts), tspipe_rule(tp)
        ts_type = ts.get("etype") == "TypeError"
        tp_type = tp.get("etype") in ("TypeError", "ConfigTypeError")
        # Compared only when both name the same rule (one fault, two
        # exception classes), not when each stops at a different fault.
        same = tr in set(tp.get("rules") or []) | {pr}
        if kind == "config" and ts_type != tp_type and same:
            return (kind, "reject", "reject",
                    f"{tr}/{'TypeError' if ts_type else 'ValueError'}",
                    f"{pr}/{'TypeError' if tp_type else 'ValueError'}")
        return None
    if tv == "reject":
        shape = detail(ts)
        if kind == "kernel" and domain_lane_kernel(case):
            shape += " [domain lanes]"
        return (kind, "reject", "accept", ts_rule(ts), None, shape)
    pr = tspipe_rule(tp)
    shape = detail(tp)
    if kind == "kernel" and pr == "R57" and trivial_layouts(case):
        shape += " [one-CTA layouts]"
    return (kind, "accept", "reject", None, pr, shape)


def rule_pair(case: dict, ts: dict, tp: dict):
    """For two rejections: (TS rule, tspipe rules) when they name different
    rule families, else None (statistics only)."""
    if ts.get("verdict") != "reject" or tp.get("verdict") != "reject":
        return None
    tr, pr = ts_rule(ts), tspipe_rule(tp)
    fams = {family(r) for r in (tp.get("rules") or [pr])} | {family(pr)}
    if family(tr) in fams:
        return None
    return (tr, pr)


def key_text(key: tuple) -> str:
    kind, tv, pv, tr, pr = key[:5]
    left = f"TS {tv}" + (f" ({tr})" if tr else "")
    right = f"tspipe {pv}" + (f" ({pr})" if pr else "")
    text = f"{kind}: {left} / {right}"
    if len(key) > 5 and key[5]:
        text += f" — “{key[5]}”"
    return text


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
    dict(key=("config", "accept", "reject", None, "R8"), needle="got True",
         disposition="intended difference",
         reason="CooperativeGroup(agent, True): TS counts True as size 1; tspipe "
                "rejects bool for every integer field (as TS does for R4)."),
    dict(key=("config", "accept", "reject", None, "R8"), disposition="earlier",
         reason="TS checks cooperative-group sizes when CuTe builds the "
                "pipeline (trace time, docs/Rules.md R8); tspipe at the factory."),
    dict(key=("config", "accept", "reject", None, "R9"),
         needle="exceeds the mbarrier transaction count", disposition="TS defect",
         reason="an mbarrier's transaction count holds at most 2^20-1 bytes per "
                "phase; TS does not bound num_bytes (ts-oracle.md, Where TS is "
                "not the truth), so such a stage can never complete."),
    dict(key=("config", "accept", "reject", None, "R9"), needle="is out of range",
         disposition="intended difference",
         reason="the value does not fit the IR's 64-bit field; TS keeps Python ints."),
    dict(key=("config", "accept", "reject", None, "R10"), needle="exceeds",
         disposition="intended difference",
         reason="a cluster holds at most 16 CTAs; TS does not check the extents "
                "(the launch fails), tspipe rejects them at the factory (X1)."),
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
    dict(key=("config", "accept", "reject", None, "type"), needle="must be a bool",
         disposition="intended difference",
         reason="TS takes any value for advance_on_wait / advance_on_acquire and "
                "uses its truthiness; tspipe requires a bool (the IR field is a "
                "BoolAttr)."),
    dict(key=("config", "accept", "reject", None, "type"), needle="got True",
         disposition="intended difference",
         reason="TS takes True/False where an int is expected (bool is an int "
                "subclass) except for interleave_stride, where it rejects them "
                "(R4); tspipe rejects bool for every integer field, as TS does "
                "for R4."),
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
    # Every layout one CTA on a larger launch cluster (the split-K tutorial):
    # R57 accepts CTA-local pipelines on any cluster now, so this class is
    # fixed; seeing it again is a regression.
    dict(key=("kernel", "accept", "reject", None, "R57"),
         needle="[one-CTA layouts]", disposition="tspipe bug",
         reason="regression: every layout is one CTA but the launch cluster is "
                "larger; TS allows it (split-K tutorial) and tspipe's R57 "
                "accepts CTA-local pipelines on any cluster since issue 5."),
    dict(key=("kernel", "accept", "reject", None, "R57"), disposition="TS defect",
         reason="a layout of more CTAs than the launch cluster (or fewer, with "
                "multicast peers that do not exist): TS never sees the launch "
                "cluster and cannot check it; tspipe's kernel declares it (R57)."),
    dict(key=("kernel", "accept", "reject", None, "R18"), disposition="TS defect",
         reason="TS does not check run_only_on_cta_id against the cluster, nor "
                "num_registers against setmaxnreg's least value 24 (ts-oracle.md, "
                "Where TS is not the truth); tspipe keeps R18 as in docs/Rules.md."),
    dict(key=("kernel", "accept", "reject", None, "X9"), needle="overlap the warps",
         disposition="TS defect",
         reason="TS does not check that two tasks share warps (ts-oracle.md, Where "
                "TS is not the truth): such a warp runs both schedules in turn, and "
                "a producer drain waiting on its own later consumer work never "
                "returns. tspipe rejects it."),
    dict(key=("kernel", "accept", "reject", None, "X9"), needle="do not fit",
         disposition="TS defect",
         reason="TS does not know the launch's warp count and so cannot check that "
                "task warps exist (ts-oracle.md); tspipe's kernel declares it."),
    dict(key=("kernel", "accept", "reject", None, "signature"),
         disposition="tspipe bug",
         reason="tspipe's create_tma_async_pipeline_cfg lacks advance_on_wait "
                "(issue 5 item 3)."),
    dict(key=("kernel", "accept", "reject", None, "R8"), disposition="earlier",
         reason="as for configs: TS checks the group at trace time."),
    dict(key=("kernel", "accept", "reject", None, "R10"), disposition="earlier",
         reason="as for configs: TS checks the layout at trace time."),
    dict(key=("kernel", "accept", "reject", None, "R9"), disposition="earlier",
         reason="as for configs: TS checks stages/bytes at trace time."),
]


def trivial_layouts(case: dict) -> bool:
    """Every pipeline layout of the kernel is one CTA (or absent)."""
    for pipe in case.get("pipelines", []):
        layout = pipe["kwargs"].get("cta_layout_vmnk")
        if isinstance(layout, dict) and any(e != 1 for e in layout.get("v", [])):
            return False
    return True


def non_thread_agent(case: dict) -> bool:
    """Some pipeline of the kernel has a group whose agent is not Thread."""
    for pipe in case.get("pipelines", []):
        for key in ("producer_group", "consumer_group"):
            group = pipe["kwargs"].get(key)
            if isinstance(group, dict) and group.get("agent") != "Thread":
                return True
    return False


def cluster_tma_async(case: dict) -> bool:
    """Some TmaAsync pipeline of the kernel spans more than one CTA."""
    for pipe in case.get("pipelines", []):
        layout = pipe["kwargs"].get("cta_layout_vmnk")
        if pipe["factory"] == "tma_async" and isinstance(layout, dict):
            extents = layout.get("v", [])
            product = 1
            for e in extents:
                product *= e if isinstance(e, int) else 1
            if product > 1:
                return True
    return False


# A TmaAsync all-thread release (a consumer group of one warp) on a
# multi-CTA cluster: tspipe rejects it now (X4, kernel verifier), so both
# sides reject; the class of TS reject / tspipe accept is gone.
KNOWN.append(dict(
    key=("kernel", "accept", "reject", None, "X9"), needle="does not split",
    disposition="not modeled",
    reason="the harness gives each pipeline a data buffer; tspipe splits "
           "smem_bytes evenly over the stages, TS's SmemAllocation is one "
           "region with no per-stage split, so TS has nothing to check."))

# tspipe verifies R52-R54: accepting there means the agent-scaled count is
# right, so TS's rejection (raw size) is TS's defect.
for _rule in ("R52", "R53", "R54"):
    KNOWN.append(dict(
        key=("kernel", "reject", "accept", _rule, None), when=non_thread_agent,
        disposition="TS defect",
        reason="a group of Agent.Warp (or ThreadBlock) size n whose arrivals "
               "(32*n threads) are right: TS compares the raw n with the thread "
               "count and rejects a correct kernel (ts-semantics §6.16); tspipe "
               "counts the agent's arrivals."))
for _rule in ("R52", "R53", "R54", "R48", "R49", "R50", "R51"):
    KNOWN.append(dict(
        key=("kernel", "accept", "reject", None, _rule), when=non_thread_agent,
        disposition="TS defect",
        reason="a group of Agent.Warp (or ThreadBlock) size n: TS compares the "
               "raw n with the arrivals while CuTe initializes the barrier with "
               "32*n (ts-semantics §6.16; ts-oracle.md); tspipe counts arrivals "
               "of the agent and rejects the kernel that would hang."))

def domain_lane_kernel(case: dict) -> bool:
    """Some task steps its domain loop by more than 1 on an interleaved
    pipeline (domain lanes, R62)."""
    strided = set()
    for pipe in case.get("pipelines", []):
        stride = C_plain(pipe["kwargs"].get("interleave_stride", 1))
        if (max(stride) if isinstance(stride, (tuple, list)) else stride) not in (1, None):
            strided.add(pipe["name"])
    tasks = case.get("tasks", [])
    for name in strided:
        def does(t, verb):
            return any(st.get("op") == verb and st.get("pipe") == name
                       for st in t["head"] + t["loop"]["body"] + t["tail"])
        producers = [t for t in tasks if name in t["produces"]
                     and does(t, "commit")]
        lanes = [t for t in tasks if name in t["consumes"]
                 and t["loop"]["step"] not in (0, 1) and does(t, "wait")]
        # A real lane pairing: someone fills the stages the lanes wait on.
        if producers and lanes:
            return True
    return False


def C_plain(value):
    if isinstance(value, dict) and value.get("$") == "tuple":
        return tuple(value["v"])
    return value


KNOWN.append(dict(
    key=("kernel", "reject", "accept", "R70", None), needle="[domain lanes]",
    disposition="TS defect (to confirm)",
    reason="interleaved tasks (warp lanes: one warp per lane; domain lanes: "
           "a domain loop stepping by the stride): TS 4.8.1's per-stage credit "
           "simulation counts a multi-warp lane task as one participant on "
           "lane 0's stages (its message lists credits on stage 0 only), so a "
           "lane-1 wait looks blocked or a lane's commit looks unconsumed; at "
           "run time each warp lane signals its own stage (ts-semantics §1.9). "
           "Lane starts outside [0, stride) are no longer in this class: "
           "tspipe rejects them (R62). To confirm on the GPU."))

# The rules of issue 5 item 1 (R11, R12, R25, R32-R34, R40-R42, R44-R51,
# R56, R58-R60, R63-R65) are verified by the kernel verifier, and R70/R71 by
# the progress checker, which the tspipe runner now runs as Kernel.verify()
# does: a class where TS rejects under one of them and tspipe accepts is no
# longer a known gap; it stays unexplained until it is looked at.


# tspipe's own rules (X2-X8, docs/Rules.md): TS has no such check and
# accepts a kernel that misbehaves.
KNOWN.append(dict(
    key=("config", "accept", "reject", None, "X6"), needle="is not a multiple of",
    disposition="TS defect",
    reason="a TMA transaction count that is not a multiple of 16 bytes (field "
           "bug B19): bulk copies move 16-byte multiples, so the stage's "
           "transaction count never completes; TS does not check it (X6)."))
KNOWN.append(dict(
    key=("kernel", "accept", "reject", None, "X2"), disposition="TS defect",
    reason="a TmaUmma empty barrier counts one tcgen05 commit per CTA pair of "
           "its multicast row or column; TS's T or T/V is wrong for 2-D "
           "multicast clusters (X2)."))
KNOWN.append(dict(
    key=("kernel", "accept", "reject", None, "X3"), disposition="TS defect",
    reason="with V = 2 a tcgen05 side commits from one CTA of the pair "
           "(CtaLeader); TS lets both CTAs commit and the barrier counts "
           "twice (X3)."))


def _matches(pattern, key, needle):
    if not all(a is None or a == b for a, b in zip(pattern, key)):
        return False
    return needle is None or (len(key) > 5 and needle in (key[5] or ""))


def classify(key: tuple, case: dict = None) -> dict:
    """The KNOWN entry of a class key (first match; ``needle``, when an
    entry has one, must occur in the key's message shape; ``when``, a
    predicate on the class's minimal case)."""
    for entry in KNOWN:
        if not _matches(entry["key"], key, entry.get("needle")):
            continue
        when = entry.get("when")
        if when is not None and (case is None or not when(case)):
            continue
        return {k: v for k, v in entry.items() if k != "when"}
    return {"disposition": "unexplained", "reason": ""}
