"""Known disagreement classes of the work-model kernels (work_cases.py):
work queues, per-tile domains, skip_if / skippable, PDL points and the
every / when_true / when_false guards.

Rows have the format of rules.py's table; rules.py puts them before its own
rows, and each row's predicate requires the construct it is about, so the
classes of plain kernels keep their rows.
"""

from __future__ import annotations

import work_cases as W

TS_DEFECT, INTENDED = "TS defect", "intended difference"
TSPIPE_BUG, EARLIER, NOT_MODELED = "tspipe bug", "earlier", "not modeled"


def _steps(task):
    return W.all_steps(task)


def _ops(task):
    return {s.get("op") for s in _steps(task)}


def pdl_launch(case: dict) -> bool:
    """Some task issues launch_dependents."""
    return any("pdl_launch" in _ops(t) for t in case.get("tasks", []))


def static_queue_tail_incomplete(case: dict) -> bool:
    """A static work queue and some task whose tile tail lacks the wait,
    the advance or the release of TS's three-step tail, or has them twice
    (a static queue's wait and release emit nothing in tspipe)."""
    wq = case.get("wq")
    if not wq or wq["kind"] != "static":
        return False
    return any(t.get("tile") and t["tile"]["tail"] != W.WQ_TAIL
               for t in case["tasks"])


def every_from_start(case: dict) -> bool:
    """An every(period, start) guard with start >= period, or period < 1."""
    for t in case.get("tasks", []):
        for s in t["loop"]["body"]:
            if s.get("guard") == "every" and (
                    s["start"] >= s["period"] or s["period"] < 1):
                return True
    return False


def tile_probe_blind(case: dict) -> bool:
    """Two tasks of a pipeline whose per-tile domain ends a * m + b agree at
    tile 0 (the tile TS probes) but differ on another tile."""
    ends = {}
    for t in case.get("tasks", []):
        end = t["loop"]["end"]
        key = tuple(end["dyn"]) if isinstance(end, dict) else (0, end)
        for p in t["produces"] + t["consumes"]:
            ends.setdefault(p, set()).add(key)
    for values in ends.values():
        if len({b for _, b in values}) == 1 and len(values) > 1:
            return True
    return False


def split_guard(case: dict) -> bool:
    """A task whose bracket on a pipeline opens and closes under different
    loop guards (one of them every / when_true / when_false)."""
    new = ("every", "when_true", "when_false")

    def guards_of(steps, guard, out):
        for s in steps:
            if "guard" in s:
                g = (s["guard"], s.get("period"), s.get("start"), s.get("key"))
                guards_of(s["body"], g, out)
            elif "pipe" in s:
                out.setdefault(s["pipe"], set()).add(guard)
    for t in case.get("tasks", []):
        seen = {}
        guards_of(t["loop"]["body"], None, seen)
        for gs in seen.values():
            if len(gs) > 1 and any(g and g[0] in new for g in gs):
                return True
    return False


def unused_pdl_wait(case: dict) -> bool:
    """The kernel declares PDL (TS: a PdlWaitBarrier resource) but no task
    waits."""
    return case.get("pdl") is not None and not any(
        "pdl_wait" in _ops(t) for t in case.get("tasks", []))


def clc_scheduler_fills_more(case: dict) -> bool:
    """A CLC work queue whose scheduler task (it fetches) also issues a
    PDL launch, so its dst_resources hold more than the WorkQueue."""
    wq = case.get("wq")
    if not wq or wq["kind"] != "clc":
        return False
    return any("wq_fetch" in _ops(t) and "pdl_launch" in _ops(t)
               for t in case["tasks"])


def guarded_domain_lanes(case: dict) -> bool:
    """Domain-lane consumers (a domain loop stepping by more than one) of a
    pipeline some task fills, under a when_true / when_false guard."""
    lanes = any(t["loop"]["step"] not in (0, 1) for t in case.get("tasks", []))
    return lanes and bool(W.cond_keys(case))


_WHY_PDL_ORDER = (
    "TS's exhaustive checker requires every launch_dependents to come after "
    "some wait_griddep in every interleaving (PdlLaunchBarrier's contract). "
    "That is an ordering policy, not a hazard of this grid: "
    "griddepcontrol.launch_dependents only lets the next grid start, and "
    "the next grid's griddepcontrol.wait still waits for this whole grid to "
    "complete and flush its memory (CUDA programming guide, programmatic "
    "dependent launch). tspipe checks what can race: every task that reads "
    "the previous grid's data (pdl_pipelines, pdl_input) is dominated by "
    "its own wait (R37, X20), and accepts an early launch.")

WORK_TABLE = [
    ("kernel", "RA", "R29", "is not used by any", unused_pdl_wait, INTENDED,
     "a kernel that declares PDL but whose tasks never wait: TS's "
     "PdlWaitBarrier is a resource, and a resource of the dependency graph "
     "that no task lists is an error (R29); in tspipe the wait is an op "
     "(tspipe.pdl_wait), so there is no resource to leave unused, and with "
     "no pipeline listed in pdl_pipelines nothing needs a wait (R37)."),
    ("kernel", "RA", "?", "Tasks with only WorkQueue in dst_resources",
     clc_scheduler_fills_more, INTENDED,
     "TS recognizes the CLC scheduler task by a dst_resources list that "
     "holds the WorkQueue alone, so a scheduler that also fills a "
     "PdlLaunchBarrier (it launches the dependent grid) is not one and the "
     "kernel has no scheduler; tspipe knows the scheduler by its "
     "tspipe.fetch_work_tile and lets it issue the PDL launch too."),
    ("kernel", "RA", "R71", "[domain lanes]", guarded_domain_lanes, TS_DEFECT,
     "the domain-lane defect of TS's simulators (the R70 [domain lanes] "
     "class: a warp-lane partner is placed at stage 0 advancing by one, "
     "_domain_lane_offset_stride), here found by the exhaustive checker in "
     "one assignment of an opaque when_true / when_false condition: the "
     "lanes look blocked on stages the warp lanes do fill at run time "
     "(docs/gpu-runs.md, TS verdicts on the GPU: domain_lanes_balanced)."),
    ("kernel", "RA", "R71", "PDL launch ordering", pdl_launch, INTENDED,
     _WHY_PDL_ORDER),
    ("kernel", "RA", ("R32", "R70", "R71"), None,
     static_queue_tail_incomplete, INTENDED,
     "a static work queue has no barrier: TS schedules its wait, "
     "get_and_advance_work_tile and release as pipeline steps and checks "
     "their order and count (R32, its simulators), while in tspipe a "
     "static queue's wait and release emit nothing and only "
     "advance_work_tile moves to the next tile (ts-semantics 2.8; "
     "docs/python.md). A tile tail without the wait or the release, or "
     "with them twice, runs the same code."),
    ("kernel", "AR", "X22", None, every_from_start, INTENDED,
     "every(period, start) with start >= period: TS reads it as 'from "
     "iteration start on, every period-th' (enums.Every.fires); tspipe "
     "keeps start in [0, period) so the guard is k mod period == start "
     "(X22, docs/python.md) and asks for the explicit form."),
    ("kernel", "AR", ("R70", "R71"), None, tile_probe_blind, TS_DEFECT,
     "per-tile domains a * m + b of the two sides agree at tile (0, 0, 0), "
     "the one tile TS's validation probes (task_manager._try_probe_domain), "
     "and differ on every other tile: there one side moves more stages than "
     "the other and the kernel hangs. tspipe's progress checker compares "
     "the trip counts as functions of the tile coordinates."),
]
