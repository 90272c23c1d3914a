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

from rules_work import WORK_TABLE

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


def inconclusive(ts: dict) -> bool:
    """TS gave no verdict: its runner stopped the case at the time limit
    (ts_runner.py, CROSSCHECK_CASE_TIMEOUT; TS's exhaustive interleaving
    checker can explore for minutes). Neither agreement nor disagreement:
    the driver counts these cases apart."""
    return ts.get("verdict") == "timeout"


def class_key(case: dict, ts: dict, tp: dict) -> Optional[tuple]:
    """The disagreement class of a case, or None when the sides agree (or
    TS gave no verdict: see ``inconclusive``).

    ``(kind, ts_verdict, tspipe_verdict, ts_rule, tspipe_rule[, ...])``.
    Two rejections agree when one of tspipe's rules is in the family of
    TS's rule (TS stops at its first failing check, tspipe reports every
    failure)."""
    kind = case["kind"]
    tv, pv = ts.get("verdict"), tp.get("verdict")
    if inconclusive(ts):
        return None
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
# Predicates on a class's minimal case (the ``when`` column of the table).


def _plain(value):
    """A JSON-encoded tuple (cases.py) as a Python tuple."""
    if isinstance(value, dict) and value.get("$") == "tuple":
        return tuple(value["v"])
    return value


def _strides(pipe: dict) -> tuple:
    """The pipeline's (acquire, commit, wait, release) interleave strides."""
    stride = _plain(pipe["kwargs"].get("interleave_stride", 1))
    if isinstance(stride, (tuple, list)) and len(stride) == 4:
        return tuple(s if isinstance(s, int) else 1 for s in stride)
    return (stride,) * 4 if isinstance(stride, int) else (1,) * 4


def _task_steps(task: dict) -> list:
    out = []

    def walk(steps):
        for s in steps:
            if "guard" in s:
                walk(s["body"])
            else:
                out.append(s)
    walk(task["head"])
    walk(task["loop"]["body"])
    walk(task["tail"])
    return out


def _does(task: dict, pipe: str, verbs) -> bool:
    return any(s.get("pipe") == pipe and s.get("op") in verbs
               for s in _task_steps(task))


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


def domain_lane_kernel(case: dict) -> bool:
    """Some task steps its domain loop by more than 1 on an interleaved
    pipeline that some task fills (domain lanes, R62)."""
    tasks = case.get("tasks", [])
    for pipe in case.get("pipelines", []):
        name = pipe["name"]
        if max(_strides(pipe)) <= 1:
            continue
        producers = [t for t in tasks if name in t["produces"]
                     and _does(t, name, ("commit",))]
        lanes = [t for t in tasks if name in t["consumes"]
                 and t["loop"]["step"] not in (0, 1)
                 and _does(t, name, ("wait",))]
        if producers and lanes:
            return True
    return False


def warp_lane_rate_mismatch(case: dict) -> bool:
    """Some interleaved pipeline has a warp-lane task (its warp count equals
    the stride k > 1 of a role it drives: every warp runs the whole domain
    loop on its own lane, k stages an iteration) whose partners on the other
    side move a different number of stages an iteration (a dense or
    domain-lane task moves one)."""
    for pipe in case.get("pipelines", []):
        name = pipe["name"]
        pa, pc, cw, cr = _strides(pipe)
        sides = {"producer": (max(pa, pc), ("try_acquire", "acquire", "commit")),
                 "consumer": (max(cw, cr), ("try_wait", "wait", "release"))}
        rates, lanes = {}, False
        for side, (k, verbs) in sides.items():
            rates[side] = set()
            for t in case.get("tasks", []):
                if not _does(t, name, verbs):
                    continue
                warp_lane = k > 1 and t["num_warps"] == k
                lanes = lanes or warp_lane
                rates[side].add(k if warp_lane else 1)
        if lanes and rates["producer"] and rates["consumer"] and \
                rates["producer"] != rates["consumer"]:
            return True
    return False


def unordered_release(case: dict) -> bool:
    """Some task releases a pipeline it never waits on (a split consumer)
    and no task orders that release after the wait (the harness has no
    proxy resources)."""
    for pipe in case.get("pipelines", []):
        name = pipe["name"]
        for t in case.get("tasks", []):
            if _does(t, name, ("release",)) and not _does(t, name, ("wait",)):
                return True
    return False


