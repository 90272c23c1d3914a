"""PTX comparison with real TS: the barrier instructions of each bracket.

For each entry of CASES (pipeline type x bracket form x topology) the same
kernel description (cases.py format, with marker steps between brackets)
is compiled to PTX by real TS (ts_runner.py --ptx: tracing and
``cute.compile`` on the CPU) and by tspipe (``Kernel.to_ptx``). Each PTX is
cut at the markers (``// XMARK <n>``, an inline-asm comment both sides
emit from a work step), so a segment holds one bracket's code; from each
segment the barrier-related instructions are extracted and normalized:
opcode with modifiers, how many, which threads issue them (all threads, a
predicate, after ``elect.sync``), immediate operands (arrive counts,
transaction bytes, parity, masks) with registers resolved where a ``mov``
of a constant defines them.

A new pipeline type is one more entry of CASES (plus, where its lowering
differs on purpose, an entry of DELIBERATE). Run::

  python crosscheck/ptx_compare.py --ts-python .venv-ts/bin/python \\
      --out docs/crosscheck-ptx.md
"""

from __future__ import annotations

import argparse
import collections
import json
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
    "1cta": {"layout": (1, 1, 1, 1), "cluster": [1, 1, 1]},
    "cluster2": {"layout": (1, 2, 1, 1), "cluster": [2, 1, 1]},
    "pair": {"layout": (2, 1, 1, 1), "cluster": [2, 1, 1]},
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
# forms; "lanes2": interleave_stride 2 with two-warp tasks (warp lanes);
# "allthread": TmaAsync consumer count 32 (all-thread release);
# "warpleader": TmaAsync producer of two warps with TaskWarpLeader.
CASES = [
    ("async_async", "1cta", "plain"),
    ("async_async", "1cta", "try"),
    ("async_async", "1cta", "lanes2"),
    ("async_async", "1cta", "asyncload"),
    ("tma_async", "1cta", "plain"),
    ("tma_async", "1cta", "try"),
    ("tma_async", "1cta", "lanes2"),
    ("tma_async", "1cta", "allthread"),
    ("tma_async", "1cta", "warpleader"),
    ("tma_async", "cluster2", "plain"),
    ("tma_umma", "1cta", "plain"),
    ("tma_umma", "pair", "plain"),
    ("umma_async", "1cta", "plain"),
    ("async_umma", "1cta", "plain"),
    ("umma_umma", "1cta", "plain"),
    ("clc_fetch_async", "1cta", "plain"),
]

ARCHS = ("sm_100a", "sm_90a")
# Types whose PTX needs Blackwell (tcgen05, CLC): compared on sm_100a only.
SM100_ONLY = {"tma_umma", "umma_async", "async_umma", "umma_umma",
              "clc_fetch_async"}

