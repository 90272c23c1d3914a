"""Crosscheck driver: random configs and kernels through real TS and tspipe.

Run with tspipe's venv interpreter (it imports ``tspipe``); the TS side runs
in a subprocess of the TS venv's interpreter (``--ts-python``, default
``$TS_PYTHON``), speaking JSON lines (ts_runner.py)::

  python crosscheck/run.py --ts-python .venv-ts/bin/python \\
      --configs 10000 --kernels 2000 --seed 1 \\
      --report docs/crosscheck.md --record docs/crosscheck-record.md

Every disagreement is put in a class (rules.class_key), each class's
smallest case is shrunk while the class stays the same, and the classes are
written to the report with their classification (rules.KNOWN). Exit status:
0, or 1 with ``--fail-on-unexplained`` when a class has no known entry.
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import os
import random
import subprocess
import sys
import threading
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import cases as C  # noqa: E402
import import_check as IC  # noqa: E402
import rules as R  # noqa: E402
import tspipe_runner as TP  # noqa: E402
import work_cases as W  # noqa: E402


# CPU seconds TS may spend on one case (ts_runner.py reads
# CROSSCHECK_CASE_TIMEOUT; this is its default). TS's exhaustive checker
# needs up to about 26 s on the kernels of the default sizes.
TS_CASE_TIMEOUT = 30

# The share of generated kernels with work queues, PDL or guards.
WORK_SHARE = 0.3


class TSProcess:
    """A long-lived TS runner subprocess: one JSON line in, one out."""

    def __init__(self, python: str, extra_args=()):
        env = dict(os.environ)
        env.setdefault("CUTE_DSL_ARCH", "sm_100a")
        env.setdefault("CROSSCHECK_CASE_TIMEOUT", str(TS_CASE_TIMEOUT))
        self.proc = subprocess.Popen(
            [python, os.path.join(_HERE, "ts_runner.py"), *extra_args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            bufsize=1, env=env)

    def ask(self, case: dict) -> dict:
        self.proc.stdin.write(json.dumps(case) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the TS runner exited")
        return json.loads(line)

    def ask_all(self, cases):
        """Streams ``cases`` (a writer thread keeps the pipe full)."""
        def feed():
            for case in cases:
                self.proc.stdin.write(json.dumps(case) + "\n")
            self.proc.stdin.flush()
        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        out = []
        for _ in cases:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the TS runner exited")
            out.append(json.loads(line))
        writer.join()
        return out

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)


def generate(n_configs: int, n_kernels: int, seed: int):
    rng = random.Random(seed)
    out = []
    for i in range(n_configs):
        case = C.random_config(rng)
        case["id"] = f"c{i}"
        out.append(case)
    for i in range(n_kernels):
        # A share of the kernels use the work model (work_cases.py).
        case = (W.random_work_kernel(rng) if rng.random() < WORK_SHARE
                else C.random_kernel(rng))
        case["id"] = f"k{i}"
        out.append(case)
    return out


# ---------------------------------------------------------------------------
# Shrinking


def _size(case) -> int:
    return len(C.dumps(case))


def _compact_warps(k):
    warp = 0
    for t in k["tasks"]:
        t["warp_idx"] = warp
        warp += t["num_warps"]
    k["num_warps"] = max(1, warp)


def _steps_lists(task):
    """Every step list of a task (head, loop body, tail, guard bodies)."""
    lists = [task["head"], task["loop"]["body"], task["tail"]]
    # Work-model steps (work_cases.py): before and after the schedule.
    lists += [task[key] for key in ("pre", "post") if key in task]
    for s in task["loop"]["body"]:
        if "guard" in s:
            lists.append(s["body"])
    return lists


def _kernel_candidates(k):
    # Remove a pipeline with everything that uses it.
    if len(k["pipelines"]) > 1:
        for p in k["pipelines"]:
            c = copy.deepcopy(k)
            name = p["name"]
            c["pipelines"] = [q for q in c["pipelines"] if q["name"] != name]
            keep = []
            for t in c["tasks"]:
                if name in t["produces"] + t["consumes"]:
                    continue
                keep.append(t)
            c["tasks"] = keep
            _compact_warps(c)
            yield c
    if len(k["tasks"]) > 1:
        for i in range(len(k["tasks"])):
            c = copy.deepcopy(k)
            del c["tasks"][i]
            _compact_warps(c)
            yield c
    # Layout/cluster to one CTA.
    for p_i, p in enumerate(k["pipelines"]):
        kw = p["kwargs"]
        for key in list(kw):
            if key not in C.REQUIRED[p["factory"]]:
                c = copy.deepcopy(k)
                del c["pipelines"][p_i]["kwargs"][key]
                yield c
        if kw.get("num_stages") not in (1, 2):
            for s in (1, 2):
                c = copy.deepcopy(k)
                c["pipelines"][p_i]["kwargs"]["num_stages"] = s
                yield c
        if p.get("smem_bytes") is not None:
            c = copy.deepcopy(k)
            c["pipelines"][p_i]["smem_bytes"] = None
            yield c
    if k["cluster"] != [1, 1, 1]:
        c = copy.deepcopy(k)
        c["cluster"] = [1, 1, 1]
        for p in c["pipelines"]:
            if p["kwargs"].get("cta_layout_vmnk") is not None:
                p["kwargs"]["cta_layout_vmnk"] = C.tup(1, 1, 1, 1)
        yield c
    for t_i, t in enumerate(k["tasks"]):
        for l_i, steps in enumerate(_steps_lists(t)):
            for s_i in range(len(steps)):
                c = copy.deepcopy(k)
                lst = _steps_lists(c["tasks"][t_i])[l_i]
                if "guard" in lst[s_i]:
                    lst[s_i:s_i + 1] = lst[s_i]["body"]
                    yield c
                    c = copy.deepcopy(k)
                    lst = _steps_lists(c["tasks"][t_i])[l_i]
                del lst[s_i]
                yield c
        loop = t["loop"]
        if isinstance(loop["end"], dict):
            # A per-tile domain end a * m + b: its value at tile 0.
            c = copy.deepcopy(k)
            c["tasks"][t_i]["loop"]["end"] = loop["end"]["dyn"][1]
            yield c
        for key, value in (("end", 1), ("end", 2), ("start", 0), ("step", 1)):
            if isinstance(loop[key], int) and loop[key] != value:
                c = copy.deepcopy(k)
                c["tasks"][t_i]["loop"][key] = value
                yield c
        if t["num_warps"] > 1:
            c = copy.deepcopy(k)
            c["tasks"][t_i]["num_warps"] = 1
            _compact_warps(c)
            yield c
        for key in ("registers", "cta"):
            if t.get(key) is not None:
                c = copy.deepcopy(k)
                c["tasks"][t_i][key] = None
                yield c
    c = copy.deepcopy(k)
    _compact_warps(c)
    if c != k:
        yield c


def _config_candidates(case):
    kw = case["kwargs"]
    for key in list(kw):
        if key not in C.REQUIRED.get(case["factory"], []):
            c = copy.deepcopy(case)
            del c["kwargs"][key]
            yield c
    simple = {"num_stages": 2, "num_bytes": 16,
              "producer_group": C.group("Thread", 1),
              "consumer_group": C.group("Thread", 1),
              "cta_layout_vmnk": C.tup(1, 1, 1, 1)}
    for key, value in simple.items():
        if key in kw and kw[key] != value:
            c = copy.deepcopy(case)
            c["kwargs"][key] = value
            yield c


def shrink(case, key, ts_proc, budget=60):
    """Greedy shrink of ``case`` keeping its class ``key``; returns the
    smallest case found and the two verdicts."""
    best = case
    best_ts, best_tp = ts_proc.ask(case), TP.judge(case)
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        gen = (_kernel_candidates(best) if best["kind"] == "kernel"
               else _config_candidates(best))
        for cand in gen:
            if _size(cand) >= _size(best) and cand != best:
                # Accept same-size changes only when they simplify values.
                if _size(cand) > _size(best):
                    continue
            tries += 1
            if tries > budget:
                break
            ts_r, tp_r = ts_proc.ask(cand), TP.judge(cand)
            if R.class_key(cand, ts_r, tp_r) == key and cand != best:
                best, best_ts, best_tp = cand, ts_r, tp_r
                improved = True
                break
    return best, best_ts, best_tp


# ---------------------------------------------------------------------------
# Rendering


def render_kernel(k) -> str:
    lines = [f"kernel warps({k['num_warps']}) cluster{tuple(k['cluster'])}"]
    for p in k["pipelines"]:
        extra = f" smem_bytes={p['smem_bytes']}" if p.get("smem_bytes") else ""
        lines.append(f"  {p['name']} = {C.show_config(p['factory'], p['kwargs'])}{extra}")

    wq = k.get("wq")
    if wq and wq["kind"] == "static":
        lines.append(f"  wq = WorkQueue(StaticPersistent, grid={tuple(wq['grid'])})")
    elif wq:
        lines.append(f"  wq = WorkQueue(ClcDynamicPersistent, "
                     f"create_clc_fetch_async_pipeline_cfg(num_stages="
                     f"{wq['stages']}, num_bytes=16, consumer_group="
                     f"CooperativeGroup(Agent.Thread, {wq['consumers']})))")
    if k.get("pdl") is not None:
        lines.append(f"  pdl_wait = PdlWaitBarrier(); graph edges "
                     f"{{{', '.join(f'{d}: [pdl_wait]' for d in k['pdl']['deps'])}}}")

    def steps_text(steps):
        parts = []
        for s in steps:
            if "guard" in s:
                g = s["guard"]
                if g == "every":
                    g = f"every({s['period']}, start={s['start']})"
                elif "key" in s:
                    g = f"{g}(cond{s['key']})"
                parts.append(f"{g}{{ {steps_text(s['body'])} }}")
            elif "pipe" in s:
                parts.append(f"{s['op']}({s['pipe']})")
            else:
                parts.append(s["op"])
        return "; ".join(parts)

    def end_text(end):
        if isinstance(end, dict):
            a, b = end["dyn"]
            return f"{a} * m + {b}"
        return str(end)

    for t in k["tasks"]:
        attrs = []
        if t["produces"]:
            attrs.append(f"produces={t['produces']}")
        if t["consumes"]:
            attrs.append(f"consumes={t['consumes']}")
        if t.get("cta") is not None:
            attrs.append(f"run_only_on_cta_id={t['cta']}")
        if t.get("registers") is not None:
            attrs.append(f"num_registers={t['registers']}")
        lines.append(f"  task {t['name']} warps[{t['warp_idx']}, "
                     f"{t['warp_idx'] + t['num_warps']}) {' '.join(attrs)}")
        loop = t["loop"]
        tile = t.get("tile")
        pad = "    "
        if t.get("pre"):
            lines.append(f"    pre: {steps_text(t['pre'])}")
        if tile:
            skip = ", skip_if=f" if tile.get("skip") else ""
            lines.append(f"    work_tile_loop(wq{skip}) as (m, n, l):")
            pad = "      "
            if tile.get("skippable"):
                lines.append("      skippable:")
                pad = "        "
        if t["head"]:
            lines.append(f"{pad}head: {steps_text(t['head'])}")
        lines.append(f"{pad}domain_loop({loop['start']}, {end_text(loop['end'])}, "
                     f"{loop['step']}): {steps_text(loop['body'])}")
        if t["tail"]:
            lines.append(f"{pad}tail: {steps_text(t['tail'])}")
        if tile:
            lines.append(f"      {'; '.join(tile['tail']) or '(no tile tail)'}")
        if t.get("post"):
            lines.append(f"    post: {steps_text(t['post'])}")
    return "\n".join(lines)


def render_case(case) -> str:
    if case["kind"] == "config":
        return C.show_config(case["factory"], case["kwargs"])
    return render_kernel(case)


def _verdict_text(result, rule):
    if result.get("verdict") == "accept":
        return "accept"
    msg = " ".join(str(result.get("message", "")).split())
    if len(msg) > 260:
        msg = msg[:257] + "..."
    return f"{result.get('verdict')} [{rule}] {result.get('etype', '')}: {msg}"


def _verdict_table(stats):
    """The cases table; "TS timeout" counts the inconclusive cases (TS ran
    past the per-case limit: no verdict, not compared)."""
    lines = ["| | cases | both accept | both reject | disagree | TS timeout |",
             "|---|---|---|---|---|---|"]
    for kind in ("config", "kernel"):
        s = stats["by_kind"][kind]
        lines.append(f"| {kind}s | {s['n']} | {s['accept']} | {s['reject']} | "
                     f"{s['disagree']} | {s.get('inconclusive', 0)} |")
    limit = os.environ.get("CROSSCHECK_CASE_TIMEOUT", str(TS_CASE_TIMEOUT))
    lines += ["", f"A TS timeout is a case TS's checks did not finish within "
              f"{limit} s of CPU time (its exhaustive interleaving checker): "
              "no verdict, so it is neither agreement nor disagreement."]
    return lines


def write_report(path, classes, stats, args, elapsed):
    lines = ["# Crosscheck against real TS 4.8.1", "",
             "Generated by `make crosscheck` (crosscheck/run.py); do not edit.",
             "Random `PipelineConfig` factory calls and small kernels are judged "
             "by real TS (its factories, `Task`, `TaskManager` validation with "
             "the credit simulator and the exhaustive interleaving checker) and "
             "by tspipe (its factories, `Kernel.build()` with every C++ "
             "verifier, `tspipe-allocate-smem`). "
             f"{int(WORK_SHARE * 100)}% of the kernels use the work model "
             "(crosscheck/work_cases.py): a static or CLC-driven work queue "
             "with `work_tile_loop`, per-tile domains and `skip_if` / "
             "`skippable`, PDL wait and launch points, `every` / `when_true` "
             "/ `when_false` guards, correct and deliberately broken. "
             "Every disagreement is put in "
             "a class; each class shows its smallest case after shrinking and "
             "its classification. Rule ids: docs/Rules.md; TS's defects: "
             "ts-semantics §6.", "",
             f"Run: seed {args.seed}, {stats['config']} configs, "
             f"{stats['kernel']} kernels, {elapsed:.0f} s.", "",
             *_verdict_table(stats)]
    if stats.get("importer") is not None:
        lines += [""] + IC.report_lines(stats["importer"])
    lines += ["", "## Classes", "",
              "| # | class | cases | classification |", "|---|---|---|---|"]
    for i, cls in enumerate(classes, 1):
        lines.append(f"| {i} | {R.key_text(cls['key'])} | {cls['count']} | "
                     f"{cls['info']['disposition']} |")
    if stats.get("pairs"):
        lines += ["", "## Both reject, first rules differ (kernels)", "",
                  "Not disagreements: both sides reject, but TS's first failing "
                  "check (TS stops there) is in another rule family than every "
                  "rule tspipe reports. Counted, not shrunk.", "",
                  "| TS rule | tspipe rule | cases |", "|---|---|---|"]
        for (tr, pr), n in stats["pairs"].most_common():
            lines.append(f"| {tr} | {pr} | {n} |")
    for i, cls in enumerate(classes, 1):
        info = cls["info"]
        lines += ["", f"### {i}. {R.key_text(cls['key'])}", "",
                  f"Cases: {cls['count']}. Classification: "
                  f"**{info['disposition']}**."
                  + (f" {info['reason']}" if info.get("reason") else ""), "",
                  f"- TS: {_verdict_text(cls['ts'], R.ts_rule(cls['ts']))}",
                  f"- tspipe: {_verdict_text(cls['tp'], R.tspipe_rule(cls['tp']))}",
                  "", "Minimal case:", "", "```", render_case(cls["case"]), "```",
                  "", "<details><summary>JSON</summary>", "", "```json",
                  C.dumps({k: v for k, v in cls["case"].items() if k != "id"}),
                  "```", "", "</details>"]
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ts-python", default=os.environ.get("TS_PYTHON"))
    ap.add_argument("--configs", type=int, default=1000)
    ap.add_argument("--kernels", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--report", default=None)
    ap.add_argument("--record", default=None,
                    help="append a one-run summary to this markdown file")
    ap.add_argument("--json", default=None, help="write classes as JSON")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--rerender", default=None, metavar="JSON",
                    help="re-classify the classes of an earlier --json file "
                         "and write --report/--record from it (no TS run)")
    ap.add_argument("--fail-on-unexplained", action="store_true")
    ap.add_argument("--no-import", action="store_true",
                    help="skip the importer round trip (import_check.py)")
    args = ap.parse_args(argv)
    if args.rerender:
        return rerender(args)
    if not args.ts_python:
        ap.error("--ts-python (or TS_PYTHON) is required")

    start = time.time()
    cases = generate(args.configs, args.kernels, args.seed)
    ts_proc = TSProcess(args.ts_python)
    ts_results = {}
    ts_thread = threading.Thread(
        target=lambda: ts_results.update(
            {r["id"]: r for r in ts_proc.ask_all(cases)}))
    ts_thread.start()
    tp_results = {c["id"]: TP.judge(c) for c in cases}
    ts_thread.join()
    importer = None if args.no_import else \
        IC.check(cases, tp_results, args.ts_python)

    by_kind = {k: collections.Counter() for k in ("config", "kernel")}
    groups = collections.OrderedDict()
    pairs = collections.Counter()
    for case in cases:
        ts, tp = ts_results[case["id"]], tp_results[case["id"]]
        s = by_kind[case["kind"]]
        s["n"] += 1
        if R.inconclusive(ts):
            s["inconclusive"] += 1
            continue
        if case["kind"] == "kernel":
            pair = R.rule_pair(case, ts, tp)
            if pair:
                pairs[pair] += 1
        key = R.class_key(case, ts, tp)
        if key is None:
            s["accept" if ts["verdict"] == "accept" else "reject"] += 1
            continue
        s["disagree"] += 1
        groups.setdefault(key, []).append(case)

    classes = []
    for key, members in groups.items():
        smallest = min(members, key=_size)
        if args.no_shrink:
            case, ts, tp = smallest, ts_results[smallest["id"]], tp_results[smallest["id"]]
        else:
            case, ts, tp = shrink(smallest, key, ts_proc)
        info = R.classify(key, case)
        classes.append({"key": key, "count": len(members), "case": case,
                        "ts": ts, "tp": tp, "info": info})
    ts_proc.close()
    classes.sort(key=lambda c: (_ORDER.get(c["info"]["disposition"], 9),
                                -c["count"]))
    elapsed = time.time() - start
    stats = {"config": args.configs, "kernel": args.kernels, "pairs": pairs,
             "importer": importer,
             "by_kind": {k: dict(v) | {x: v.get(x, 0) for x in
                                       ("n", "accept", "reject", "disagree",
                                        "inconclusive")}
                         for k, v in by_kind.items()}}
    for kind in ("config", "kernel"):
        s = stats["by_kind"][kind]
        print(f"{kind}s: {s['n']} cases, {s['accept']} both accept, "
              f"{s['reject']} both reject, {s['disagree']} disagree, "
              f"{s['inconclusive']} TS timeout")
    counts = collections.Counter(c["info"]["disposition"] for c in classes)
    print(f"{len(classes)} classes: " + ", ".join(
        f"{n} {d}" for d, n in sorted(counts.items())))
    for c in classes:
        print(f"  [{c['info']['disposition']}] {R.key_text(c['key'])}: {c['count']}")
    if importer is not None:
        print(IC.summary_line(importer))
    print(f"{elapsed:.1f} s")
    if args.report:
        write_report(args.report, classes, stats, args, elapsed)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"stats": {**stats, "pairs": [[list(k), n] for k, n in pairs.items()]},
                       "elapsed": elapsed, "seed": args.seed,
                       "classes": [{**c, "key": list(c["key"])} for c in classes]},
                      f, indent=1, default=str)
    if args.record:
        write_record(args.record, classes, stats, args, elapsed)
    if args.fail_on_unexplained and counts.get("unexplained"):
        return 1
    return 0


_ORDER = {"unexplained": 0, "tspipe bug": 1, "TS defect (to confirm)": 2,
          "TS defect": 3, "intended difference": 4, "not modeled": 5,
          "earlier": 6}


def rerender(args):
    with open(args.rerender) as f:
        data = json.load(f)
    stats = data["stats"]
    stats["pairs"] = collections.Counter({tuple(k): n for k, n in stats["pairs"]})
    classes = []
    for c in data["classes"]:
        # Keys are recomputed from the minimal case's verdicts, so a change
        # of rules.class_key applies without a new run; a class whose
        # minimal case no longer disagrees is counted as agreement.
        key = R.class_key(c["case"], c["ts"], c["tp"])
        if key is None:
            s = stats["by_kind"][c["case"]["kind"]]
            s["disagree"] -= c["count"]
            s["accept" if c["ts"].get("verdict") == "accept" else "reject"] += c["count"]
            continue
        c["key"] = key
        c["info"] = R.classify(key, c["case"])
        classes.append(c)
    merged = collections.OrderedDict()
    for c in classes:
        if c["key"] in merged:
            merged[c["key"]]["count"] += c["count"]
        else:
            merged[c["key"]] = c
    classes = list(merged.values())
    classes.sort(key=lambda c: (_ORDER.get(c["info"]["disposition"], 9), -c["count"]))
    args.seed = data["seed"]
    args.rerendered = True
    args.configs, args.kernels = stats["config"], stats["kernel"]
    if args.report:
        write_report(args.report, classes, stats, args, data["elapsed"])
    if args.record:
        write_record(args.record, classes, stats, args, data["elapsed"])
    counts = collections.Counter(c["info"]["disposition"] for c in classes)
    print(f"{len(classes)} classes: " + ", ".join(
        f"{n} {d}" for d, n in sorted(counts.items())))
    return 1 if args.fail_on_unexplained and counts.get("unexplained") else 0


def write_record(path, classes, stats, args, elapsed):
    lines = ["# Crosscheck record run", "",
             "Summary of the recorded crosscheck run against real TS 4.8.1 "
             "(classes and minimal cases: [crosscheck.md](crosscheck.md)).", "",
             "Command:", "", "```",
             ("make crosscheck-record" + (f" CROSSCHECK_SEED={args.seed}" if args.seed != 1 else "")
              if (args.configs, args.kernels) == (10000, 2000) else
              f"nice -n 10 make crosscheck CROSSCHECK_CONFIGS={args.configs} "
              f"CROSSCHECK_KERNELS={args.kernels} CROSSCHECK_SEED={args.seed}"),
             "```", "",
             f"Seed {args.seed}; {elapsed:.0f} s on the 2-core development "
             "machine (shared)." + (
                 " Classified after the run with the final table of "
                 "crosscheck/rules.py (`run.py --rerender`, from the saved "
                 "classes)." if getattr(args, "rerendered", False) else ""), "",
             *_verdict_table(stats)]
    lines += ["", "| classification | classes | cases |", "|---|---|---|"]
    agg = collections.defaultdict(lambda: [0, 0])
    for c in classes:
        agg[c["info"]["disposition"]][0] += 1
        agg[c["info"]["disposition"]][1] += c["count"]
    for d, (n, m) in sorted(agg.items()):
        lines.append(f"| {d} | {n} | {m} |")
    lines += ["", "| class | cases | classification |", "|---|---|---|"]
    for c in classes:
        lines.append(f"| {R.key_text(c['key'])} | {c['count']} | "
                     f"{c['info']['disposition']} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
