"""PTX comparison with real TS: the barrier instructions of each bracket.

For each entry of CASES (pipeline type x topology x variant: one CTA,
clusters with multicast, tcgen05 CTA pairs; try forms, interleaved lanes,
split cursors, cp.async producers, TaskWarpLeader, CtaLeader) the same
kernel description (cases.py format, with marker steps between brackets)
is compiled to PTX by real TS (ts_runner.py --ptx: tracing and
``cute.compile`` on the CPU) and by tspipe (``Kernel.to_ptx``). Each PTX is
cut at the markers (``// XMARK <n>``, an inline-asm comment both sides
emit from a work step) along its control flow graph, so a segment holds
one bracket's code wherever the code generator placed it; from each
segment the barrier-related instructions are extracted and normalized:
opcode with modifiers, how many, which threads issue them (all threads of
the bracket, under a condition, after ``elect.sync``), immediate operands
(arrive counts, transaction bytes, parity, multicast masks, mapa targets),
registers evaluated from the CTA rank for every rank of the cluster.

A difference is either a tspipe bug or stated: DELIBERATE lists each
intended difference as a rewrite of one side with its reason (a TS defect
of ts-semantics §6, or a stronger or cheaper equivalent); a bracket is
"differs (stated)" only when the rewrites make both sides equal. A new
pipeline type is one more entry of CASES. Run::

  python crosscheck/ptx_compare.py --ts-python .venv-ts/bin/python \\
      --out docs/crosscheck-ptx.md

The exit status is 1 when a bracket differs without a stated reason.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import re
import subprocess
import sys
import tempfile

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import cases as C  # noqa: E402

# ---------------------------------------------------------------------------
# Cases: (name, pipeline type, topology, variant, arch)

TOPOLOGIES = {
    # name: (cta_layout_vmnk, launch cluster shape)
    "1cta": {"layout": (1, 1, 1, 1), "cluster": [1, 1, 1]},
    # Two CTAs along M: TMA multicast along the M mode, tcgen05 masks of
    # two pairs of one CTA each.
    "cluster2": {"layout": (1, 2, 1, 1), "cluster": [2, 1, 1]},
    # Four CTAs, 2 x 2 in (M, N): multicast along both modes.
    "cluster4": {"layout": (1, 2, 2, 1), "cluster": [4, 1, 1]},
    # A tcgen05 CTA pair (V = 2).
    "pair": {"layout": (2, 1, 1, 1), "cluster": [2, 1, 1]},
    # Two CTA pairs along M (V = 2, M = 2): pair routing and multicast.
    "pair2": {"layout": (2, 2, 1, 1), "cluster": [4, 1, 1]},
}

# Producer and consumer side of each type: per bracket form, the kernel's
# task shapes and arrive counts (those TS's count rules accept).
TYPE_SHAPES = {
    "async_async": dict(prod_warps=1, cons_warps=1, pg=32, cg=32),
    "tma_async": dict(prod_warps=1, cons_warps=1, pg=1, cg=1, num_bytes=4096),
    "tma_umma": dict(prod_warps=1, cons_warps=1, pg=1, cg=1, num_bytes=4096),
    "umma_async": dict(prod_warps=1, cons_warps=1, pg=1, cg=32),
    "async_umma": dict(prod_warps=1, cons_warps=1, pg=32, cg=1),
    "umma_umma": dict(prod_warps=1, cons_warps=1, pg=1, cg=1),
    "clc_fetch_async": dict(prod_warps=1, cons_warps=1, pg=1, cg=64, num_bytes=16),
}

# Variants: how the schedule is written. "plain": acquire/work/commit and
# wait/work/release; "try": try_acquire and try_wait before the blocking
# forms; "lanes2": interleave_stride 2 on the sides the type may interleave,
# with two-warp tasks (warp lanes); "asyncload": the cp.async producer;
# "allthread": TmaAsync consumer count 32 (all-thread release);
# "warpleader": a TMA producer of two warps with TaskWarpLeader;
# "splitacq" / "splitwait": advance_on_acquire / advance_on_wait (split
# cursors); "leader": cta_leader signaling on both sides (the usual
# configuration of a CTA pair: only the pair's leader CTA signals).
CASES = [
    ("async_async", "1cta", "plain"),
    ("async_async", "1cta", "try"),
    ("async_async", "1cta", "lanes2"),
    ("async_async", "1cta", "asyncload"),
    ("async_async", "1cta", "splitacq"),
    ("async_async", "cluster2", "plain"),
    ("async_async", "pair", "leader"),
    ("tma_async", "1cta", "plain"),
    ("tma_async", "1cta", "try"),
    ("tma_async", "1cta", "lanes2"),
    ("tma_async", "1cta", "allthread"),
    ("tma_async", "1cta", "warpleader"),
    ("tma_async", "cluster2", "plain"),
    ("tma_async", "cluster2", "try"),
    ("tma_async", "cluster4", "plain"),
    ("tma_async", "pair", "leader"),
    ("tma_umma", "1cta", "plain"),
    ("tma_umma", "1cta", "try"),
    ("tma_umma", "1cta", "lanes2"),
    ("tma_umma", "1cta", "splitwait"),
    ("tma_umma", "1cta", "warpleader"),
    ("tma_umma", "cluster2", "plain"),
    ("tma_umma", "cluster4", "plain"),
    ("tma_umma", "pair", "plain"),
    ("tma_umma", "pair", "leader"),
    ("tma_umma", "pair2", "leader"),
    ("umma_async", "1cta", "plain"),
    ("umma_async", "1cta", "try"),
    ("umma_async", "1cta", "lanes2"),
    ("umma_async", "cluster2", "plain"),
    ("umma_async", "pair", "leader"),
    ("async_umma", "1cta", "plain"),
    ("async_umma", "1cta", "try"),
    ("async_umma", "1cta", "asyncload"),
    ("async_umma", "1cta", "lanes2"),
    ("async_umma", "1cta", "splitacq"),
    ("async_umma", "1cta", "splitwait"),
    ("async_umma", "cluster2", "plain"),
    ("async_umma", "pair", "leader"),
    ("umma_umma", "1cta", "plain"),
    ("umma_umma", "1cta", "try"),
    ("umma_umma", "cluster2", "plain"),
    ("umma_umma", "pair", "leader"),
    ("clc_fetch_async", "1cta", "plain"),
    ("clc_fetch_async", "1cta", "try"),
    ("clc_fetch_async", "cluster2", "plain"),
    ("clc_fetch_async", "cluster4", "plain"),
]

# Which sides of each type may interleave (TS, ts-semantics §4.3).
INTERLEAVE_SIDES = {
    "async_async": ("producer", "consumer"),
    "tma_async": ("producer", "consumer"),
    "tma_umma": ("producer", "consumer"),
    "umma_async": ("consumer",),
    "async_umma": ("producer",),
}

ARCHS = ("sm_100a", "sm_90a")
# Types whose PTX needs Blackwell (tcgen05, CLC): compared on sm_100a only.
SM100_ONLY = {"tma_umma", "umma_async", "async_umma", "umma_umma",
              "clc_fetch_async"}

# Deliberate differences. Each is a rewrite of one side's instruction rows
# (a Counter of normalized keys) that maps a stated, intended difference
# away; it applies to the cases its filters select. A row is "differs
# (stated)" only when the two sides compare equal after the rewrites that
# apply, and it then lists the reason of every rewrite that changed
# something; any difference left is reported as "differs".


def _drop(*prefixes):
    def apply(rows):
        return collections.Counter({k: n for k, n in rows.items()
                                    if not k.startswith(prefixes)})
    return apply


def _rename(old, new, where=""):
    def apply(rows):
        out = collections.Counter()
        for k, n in rows.items():
            out[k.replace(old, new) if k.startswith(where) else k] += n
        return out
    return apply


def _issuer(old, new, where):
    def apply(rows):
        out = collections.Counter()
        for k, n in rows.items():
            if k.startswith(where) and k.endswith(f"[{old}]"):
                k = k[:-len(old) - 2] + f"[{new}]"
            out[k] += n
        return out
    return apply


def _once(where):
    def apply(rows):
        return collections.Counter({k: (1 if k.startswith(where) else n)
                                    for k, n in rows.items()})
    return apply


def _rank0(rows):
    """Per-rank immediates (``[v0,v1,...]``) read on rank 0."""
    out = collections.Counter()
    for k, n in rows.items():
        out[re.sub(r"=\[(-?\d+),[-\d,]*\]", r"=\1", k)] += n
    return out


def _one_wait_per_lane(rows):
    """One parity wait fewer per interleaved lane (the last one)."""
    out = collections.Counter(rows)
    waits = [k for k in out if k.startswith("mbarrier.try_wait")]
    for k in sorted(waits, key=lambda k: (k.endswith("[all]"), k)):
        out[k] -= 1
        if out[k] == 0:
            del out[k]
        break
    return out


def _chain(*fns):
    def apply(rows):
        for fn in fns:
            rows = fn(rows)
        return rows
    return apply


WAIT = "mbarrier.try_wait"

# Fields: side ("ts" or "tspipe"), types, brackets, topologies, variants
# (None: any), the rewrite, the reason.
DELIBERATE = [
    dict(side="tspipe", brackets={"init"},
         apply=_drop("fence.mbarrier_init", "bar.sync",
                     "barrier.cluster.arrive.relaxed", "barrier.cluster.wait"),
         why="tspipe makes barrier initialization visible itself "
             "(fence.mbarrier_init, then a CTA barrier for one CTA or a relaxed "
             "cluster arrive and wait for a cluster) before any task runs; TS "
             "creates its pipelines with defer_sync=True and leaves that to the "
             "kernel author (ts-semantics 1.10). Stronger, never weaker."),
    dict(side="both", brackets={"init"}, apply=_once("elect.sync"),
         why="TS elects a thread once per barrier array (full, empty), tspipe "
             "once for all arrays: the same single thread of warp 0 "
             "initializes every barrier."),
    dict(side="tspipe", types={"tma_async"}, brackets={"release"},
         apply=_drop("bar.warp.sync"),
         why="tspipe synchronizes the warp before a lane release so that every "
             "lane's reads are done before lane 0 (or the lanes < T) hand the "
             "slot back (docs/Protocols.md, TmaAsync); TS's lane release does "
             "not."),
    dict(side="tspipe", types={"tma_async"}, brackets={"release"},
         apply=_drop("fence.proxy.async"),
         why="tspipe fences the generic-proxy reads of the stage against the "
             "next fill, an async-proxy bulk copy (fence.proxy.async.shared::cta; "
             "PTX ISA, membar/fence); without it an H200 refilled a released "
             "stage under its loads (docs/Protocols.md, TmaAsync; "
             "docs/gpu-runs.md). TS emits no fence."),
    dict(side="tspipe", apply=_rename(".release.cluster.shared::cluster",
                                      ".shared::cluster", "mbarrier.arrive"),
         why="remote arrives (mapa + shared::cluster form) use release at "
             "cluster scope in tspipe, CTA scope in TS (ts-semantics §6 item 17, "
             "kept by CuTe for speed): the arrive hands a stage read by this CTA "
             "to a producer in another CTA, a cluster-scope release. Stronger."),
    dict(side="tspipe", types={"async_umma"}, brackets={"commit"},
         topos={"pair", "pair2"}, apply=_drop("mapa"),
         why="the AsyncUmma producer of a CTA pair arrives on the pair "
             "leader's full barrier: TS addresses it by clearing bit 24 of the "
             "shared::cluster address (the SM100 peer bit, ts-semantics 1.11 "
             "AUC2), tspipe maps the barrier to the leader's rank with mapa "
             "(cta=0 on both CTAs: the leader), the documented form. The same "
             "barrier."),
    dict(side="ts", types={"clc_fetch_async"}, topos={"1cta"},
         apply=_chain(_drop("mapa"),
                      _rename(".shared::cluster.b64", ".shared.b64",
                              "mbarrier.arrive"),
                      _issuer("cond", "all", WAIT)),
         why="with one CTA TS still gates the CLC producer on rank 0 and "
             "reaches the barriers through mapa (of its own rank 0) and the "
             "shared::cluster forms; tspipe drops the gate (the only CTA is rank "
             "0) and arms and arrives on the local barrier: the same barrier, "
             "the same threads, cheaper."),
    dict(side="ts", types={"clc_fetch_async"}, topos={"cluster2", "cluster4"},
         brackets={"producer end (drain)"},
         apply=_chain(_rank0, _issuer("all", "cond", WAIT)),
         why="TS drains the CLC ring on every CTA, but only rank 0 acquires "
             "and advances the producer cursor, so on the other ranks both "
             "waits are parity-1 waits on fresh barriers that return at once "
             "(TS's parity per rank is [0,1,...]); tspipe drains on rank 0 "
             "only, with the same waits there. Cheaper, equivalent."),
    dict(side="ts", types={"async_async", "tma_async"}, topos={"pair"},
         variants={"leader"}, brackets={"producer end (drain)"},
         apply=_issuer("all", "cond", WAIT),
         why="TS defect: TS drains on every CTA, also on the non-leader CTA of "
             "the pair, where no consumer ever arrives on the empty barriers "
             "(the cta_leader release is a local arrive on the leader), so "
             "its parity-0 wait never returns and that CTA hangs at exit "
             "(ts-semantics §6 item 1: CtaLeader gates every other bracket on "
             "rank % V == 0). tspipe gates the drain like the acquire."),
    dict(side="ts", types={"umma_async"}, topos={"1cta", "cluster2", "cluster4"},
         brackets={"producer end (drain)"},
         apply=_issuer("cond", "all", WAIT),
         why="TS's UmmaAsync drain runs on even ranks only (rank % 2 == 0, "
             "hard-coded) whatever V is (ts-semantics 2.4); with V = 1 every CTA "
             "acquires its own ring, so tspipe drains on every CTA. One CTA: "
             "the same (rank 0 is even); a V = 1 cluster: TS lets the odd ranks "
             "exit with stages in flight (§6 item 19), a TS defect."),
    dict(side="tspipe", variants={"lanes2"}, brackets={"producer end (drain)"},
         apply=_one_wait_per_lane,
         why="interleaved producer drain: tspipe waits on every stage of its "
             "lane (S/k waits), TS on S/k - 1 (ts-semantics §6 item 10, open). "
             "tspipe's extra wait returns at once once the consumers released "
             "the stage. Stronger."),
    dict(side="tspipe", types={"async_umma"}, brackets={"commit"},
         apply=_drop("fence.proxy.async"),
         why="the AsyncUmma producer threads fill the stage with generic-proxy "
             "stores that the MMA (async proxy) then reads, so tspipe fences "
             "them before the commit (fence.proxy.async.shared::cta; "
             "docs/Protocols.md, proxy fences; TransformerEngine PR 3417). TS "
             "emits no fence. Stronger."),
    dict(side="tspipe", types={"clc_fetch_async"}, brackets={"release"},
         apply=_drop("fence.proxy.async"),
         why="the consumers read the CLC response with generic loads before "
             "the next try_cancel (async proxy) rewrites the slot, so tspipe "
             "fences the reads before the release (fence.proxy.async."
             "shared::cta; docs/Protocols.md, proxy fences; cudnn-frontend PR "
             "894). TS emits no fence. Stronger."),
]


for _n, _rule in enumerate(DELIBERATE, 1):
    _rule["id"] = f"D{_n}"

# Cases real TS 4.8.1 cannot compile, with the reason (keyed by variant).
TS_CANNOT_COMPILE = {
    "splitacq": "TS defect: a kernel with advance_on_acquire=True fails TS's "
                "own tracing (\"operand does not dominate this use\": the split "
                "producer cursor is kept in an object attribute assigned inside "
                "the traced domain loop; ts-oracle.md, pitfalls; ts-semantics §6 "
                "item 8 names more advance_on_acquire defects). tspipe's side "
                "lowers; its brackets are pinned by the lit tests of split "
                "cursors (test/Conversion/TSPipeToNVVM/cursors.mlir).",
}


def _applies(rule, ptype, topo, variant, bracket):
    for field, value in (("types", ptype), ("topos", topo),
                         ("variants", variant), ("brackets", bracket)):
        allowed = rule.get(field)
        if allowed is not None and value not in allowed:
            return False
    return True


def explain(ptype, topo, variant, bracket, ts_rows, tp_rows):
    """(status, reasons, only_ts, only_tp) of one bracket: "equal", or
    "differs (stated)" when the rewrites of DELIBERATE that apply make both
    sides equal, else "differs" with what is left."""
    a = collections.Counter({_normalize_opcode(k): v for k, v in ts_rows.items()})
    b = collections.Counter({_normalize_opcode(k): v for k, v in tp_rows.items()})
    only_ts, only_tp = a - b, b - a
    if not only_ts and not only_tp:
        return "equal", [], only_ts, only_tp
    reasons = []
    for rule in DELIBERATE:
        if not _applies(rule, ptype, topo, variant, bracket):
            continue
        na = rule["apply"](a) if rule["side"] in ("ts", "both") else a
        nb = rule["apply"](b) if rule["side"] in ("tspipe", "both") else b
        if na != a or nb != b:
            reasons.append(rule["id"])
        a, b = na, nb
    if a == b:
        return "differs (stated)", reasons, only_ts, only_tp
    return "differs", [], a - b, b - a


def _marker_steps(side, pipe, ops, first_id):
    """Steps with a marker before and after every op."""
    steps, mark = [], first_id
    steps.append({"op": "marker", "pipe": pipe, "side": side, "id": mark})
    mark += 1
    labels = {}
    for o in ops:
        steps.append({"op": o, "pipe": pipe})
        steps.append({"op": "marker", "pipe": pipe, "side": side, "id": mark})
        labels[mark - 1] = o
        mark += 1
    return steps, labels, mark


def build_case(ptype, topology, variant):
    """The kernel description of one CASES entry and the bracket name of
    each marker segment (segment n = code between markers n and n+1).

    The arrive counts are the ones tspipe's count rules require for the
    case (R48-R54, X2), which TS's rules accept as well or, where TS's
    formula is wrong, do not check (ts-semantics §6 items 4 and 6)."""
    shape = dict(TYPE_SHAPES[ptype])
    topo = TOPOLOGIES[topology]
    v, m, n, l = layout = topo["layout"]
    t = v * m * n * l
    kwargs = {"num_stages": 2,
              "cta_layout_vmnk": C.tup(*layout)}
    if "num_bytes" in shape:
        kwargs["num_bytes"] = shape["num_bytes"]
    prod_warps, cons_warps = shape["prod_warps"], shape["cons_warps"]
    pg, cg = shape["pg"], shape["cg"]
    leader = variant == "leader"
    if variant == "lanes2":
        sides = INTERLEAVE_SIDES[ptype]
        kwargs["interleave_stride"] = C.tup(*(
            2 if side in sides else 1
            for side in ("producer", "producer", "consumer", "consumer")))
        kwargs["num_stages"] = 4
        if "producer" in sides:
            prod_warps = 2
        if "consumer" in sides:
            cons_warps = 2
    if variant == "warpleader":
        prod_warps = 2
        kwargs["producer_signaling_threads"] = C.sig(C.TASK_WARP_LEADER)
        kwargs["num_bytes_per_warp_per_cta"] = kwargs["num_bytes"] // 2
    if variant == "asyncload":
        kwargs["producer_op"] = C.op("AsyncLoad")
    if variant == "splitacq":
        kwargs["advance_on_acquire"] = True
    if variant == "splitwait":
        kwargs["advance_on_wait"] = True
    if leader:
        kwargs["producer_signaling_threads"] = C.sig(C.CTA_LEADER)
        kwargs["consumer_signaling_threads"] = C.sig(C.CTA_LEADER)
        if "num_bytes" in kwargs and ptype != "clc_fetch_async" and v > 1:
            # R56: the leader arms the bytes of both CTAs of its pair.
            kwargs["num_bytes_per_warp_per_cta"] = \
                kwargs["num_bytes"] // (v * prod_warps)
    if ptype == "tma_async":
        # Lane release: one arrive per consumer warp from each CTA that
        # the stage's data was multicast from (M + N - 1 with the default
        # mcast_mode_mn (1, 1)); all-thread release: every thread.
        cg = 32 if variant == "allthread" else cons_warps * (m + n - 1)
        if variant == "lanes2":
            pg = cg = 1
        elif variant != "warpleader":
            pg = prod_warps
    if ptype == "tma_umma":
        # X2: one commit per CTA pair of the multicast row and column, from
        # the leader CTA only with cta_leader, from both CTAs otherwise.
        cg = (m + n - 1) * (1 if leader else v)
        if variant == "lanes2":
            pg = cg = 1
    if ptype == "umma_async":
        # One arrive per consumer thread (of one lane); with cta_leader
        # only the pair leader's consumers arrive, on its own E.
        cg = 32 * (1 if variant == "lanes2" else cons_warps) * (1 if leader else v)
    if ptype == "async_umma":
        # One arrive per producer thread (of one lane), on the pair
        # leader's F; with cta_leader only the leader's producers arrive.
        pg = 32 * (1 if variant == "lanes2" else prod_warps) * (1 if leader else v)
    if ptype == "clc_fetch_async":
        cg = 32 * cons_warps * t
    kwargs["producer_group"] = C.group("Thread", pg)
    kwargs["consumer_group"] = C.group("Thread", cg)
    pipe = "ring"
    pops = (["try_acquire"] if variant == "try" else []) + ["acquire", "producer_work", "commit"]
    cops = (["try_wait"] if variant == "try" else []) + ["wait", "consumer_work", "release"]
    psteps, plabels, nxt = _marker_steps("producer", pipe, pops, 0)
    csteps, clabels, _ = _marker_steps("consumer", pipe, cops, 100)
    tasks = [
        {"name": "producer", "warp_idx": 0, "num_warps": prod_warps,
         "produces": [pipe], "consumes": [], "cta": None, "registers": None,
         "head": [], "tail": [],
         "loop": {"start": 0, "end": 1, "step": 1, "body": psteps}},
        {"name": "consumer", "warp_idx": prod_warps, "num_warps": cons_warps,
         "produces": [], "consumes": [pipe], "cta": None, "registers": None,
         "head": [], "tail": [],
         "loop": {"start": 0, "end": 1, "step": 1, "body": csteps}},
    ]
    if variant == "lanes2":
        # Each interleaved warp takes one stage of its lane per iteration;
        # a side without lanes takes one stage per iteration, so it runs
        # as many iterations as the other side has lanes x iterations.
        sides = INTERLEAVE_SIDES[ptype]
        for task, side in zip(tasks, ("producer", "consumer")):
            task["loop"]["end"] = 2 if side in sides or len(sides) == 2 else 4
    desc = {"kind": "kernel", "num_warps": prod_warps + cons_warps,
            "cluster": topo["cluster"],
            "pipelines": [{"name": pipe, "factory": ptype, "kwargs": kwargs,
                           "smem_bytes": None}],
            "tasks": tasks}
    labels = {}
    for mark, op in plabels.items():
        labels[mark] = op
    labels[max(plabels) + 1] = "producer end (drain)"
    for mark, op in clabels.items():
        labels[mark] = op
    labels[max(clabels) + 1] = "consumer end"
    return desc, labels


# ---------------------------------------------------------------------------
# PTX analysis

_BARRIER_OPS = re.compile(
    r"^(mbarrier\.|cp\.async\.bulk|cp\.async\.mbarrier|tcgen05\.commit|"
    r"elect\.sync|fence\.|bar\.warp\.sync|barrier\.|bar\.sync|bar\.arrive|"
    r"clusterlaunchcontrol\.|mapa|setmaxnreg|multimem)")
_MARK = re.compile(r"//\s*XMARK\s+(\d+)")
_LABEL = re.compile(r"^([$\w]+):$")


def _instructions(ptx):
    """("mark", n), ("label", name) or ("ins", predicate, opcode, operands,
    nested) per line, in text order. ``nested`` is true inside an inline-asm
    scope (``{ ... }`` within the function body), whose labels and branches
    are local to it (a wait's retry loop) and so not part of the CFG."""
    out = []
    depth = 0
    for raw in ptx.splitlines():
        line = raw.strip()
        m = _MARK.search(line)
        if m:
            out.append(("mark", int(m.group(1))))
            continue
        if line == "{":
            depth += 1
            continue
        if line == "}":
            depth = max(depth - 1, 0)
            continue
        if not line or line.startswith("//"):
            continue
        lm = _LABEL.match(line)
        if lm:
            if depth <= 1:
                out.append(("label", lm.group(1)))
            continue
        line = line.split("//")[0].strip()
        pred = None
        pm = re.match(r"^@(!?[%\w]+)\s+(.*)$", line)
        if pm:
            pred, line = pm.group(1), pm.group(2)
        parts = line.split(None, 1)
        if not parts or parts[0].startswith("."):
            continue
        out.append(("ins", pred, parts[0], parts[1] if len(parts) > 1 else "",
                    depth > 1))
    return out


class _Block:
    """A straight-line piece of the function: it starts at a label, after a
    branch, or at a marker (so each block lies in one segment)."""

    def __init__(self, index):
        self.index = index
        self.items = []          # ("ins", pred, opcode, operands, nested)
        self.mark = None         # the marker this block starts with
        self.succ = []           # block indices; None = leaves the function
        self.falls = True        # control reaches the next block in text
        self.label = None


def _blocks(ptx):
    blocks = [_Block(0)]
    for item in _instructions(ptx):
        cur = blocks[-1]
        if item[0] in ("mark", "label"):
            if cur.items or cur.mark is not None or cur.label is not None:
                nxt = _Block(len(blocks))
                blocks.append(nxt)
                cur = nxt
            if item[0] == "mark":
                cur.mark = item[1]
            else:
                cur.label = item[1]
            continue
        if not cur.falls:
            # Code after an unconditional branch without a label: unreachable
            # by falling through; a new block all the same.
            cur = _Block(len(blocks))
            blocks.append(cur)
        cur.items.append(item)
        _, pred, opcode, operands, nested = item
        if nested:
            continue
        if opcode.startswith("bra"):
            cur.succ.append(operands.rstrip(";").strip())
            if pred is None:
                cur.falls = False
            nxt = _Block(len(blocks))
            blocks.append(nxt)
        elif opcode in ("ret;", "ret", "exit;", "exit", "trap;", "trap"):
            cur.falls = False
            blocks.append(_Block(len(blocks)))
    labels = {b.label: b.index for b in blocks if b.label}
    for b in blocks:
        b.succ = [labels.get(t) for t in b.succ]
        if b.falls and b.index + 1 < len(blocks):
            b.succ.append(b.index + 1)
        elif b.falls:
            b.succ.append(None)
    return blocks


def segments(ptx):
    """{segment: [(predicate, opcode, operands, issuer), ...]}: the
    instructions of each bracket, keyed by the marker that opens it ("init"
    before the first marker).

    Segments follow control flow, not text order: a block belongs to the
    segment its predecessors end in, so a gated block that the code
    generator placed after a later marker is still counted in its bracket.
    ``issuer`` is "all" for an instruction every thread that enters the
    segment runs (its block post-dominates the segment's start), "elect"
    for a conditional one after an ``elect.sync`` of the segment, and
    "cond" for any other conditional one (a predicate or a branch)."""
    blocks = _blocks(ptx)
    seg_in = {0: "init"}
    order = [0]
    seen = {0}
    while order:
        b = blocks[order.pop(0)]
        seg = b.mark if b.mark is not None else seg_in[b.index]
        if b.mark is not None:
            seg_in[b.index] = seg
        for s in b.succ:
            if s is None or s in seen:
                continue
            seen.add(s)
            seg_in[s] = blocks[s].mark if blocks[s].mark is not None else seg
            order.append(s)
    # Post-dominators per segment: a block is unconditional in its segment
    # when every path from the segment's first block to leaving the segment
    # passes through it.
    members = collections.defaultdict(list)
    for i, seg in seg_in.items():
        members[seg].append(i)
    uncond = set()
    for seg, ids in members.items():
        idset = set(ids)
        # The segment's starts: every copy of its marker (the code
        # generator may duplicate a bracket into both arms of a branch).
        entries = [i for i in ids if blocks[i].mark == seg] or [min(ids)]
        pdom = {i: idset | {"exit"} for i in ids}
        changed = True
        while changed:
            changed = False
            for i in sorted(ids, reverse=True):
                # Leaving the segment (or back to a start) is the exit.
                sets = [pdom[s] if s in idset and s not in entries else {"exit"}
                        for s in blocks[i].succ] or [{"exit"}]
                new = set.intersection(*sets) | {i}
                if new != pdom[i]:
                    pdom[i] = new
                    changed = True
        # Unconditional: on every path from every start of the segment.
        always = set.intersection(*[pdom[e] for e in entries])
        uncond |= {i for i in always if i != "exit"}
    segs = collections.OrderedDict()
    segs["init"] = []
    for b in blocks:
        if b.index not in seg_in:
            continue
        seg = seg_in[b.index]
        lst = segs.setdefault(seg, [])
        for _, pred, opcode, operands, nested in b.items:
            cond = b.index not in uncond or (pred is not None and not nested)
            elected = cond and any(op.startswith("elect.sync") for _, op, _, _ in lst)
            issuer = "elect" if elected else ("cond" if cond else "all")
            if opcode.startswith("elect.sync"):
                issuer = "cond" if cond else "all"
            lst.append((pred, opcode, operands, issuer))
    return segs


def definitions(ptx):
    """Register -> (opcode, operands) of its definition; registers defined
    more than once map to None (not evaluated)."""
    defs = {}
    for item in _instructions(ptx):
        if item[0] != "ins" or item[1] is not None:
            continue
        _, _, opcode, operands, _ = item
        ops = [o.strip() for o in operands.rstrip(";").split(",")]
        if not ops or not ops[0].startswith("%"):
            continue
        for dst in ops[0].split("|"):
            dst = dst.strip()
            defs[dst] = None if dst in defs else (opcode, ops[1:])
    return defs


_SPECIAL = ("%cluster_ctarank", "%ctaid.x", "%cluster_ctaid.x")


def evaluate(operand, defs, rank, nctas, depth=0):
    """The value of a PTX operand in the CTA of cluster rank ``rank`` (a
    cluster of ``nctas`` CTAs along x, launched as one cluster), lane 0 of
    its warp; None when it depends on anything else."""
    operand = operand.strip().rstrip(";").strip()
    if re.fullmatch(r"-?\d+", operand):
        return int(operand)
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", operand):
        return int(operand, 16)
    if operand in _SPECIAL:
        return rank
    if operand in ("%cluster_nctarank", "%nctaid.x", "%cluster_nctaid.x"):
        return nctas
    if operand in ("%laneid", "%tid.x", "%ctaid.y", "%ctaid.z",
                   "%cluster_ctaid.y", "%cluster_ctaid.z"):
        return 0
    d = defs.get(operand)
    if d is None or depth > 64:
        return None
    opcode, args = d
    base = opcode.split(".")[0]
    signed = ".s" in opcode
    vals = [evaluate(a, defs, rank, nctas, depth + 1) for a in args]

    def s32(x):
        x &= 0xFFFFFFFF
        return x - (1 << 32) if x >= 1 << 31 else x
    try:
        if base in ("mov", "cvt") or (base == "shfl" and ".idx" in opcode):
            return vals[0]
        if base == "setp":
            a, b = vals[0], vals[1]
            if a is None or b is None:
                return None
            if signed:
                a, b = s32(a), s32(b)
            cmp = opcode.split(".")[1]
            return int({"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b,
                        "gt": a > b, "ge": a >= b, "lo": a < b, "ls": a <= b,
                        "hi": a > b, "hs": a >= b}[cmp])
        if base == "selp":
            if vals[2] is None:
                return None
            return vals[0] if vals[2] else vals[1]
        if base == "not":
            return None if vals[0] is None else (~vals[0]) & 0xFFFFFFFF
        if base == "neg":
            return None if vals[0] is None else (-vals[0]) & 0xFFFFFFFF
        if any(v is None for v in vals):
            return None
        a = vals[0]
        b = vals[1] if len(vals) > 1 else None
        if signed:
            a, b = s32(a), (s32(b) if b is not None else None)
        r = {"add": lambda: a + b, "sub": lambda: a - b,
             "mul": lambda: a * b, "shl": lambda: a << b,
             "shr": lambda: a >> b, "and": lambda: a & b,
             "or": lambda: a | b, "xor": lambda: a ^ b,
             "min": lambda: min(a, b), "max": lambda: max(a, b),
             "rem": lambda: int(math.fmod(a, b)),
             "div": lambda: int(a / b),
             "mad": lambda: a * b + vals[2]}[base]()
        return r & 0xFFFFFFFF
    except (KeyError, IndexError, ZeroDivisionError, ValueError):
        return None


def summarize(instrs, defs=None, nctas=1):
    """Barrier instructions of one segment, normalized, with counts.
    Immediates are evaluated per CTA rank (``defs`` from ``definitions``): one
    value when every CTA computes the same, else ``[v0,v1,...]`` by rank,
    ``reg`` when not computable from the CTA rank."""
    defs = defs or {}
    rows = collections.Counter()
    for pred, opcode, operands, issuer in instrs:
        if not _BARRIER_OPS.match(opcode):
            continue
        detail = []
        ops = [o.strip() for o in re.split(r",(?![^\[]*\])", operands.rstrip(";"))]
        val = lambda o: _value(o, defs, nctas)  # noqa: E731
        if opcode.startswith("mbarrier.init"):
            detail.append("count=" + val(ops[-1]))
        elif "expect_tx" in opcode:
            detail.append("tx=" + val(ops[-1]))
        elif "try_wait.parity" in opcode or opcode.startswith("mbarrier.test_wait.parity"):
            parity = next((o for o in ops[2:] if o), "?") if len(ops) > 2 else "?"
            detail.append("parity=" + val(parity))
        elif opcode.startswith("tcgen05.commit") and "multicast" in opcode:
            detail.append("mask=" + val(ops[-1]))
        elif opcode.startswith("mapa"):
            detail.append("cta=" + val(ops[-1]))
        elif opcode.startswith("mbarrier.arrive") and "expect_tx" not in opcode:
            # The count operand is optional (default 1).
            detail.append("count=" + (val(ops[-1]) if len(ops) >= 3 else "1"))
        key = opcode + (" " + " ".join(detail) if detail else "") + f" [{issuer}]"
        rows[key] += 1
    return rows


def _value(operand, defs, nctas=1):
    values = [evaluate(operand, defs, r, nctas) for r in range(nctas)]
    if any(v is None for v in values):
        return "reg"
    values = [v - (1 << 32) if v >= 1 << 31 else v for v in values]
    if len(set(values)) == 1:
        return str(values[0])
    return "[" + ",".join(str(v) for v in values) + "]"


def _normalize_opcode(key):
    """Spelling differences that mean the same instruction."""
    # .acquire.cta is the default semantics of try_wait; shared::cta is
    # the default window of .shared.
    key = key.replace(".acquire.cta.", ".")
    key = key.replace(".shared::cta.", ".shared.")
    key = key.replace("barrier.sync", "bar.sync")
    key = key.replace("bar.sync.aligned", "bar.sync")
    return key


def compare(ts_rows, tp_rows):
    a = collections.Counter({_normalize_opcode(k): v for k, v in ts_rows.items()})
    b = collections.Counter({_normalize_opcode(k): v for k, v in tp_rows.items()})
    only_ts = a - b
    only_tp = b - a
    return only_ts, only_tp


def _fmt(rows):
    if not rows:
        return "—"
    return "<br>".join(f"{n}× `{k}`" for k, n in sorted(rows.items()))


def tspipe_ptx(desc, arch):
    import tspipe_runner as TP
    kernel = TP.build_kernel(desc, arch=arch)
    return kernel.to_ptx(arch)


def collect(ts_python, arch, cases=None):
    """Both PTX texts of each case for ``arch``: yields ``(ptype, topology,
    variant, desc, labels, ts_ptx, ts_error, tspipe_ptx, tspipe_error)``
    (a PTX is None when that side failed, with its error text)."""
    dump = tempfile.mkdtemp(prefix="ts-ptx-")
    env = dict(os.environ, CUTE_DSL_ARCH=arch, CUTE_DSL_KEEP="ptx",
               CUTE_DSL_DUMP_DIR=dump)
    descs = []
    for ptype, topo, variant in (cases or CASES):
        if arch != "sm_100a" and ptype in SM100_ONLY:
            continue
        desc, labels = build_case(ptype, topo, variant)
        desc["id"] = f"{ptype}/{topo}/{variant}"
        descs.append((ptype, topo, variant, desc, labels))
    proc = subprocess.run(
        [ts_python, os.path.join(_HERE, "ts_runner.py"), "--ptx", dump],
        input="".join(json.dumps(d[3]) + "\n" for d in descs),
        capture_output=True, text=True, env=env)
    ts_out = {}
    for line in proc.stdout.splitlines():
        r = json.loads(line)
        ts_out[r["id"]] = r
    for ptype, topo, variant, desc, labels in descs:
        ts_r = ts_out.get(desc["id"], {"verdict": "crash",
                                       "message": proc.stderr[-300:]})
        try:
            tp_ptx, tp_err = tspipe_ptx(desc, arch), None
        except Exception as err:  # noqa: BLE001 - reported in the table
            tp_ptx, tp_err = None, " ".join(str(getattr(err, "message", err)).split())[:160]
        ts_ptx = ts_r.get("ptx")
        ts_err = None if ts_ptx else " ".join(str(ts_r.get("message", ts_r.get("verdict"))).split())[:160]
        yield ptype, topo, variant, desc, labels, ts_ptx, ts_err, tp_ptx, tp_err


def run(ts_python, out_path, archs=ARCHS):
    rows = []
    for arch in archs:
        for (ptype, topo, variant, desc, labels, ts_ptx, ts_err, tp_ptx,
             tp_err) in collect(ts_python, arch):
            ts_segs = segments(ts_ptx) if ts_ptx else {}
            tp_segs = segments(tp_ptx) if tp_ptx else {}
            ts_defs = definitions(ts_ptx) if ts_ptx else {}
            tp_defs = definitions(tp_ptx) if tp_ptx else {}
            nctas = 1
            for extent in desc["cluster"]:
                nctas *= extent
            keys = ["init"] + sorted(labels)
            for key in keys:
                bracket = "init" if key == "init" else labels[key]
                ts_rows = (summarize(ts_segs.get(key, []), ts_defs, nctas)
                           if ts_ptx else None)
                tp_rows = (summarize(tp_segs.get(key, []), tp_defs, nctas)
                           if tp_ptx else None)
                if ts_rows is None or tp_rows is None:
                    if key != "init":
                        continue
                    if tp_rows is None:
                        status, why = "tspipe did not lower", tp_err
                    elif variant in TS_CANNOT_COMPILE:
                        status = "TS cannot compile (stated)"
                        why = TS_CANNOT_COMPILE[variant]
                    else:
                        status, why = "TS did not compile", ts_err
                    rows.append(dict(arch=arch, ptype=ptype, topo=topo,
                                     variant=variant, bracket=None,
                                     status=status, reasons=[why or ""]))
                    continue
                if not ts_rows and not tp_rows:
                    continue
                status, reasons, only_ts, only_tp = explain(
                    ptype, topo, variant, bracket, ts_rows, tp_rows)
                rows.append(dict(arch=arch, ptype=ptype, topo=topo,
                                 variant=variant, bracket=bracket, ts=ts_rows,
                                 tp=tp_rows, status=status, reasons=reasons,
                                 only_ts=only_ts, only_tp=only_tp))
    write(out_path, rows)
    return rows


def write(path, rows):
    compared = [r for r in rows if r["bracket"] is not None]
    missing = [r for r in rows if r["bracket"] is None]
    counts = collections.Counter(r["status"] for r in compared)
    lines = ["# Barrier instructions per bracket: tspipe against real TS", "",
             "Generated by `make crosscheck` (crosscheck/ptx_compare.py); do not edit.", "",
             "Each case builds the same pipeline (one producer task, one consumer "
             "task, two stages, a one-iteration domain loop; four stages and two "
             "iterations for `lanes2`) in real TS 4.8.1 (traced and compiled to "
             "PTX on the CPU) and in tspipe (`Kernel.to_ptx`), cuts both PTX files "
             "at markers placed between the brackets and lists the "
             "barrier-related instructions of each bracket: opcode, count, issuing "
             "threads and immediates. Brackets follow the control flow, not the "
             "text: a block belongs to the bracket its predecessors end in, so "
             "code the code generator placed after a later marker (or duplicated "
             "into both arms of a branch) still counts in its bracket. Issuing "
             "threads: `all` = every thread that enters the bracket (the block "
             "post-dominates the bracket's start), `cond` = under a predicate or "
             "a branch of the bracket (a CTA gate, a lane test), `elect` = after "
             "an `elect.sync` of the bracket. Immediates: arrive `count`, "
             "transaction bytes `tx`, `parity`, multicast `mask`, `mapa` target "
             "`cta`; a value computed at run time is evaluated from the CTA "
             "rank (lane 0 of the warp) for every rank of the cluster: one "
             "number when all ranks agree, `[r0,r1,...]` by rank otherwise, "
             "`reg` when it depends on more than the rank.", "",
             "A row is `differs (stated)` only when the two sides compare equal "
             "after the stated rewrites D1... below that apply to the row; the "
             "row names them. Anything left over is `differs`.", "",
             "Topologies (`cta_layout_vmnk`, cluster): `1cta` (1,1,1,1); "
             "`cluster2` (1,2,1,1), 2 CTAs; `cluster4` (1,2,2,1), 4 CTAs; "
             "`pair` (2,1,1,1), a tcgen05 CTA pair; `pair2` (2,2,1,1), two pairs. "
             "Variants: `plain`; `try` (try_acquire / try_wait before the "
             "blocking forms); `lanes2` (interleave_stride 2 on the sides the "
             "type may interleave, two-warp tasks); `asyncload` (cp.async "
             "producer); `allthread` (TmaAsync all-thread release); `warpleader` "
             "(two producer warps, TaskWarpLeader); `splitacq` / `splitwait` "
             "(advance_on_acquire / advance_on_wait); `leader` (cta_leader on "
             "both sides).", "",
             "Summary: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
             + f" brackets, in {len({(r['arch'], r['ptype'], r['topo'], r['variant']) for r in compared})} "
             f"cases; {len(missing)} cases without a comparison (below).", "",
             "| arch | type | topology | variant | bracket | TS | tspipe | status |",
             "|---|---|---|---|---|---|---|---|"]
    for r in compared:
        status = r["status"]
        if r.get("reasons"):
            status += ": " + ", ".join(r["reasons"])
        if r["status"] == "differs":
            extra = []
            if r["only_ts"]:
                extra.append("only TS: " + ", ".join(f"`{k}`" for k in r["only_ts"]))
            if r["only_tp"]:
                extra.append("only tspipe: " + ", ".join(f"`{k}`" for k in r["only_tp"]))
            status += " (" + "; ".join(extra) + ")"
        lines.append(f"| {r['arch']} | {r['ptype']} | {r['topo']} | {r['variant']} | "
                     f"{r['bracket']} | {_fmt(r['ts'])} | {_fmt(r['tp'])} | {status} |")
    used = {x for r in compared for x in r.get("reasons", [])}
    lines += ["", "## Stated differences", "",
              "| id | side rewritten | applies to | reason |", "|---|---|---|---|"]
    for rule in DELIBERATE:
        if rule["id"] not in used:
            continue
        scope = "; ".join(f"{f}: {', '.join(sorted(rule[f]))}" for f in
                          ("types", "topos", "variants", "brackets") if rule.get(f))
        lines.append(f"| {rule['id']} | {rule['side']} | {scope or 'every case'} | "
                     f"{rule['why']} |")
    if missing:
        lines += ["", "## Cases without a comparison", "",
                  "| arch | type | topology | variant | status | reason |",
                  "|---|---|---|---|---|---|"]
        for r in missing:
            lines.append(f"| {r['arch']} | {r['ptype']} | {r['topo']} | {r['variant']} | "
                         f"{r['status']} | {' '.join(x for x in r['reasons'] if x)} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ts-python", default=os.environ.get("TS_PYTHON"))
    ap.add_argument("--out", default="docs/crosscheck-ptx.md")
    ap.add_argument("--arch", action="append")
    args = ap.parse_args(argv)
    if not args.ts_python:
        ap.error("--ts-python (or TS_PYTHON) is required")
    rows = run(args.ts_python, args.out, tuple(args.arch or ARCHS))
    counts = collections.Counter(r["status"] for r in rows)
    print("PTX comparison: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    # A bracket that differs without a stated reason, or a case that could
    # not be compared for an unstated reason, fails the run.
    bad = [r for r in rows if r["status"] in ("differs", "TS did not compile",
                                               "tspipe did not lower")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
