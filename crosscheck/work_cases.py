"""Crosscheck cases of the work model: persistent kernels (a static or a
CLC-driven work queue, ``work_tile_loop``, per-tile dynamic domains,
``skip_if`` / ``skippable``), PDL wait and launch points, and the
``every`` / ``when_true`` / ``when_false`` guards, in correct and
deliberately broken forms.

Pure Python (standard library only), like cases.py, whose kernel cases these
extend with the keys below (every key optional; a case without them is a
plain cases.py kernel)::

  kernel["wq"]   {"kind": "static", "grid": [m, n]}
                 | {"kind": "clc", "stages": s, "consumers": c}
                 the kernel's work queue: TS's WorkQueue (StaticPersistent,
                 or ClcDynamicPersistent on a clc_fetch_async pipeline of s
                 stages whose consumer_group has c threads); tspipe's
                 kernel.work_queue (the CLC pipeline is named "wq_clc").
  kernel["pdl"]  {"deps": ["p0", ...]}: a PdlWaitBarrier whose dependency
                 edges feed these pipelines (TS's graph {p0: [pdl_wait]};
                 tspipe's pdl_pipelines, R37), and a PdlLaunchBarrier.
  task["tile"]   {"skip": bool, "skippable": bool, "tail": [WQ...]}: the
                 task runs in work_tile_loop(wq) (skip_if when "skip"; its
                 domain loop, head and tail inside skippable() when
                 "skippable"), ending each tile with the WQ steps.
  task["pre"], task["post"]   steps before and after the whole schedule
                 (outside the tile loop of a persistent task).
  loop["end"]    an int, or {"dyn": [a, b]}: the per-tile domain end
                 a * m + b (m the tile's first coordinate; TS: the Task's
                 get_domain, probed by TS at tile (0, 0, 0)).

WQ is one of ``wq_acquire``, ``wq_fetch``, ``wq_commit`` (the CLC
scheduler's fetch), ``wq_wait``, ``wq_advance``, ``wq_release`` (TS's
``wq.wait(); wq.get_and_advance_work_tile(); wq.release()``), as steps
``{"op": WQ}``. New steps: ``{"op": "pdl_wait"}``, ``{"op": "pdl_launch"}``.
New guards (loop body): ``{"guard": "every", "period": p, "start": s,
"body": [...]}``, ``{"guard": "when_true" | "when_false", "key": k,
"body": [...]}`` (k: an opaque condition key; tspipe: the i1 kernel
argument ``cond<k>``).
"""

from __future__ import annotations

import copy
import random
from typing import List

import cases as C

WQ_TAIL = ["wq_wait", "wq_advance", "wq_release"]
CLC_SCHED_TAIL = ["wq_acquire", "wq_fetch", "wq_commit"] + WQ_TAIL


def has_work_model(case: dict) -> bool:
    """The case uses a construct of this module."""
    if case.get("kind") != "kernel":
        return False
    if case.get("wq") or case.get("pdl"):
        return True
    for t in case.get("tasks", []):
        if t.get("tile") or t.get("pre") or t.get("post") or \
                isinstance(t["loop"].get("end"), dict):
            return True
        for s in t["loop"]["body"]:
            if s.get("guard") in ("every", "when_true", "when_false"):
                return True
    return False


def cond_keys(case: dict) -> List[int]:
    """The opaque condition keys the kernel's guards use, sorted."""
    keys = set()

    def walk(steps):
        for s in steps:
            if "guard" in s:
                if "key" in s:
                    keys.add(s["key"])
                walk(s["body"])
    for t in case.get("tasks", []):
        walk(t["head"])
        walk(t["loop"]["body"])
        walk(t["tail"])
    return sorted(keys)


def _brackets_of(task: dict, pipe: str):
    """Indices of the loop-body steps of ``task`` on ``pipe``."""
    return [i for i, s in enumerate(task["loop"]["body"])
            if s.get("pipe") == pipe]


