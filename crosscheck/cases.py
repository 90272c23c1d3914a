"""Crosscheck cases: the JSON description both sides build from, and the
seeded random generators of configs and kernels.

Pure Python (standard library only): imported by the driver (tspipe's venv)
and by the TS runner (the TS venv), which share nothing else.

Value encoding (JSON cannot tell a tuple from a list, nor hold enums):

=============================================  ===============================
JSON                                           Python value on each side
=============================================  ===============================
``{"$": "tuple", "v": [...]}``                 a tuple (elements decoded)
``[...]``                                      a list (elements decoded)
``{"$": "group", "agent": A, "size": S}``      ``CooperativeGroup(agent, size)``;
                                               A is an ``Agent`` member name or
                                               ``{"$": "raw", "v": "Thread"}``
                                               (a plain string, not an Agent)
``{"$": "sig", "v": 3}``                       ``SignalingThreads(3)`` (any bits)
``{"$": "op", "v": "AsyncLoad"}``              ``PipelineOp.AsyncLoad``
``{"$": "raw", "v": x}``                       ``x`` itself (a wrong type)
null / true / ints / strings                   themselves
=============================================  ===============================

A config case: ``{"kind": "config", "factory": "tma_async", "kwargs": {...}}``
(every argument by keyword). A kernel case::

  {"kind": "kernel", "num_warps": 3, "cluster": [1, 1, 1],
   "pipelines": [{"name": "p0", "factory": "tma_async", "kwargs": {...},
                  "smem_bytes": 4096}],
   "tasks": [{"name": "t0", "warp_idx": 0, "num_warps": 1,
              "produces": ["p0"], "consumes": [], "cta": null,
              "registers": null,
              "head": [STEP...],
              "loop": {"start": 0, "end": 4, "step": 1, "body": [STEP...]},
              "tail": [STEP...]}]}

STEP is ``{"op": OP, "pipe": NAME}`` with OP one of ``try_acquire``,
``acquire``, ``producer_work``, ``commit``, ``try_wait``, ``wait``,
``consumer_work``, ``release``; or (loop body only)
``{"guard": "first_iter" | "last_iter", "body": [STEP...]}``.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Dict, List, Optional

# ---------------------------------------------------------------------------
# Factories: TS 4.8.1's keyword lists (the signatures tspipe keeps).

FACTORIES: Dict[str, List[str]] = {
    "async_async": ["num_stages", "producer_group", "consumer_group",
                    "cta_layout_vmnk", "producer_signaling_threads",
                    "consumer_signaling_threads", "barrier_ptr", "producer_op",
                    "advance_on_acquire", "interleave_stride"],
    "tma_async": ["num_stages", "num_bytes", "producer_group", "consumer_group",
                  "cta_layout_vmnk", "producer_signaling_threads",
                  "consumer_signaling_threads", "barrier_ptr",
                  "advance_on_wait", "interleave_stride",
                  "num_bytes_per_warp_per_cta"],
    "tma_umma": ["num_stages", "num_bytes", "producer_group", "consumer_group",
                 "cta_layout_vmnk", "producer_signaling_threads",
                 "consumer_signaling_threads", "barrier_ptr",
                 "advance_on_wait", "interleave_stride", "mcast_mode_mn",
                 "num_bytes_per_warp_per_cta"],
    "umma_async": ["num_stages", "producer_group", "consumer_group",
                   "cta_layout_vmnk", "producer_signaling_threads",
                   "consumer_signaling_threads", "barrier_ptr",
                   "interleave_stride"],
    "async_umma": ["num_stages", "producer_group", "consumer_group",
                   "cta_layout_vmnk", "producer_signaling_threads",
                   "consumer_signaling_threads",
                   "consumer_wait_signaling_threads", "producer_op",
                   "barrier_ptr", "advance_on_wait", "advance_on_acquire",
                   "interleave_stride"],
    "umma_umma": ["num_stages", "producer_group", "consumer_group",
                  "cta_layout_vmnk", "producer_signaling_threads",
                  "consumer_signaling_threads", "barrier_ptr"],
    "clc_fetch_async": ["num_stages", "num_bytes", "producer_group",
                        "consumer_group", "cta_layout_vmnk",
                        "producer_signaling_threads",
                        "consumer_signaling_threads", "barrier_ptr"],
}

# Arguments without a default in TS's signatures.
REQUIRED: Dict[str, List[str]] = {
    "async_async": ["num_stages", "producer_group", "consumer_group",
                    "cta_layout_vmnk"],
    "tma_async": ["num_stages", "num_bytes", "producer_group",
                  "consumer_group"],
    "tma_umma": ["num_stages", "num_bytes", "producer_group", "consumer_group",
                 "cta_layout_vmnk"],
    "umma_async": ["num_stages", "producer_group", "consumer_group",
                   "cta_layout_vmnk"],
    "async_umma": ["num_stages", "producer_group", "consumer_group",
                   "cta_layout_vmnk"],
    "umma_umma": ["num_stages", "producer_group", "consumer_group",
                  "cta_layout_vmnk"],
    "clc_fetch_async": ["num_stages", "num_bytes", "producer_group",
                        "consumer_group", "cta_layout_vmnk"],
}

TMA_TYPES = ("tma_async", "tma_umma")
BYTES_TYPES = ("tma_async", "tma_umma", "clc_fetch_async")

# Signaling flag values: All=1, CtaLeader=2, TaskWarpLeader=4.
ALL, CTA_LEADER, TASK_WARP_LEADER = 1, 2, 4

PRODUCER_OPS = ("try_acquire", "acquire", "producer_work", "commit")
CONSUMER_OPS = ("try_wait", "wait", "consumer_work", "release")


def tup(*values):
    return {"$": "tuple", "v": list(values)}


def group(agent: str, size) -> dict:
    return {"$": "group", "agent": agent, "size": size}


def sig(value: int) -> dict:
    return {"$": "sig", "v": value}


def op(name: str) -> dict:
    return {"$": "op", "v": name}


def raw(value) -> dict:
    return {"$": "raw", "v": value}


def dumps(case) -> str:
    return json.dumps(case, sort_keys=True, separators=(",", ":"))


def plain(value):
    """``value`` without the JSON tags: tuples as tuples, groups as
    ``("Thread", 32)``; for arithmetic in generators and the driver."""
    if isinstance(value, dict) and "$" in value:
        tag = value["$"]
        if tag == "tuple":
            return tuple(plain(v) for v in value["v"])
        if tag == "group":
            return (value["agent"], value["size"])
        return value["v"]
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def show(value) -> str:
    """Python-like text of an encoded value (for the report)."""
    if isinstance(value, dict) and "$" in value:
        tag = value["$"]
        if tag == "tuple":
            inner = ", ".join(show(v) for v in value["v"])
            return f"({inner},)" if len(value["v"]) == 1 else f"({inner})"
        if tag == "group":
            agent = value["agent"]
            agent_text = (repr(agent["v"]) if isinstance(agent, dict)
                          else f"Agent.{agent}")
            return f"CooperativeGroup({agent_text}, {show(value['size'])})"
        if tag == "sig":
            names = [n for bit, n in ((1, "All"), (2, "CtaLeader"),
                                      (4, "TaskWarpLeader")) if value["v"] & bit]
            rest = value["v"] & ~7
            if rest or not names:
                return f"SignalingThreads({value['v']})"
            return "|".join(f"SignalingThreads.{n}" for n in names)
        if tag == "op":
            return f"PipelineOp.{value['v']}"
        if tag == "raw":
            return repr(value["v"])
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return repr(value)


def show_config(factory: str, kwargs: dict) -> str:
    args = ", ".join(f"{k}={show(v)}" for k, v in kwargs.items())
    return f"create_{factory}_pipeline_cfg({args})"


# ---------------------------------------------------------------------------
# Random configs: every keyword, valid and invalid values.

LAYOUTS = [None, tup(1, 1, 1, 1), tup(2, 1, 1, 1), tup(1, 2, 1, 1),
           tup(1, 1, 2, 1), tup(2, 2, 1, 1), tup(1, 2, 2, 1), tup(2, 1, 2, 1),
           tup(1, 1, 1, 2)]
BAD_LAYOUTS = [tup(3, 1, 1, 1), tup(1, 1, 1), tup(0, 1, 1, 1),
               [1, 1, 1, 1], [2, 1, 1, 1], tup(1, 1, 1, 1, 1), tup(4, 1, 1, 1),
               tup(1, 17, 1, 1), tup(-1, 1, 1, 1)]
SIGNALING = [ALL, CTA_LEADER, TASK_WARP_LEADER, CTA_LEADER | TASK_WARP_LEADER]
BAD_SIGNALING = [sig(3), sig(5), sig(7), sig(0), sig(8), raw(1), raw("All")]
STRIDES = [1, 2, 4, tup(1, 1, 1, 1), tup(2, 2, 2, 2), tup(2, 1, 1, 1),
           tup(1, 2, 1, 1), tup(1, 1, 2, 1), tup(1, 1, 1, 2), tup(2, 2, 1, 1),
           tup(1, 1, 2, 2), tup(4, 4, 2, 2)]
BAD_STRIDES = [0, -1, 3, True, [2, 2, 2, 2], [1, 1, 1, 1], tup(2, 2),
               tup(2, 2, 2, 2, 2), tup(1, 1, 1, True), tup(0, 1, 1, 1),
               raw(2.0), raw("2")]


def _rand_group(rng: random.Random, bad: bool) -> dict:
    if bad and rng.random() < 0.5:
        return rng.choice([group("Thread", 0), group("Thread", -4),
                           group("Warp", False), group("Warp", 0),
                           group(raw("Thread"), 2), group("Thread", True),
                           group("Thread", raw(2.0)), raw(32)])
    agent = rng.choice(["Thread"] * 6 + ["Warp"] * 2 + ["ThreadBlock",
                                                        "ThreadBlockCluster"])
    size = rng.choice([1, 1, 2, 4, 32, 64, 128, 256])
    return group(agent, size)


def _rand_sig(rng: random.Random, bad: bool):
    if bad and rng.random() < 0.3:
        return rng.choice(BAD_SIGNALING)
    return sig(rng.choice(SIGNALING))


def _rand_value(rng: random.Random, factory: str, name: str, bad: bool):
    if name == "num_stages":
        if bad:
            return rng.choice([0, -1, -2, True, raw(2.0), 2 ** 40])
        return rng.choice([1, 2, 2, 3, 4, 4, 6, 8, 16])
    if name == "num_bytes":
        if bad:
            return rng.choice([-16, 2 ** 20, 2 ** 21, 2 ** 63, True, raw(16.0)])
        if factory == "clc_fetch_async":
            return rng.choice([16, 16, 16, 0, 32])
        return rng.choice([16, 128, 1024, 4096, 16384, 0, 8, 24])
    if name in ("producer_group", "consumer_group"):
        return _rand_group(rng, bad)
    if name == "cta_layout_vmnk":
        if bad:
            return rng.choice(BAD_LAYOUTS)
        return rng.choice(LAYOUTS)
    if name in ("producer_signaling_threads", "consumer_signaling_threads",
                "consumer_wait_signaling_threads"):
        if name == "consumer_wait_signaling_threads" and rng.random() < 0.3:
            return None
        return _rand_sig(rng, bad)
    if name == "barrier_ptr":
        return None
    if name == "producer_op":
        if bad:
            return rng.choice([raw(1), raw("AsyncLoad"), op("TmaLoad"),
                               op("Composite")])
        return op(rng.choice(["AsyncThread", "AsyncLoad"]))
    if name in ("advance_on_wait", "advance_on_acquire"):
        if bad:
            return rng.choice([raw(1), raw(0), None])
        return rng.choice([False, True])
    if name == "interleave_stride":
        if bad:
            return rng.choice(BAD_STRIDES)
        return rng.choice(STRIDES)
    if name == "mcast_mode_mn":
        if bad:
            return rng.choice([tup(0, 0), tup(2, 1), [1, 1], tup(1, 1, 1),
                               tup(True, False)])
        return rng.choice([tup(1, 1), tup(1, 0), tup(0, 1)])
    if name == "num_bytes_per_warp_per_cta":
        if bad:
            return rng.choice([0, -16, True, raw(16.0)])
        return rng.choice([None, 16, 1024, 4096])
    raise KeyError(name)


def random_config(rng: random.Random, factory: Optional[str] = None) -> dict:
    """One config case: a factory, its required arguments and a random
    subset of its keywords; about half the cases carry one invalid value,
    a few an extra keyword the factory does not take."""
    factory = factory or rng.choice(sorted(FACTORIES))
    names = FACTORIES[factory]
    chosen = [n for n in names if n in REQUIRED[factory] or rng.random() < 0.45]
    bad_count = rng.choice([0, 0, 0, 1, 1, 2])
    bad = set(rng.sample(chosen, min(bad_count, len(chosen))))
    kwargs = {n: _rand_value(rng, factory, n, n in bad) for n in chosen}
    if rng.random() < 0.04:
        extra = rng.choice(["advance_on_wait", "advance_on_acquire",
                            "mcast_mode_mn", "producer_op",
                            "consumer_wait_signaling_threads",
                            "num_bytes_per_warp_per_cta"])
        if extra not in names:
            kwargs[extra] = _rand_value(rng, factory, extra, False)
    return {"kind": "config", "factory": factory, "kwargs": kwargs}


# ---------------------------------------------------------------------------
# Random kernels: one to three pipelines, a producer task and one or two
# consumer tasks each, arrive counts drawn from the values the rules accept
# for some layout of the kernel, schedules with lanes, split cursors, guards,
# try forms and register counts; then zero to two mutations.

CLUSTER_LAYOUTS = {
    "async_async": [(1, 1, 1, 1)],
    "tma_async": [(1, 1, 1, 1), (1, 1, 1, 1), (1, 2, 1, 1), (1, 1, 2, 1)],
    "tma_umma": [(1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1, 1), (1, 2, 1, 1)],
    "umma_async": [(1, 1, 1, 1), (2, 1, 1, 1)],
    "async_umma": [(1, 1, 1, 1), (2, 1, 1, 1)],
    "umma_umma": [(1, 1, 1, 1), (2, 1, 1, 1)],
    "clc_fetch_async": [(1, 1, 1, 1), (2, 1, 1, 1), (1, 2, 1, 1)],
}


def _count_choices(side_warps: int, lanes: int, layout) -> List[int]:
    v, m, n, l = layout
    t = v * m * n * l
    values = {1, side_warps, 32 * side_warps, 32, 32 * lanes, t,
              max(1, t // v), 32 * side_warps * t, 32 * side_warps * v,
              side_warps * t}
    return sorted(values)


def _loop_body(side: str, pipe: str, rng: random.Random, try_form: bool,
               guard: Optional[str]) -> List[dict]:
    """A bracket of ``side`` on ``pipe``: open, work, close (``guard``
    puts the close, or the whole bracket, under first_iter/last_iter)."""
    if side == "producer":
        opener, work, closer, probe = "acquire", "producer_work", "commit", "try_acquire"
    else:
        opener, work, closer, probe = "wait", "consumer_work", "release", "try_wait"
    steps = []
    if try_form:
        steps.append({"op": probe, "pipe": pipe})
    steps.append({"op": opener, "pipe": pipe})
    steps.append({"op": work, "pipe": pipe})
    if guard:
        steps.append({"guard": guard, "body": [{"op": closer, "pipe": pipe}]})
    else:
        steps.append({"op": closer, "pipe": pipe})
    return steps


def random_kernel(rng: random.Random, mutations: Optional[int] = None) -> dict:
    """One kernel case; ``mutations``: how many random changes (default:
    zero to two, drawn)."""
    npipes = rng.choice([1, 1, 1, 2, 2, 3])
    # One cluster layout for the whole kernel (R57): from the first type.
    factories = [rng.choice(sorted(FACTORIES)) for _ in range(npipes)]
    layout = rng.choice(CLUSTER_LAYOUTS[factories[0]])
    if any(f != "async_async" for f in factories) and rng.random() < 0.15:
        layout = rng.choice([(1, 1, 1, 1), (2, 1, 1, 1), (1, 2, 1, 1)])
    t = layout[0] * layout[1] * layout[2] * layout[3]
    pipelines, tasks = [], []
    warp = 0
    trip = rng.choice([1, 2, 4, 4, 8])
    for i, factory in enumerate(factories):
        name = f"p{i}"
        stages = rng.choice([1, 2, 2, 4, 4, 8])
        stride = 1
        if factory in ("async_async", "tma_async", "tma_umma", "umma_async",
                       "async_umma") and rng.random() < 0.25:
            stride = rng.choice([2, 2, 4])
            stages = max(stages, stride) * rng.choice([1, 2])
            stages -= stages % stride
        strides = [stride] * 4
        lanes = stride
        split_wait = rng.random() < 0.12 and factory in ("tma_async", "tma_umma", "async_umma")
        split_acquire = rng.random() < 0.08 and factory in ("async_async", "async_umma")
        prod_warps = lanes if stride > 1 else rng.choice([1, 1, 1, 2, 4])
        cons_tasks = 1 if rng.random() < 0.85 else 2
        cons_warps = lanes if stride > 1 else rng.choice([1, 1, 2, 4])
        if factory in ("umma_async", "async_umma", "umma_umma"):
            # Interleaving of one side only (R60).
            if factory == "umma_async":
                strides = [1, 1, stride, stride]
                prod_warps = 1
            elif factory == "async_umma":
                strides = [stride, stride, 1, 1]
                cons_warps = 1
        if factory in ("tma_umma", "umma_umma"):
            cons_warps = 1
        if factory in ("tma_umma", "tma_async", "umma_async", "umma_umma",
                       "clc_fetch_async") and strides[0] == 1:
            prod_warps = rng.choice([1, 1, 1, 1, 1, 2])
        prod_w_total = prod_warps
        cons_w_total = cons_warps * cons_tasks
        choices_p = _count_choices(prod_w_total, lanes, layout)
        choices_c = _count_choices(cons_w_total, lanes, layout)
        preferred_p = {"async_async": 32 * (1 if strides[1] > 1 else prod_w_total),
                       "async_umma": 32 * (1 if strides[1] > 1 else prod_w_total) * layout[0],
                       "tma_async": 1, "tma_umma": 1, "umma_async": 1,
                       "umma_umma": 1, "clc_fetch_async": 1}[factory]
        preferred_c = {"async_async": 32 * (1 if strides[3] > 1 else cons_w_total),
                       "tma_async": 1 if strides[3] > 1 else cons_w_total,
                       "umma_async": 32 * (1 if strides[3] > 1 else cons_w_total) * layout[0],
                       "tma_umma": 1 if strides[3] > 1 else t, "async_umma": 1, "umma_umma": 1,
                       "clc_fetch_async": 32 * (prod_w_total + cons_w_total) * t}[factory]
        pg = preferred_p if rng.random() < 0.8 else rng.choice(choices_p)
        cg = preferred_c if rng.random() < 0.75 else rng.choice(choices_c)
        agent_p = "Thread" if rng.random() < 0.93 else "Warp"
        agent_c = "Thread" if rng.random() < 0.93 else "Warp"
        kwargs = {"num_stages": stages,
                  "producer_group": group(agent_p, pg),
                  "consumer_group": group(agent_c, cg),
                  "cta_layout_vmnk": tup(*layout) if (factory != "tma_async" or t > 1 or rng.random() < 0.5) else None}
        if factory in BYTES_TYPES:
            kwargs["num_bytes"] = 16 if factory == "clc_fetch_async" else rng.choice([1024, 4096, 16384])
        if (strides != [1, 1, 1, 1] or rng.random() < 0.1) and \
                "interleave_stride" in FACTORIES[factory]:
            kwargs["interleave_stride"] = (strides[0] if len(set(strides)) == 1 and rng.random() < 0.6
                                           else tup(*strides))
        if split_wait:
            kwargs["advance_on_wait"] = True
        if split_acquire:
            kwargs["advance_on_acquire"] = True
        if rng.random() < 0.2:
            key = ("producer_signaling_threads" if rng.random() < 0.5
                   else "consumer_signaling_threads")
            options = [CTA_LEADER, TASK_WARP_LEADER, CTA_LEADER | TASK_WARP_LEADER, ALL]
            if key in FACTORIES[factory]:
                kwargs[key] = sig(rng.choice(options))
        if factory == "async_async" and rng.random() < 0.2:
            kwargs["producer_op"] = op("AsyncLoad")
        if factory in TMA_TYPES and t > 1 and rng.random() < 0.3:
            kwargs["num_bytes_per_warp_per_cta"] = kwargs["num_bytes"] // t or 16
        buffer = stages * rng.choice([16, 256, 1024])
        pipelines.append({"name": name, "factory": factory, "kwargs": kwargs,
                          "smem_bytes": buffer if rng.random() < 0.7 else None})
        # Producer task.
        ptask = {"name": f"prod{i}", "warp_idx": warp, "num_warps": prod_warps,
                 "produces": [name], "consumes": [], "cta": None,
                 "registers": None, "head": [], "tail": []}
        warp += prod_warps
        start, step = 0, 1
        ptask["loop"] = {"start": start, "end": trip, "step": step,
                         "body": _loop_body("producer", name, rng,
                                            rng.random() < 0.15, None)}
        tasks.append(ptask)
        domain_lanes = (stride > 1 and strides[2] == strides[3] == stride
                        and factory in ("async_async", "tma_async")
                        and not split_wait and rng.random() < 0.35)
        if domain_lanes:
            # Domain lanes (R62): one single-warp consumer task per lane,
            # its domain loop starting at the lane and stepping by the
            # stride; each lane's stages get one warp's arrivals.
            p_kwargs = pipelines[-1]["kwargs"]
            p_kwargs["consumer_group"]["size"] = 32 if factory == "async_async" else 1
            for lane in range(stride):
                start_at = lane
                if rng.random() < 0.1:
                    start_at = lane + stride  # a lane start outside [0, stride)
                ctask = {"name": f"lane{i}_{lane}", "warp_idx": warp,
                         "num_warps": 1, "produces": [], "consumes": [name],
                         "cta": None, "registers": None, "head": [], "tail": [],
                         "loop": {"start": start_at, "end": trip * stride,
                                  "step": stride,
                                  "body": _loop_body("consumer", name, rng,
                                                     False, None)}}
                warp += 1
                tasks.append(ctask)
            cons_tasks = 0
        for j in range(cons_tasks):
            ctask = {"name": f"cons{i}_{j}", "warp_idx": warp,
                     "num_warps": cons_warps, "produces": [], "consumes": [name],
                     "cta": None, "registers": None, "head": [], "tail": []}
            warp += cons_warps
            ctask["loop"] = {"start": 0, "end": trip, "step": 1,
                             "body": _loop_body("consumer", name, rng,
                                                rng.random() < 0.15, None)}
            tasks.append(ctask)
        if split_wait and cons_tasks == 1:
            # A split consumer: one task waits, another releases.
            waiter = tasks[-1]
            waiter["loop"]["body"] = [s for s in waiter["loop"]["body"]
                                      if s.get("op") not in ("release", "consumer_work")]
            releaser = {"name": f"rel{i}", "warp_idx": warp,
                        "num_warps": cons_warps, "produces": [],
                        "consumes": [name], "cta": None, "registers": None,
                        "head": [], "tail": [],
                        "loop": {"start": 0, "end": trip, "step": 1,
                                 "body": [{"op": "release", "pipe": name}]}}
            warp += cons_warps
            tasks.append(releaser)
    # CLC consumer counts cover every task of the kernel.
    for p in pipelines:
        if p["factory"] == "clc_fetch_async" and rng.random() < 0.8:
            warps = sum(x["num_warps"] for x in tasks
                        if p["name"] in x["consumes"])
            p["kwargs"]["consumer_group"]["size"] = 32 * warps * t
    if rng.random() < 0.1:
        value = rng.choice([232, 240, 40, 100])
        for task in tasks:
            task["registers"] = value
    kernel = {"kind": "kernel", "num_warps": warp,
              "cluster": [t, 1, 1], "pipelines": pipelines, "tasks": tasks}
    if mutations is None:
        mutations = rng.choice([0, 0, 1, 1, 2])
    for _ in range(mutations):
        mutate(kernel, rng)
    return kernel


def _loop_steps(task):
    return task["loop"]["body"]


def mutate(kernel: dict, rng: random.Random) -> None:
    """One random change that may break a rule."""
    tasks = kernel["tasks"]
    task = rng.choice(tasks)
    body = _loop_steps(task)
    kind = rng.choice(["drop", "swap", "guard_close", "guard_open", "count",
                       "stages", "warps", "trip", "cluster", "head_open",
                       "try_only", "dup", "cta", "registers", "signal",
                       "agent", "lane_start", "step", "stride"])
    flat = [i for i, s in enumerate(body) if "op" in s]
    if kind == "drop" and flat:
        del body[rng.choice(flat)]
    elif kind == "swap" and len(flat) >= 2:
        i, j = rng.sample(flat, 2)
        body[i], body[j] = body[j], body[i]
    elif kind == "guard_close" and flat:
        i = flat[-1]
        body[i] = {"guard": rng.choice(["first_iter", "last_iter"]),
                   "body": [body[i]]}
    elif kind == "guard_open" and flat:
        i = flat[0]
        body[i] = {"guard": rng.choice(["first_iter", "last_iter"]),
                   "body": [body[i]]}
    elif kind == "head_open" and flat:
        # Move the opening bracket into the head and the close into the tail.
        opener = body.pop(flat[0])
        task["head"].append(opener)
        rest = [i for i, s in enumerate(body) if s.get("op") in ("commit", "release")]
        if rest:
            task["tail"].append(body.pop(rest[-1]))
    elif kind == "try_only" and flat:
        s = body[flat[0]]
        probe = "try_acquire" if s["op"] in PRODUCER_OPS else "try_wait"
        body.insert(flat[-1] + 1, {"op": probe, "pipe": s["pipe"]})
    elif kind == "dup" and flat:
        i = rng.choice(flat)
        body.insert(i, copy.deepcopy(body[i]))
    elif kind == "count":
        pipe = rng.choice(kernel["pipelines"])
        key = rng.choice(["producer_group", "consumer_group"])
        g = pipe["kwargs"][key]
        g["size"] = rng.choice([1, 2, 32, 64, 96, 128, max(1, g["size"] * 2),
                                max(1, g["size"] // 2)])
    elif kind == "stages":
        pipe = rng.choice(kernel["pipelines"])
        pipe["kwargs"]["num_stages"] = rng.choice([0, 1, 3, 5, 4096])
    elif kind == "warps":
        task["num_warps"] = max(1, task["num_warps"] + rng.choice([-1, 1, 2]))
        kernel["num_warps"] = max(kernel["num_warps"],
                                  task["warp_idx"] + task["num_warps"])
    elif kind == "trip":
        end = rng.choice([0, 1, 3])
        task["loop"]["end"] = end
    elif kind == "cluster":
        kernel["cluster"] = rng.choice([[1, 1, 1], [2, 1, 1], [4, 1, 1],
                                        [1, 2, 1]])
    elif kind == "cta":
        task["cta"] = rng.choice([0, 1, 3])
    elif kind == "registers":
        task["registers"] = rng.choice([24, 40, 100, 232, 240, 256, 8])
    elif kind == "signal":
        pipe = rng.choice(kernel["pipelines"])
        names = [n for n in ("producer_signaling_threads",
                             "consumer_signaling_threads",
                             "consumer_wait_signaling_threads")
                 if n in FACTORIES[pipe["factory"]]]
        pipe["kwargs"][rng.choice(names)] = sig(
            rng.choice([CTA_LEADER, TASK_WARP_LEADER, CTA_LEADER | TASK_WARP_LEADER]))
    elif kind == "agent":
        pipe = rng.choice(kernel["pipelines"])
        key = rng.choice(["producer_group", "consumer_group"])
        g = pipe["kwargs"][key]
        g["agent"] = "Warp" if g["agent"] == "Thread" else "Thread"
    elif kind == "lane_start":
        task["loop"]["start"] = rng.choice([1, 2, 3])
        task["loop"]["step"] = rng.choice([1, 2, 4])
    elif kind == "step":
        task["loop"]["step"] = rng.choice([2, 4])
    elif kind == "stride":
        pipe = rng.choice(kernel["pipelines"])
        if pipe["factory"] != "umma_umma" and pipe["factory"] != "clc_fetch_async":
            s = rng.choice([2, 4])
            pipe["kwargs"]["interleave_stride"] = s
            if pipe["kwargs"]["num_stages"] % s:
                pipe["kwargs"]["num_stages"] = s * 2


def pipe_of(step: dict) -> Optional[str]:
    return step.get("pipe")
