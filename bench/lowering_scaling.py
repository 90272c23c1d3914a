#!/usr/bin/env python3
"""How lowering time grows with the number of pipelines and of stages.

    python3 bench/lowering_scaling.py [--tspipe-opt PATH] \
        [--pipelines 100,400,1000] [--stages 256,1024,2048] [--md FILE]

Generates two families of kernels and times `tspipe-opt --tspipe-to-nvvm
--gpu-module-to-binary=format=isa` (through to PTX; ptxas is not run) on
each, one run per size:

* `pipelines N`: one AsyncAsync pipeline of 2 stages per pair of tasks,
  N pipelines spread over 16 producer / consumer task pairs (32 warps);
  every consumer task lists all N pipelines but waits and releases only its
  N / 16, once per iteration of its domain loop; each producer task lists,
  acquires, commits and drains its own N / 16 (a producer listing a ring
  another task fills would drain it too, a phase overrun, R71).
* `stages S`: one AsyncAsync pipeline of S stages, one producer and one
  consumer task.

Reports CPU seconds and the ratio to the smallest size of the family (the
targets: 1000 pipelines within 12x the time of 100, 2048 stages within 2.2x
the time of 1024), plus the peak resident memory of tspipe-opt in MB.
This is a benchmark, not a test: nothing here runs in `make test`.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TASK_PAIRS = 16

HEADER = """gpu.module @bench [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {{
  gpu.func @bench(%n: index) kernel {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps({warps}) {{
"""
FOOTER = """    }
    gpu.return
  }
}
"""


def pipeline(name: str, stages: int) -> str:
    return (f"      tspipe.pipeline @{name} config(<async_async, "
            f"num_stages = {stages}, producer_group = <thread, 32>, "
            f"consumer_group = <thread, 32>>)\n")


def task(name: str, warp: int, side: str, pipes: list[str],
         listed: list[str]) -> str:
    refs = ", ".join(f"@{p}" for p in listed)
    lines = [f"      tspipe.task @{name} warps({warp}, 1) {side} [{refs}] {{\n",
             "        tspipe.domain_loop %i = %c0 to %n step %c1 {\n"]
    for p in pipes:
        if side == "produces":
            lines.append(f"          %s_{p} = tspipe.producer_acquire @{p}\n")
            lines.append(f"          tspipe.producer_commit @{p}\n")
        else:
            lines.append(f"          %s_{p} = tspipe.consumer_wait @{p}\n")
            lines.append(f"          tspipe.consumer_release @{p}\n")
    lines.append("        }\n      }\n")
    return "".join(lines)


def pipelines_kernel(n: int) -> str:
    names = [f"p{i}" for i in range(n)]
    pairs = min(TASK_PAIRS, n)
    body = [HEADER.format(warps=2 * pairs)]
    body += [pipeline(p, 2) for p in names]
    for t in range(pairs):
        mine = names[t::pairs]
        # Every consumer lists every pipeline (as a TS task may name
        # resources it does not touch in this loop) but brackets only its
        # own share. A producer lists only its own: it drains every pipeline
        # it lists at exit, and a second producer draining a ring it never
        # fills would overrun its phases (R71).
        body.append(task(f"load{t}", 2 * t, "produces", mine, mine))
        body.append(task(f"use{t}", 2 * t + 1, "consumes", mine, names))
    body.append(FOOTER)
    return "".join(body)


def stages_kernel(s: int) -> str:
    return "".join([HEADER.format(warps=2), pipeline("ring", s),
                    task("load", 0, "produces", ["ring"], ["ring"]),
                    task("use", 1, "consumes", ["ring"], ["ring"]), FOOTER])


def time_one(tspipe_opt: str, text: str, workdir: Path,
             check_progress: bool = True) -> tuple[float, float]:
    """CPU seconds (user + system) of one tspipe-opt run, and its peak
    resident memory in MB. CPU time, not wall time: it does not depend on
    how busy the machine is."""
    src = workdir / "kernel.mlir"
    src.write_text(text)
    lowering = ("--tspipe-to-nvvm" if check_progress
                else "--tspipe-to-nvvm=check-progress=false")
    cmd = [tspipe_opt, str(src), lowering,
           "--gpu-module-to-binary=format=isa", "-o", os.devnull]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Each run in its own child so that ru_maxrss is this run's peak.
    script = ("import resource, subprocess, sys;"
              "subprocess.run(sys.argv[1:], check=True);"
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", script, *cmd], check=True,
                         capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + \
        (after.ru_stime - before.ru_stime)
    return seconds, int(out.split()[-1]) / 1024.0


def find_tspipe_opt(given: str | None) -> str:
    if given:
        return given
    here = Path(__file__).resolve().parent.parent
    for cand in (here / ".venv/bin/tspipe-opt",
                 here / "build/skbuild/bin/tspipe-opt"):
        if cand.exists():
            return str(cand)
    found = shutil.which("tspipe-opt")
    if not found:
        sys.exit("tspipe-opt not found; pass --tspipe-opt")
    return found


def sizes(text: str) -> list[int]:
    return [int(v) for v in text.split(",") if v]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tspipe-opt")
    ap.add_argument("--pipelines", default="100,400,1000", type=sizes)
    ap.add_argument("--stages", default="256,1024,2048", type=sizes)
    ap.add_argument("--md", help="write the table to this markdown file")
    ap.add_argument("--no-check-progress", action="store_true",
                    help="lower with tspipe-to-nvvm{check-progress=false} "
                         "(the lowering alone, without the progress checker)")
    args = ap.parse_args()
    tool = find_tspipe_opt(args.tspipe_opt)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for family, values, make in (("pipelines", args.pipelines,
                                      pipelines_kernel),
                                     ("stages", args.stages, stages_kernel)):
            base = None
            for v in values:
                seconds, peak = time_one(tool, make(v), Path(tmp),
                                         not args.no_check_progress)
                base = base or seconds
                rows.append((family, v, seconds, seconds / base, peak))
                print(f"{family:9} {v:6}  {seconds:8.3f} s  "
                      f"x{seconds / base:6.2f}  peak {peak:8.1f} MB",
                      flush=True)
    if args.md:
        lines = ["| family | size | seconds | ratio to smallest | peak MB |",
                 "|---|---:|---:|---:|---:|"]
        lines += [f"| {f} | {v} | {s:.3f} | {r:.2f} | {p:.0f} |"
                  for f, v, s, r, p in rows]
        Path(args.md).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