def _wrap(task: dict, pipe: str, guard: dict) -> bool:
    """Puts every loop-body step of ``task`` on ``pipe`` (contiguous) under
    ``guard``; False when there is none."""
    idx = _brackets_of(task, pipe)
    if not idx:
        return False
    lo, hi = idx[0], idx[-1]
    body = task["loop"]["body"]
    inner = body[lo:hi + 1]
    body[lo:hi + 1] = [dict(guard, body=inner)]
    return True


def _pipe_tasks(kernel: dict, pipe: str):
    return [t for t in kernel["tasks"]
            if pipe in t["produces"] or pipe in t["consumes"]]


def _add_queue(kernel: dict, rng: random.Random) -> None:
    clc = rng.random() < 0.3
    if clc:
        warp = kernel["num_warps"]
        sched = {"name": "sched", "warp_idx": warp, "num_warps": 1,
                 "produces": [], "consumes": [], "cta": None,
                 "registers": None, "head": [], "tail": [],
                 "loop": {"start": 0, "end": 1, "step": 1, "body": []},
                 "tile": {"skip": False, "skippable": False,
                          "tail": list(CLC_SCHED_TAIL)}}
        kernel["tasks"].append(sched)
        kernel["num_warps"] = warp + 1
        t = kernel["cluster"][0]
        warps = sum(x["num_warps"] for x in kernel["tasks"])
        kernel["wq"] = {"kind": "clc", "stages": rng.choice([1, 2, 2, 4]),
                        "consumers": 32 * warps * t}
    else:
        kernel["wq"] = {"kind": "static",
                        "grid": [rng.choice([1, 2, 4, 7]), rng.choice([1, 3])]}
    skip = rng.random() < 0.3
    dyn = None
    if rng.random() < 0.3:
        dyn = [rng.choice([0, 1, 2]), rng.choice([1, 2, 4])]
    for task in kernel["tasks"]:
        tile = task.setdefault("tile", {"skip": skip, "skippable": skip,
                                        "tail": list(WQ_TAIL)})
        if task["name"] == "sched":
            continue
        tile["skip"] = tile["skippable"] = skip
        loop = task["loop"]
        if dyn and loop["start"] == 0 and loop["step"] == 1:
            loop["end"] = {"dyn": list(dyn)}


def _add_pdl(kernel: dict, rng: random.Random) -> None:
    pipes = [p["name"] for p in kernel["pipelines"]]
    deps = sorted(rng.sample(pipes, rng.choice([1, len(pipes)])))
    kernel["pdl"] = {"deps": deps}
    for task in kernel["tasks"]:
        if any(d in task["produces"] for d in deps):
            # Before the schedule; in a persistent task at the head of
            # each tile (tspipe's R22 keeps the tile loop's surroundings to
            # auxiliary work; mutation "pdl_outside" moves it out).
            if task.get("tile"):
                task["head"].insert(0, {"op": "pdl_wait"})
            else:
                task.setdefault("pre", []).append({"op": "pdl_wait"})
    if rng.random() < 0.6:
        task = rng.choice(kernel["tasks"])
        task.setdefault("post", []).append({"op": "pdl_launch"})


def _add_guards(kernel: dict, rng: random.Random) -> None:
    pipe = rng.choice(kernel["pipelines"])["name"]
    if rng.random() < 0.5:
        guard = {"guard": "every", "period": rng.choice([2, 2, 3]),
                 "start": 0}
        guard["start"] = rng.randrange(guard["period"])
    else:
        guard = {"guard": rng.choice(["when_true", "when_false"]), "key": 0}
    for task in _pipe_tasks(kernel, pipe):
        _wrap(task, pipe, guard)


def random_work_kernel(rng: random.Random) -> dict:
    """A cases.py kernel (no or one of its mutations) with a work queue,
    PDL points and/or guards, then zero or one work-model mutation."""
    kernel = C.random_kernel(rng, mutations=0)
    features = [f for f, p in (("wq", 0.6), ("pdl", 0.35), ("guards", 0.4))
                if rng.random() < p] or [rng.choice(["wq", "pdl", "guards"])]
    if "guards" in features:
        _add_guards(kernel, rng)
    if "wq" in features:
        _add_queue(kernel, rng)
    if "pdl" in features:
        _add_pdl(kernel, rng)
    if rng.random() < 0.5:
        mutate_work(kernel, rng)
    return kernel