def non_int_group_size(case: dict) -> bool:
    """Some cooperative group of the config has a size that is not an int
    (a float, say): tspipe's factory rejects it with a TypeError."""
    for key in ("producer_group", "consumer_group"):
        group = case.get("kwargs", {}).get(key)
        if isinstance(group, dict) and group.get("$") == "group":
            size = group.get("size")
            if not isinstance(size, int) or isinstance(size, bool):
                return True
    return False


def uncommitted_acquires(case: dict) -> bool:
    """Some task acquires a pipeline without advance_on_acquire in every
    iteration but commits it only under a loop guard (or not at all), so
    its acquires repeat one stage (the default producer cursor advances at
    the commit)."""
    for pipe in case.get("pipelines", []):
        if pipe["kwargs"].get("advance_on_acquire") is True:
            continue
        name = pipe["name"]
        for t in case.get("tasks", []):
            body = t["loop"]["body"]
            acquires = any(s.get("op") == "acquire" and s.get("pipe") == name
                           for s in body)
            commits = any(s.get("op") == "commit" and s.get("pipe") == name
                          for s in body)
            if acquires and not commits:
                return True
    return False


def shared_lane_release(case: dict) -> bool:
    """Two or more warp-lane tasks close the same lanes of an interleaved
    pipeline (release, or commit, stride k > 1, tasks of k warps): each
    stage then gets one arrival per such task, while TS's interleaved
    counts assume one (R49, R52, R54)."""
    for pipe in case.get("pipelines", []):
        name = pipe["name"]
        _, pc, _, cr = _strides(pipe)
        for k, verb in ((cr, "release"), (pc, "commit")):
            if k <= 1:
                continue
            lanes = [t for t in case.get("tasks", [])
                     if _does(t, name, (verb,)) and t["num_warps"] == k]
            if len(lanes) > 1:
                return True
    return False


# ---------------------------------------------------------------------------
# Known classes: how each is classified. One row per class pattern, first
# match wins:
#
#   (kind, sides, rules, needle, when, disposition, reason)
#
# ``sides`` is "AR" (TS accepts, tspipe rejects with one of ``rules``), "RA"
# (TS rejects under one of ``rules``, tspipe accepts) or "RR" (both reject,
# with different exception classes; ``rules`` is the key's "R8/ValueError"
# text); ``rules`` is one rule id or a tuple of them. ``needle``, when set,
# must occur in the class key's message shape; ``when``, a predicate on the
# class's minimal case. Dispositions:
#   "tspipe bug"   tspipe's verdict is wrong: to fix.
#   "TS defect"    TS's verdict is wrong; tspipe keeps its rule (intended).
#   "intended difference"  both are right in their own terms (types, IR).
#   "earlier"      tspipe rejects at config/build time what TS rejects later
#                  (trace time): same final verdict, earlier.
#   "not modeled"  tspipe does not represent the concept.
#   "unexplained"  no row: to be looked at.
# A TS run that ran out of time (``timeout``) is no verdict: such cases are
# counted as inconclusive (``inconclusive``), never put in a class.

TS_DEFECT, TS_DEFECT_TO_CONFIRM = "TS defect", "TS defect (to confirm)"
TSPIPE_BUG, INTENDED = "tspipe bug", "intended difference"
EARLIER, NOT_MODELED = "earlier", "not modeled"

# Reasons shared by several rows.
_WHY = {
    "trace time": "as for configs: TS checks {what} at trace time.",
    "agent raw size": (
        "a group of Agent.Warp (or ThreadBlock) size n: TS compares the raw n "
        "with the arrivals while CuTe initializes the barrier with 32*n "
        "(ts-semantics §6.16; ts-oracle.md); tspipe counts arrivals of the "
        "agent and rejects the kernel that would hang."),
    "agent raw size, correct kernel": (
        "a group of Agent.Warp (or ThreadBlock) size n whose arrivals (32*n "
        "threads) are right: TS compares the raw n with the thread count and "
        "rejects a correct kernel (ts-semantics §6.16); tspipe counts the "
        "agent's arrivals."),
    "missing keyword": (
        "tspipe's factory lacks a keyword TS 4.8.1 has (issue 5 item 3: "
        "create_tma_async_pipeline_cfg(advance_on_wait=...))."),
    "warp lanes": (
        "a warp-lane task (num_warps equal to the stride k of a role it "
        "drives) runs its whole domain loop in every warp, each warp on its "
        "own lane (TS's Task._interleave_lane = warp_idx - warp_start; "
        "_run_loop_simple runs every iteration in every warp), so each of its "
        "schedule entries is k barrier operations on k different stages. TS "
        "4.8.1's simulators keep warp-lane pipelines in one fungible credit "
        "pool (print_schedule_list and check_all_interleavings key credits "
        "per physical stage only for domain lanes, _domain_interleaved_"
        "resource_ids) and move one credit per entry, so against a partner "
        "that moves one stage an iteration they count k times too few "
        "operations on the lane side. tspipe models each warp as its own "
        "agent (docs/ProgressChecker.md, Agents)."),
}

