#!/usr/bin/env python3
"""Time of the progress checker (tspipe-check-progress) on a large kernel.

    PYTHONPATH=python .venv/bin/python bench/progress_checker.py [--repeat 5]

The kernel has 20 tasks and 10 pipelines: ten loaders, each filling its own
4-stage ring, and ten mixers, mixer j waiting on rings j and j + 1 (mod 10)
and releasing both, so every ring has two consumer tasks and the tasks form
one cycle. Every domain loop runs to the same dynamic bound %n; half the
rings use split consumer cursors (advance_on_wait). The checker decides the
kernel for every value of %n (it finds the periodic regime and checks
every length up to its bound).

Prints the best and median wall time of `check_progress` (parse + pass +
reading the verdict) and of `tspipe-opt --tspipe-check-progress` when the
tool is on the PATH or in .venv/bin. Not a test: the target (under 1 s) and
the measured figure are recorded in bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

NUM_RINGS = 10
STAGES = 4


def kernel_text(rings: int = NUM_RINGS, stages: int = STAGES) -> str:
    lines = [
        "gpu.module @bench {",
        "  gpu.func @progress_bench(%n: index) kernel {",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        f"    tspipe.kernel warps({2 * rings}) {{",
    ]
    for r in range(rings):
        split = ", advance_on_wait = true" if r % 2 else ""
        lines.append(
            f"      tspipe.pipeline @ring{r} config(<async_async, num_stages = "
            f"{stages}, producer_group = <thread, 32>, consumer_group = "
            f"<thread, 64>{split}>)")
    for r in range(rings):
        lines += [
            f"      tspipe.task @load{r} warps({r}, 1) produces [@ring{r}] {{",
            "        tspipe.domain_loop %i = %c0 to %n step %c1 {",
            f"          %s = tspipe.producer_acquire @ring{r}",
            f"          tspipe.producer_commit @ring{r}",
            "        }",
            "      }",
        ]
    for j in range(rings):
        a, b = j, (j + 1) % rings
        lines += [
            f"      tspipe.task @mix{j} warps({rings + j}, 1) consumes "
            f"[@ring{a}, @ring{b}] {{",
            "        tspipe.domain_loop %i = %c0 to %n step %c1 {",
            f"          %a = tspipe.consumer_wait @ring{a}",
            f"          %b = tspipe.consumer_wait @ring{b}",
            f"          tspipe.consumer_release @ring{a}",
            f"          tspipe.consumer_release @ring{b}",
            "        }",
            "      }",
        ]
    lines += ["    }", "    gpu.return", "  }", "}"]
    return "\n".join(lines) + "\n"


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from tspipe.progress import check_progress

    text = kernel_text()
    report = check_progress(text)
    print(f"kernel: 20 tasks, {NUM_RINGS} pipelines of {STAGES} stages; "
          f"verdict: {'ok' if report.ok else report.rule + ' ' + report.message}")
    print(f"domain lengths simulated: {report.assignments_checked}")
    best, median = timed(lambda: check_progress(text), args.repeat)
    print(f"check_progress: best {best * 1e3:.1f} ms, median {median * 1e3:.1f} ms")

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    opt = shutil.which("tspipe-opt") or os.path.join(here, ".venv", "bin",
                                                      "tspipe-opt")
    if os.path.exists(opt):
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(text)
        try:
            run = lambda: subprocess.run(
                [opt, f.name, "--tspipe-check-progress", "-o", os.devnull],
                check=True)
            best, median = timed(run, args.repeat)
            print(f"tspipe-opt --tspipe-check-progress: best {best * 1e3:.1f} ms, "
                  f"median {median * 1e3:.1f} ms")
        finally:
            os.unlink(f.name)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
