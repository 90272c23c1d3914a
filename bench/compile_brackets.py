#!/usr/bin/env python3
"""Compile time and peak memory per bracket count: tspipe against upstream NVGPU.

    python3 bench/compile_brackets.py [--tspipe-opt PATH] [--mlir-opt PATH] \
        [--brackets 1000,10000,100000] [--pairs 10] [--stages 2] \
        [--growth] [--md FILE]

A bracket is one producer acquire + commit, or one consumer wait + release.
For B brackets the generator writes one kernel of `pairs` producer /
consumer task pairs and P AsyncAsync pipelines of `stages` stages (P =
pairs unless said otherwise), pair j owning pipelines j, j + pairs, ...;
each task makes B / (2 pairs) brackets per iteration of its domain loop,
going round its pipelines. Two programs of the same size are timed:

* tspipe: `tspipe-opt --tspipe-to-nvvm` (verification, shared-memory
  allocation, the progress checker, the lowering and its cleanup passes:
  canonicalize, cse, scf-to-cf, gpu-to-nvvm, nvvm-to-llvm, canonicalize,
  cse), and again with `check-progress=false`;
* upstream: the same protocol written by hand with `nvgpu.mbarrier.*` ops
  (two mbarrier groups of `stages` barriers per pipeline, initialized by
  thread 0; each producer bracket a `try_wait.parity` on the empty barrier
  and an `arrive` on the full one, each consumer bracket the reverse, the
  stage index and phase carried through an `scf.for`), lowered by the
  wheel's `mlir-opt` through `convert-nvgpu-to-nvvm` and the same cleanup
  passes.

Each run is one process under `/usr/bin/time -v`: CPU seconds (user + system,
not wall: the machine may be loaded) and the peak resident set. `--growth`
adds two growth families at 10k brackets (10 task pairs): pipelines
(10, 100, 1000) and stages (2, 16, 128).
This is a benchmark, not a test: nothing here runs in `make test`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TARGET = '#nvvm.target<chip = "sm_90a", features = "+ptx80">'


def _tasks(brackets: int, pipelines: int, pairs: int):
    """Per task pair j: its pipelines (j, j + pairs, ...) and the pipeline of
    each of its brackets (round robin), B / (2 pairs) brackets per task."""
    pairs = min(pairs, pipelines)
    per_task = max(1, brackets // (2 * pairs))
    out = []
    for j in range(pairs):
        mine = list(range(j, pipelines, pairs))
        out.append((mine, [mine[k % len(mine)] for k in range(per_task)]))
    return out


def tspipe_kernel(brackets: int, pipelines: int, stages: int,
                  pairs: int = 10) -> str:
    tasks = _tasks(brackets, pipelines, pairs)
    out = [f"gpu.module @bench [{TARGET}] {{\n",
           "  gpu.func @bench(%n: index) kernel {\n",
           "    %c0 = arith.constant 0 : index\n",
           "    %c1 = arith.constant 1 : index\n",
           f"    tspipe.kernel warps({2 * len(tasks)}) {{\n"]
    for j in range(pipelines):
        out.append(f"      tspipe.pipeline @p{j} config(<async_async, "
                   f"num_stages = {stages}, producer_group = <thread, 32>, "
                   f"consumer_group = <thread, 32>>)\n")
    for j, (mine, seq) in enumerate(tasks):
        refs = ", ".join(f"@p{q}" for q in mine)
        for side, w, ops in (("produces", 2 * j,
                              ("producer_acquire", "producer_commit")),
                             ("consumes", 2 * j + 1,
                              ("consumer_wait", "consumer_release"))):
            out.append(f"      tspipe.task @t{w} warps({w}, 1) {side} [{refs}] {{\n")
            out.append("        tspipe.domain_loop %i = %c0 to %n step %c1 {\n")
            for k, q in enumerate(seq):
                out.append(f"          %s{k} = tspipe.{ops[0]} @p{q}\n")
                out.append(f"          tspipe.{ops[1]} @p{q}\n")
            out.append("        }\n      }\n")
    out.append("    }\n    gpu.return\n  }\n}\n")
    return "".join(out)


def nvgpu_kernel(brackets: int, pipelines: int, stages: int,
                 pairs: int = 10) -> str:
    tasks = _tasks(brackets, pipelines, pairs)
    bar = (f"!nvgpu.mbarrier.group<memorySpace = "
           f"#gpu.address_space<workgroup>, num_barriers = {stages}>")
    out = [f"!bar = {bar}\n", f"gpu.module @bench [{TARGET}] {{\n",
           "  gpu.func @bench(%n: index) kernel {\n",
           "    %c0 = arith.constant 0 : index\n",
           "    %c1 = arith.constant 1 : index\n",
           f"    %cS = arith.constant {stages} : index\n",
           "    %c32 = arith.constant 32 : index\n",
           "    %true = arith.constant true\n",
           "    %ticks = arith.constant 10000000 : index\n",
           "    %tid = gpu.thread_id x\n",
           "    %warp = arith.divui %tid, %c32 : index\n",
           "    %tid0 = arith.cmpi eq, %tid, %c0 : index\n"]
    for j in range(pipelines):
        out.append(f"    %full{j} = nvgpu.mbarrier.create -> !bar\n")
        out.append(f"    %empty{j} = nvgpu.mbarrier.create -> !bar\n")
    out.append("    scf.if %tid0 {\n      scf.for %s = %c0 to %cS step %c1 {\n")
    for j in range(pipelines):
        out.append(f"        nvgpu.mbarrier.init %full{j}[%s], %c32 : !bar\n")
        out.append(f"        nvgpu.mbarrier.init %empty{j}[%s], %c32 : !bar\n")
    out.append("      }\n    }\n    gpu.barrier\n")
    for j, (mine, seq) in enumerate(tasks):
        for w, producer in ((2 * j, True), (2 * j + 1, False)):
            # Cursor (stage, phase) of each pipeline, carried by the loop.
            cur = {q: (f"%st{q}_0", f"%ph{q}_0") for q in mine}
            inits = ", ".join(f"{cur[q][0]} = %c0, {cur[q][1]} = %c0"
                              for q in mine)
            types = ", ".join("index, index" for _ in mine)
            out.append(f"    %w{w} = arith.constant {w} : index\n")
            out.append(f"    %is{w} = arith.cmpi eq, %warp, %w{w} : index\n")
            out.append(f"    scf.if %is{w} {{\n")
            out.append(f"      %r{w}:{2 * len(mine)} = scf.for %i = %c0 to %n "
                       f"step %c1 iter_args({inits}) -> ({types}) {{\n")
            for k, q in enumerate(seq):
                st, ph = cur[q]
                wait = f"%empty{q}" if producer else f"%full{q}"
                arrive = f"%full{q}" if producer else f"%empty{q}"
                out.append(f"        %pb{k} = arith.index_cast {ph} : index to i1\n")
                par = f"%pb{k}"
                if producer:
                    out.append(f"        %pi{k} = arith.xori %pb{k}, %true : i1\n")
                    par = f"%pi{k}"
                out.append(f"        nvgpu.mbarrier.try_wait.parity {wait}[{st}], "
                           f"{par}, %ticks : !bar\n")
                out.append(f"        %tk{k} = nvgpu.mbarrier.arrive {arrive}[{st}]"
                           " : !bar -> !nvgpu.mbarrier.token\n")
                out.append(f"        %nx{k} = arith.addi {st}, %c1 : index\n")
                out.append(f"        %wr{k} = arith.cmpi eq, %nx{k}, %cS : index\n")
                out.append(f"        %ns{k} = arith.select %wr{k}, %c0, %nx{k} : index\n")
                out.append(f"        %fp{k} = arith.xori {ph}, %c1 : index\n")
                out.append(f"        %np{k} = arith.select %wr{k}, %fp{k}, {ph} : index\n")
                cur[q] = (f"%ns{k}", f"%np{k}")
            yields = ", ".join(f"{cur[q][0]}, {cur[q][1]}" for q in mine)
            out.append(f"        scf.yield {yields} : {types}\n")
            out.append("      }\n    }\n")
    out.append("    gpu.return\n  }\n}\n")
    return "".join(out)


UPSTREAM = ("builtin.module(gpu.module(convert-nvgpu-to-nvvm,canonicalize,cse,"
            "convert-scf-to-cf,convert-gpu-to-nvvm,convert-nvvm-to-llvm,"
            "canonicalize,cse),reconcile-unrealized-casts)")


def timed(cmd: list[str]) -> tuple[float, float]:
    """CPU seconds (user + sys) and peak RSS (MB) of one run, /usr/bin/time -v."""
    res = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True,
                         text=True)
    if res.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{res.stderr[-2000:]}")
    err = res.stderr
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", err).group(1))
    syst = float(re.search(r"System time \(seconds\): ([\d.]+)", err).group(1))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                        err).group(1))
    return user + syst, rss / 1024.0


def find(given: str | None, names: list[Path], exe: str) -> str:
    if given:
        return given
    for cand in names:
        if cand.exists():
            return str(cand)
    found = shutil.which(exe)
    if not found:
        sys.exit(f"{exe} not found; pass --{exe}")
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parent.parent
    ap.add_argument("--tspipe-opt")
    ap.add_argument("--mlir-opt")
    ap.add_argument("--brackets", default="1000,10000,100000")
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--stages", type=int, default=2)
    ap.add_argument("--growth", action="store_true")
    ap.add_argument("--md")
    args = ap.parse_args()
    tsopt = find(args.tspipe_opt, [here / ".venv/bin/tspipe-opt"], "tspipe-opt")
    mopt = find(args.mlir_opt, list(here.glob(
        ".venv/lib/python3*/site-packages/mlir/bin/mlir-opt")), "mlir-opt")
    rows = []
    growth = []
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for b in [int(v) for v in args.brackets.split(",") if v]:
            (t / "ts.mlir").write_text(tspipe_kernel(b, args.pairs, args.stages, args.pairs))
            (t / "nv.mlir").write_text(nvgpu_kernel(b, args.pairs, args.stages, args.pairs))
            ts = timed([tsopt, str(t / "ts.mlir"), "--tspipe-to-nvvm",
                        "-o", os.devnull])
            tsn = timed([tsopt, str(t / "ts.mlir"),
                         "--tspipe-to-nvvm=check-progress=false",
                         "-o", os.devnull])
            nv = timed([mopt, str(t / "nv.mlir"), f"--pass-pipeline={UPSTREAM}",
                        "-o", os.devnull])
            rows.append((b, ts, tsn, nv))
            print(f"{b:7} brackets  tspipe {ts[0]:7.2f} s {ts[1]:7.0f} MB | "
                  f"no checker {tsn[0]:7.2f} s {tsn[1]:7.0f} MB | "
                  f"nvgpu {nv[0]:7.2f} s {nv[1]:7.0f} MB | "
                  f"ratio {ts[0] / nv[0]:5.2f} / {tsn[0] / nv[0]:5.2f}",
                  flush=True)
        if args.growth:
            for fam, vals in (("pipelines", (10, 100, 1000)),
                              ("stages", (2, 16, 128))):
                for v in vals:
                    p, s = (v, args.stages) if fam == "pipelines" else (args.pairs, v)
                    (t / "ts.mlir").write_text(tspipe_kernel(10000, p, s, args.pairs))
                    (t / "nv.mlir").write_text(nvgpu_kernel(10000, p, s, args.pairs))
                    ts = timed([tsopt, str(t / "ts.mlir"), "--tspipe-to-nvvm",
                                "-o", os.devnull])
                    nv = timed([mopt, str(t / "nv.mlir"),
                                f"--pass-pipeline={UPSTREAM}", "-o", os.devnull])
                    growth.append((fam, v, ts, nv))
                    print(f"10k brackets, {fam} {v:4}: tspipe {ts[0]:7.2f} s "
                          f"{ts[1]:6.0f} MB | nvgpu {nv[0]:7.2f} s {nv[1]:6.0f} MB",
                          flush=True)
    if args.md:
        lines = ["| brackets | tspipe s | tspipe MB | tspipe, no checker s | MB |"
                 " nvgpu s | nvgpu MB | ratio s | ratio s, no checker | ratio MB |",
                 "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for b, ts, tsn, nv in rows:
            lines.append(f"| {b} | {ts[0]:.2f} | {ts[1]:.0f} | {tsn[0]:.2f} | "
                         f"{tsn[1]:.0f} | {nv[0]:.2f} | {nv[1]:.0f} | "
                         f"{ts[0] / nv[0]:.2f} | {tsn[0] / nv[0]:.2f} | "
                         f"{ts[1] / nv[1]:.2f} |")
        if growth:
            lines += ["", "| family (10k brackets) | value | tspipe s | tspipe MB |"
                      " nvgpu s | nvgpu MB | ratio s |", "|---|---:|---:|---:|---:|---:|---:|"]
            for fam, v, ts, nv in growth:
                lines.append(f"| {fam} | {v} | {ts[0]:.2f} | {ts[1]:.0f} | "
                             f"{nv[0]:.2f} | {nv[1]:.0f} | {ts[0] / nv[0]:.2f} |")
        Path(args.md).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