_TABLE = [
    # -- configs --------------------------------------------------------
    ("config", "AR", "R8", "got True", None, INTENDED,
     "CooperativeGroup(agent, True): TS counts True as size 1; tspipe rejects "
     "bool for every integer field (as TS does for R4)."),
    ("config", "AR", "R8", None, None, EARLIER,
     "TS checks cooperative-group sizes when CuTe builds the pipeline (trace "
     "time, docs/Rules.md R8); tspipe at the factory."),
    ("config", "AR", "R9", "exceeds the mbarrier transaction count", None,
     TS_DEFECT,
     "an mbarrier's transaction count holds at most 2^20-1 bytes per phase; TS "
     "does not bound num_bytes (ts-oracle.md, Where TS is not the truth), so "
     "such a stage can never complete."),
    ("config", "AR", "R9", "is out of range", None, INTENDED,
     "the value does not fit the IR's 64-bit field; TS keeps Python ints."),
    ("config", "AR", "R10", "exceeds", None, INTENDED,
     "a cluster holds at most 16 CTAs; TS does not check the extents (the "
     "launch fails), tspipe rejects them at the factory (X1)."),
    ("config", "AR", "R9", None, None, EARLIER,
     "TS checks num_stages / num_bytes when the pipeline is created or "
     "simulated (R9, trace/manager time; num_bytes has no upper bound in TS: "
     "ts-oracle.md, Where TS is not the truth); tspipe at the factory."),
    ("config", "AR", "R10", None, None, EARLIER,
     "TS reads cta_layout_vmnk only at trace time and accepts any tuple at "
     "the factory (R10); tspipe requires four static extents in [1, 16] with "
     "V in {1, 2} at the factory (X1, ts-semantics §6.2)."),
    ("config", "AR", "R15", None, None, EARLIER,
     "TS's mcast_mode_mn check is a CuTe assertion at trace time (R15)."),
    ("config", "AR", "type", "must be a bool", None, INTENDED,
     "TS takes any value for advance_on_wait / advance_on_acquire and uses "
     "its truthiness; tspipe requires a bool (the IR field is a BoolAttr)."),
    ("config", "AR", "type", "got True", None, INTENDED,
     "TS takes True/False where an int is expected (bool is an int subclass) "
     "except for interleave_stride, where it rejects them (R4); tspipe "
     "rejects bool for every integer field, as TS does for R4."),
    ("config", "AR", "type", None, None, EARLIER,
     "a field of the wrong Python type (tuple given as a list, bool for an "
     "int) fails in TS only when the field is used (trace or manager time); "
     "tspipe's factory checks types."),
    ("config", "RA", "signature", None, None, TSPIPE_BUG, _WHY["missing keyword"]),
    ("config", "AR", "signature", None, None, TSPIPE_BUG, _WHY["missing keyword"]),
    ("config", "RA", "R4", None, None, TSPIPE_BUG,
     "TS rejects interleave_stride given as a list or as a tuple whose length "
     "is not 4 (R4); tspipe accepts (issue 5 item 3)."),
    ("config", "RA", "type", None, None, TSPIPE_BUG,
     "TS's factory rejects a value of the wrong type that tspipe accepts."),
    ("config", "RR", "R8/ValueError", None, non_int_group_size, EARLIER,
     "two faults, each side stops at another: tspipe's factory rejects a "
     "group size that is not an int (TypeError; TS accepts it at the factory "
     "and uses it at trace time), TS the other group's size 0 (ValueError)."),
    ("config", "RR", "R8/ValueError", None, None, TSPIPE_BUG,
     "TS raises ValueError (CuTe's CooperativeGroup: unsupported agent or "
     "size <= 0, bool included), tspipe TypeError (issue 5 item 3)."),
    ("config", "RR", "R2/ValueError", None, None, TSPIPE_BUG,
     "TS raises ValueError for a producer_op that is no PipelineOp, tspipe "
     "TypeError (issue 5 item 3)."),
    ("config", "RR", "R3/ValueError", None, None, TSPIPE_BUG,
     "as R2, for AsyncUmma's producer_op (issue 5 item 3)."),
    ("config", "AR", "X6", "is not a multiple of", None, TS_DEFECT,
     "a TMA transaction count that is not a multiple of 16 bytes (field bug "
     "B19): bulk copies move 16-byte multiples, so the stage's transaction "
     "count never completes; TS does not check it (X6)."),
    # -- kernels: layouts, launch, warps ----------------------------------
    # Every layout one CTA on a larger launch cluster (the split-K tutorial):
    # R57 accepts CTA-local pipelines on any cluster, so seeing this class
    # again is a regression.
    ("kernel", "AR", "R57", "[one-CTA layouts]", None, TSPIPE_BUG,
     "regression: every layout is one CTA but the launch cluster is larger; "
     "TS allows it (split-K tutorial) and tspipe's R57 accepts CTA-local "
     "pipelines on any cluster since issue 5."),
    ("kernel", "AR", "R57", None, None, TS_DEFECT,
     "a layout of more CTAs than the launch cluster (or fewer, with multicast "
     "peers that do not exist): TS never sees the launch cluster and cannot "
     "check it; tspipe's kernel declares it (R57)."),
    ("kernel", "AR", "R18", None, None, TS_DEFECT,
     "TS does not check run_only_on_cta_id against the cluster, nor "
     "num_registers against setmaxnreg's least value 24 (ts-oracle.md, Where "
     "TS is not the truth); tspipe keeps R18 as in docs/Rules.md."),
    ("kernel", "AR", "X9", "overlap the warps", None, TS_DEFECT,
     "TS does not check that two tasks share warps (ts-oracle.md, Where TS is "
     "not the truth): such a warp runs both schedules in turn, and a producer "
     "drain waiting on its own later consumer work never returns. tspipe "
     "rejects it."),
    ("kernel", "AR", "X9", "do not fit", None, TS_DEFECT,
     "TS does not know the launch's warp count and so cannot check that task "
     "warps exist (ts-oracle.md); tspipe's kernel declares it."),
    ("kernel", "AR", "X9", "does not split", None, NOT_MODELED,
     "the harness gives each pipeline a data buffer; tspipe splits smem_bytes "
     "evenly over the stages, TS's SmemAllocation is one region with no "
     "per-stage split, so TS has nothing to check."),
    ("kernel", "AR", "signature", None, None, TSPIPE_BUG,
     "tspipe's create_tma_async_pipeline_cfg lacks advance_on_wait (issue 5 "
     "item 3)."),
    ("kernel", "AR", "R8", None, None, EARLIER,
     _WHY["trace time"].format(what="the group")),
    ("kernel", "AR", "R10", None, None, EARLIER,
     _WHY["trace time"].format(what="the layout")),
    ("kernel", "AR", "R9", None, None, EARLIER,
     _WHY["trace time"].format(what="stages/bytes")),
    ("kernel", "AR", "R25", None, None, EARLIER,
     "TS checks a run_only_on_cta_id task's wait signaling when it traces "
     "the task's wait (Task._check_leader_cta_signaling, trace time, R25); "
     "the crosscheck does not trace, tspipe's kernel verifier checks it."),
    # -- kernels: arrival counts ------------------------------------------
    ("kernel", "AR", ("R49", "R52", "R54"), None, shared_lane_release,
     TS_DEFECT,
     "several warp-lane tasks close the same lanes of an interleaved "
     "pipeline: every stage gets one arrival from each of them, but TS's "
     "interleaved counts (R49, R54: 1; R52: one lane warp) assume one, so "
     "when they all run the extra arrivals complete the next phase early "
     "(a parity wait then passes a phase it should not). tspipe counts one "
     "arrival per warp-lane task (crosscheck record: the X8 class of an "
     "empty-domain second releaser came from the model counting both tasks "
     "while the barrier counted one)."),
    ("kernel", "RA", ("R52", "R53", "R54"), None, non_thread_agent, TS_DEFECT,
     _WHY["agent raw size, correct kernel"]),
    ("kernel", "AR", ("R52", "R53", "R54", "R48", "R49", "R50", "R51", "R11"),
     None, non_thread_agent, TS_DEFECT, _WHY["agent raw size"] + " (R11: "
     "tspipe counts 32 x n threads, so an Agent.Warp consumer_group of n "
     "equal to the releasing warps is the all-thread release, which needs "
     "thread groups; TS infers the lane release from the raw n, whose "
     "arrivals never reach CuTe's count.)"),
    ("kernel", "AR", "X4", None, None, TS_DEFECT,
     "the all-thread TmaAsync release (every consumer thread arrives on its "
     "own CTA's empty barrier) on a cluster of several CTAs: the multicast "
     "peers that write into this CTA's stage wait on their own empty "
     "barriers, which these local arrives never reach (ts-semantics §2.2, "
     "[OPEN]); TS does not reject it, tspipe does (X4)."),
    ("kernel", "AR", "X2", None, None, TS_DEFECT,
     "a TmaUmma empty barrier counts one tcgen05 commit per CTA pair of its "
     "multicast row or column; TS's T or T/V is wrong for 2-D multicast "
     "clusters (X2)."),
    ("kernel", "AR", "X3", None, None, TS_DEFECT,
     "with V = 2 a tcgen05 side commits from one CTA of the pair (CtaLeader); "
     "TS lets both CTAs commit and the barrier counts twice (X3)."),
    # -- kernels: progress (R70, R71) -------------------------------------
    ("kernel", "RA", "R70", "[domain lanes]", None, TS_DEFECT,
     "domain-lane tasks (a domain loop stepping by the stride) with a "
     "warp-lane partner (one warp per lane): for domain-lane pipelines TS "
     "4.8.1's simulators key credits per physical stage (_stage_credit_key) "
     "but place every participant that is not a domain lane, warp-lane "
     "tasks included, at stage 0 advancing by 1 (_domain_lane_offset_stride), "
     "and count a warp-lane task's entry once; so a lane-1 wait looks "
     "blocked or a lane's commit looks unconsumed, while at run time each "
     "warp lane signals its own stage (ts-semantics §1.9). Lane starts "
     "outside [0, stride) are not in this class: tspipe rejects them (R62). "
     "Confirmed on the H200: docs/gpu-runs.md, TS verdicts on the GPU, "
     "domain_lanes_balanced completes."),
    ("kernel", "AR", "R70", None, warp_lane_rate_mismatch, TS_DEFECT,
     _WHY["warp lanes"] + " Here the lane side waits for stages its partner "
     "never fills: the kernel hangs (docs/gpu-runs.md, TS verdicts on the "
     "GPU: warp_lane_hang)."),
    ("kernel", "RA", "R70", None, warp_lane_rate_mismatch, TS_DEFECT,
     _WHY["warp lanes"] + " Here the two sides fill and drain the same "
     "stages and TS's leftover credit does not exist: the kernel completes "
     "(docs/gpu-runs.md, TS verdicts on the GPU: warp_lane_balanced)."),
    ("kernel", "AR", "R70", "credits are unbalanced", uncommitted_acquires,
     TS_DEFECT,
     "a producer acquires in every iteration but commits only under a "
     "guard; without advance_on_acquire the producer cursor moves at the "
     "commit, so its acquires wait on one stage again and again. TS's "
     "credit pool is one count per pipeline (print_schedule_list): n "
     "acquires take n slots and n releases (of other stages) return them, "
     "so it balances. Per stage the empty barrier completes phases the "
     "producer's cursor never visits, and the producer's drain then waits "
     "for a parity whose phase has already passed (docs/Protocols.md, "
     "Cursors; a parity wait sees only the last completed phase)."),
    ("kernel", "AR", "R71", "phase overrun", unordered_release, TS_DEFECT,
     "a task releases stages it never waits on, and nothing orders that "
     "release after the commit and wait it pairs with. TS's simulators "
     "count free slots as an unbounded integer (a release adds one, "
     "print_schedule_list and check_all_interleavings never compare the "
     "count with num_stages), so a release that runs first only leaves one "
     "spare credit. An mbarrier keeps one phase bit: that release completes "
     "the empty barrier's phase before the producer's acquire polls it, and "
     "the acquire's parity wait then waits for the next phase, which no one "
     "completes (R71, phase overrun; docs/gpu-runs.md, TS verdicts on the "
     "GPU: split_release)."),
]


def _rows(table):
    sides = {"AR": ("accept", "reject"), "RA": ("reject", "accept"),
             "RR": ("reject", "reject")}
    for kind, side, rules, needle, when, disposition, reason in table:
        ts_v, tp_v = sides[side]
        for rule in (rules if isinstance(rules, tuple) else (rules,)):
            key = ((kind, ts_v, tp_v, None, rule) if side == "AR"
                   else (kind, ts_v, tp_v, rule, None))
            yield dict(key=key, needle=needle, when=when,
                       disposition=disposition, reason=reason)


# The work-model rows first (each needs its construct in the case).
KNOWN = list(_rows(WORK_TABLE + _TABLE))


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