# Deliberate differences: (type, bracket, text in the difference) -> reason.
DELIBERATE = [
    (None, "init", "fence.mbarrier_init",
     "tspipe makes barrier initialization visible itself (fence.mbarrier_init "
     "and a CTA barrier) before any task runs; TS creates its pipelines with "
     "defer_sync=True and its setup_resources_and_tasks emits neither: TS "
     "leaves that synchronization to the kernel author. Stronger, never "
     "weaker (docs/Protocols.md)."),
    (None, "init", "bar.sync",
     "the CTA barrier after barrier init (see fence.mbarrier_init)."),
    (None, "init", "elect.sync",
     "TS elects a thread once per barrier array (full, empty), tspipe once "
     "for all arrays: the same single thread initializes every barrier."),
    (None, "producer end (drain)", "try_wait",
     "interleaved producer drain: tspipe waits on every stage of its lane "
     "(S/k waits), TS on S/k - 1 (ts-semantics §6.10, open). tspipe's extra "
     "wait returns at once when the consumers released the stage; kept until "
     "the lane drain is settled (lowering)."),
    (None, None, "bar.warp.sync",
     "tspipe synchronizes the warp before a lane-0 release so that every "
     "lane's reads are done before the slot is handed back (docs/Protocols.md, "
     "TmaAsync); TS's lane release does not."),
    (None, None, "elect.sync",
     "where TS elects one thread with elect.sync tspipe may predicate on the "
     "lane index (or the reverse): the same single issuing thread."),
    (None, None, "parity=reg",
     "tspipe keeps the domain loop as a loop (parity and stage are "
     "loop-carried registers); TS unrolls a static one-iteration domain, "
     "so its parity is an immediate."),
]


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
    each marker segment (segment n = code between markers n and n+1)."""
    shape = dict(TYPE_SHAPES[ptype])
    topo = TOPOLOGIES[topology]
    layout = topo["layout"]
    kwargs = {"num_stages": 2,
              "producer_group": C.group("Thread", shape["pg"]),
              "consumer_group": C.group("Thread", shape["cg"]),
              "cta_layout_vmnk": C.tup(*layout)}
    if "num_bytes" in shape:
        kwargs["num_bytes"] = shape["num_bytes"]
    prod_warps, cons_warps = shape["prod_warps"], shape["cons_warps"]
    t = layout[0] * layout[1] * layout[2] * layout[3]
    if ptype == "tma_umma":
        kwargs["consumer_group"] = C.group("Thread", t)
    if ptype == "tma_async" and t > 1:
        # Lane release: one arrive per consumer warp from each CTA that
        # the stage's data was multicast from.
        kwargs["consumer_group"] = C.group("Thread", cons_warps * t)
    if variant == "lanes2":
        kwargs["interleave_stride"] = 2
        kwargs["num_stages"] = 4
        prod_warps = cons_warps = 2
        if ptype == "async_async":
            kwargs["producer_group"] = C.group("Thread", 32)
            kwargs["consumer_group"] = C.group("Thread", 32)
    if variant == "allthread":
        kwargs["consumer_group"] = C.group("Thread", 32)
    if variant == "warpleader":
        prod_warps = 2
        kwargs["producer_signaling_threads"] = C.sig(C.TASK_WARP_LEADER)
        kwargs["producer_group"] = C.group("Thread", 1)
        kwargs["num_bytes_per_warp_per_cta"] = kwargs["num_bytes"] // 2
    if variant == "asyncload":
        kwargs["producer_op"] = C.op("AsyncLoad")
    if ptype == "clc_fetch_async":
        kwargs["consumer_group"] = C.group("Thread", 32 * cons_warps * t)
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
        for task in tasks:
            task["loop"]["end"] = 2
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
_MOV_CONST = re.compile(r"^mov\.[bsu](?:16|32|64)\s+(%\w+),\s*(-?(?:0[xX][0-9a-fA-F]+|\d+))\s*;")


def _instructions(ptx):
    """(marker or None, predicate, opcode, operands) per instruction line,
    in text order; inline-asm blocks are flattened."""
    out = []
    for raw in ptx.splitlines():
        line = raw.strip()
        m = _MARK.search(line)
        if m:
            out.append(("mark", int(m.group(1))))
            continue
        if not line or line.startswith("//") or line.endswith(":") or line in ("{", "}"):
            continue
        line = line.split("//")[0].strip()
        pred = None
        pm = re.match(r"^@(!?%\w+)\s+(.*)$", line)
        if pm:
            pred, line = pm.group(1), pm.group(2)
        parts = line.split(None, 1)
        if not parts:
            continue
        out.append(("ins", pred, parts[0], parts[1] if len(parts) > 1 else ""))
    return out


def segments(ptx):
    """{marker: [instruction, ...]} and the instructions before the first
    marker (key "init")."""
    segs = collections.OrderedDict()
    current = "init"
    segs[current] = []
    consts = {}
    for item in _instructions(ptx):
        if item[0] == "mark":
            current = item[1]
            segs.setdefault(current, [])
            continue
        _, pred, opcode, operands = item
        mv = _MOV_CONST.match(f"{opcode} {operands}")
        if mv:
            consts[mv.group(1)] = mv.group(2)
        segs[current].append((pred, opcode, operands, dict(consts)))
    return segs


def summarize(instrs):
    """Barrier instructions of one segment, normalized, with counts."""
    rows = collections.Counter()
    elected = branched = False
    for pred, opcode, operands, consts in instrs:
        if opcode.startswith("elect.sync"):
            elected = True
        if opcode.startswith("bra") and pred and pred.lstrip("!").startswith("%"):
            branched = True
        if not _BARRIER_OPS.match(opcode):
            continue
        issuer = "all"
        if opcode.startswith("elect.sync"):
            issuer = "all"
        elif elected:
            issuer = "elect"
        elif pred or branched:
            issuer = "cond"
        detail = []
        ops = [o.strip() for o in re.split(r",(?![^\[]*\])", operands.rstrip(";"))]
        if opcode.startswith("mbarrier.init"):
            detail.append("count=" + _value(ops[-1], consts))
        elif "expect_tx" in opcode:
            detail.append("tx=" + _value(ops[-1], consts))
        elif "try_wait.parity" in opcode or opcode.startswith("mbarrier.test_wait.parity"):
            parity = next((o for o in ops[2:] if o), "?") if len(ops) > 2 else "?"
            detail.append("parity=" + _value(parity, consts))
        elif opcode.startswith("tcgen05.commit") and "multicast" in opcode:
            detail.append("mask=" + _value(ops[-1], consts))
        elif opcode.startswith("mbarrier.arrive") and "expect_tx" not in opcode:
            # The count operand is optional (default 1).
            detail.append("count=" + (_value(ops[-1], consts) if len(ops) >= 3 else "1"))
        key = opcode + (" " + " ".join(detail) if detail else "") + f" [{issuer}]"
        rows[key] += 1
    return rows


def _value(operand, consts):
    operand = operand.strip().rstrip(";").strip()
    if re.fullmatch(r"-?\d+|0[xX][0-9a-fA-F]+", operand):
        return operand
    if operand in consts:
        return consts[operand]
    return "reg"


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


def _reason(ptype, bracket, only_ts, only_tp):
    text = " ".join(list(only_ts) + list(only_tp))
    reasons = []
    for t, br, needle, why in DELIBERATE:
        if t not in (None, ptype) or br not in (None, bracket):
            continue
        if needle in text:
            reasons.append(why)
    return reasons


def tspipe_ptx(desc, arch):
    import tspipe_runner as TP
    kernel = TP.build_kernel(desc, arch=arch)
    return kernel.to_ptx(arch)


def run(ts_python, out_path, archs=ARCHS):
    rows = []
    for arch in archs:
        dump = tempfile.mkdtemp(prefix="ts-ptx-")
        env = dict(os.environ, CUTE_DSL_ARCH=arch, CUTE_DSL_KEEP="ptx",
                   CUTE_DSL_DUMP_DIR=dump)
        descs = []
        for ptype, topo, variant in CASES:
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
            ts_segs = segments(ts_ptx) if ts_ptx else {}
            tp_segs = segments(tp_ptx) if tp_ptx else {}
            keys = ["init"] + sorted(labels)
            for key in keys:
                bracket = "init" if key == "init" else labels[key]
                ts_rows = summarize(ts_segs.get(key, [])) if ts_ptx else None
                tp_rows = summarize(tp_segs.get(key, [])) if tp_ptx else None
                if ts_rows is None or tp_rows is None:
                    status = ("not lowered by tspipe yet" if tp_rows is None
                              else "TS did not compile")
                    rows.append(dict(arch=arch, ptype=ptype, topo=topo,
                                     variant=variant, bracket=bracket,
                                     ts=ts_rows, tp=tp_rows, status=status,
                                     reasons=[tp_err or ts_err or ""]))
                    continue
                if not ts_rows and not tp_rows:
                    continue
                only_ts, only_tp = compare(ts_rows, tp_rows)
                if not only_ts and not only_tp:
                    status, reasons = "equal", []
                else:
                    reasons = _reason(ptype, bracket, only_ts, only_tp)
                    status = "differs (stated)" if reasons else "differs"
                rows.append(dict(arch=arch, ptype=ptype, topo=topo,
                                 variant=variant, bracket=bracket, ts=ts_rows,
                                 tp=tp_rows, status=status, reasons=reasons,
                                 only_ts=only_ts, only_tp=only_tp))
    write(out_path, rows)
    return rows


def write(path, rows):
    counts = collections.Counter(r["status"] for r in rows)
    lines = ["# Barrier instructions per bracket: tspipe against real TS", "",
             "Generated by `make crosscheck` (crosscheck/ptx_compare.py); do not edit.",
             "Each case builds the same pipeline (one producer task, one consumer "
             "task, two stages, a one-iteration domain loop unless stated) in real "
             "TS 4.8.1 (traced and compiled to PTX on the CPU) and in tspipe "
             "(`Kernel.to_ptx`), cuts both PTX files at markers placed between the "
             "brackets, and lists the barrier-related instructions of each bracket: "
             "opcode, count, issuing threads (`all`, `cond` = under a predicate or a conditional branch of the bracket, "
             "`elect` = after `elect.sync`), and immediates (arrive `count`, "
             "transaction bytes `tx`, `parity`, multicast `mask`; `reg` when the "
             "value is computed at run time).", "",
             "Summary: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + ".", "",
             "| arch | type | topology | variant | bracket | TS | tspipe | status |",
             "|---|---|---|---|---|---|---|---|"]
    unlowered = collections.OrderedDict()
    for r in rows:
        status = r["status"]
        if status.startswith("not lowered") or status.startswith("TS did not"):
            unlowered.setdefault((r["arch"], r["ptype"], r["topo"], r["variant"]),
                                 (status, " ".join(x for x in r["reasons"] if x)))
            r = dict(r, reasons=[])
        if r.get("reasons"):
            status += ": " + " ".join(x for x in r["reasons"] if x)
        if r["status"].startswith("differs"):
            extra = []
            if r["only_ts"]:
                extra.append("only TS: " + ", ".join(f"`{k}`" for k in r["only_ts"]))
            if r["only_tp"]:
                extra.append("only tspipe: " + ", ".join(f"`{k}`" for k in r["only_tp"]))
            status += " (" + "; ".join(extra) + ")"
        lines.append(f"| {r['arch']} | {r['ptype']} | {r['topo']} | {r['variant']} | "
                     f"{r['bracket']} | {_fmt(r['ts']) if r['ts'] is not None else 'n/a'} | "
                     f"{_fmt(r['tp']) if r['tp'] is not None else 'n/a'} | {status} |")
    if unlowered:
        lines += ["", "## Cases without a comparison", "",
                  "TS's instructions above are the reference for these cases; "
                  "tspipe's side is missing for the reason given.", "",
                  "| arch | type | topology | variant | status | message |",
                  "|---|---|---|---|---|---|"]
        for (arch, ptype, topo, variant), (status, why) in unlowered.items():
            lines.append(f"| {arch} | {ptype} | {topo} | {variant} | {status} | {why} |")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