def _guards(kernel: dict):
    """(task, index) of every new-style guard of a loop body."""
    return [(t, i) for t in kernel["tasks"]
            for i, s in enumerate(t["loop"]["body"])
            if s.get("guard") in ("every", "when_true", "when_false")]


_WAIT = {"op": "pdl_wait"}


def _wait_holders(tasks):
    """The tasks whose pre steps or head hold a pdl_wait."""
    return [t for t in tasks if _WAIT in t.get("pre", []) or _WAIT in t["head"]]


def _take_wait(task) -> None:
    for steps in (task.get("pre", []), task["head"]):
        if _WAIT in steps:
            steps.remove(_WAIT)
            return


def mutate_work(kernel: dict, rng: random.Random) -> None:
    """One random change to the work-model constructs that may break a
    rule (or, for some, keep the kernel correct)."""
    tasks = kernel["tasks"]
    tiled = [t for t in tasks if t.get("tile")]
    guards = _guards(kernel)
    kinds = []
    if tiled:
        kinds += ["tile_drop", "tail_drop", "skip_one", "skip_bare",
                  "skippable_bare", "dyn_one", "tail_dup"]
        if kernel["wq"]["kind"] == "clc":
            kinds += ["sched_drop", "clc_count", "clc_stages"]
    if kernel.get("pdl"):
        kinds += ["pdl_drop", "pdl_late", "pdl_in_loop", "pdl_launch_early",
                  "pdl_other_task", "pdl_outside"]
    else:
        kinds += ["pdl_launch_only"]
    if guards:
        kinds += ["guard_unwrap", "every_shift", "every_far", "every_period",
                  "when_flip", "when_key", "guard_nest", "guard_close"]
    kind = rng.choice(kinds)
    if kind == "tile_drop":
        del rng.choice(tiled)["tile"]
    elif kind == "tail_drop":
        tile = rng.choice(tiled)["tile"]
        if tile["tail"]:
            del tile["tail"][rng.randrange(len(tile["tail"]))]
    elif kind == "tail_dup":
        tile = rng.choice(tiled)["tile"]
        tile["tail"] += list(WQ_TAIL)
    elif kind == "skip_one":
        tile = rng.choice(tiled)["tile"]
        tile["skip"] = tile["skippable"] = not tile["skip"]
    elif kind == "skip_bare":
        tile = rng.choice(tiled)["tile"]
        tile["skip"], tile["skippable"] = True, False
    elif kind == "skippable_bare":
        tile = rng.choice(tiled)["tile"]
        tile["skip"], tile["skippable"] = False, True
    elif kind == "dyn_one":
        task = rng.choice(tiled)
        end = task["loop"]["end"]
        if isinstance(end, dict):
            a, b = end["dyn"]
            # Same end at tile 0 (a changed) or another end (b changed).
            end["dyn"] = [a + 1, b] if rng.random() < 0.6 else [a, b + 1]
        elif task["loop"]["start"] == 0 and task["loop"]["step"] == 1:
            task["loop"]["end"] = {"dyn": [1, end]}
    elif kind == "sched_drop":
        kernel["tasks"] = [t for t in tasks if t["name"] != "sched"]
    elif kind == "clc_count":
        kernel["wq"]["consumers"] = rng.choice([1, 32, kernel["wq"]["consumers"] * 2])
    elif kind == "clc_stages":
        kernel["wq"]["stages"] = rng.choice([0, 3, 8])
    elif kind == "pdl_drop":
        holders = _wait_holders(tasks)
        if holders:
            _take_wait(rng.choice(holders))
    elif kind == "pdl_late":
        holders = _wait_holders(tasks)
        if holders:
            t = rng.choice(holders)
            _take_wait(t)
            t.setdefault("post", []).insert(0, {"op": "pdl_wait"})
    elif kind == "pdl_outside":
        holders = [t for t in _wait_holders(tasks) if t.get("tile")]
        if holders:
            t = rng.choice(holders)
            _take_wait(t)
            t.setdefault("pre", []).insert(0, {"op": "pdl_wait"})
    elif kind == "pdl_in_loop":
        holders = _wait_holders(tasks)
        if holders:
            t = rng.choice(holders)
            _take_wait(t)
            where = rng.choice(["head", "first_iter", "tail", "body"])
            if where == "first_iter":
                t["loop"]["body"].insert(0, {"guard": "first_iter",
                                             "body": [{"op": "pdl_wait"}]})
            elif where == "body":
                t["loop"]["body"].insert(0, {"op": "pdl_wait"})
            else:
                t[where].insert(0 if where == "head" else len(t[where]),
                                {"op": "pdl_wait"})
    elif kind == "pdl_launch_early":
        t = rng.choice(tasks)
        t.setdefault("pre", []).insert(0, {"op": "pdl_launch"})
    elif kind == "pdl_other_task":
        # The wait in a task that does not produce the dependent pipeline.
        others = [t for t in tasks
                  if not set(t["produces"]) & set(kernel["pdl"]["deps"])]
        for t in _wait_holders(tasks):
            _take_wait(t)
        if others:
            rng.choice(others).setdefault("pre", []).append({"op": "pdl_wait"})
    elif kind == "pdl_launch_only":
        kernel["pdl"] = {"deps": []}
        rng.choice(tasks).setdefault("post", []).append({"op": "pdl_launch"})
    elif kind == "guard_unwrap":
        t, i = rng.choice(guards)
        body = t["loop"]["body"]
        body[i:i + 1] = body[i]["body"]
    elif kind == "every_shift":
        evs = [(t, i) for t, i in guards if t["loop"]["body"][i]["guard"] == "every"]
        if evs:
            t, i = rng.choice(evs)
            g = t["loop"]["body"][i]
            g["start"] = (g["start"] + 1) % g["period"]
    elif kind == "every_far":
        # TS's every(p, start=s) with s >= p: "from s on, every p".
        evs = [(t, i) for t, i in guards if t["loop"]["body"][i]["guard"] == "every"]
        for t, i in evs:
            g = t["loop"]["body"][i]
            g["start"] = g["period"] + g["start"]
    elif kind == "every_period":
        evs = [(t, i) for t, i in guards if t["loop"]["body"][i]["guard"] == "every"]
        if evs:
            t, i = rng.choice(evs)
            t["loop"]["body"][i]["period"] = rng.choice([0, 1, 4, -1])
    elif kind == "when_flip":
        whens = [(t, i) for t, i in guards
                 if t["loop"]["body"][i]["guard"] != "every"]
        if whens:
            t, i = rng.choice(whens)
            g = t["loop"]["body"][i]
            g["guard"] = "when_false" if g["guard"] == "when_true" else "when_true"
    elif kind == "when_key":
        whens = [(t, i) for t, i in guards
                 if t["loop"]["body"][i]["guard"] != "every"]
        if whens:
            t, i = rng.choice(whens)
            t["loop"]["body"][i]["key"] = 1
    elif kind == "guard_nest":
        t, i = rng.choice(guards)
        g = t["loop"]["body"][i]
        g["body"] = [{"guard": rng.choice(["first_iter", "last_iter"]),
                      "body": g["body"]}]
    elif kind == "guard_close":
        # Only the closing step of a bracket under the guard.
        t, i = rng.choice(guards)
        body = t["loop"]["body"]
        g = body[i]
        inner = g["body"]
        closers = [j for j, s in enumerate(inner)
                   if s.get("op") in ("commit", "release")]
        if closers and len(inner) > 1:
            j = closers[-1]
            body[i:i + 1] = inner[:j] + [dict(g, body=[inner[j]])] + inner[j + 1:]


def all_steps(task: dict) -> List[dict]:
    """Every step of a task, guards flattened (pre, head, loop, tail, tile
    tail, post)."""
    out = []

    def walk(steps):
        for s in steps:
            if "guard" in s:
                walk(s["body"])
            else:
                out.append(s)
    walk(task.get("pre", []))
    walk(task["head"])
    walk(task["loop"]["body"])
    walk(task["tail"])
    walk([{"op": w} for w in (task.get("tile") or {}).get("tail", [])])
    walk(task.get("post", []))
    return out


def copy_case(case: dict) -> dict:
    return copy.deepcopy(case)
