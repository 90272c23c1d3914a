"""Mutation fuzzing of the work-model, PDL, guard, buffer and named-barrier
ops through tspipe-opt: no input may crash the tool.

Seeds are the ``// -----`` chunks of the valid lit tests and examples that
use one of the ops in ``OPS``. Each mutant (one textual change of a seed:
an integer attribute or operand replaced by an extreme value, an op renamed
to a sibling, a symbol swapped, a line dropped, duplicated or moved, a unit
keyword dropped) is run through every pass pipeline of docs/Passes.md. A
run that ends in a signal, an LLVM assertion, ``LLVM ERROR`` or a stack
dump is a crash; a clean diagnostic (exit status 1) or success is not.

Used by test_op_mutations.py (a fixed seed and a bounded number of mutants
in ``make pytest``) and as a script for longer runs::

  python test/python/op_mutations.py --mutants 3000 --seed 5 \\
      --opt build/skbuild/bin/tspipe-opt
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import re
import subprocess
import sys
from typing import Iterator, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The ops whose inputs are fuzzed (issue: no user input kills the process).
OPS = ("tspipe.work_queue", "tspipe.work_tile_loop", "tspipe.skippable",
       "tspipe.skip_tile", "tspipe.advance_work_tile",
       "tspipe.fetch_work_tile", "tspipe.pdl_wait",
       "tspipe.pdl_launch_dependents", "tspipe.every", "tspipe.when_true",
       "tspipe.when_false", "tspipe.buffer", "tspipe.alias_group",
       "tspipe.buffer_address", "tspipe.tmem_column", "iter_args",
       "tspipe.yield", "tspipe.named_barrier")

# The pass pipelines of docs/Passes.md, each run on every mutant.
PIPELINES = (
    [],
    ["--tspipe-normalize"],
    ["--tspipe-allocate-smem"],
    ["--tspipe-check-progress"],
    ["--tspipe-normalize", "--tspipe-allocate-smem",
     "--tspipe-verify-lowering"],
    ["--pass-pipeline=builtin.module(tspipe-to-nvvm{check-progress=true})"],
    ["--pass-pipeline=builtin.module(tspipe-allocate-smem,"
     "convert-tspipe-to-nvvm)"],
    # Down to PTX text: LLVM's NVPTX backend sees what the lowering made.
    ["--pass-pipeline=builtin.module(nvvm-attach-target{chip=sm_100a "
     "features=+ptx86},tspipe-to-nvvm,gpu-module-to-binary{format=isa})"],
)

# Sibling op names: a renamed op keeps its syntax or nearly so.
SIBLINGS = [
    ("tspipe.when_true", "tspipe.when_false"),
    ("tspipe.every", "tspipe.first_iter"),
    ("tspipe.pdl_wait", "tspipe.pdl_launch_dependents"),
    ("tspipe.advance_work_tile", "tspipe.fetch_work_tile"),
    ("tspipe.skippable", "tspipe.first_iter"),
    ("tspipe.buffer_address", "tspipe.tmem_column"),
    ("tspipe.named_barrier_sync", "tspipe.named_barrier_arrive"),
    ("tspipe.work_tile_loop", "tspipe.domain_loop"),
    ("tspipe.consumer_wait", "tspipe.producer_acquire"),
]

EXTREMES = ["0", "-1", "1", "3", "15", "16", "17", "255", "65536",
            "2147483647", "-2147483648", "4294967296",
            "9223372036854775807", "-9223372036854775808"]

CRASH = re.compile(r"Assertion .* failed|LLVM ERROR|Stack dump|PLEASE submit|"
                   r"UNREACHABLE|Segmentation fault|terminate called")


def seeds() -> List[Tuple[str, str]]:
    """(name, text) of every chunk of the valid tests and examples that
    uses one of ``OPS``."""
    files = sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"),
                             recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")))
    out = []
    for path in files:
        with open(path) as f:
            text = f.read()
        for i, chunk in enumerate(text.split("\n// -----")):
            lines = [l for l in chunk.splitlines()
                     if not l.lstrip().startswith("// RUN")]
            chunk = "\n".join(lines) + "\n"
            if any(op in chunk for op in OPS):
                out.append((f"{os.path.relpath(path, ROOT)}#{i}", chunk))
    return out


_INT = re.compile(r"(?<![\w%#.])-?\d+(?![\w.])")
_SYM = re.compile(r"@[A-Za-z_][\w$]*")


def _op_lines(lines: List[str]) -> List[int]:
    return [i for i, l in enumerate(lines)
            if any(op in l for op in OPS) or "tspipe." in l]


def mutate(text: str, rng: random.Random) -> Tuple[str, str]:
    """One mutant of ``text`` and a short description of the change."""
    lines = text.splitlines()
    targets = [i for i, l in enumerate(lines) if any(op in l for op in OPS)]
    near = _op_lines(lines)
    kind = rng.choice(["int", "int", "int", "rename", "symbol", "drop",
                       "dup", "move", "unit", "operand"])
    if not targets:
        return text, "none"
    i = rng.choice(targets)
    line = lines[i]
    if kind == "int":
        found = list(_INT.finditer(line))
        if found:
            m = rng.choice(found)
            value = rng.choice(EXTREMES)
            lines[i] = line[:m.start()] + value + line[m.end():]
            return "\n".join(lines) + "\n", f"line {i + 1}: {m.group()} -> {value}"
    if kind == "rename":
        for a, b in rng.sample(SIBLINGS, len(SIBLINGS)):
            for x, y in ((a, b), (b, a)):
                if re.search(re.escape(x) + r"\b", line):
                    lines[i] = re.sub(re.escape(x) + r"\b", y, line, count=1)
                    return "\n".join(lines) + "\n", f"line {i + 1}: {x} -> {y}"
    if kind == "symbol":
        syms = sorted(set(_SYM.findall(text)))
        found = list(_SYM.finditer(line))
        if found and len(syms) > 1:
            m = rng.choice(found)
            other = rng.choice([s for s in syms if s != m.group()] + ["@nope"])
            lines[i] = line[:m.start()] + other + line[m.end():]
            return "\n".join(lines) + "\n", f"line {i + 1}: {m.group()} -> {other}"
    if kind == "drop":
        del lines[i]
        return "\n".join(lines) + "\n", f"line {i + 1} dropped"
    if kind == "dup":
        lines.insert(i, line)
        return "\n".join(lines) + "\n", f"line {i + 1} duplicated"
    if kind == "move" and near:
        j = rng.choice(near)
        moved = lines.pop(i)
        lines.insert(j if j < len(lines) else len(lines), moved)
        return "\n".join(lines) + "\n", f"line {i + 1} moved to {j + 1}"
    if kind == "unit":
        words = [w for w in ("skip_if", "clc", "grid", "tmem", "iter_args",
                             "response", "start", "period") if w in line]
        if words:
            w = rng.choice(words)
            lines[i] = re.sub(r"\b" + w + r"\b(\([^)]*\))?", "", line, count=1)
            return "\n".join(lines) + "\n", f"line {i + 1}: {w} dropped"
    if kind == "operand":
        vals = re.findall(r"%[\w#]+", text)
        found = list(re.finditer(r"%[\w#]+", line))
        if found and vals:
            m = rng.choice(found)
            other = rng.choice(vals)
            lines[i] = line[:m.start()] + other + line[m.end():]
            return "\n".join(lines) + "\n", f"line {i + 1}: {m.group()} -> {other}"
    # Fallback: an extreme integer anywhere near.
    j = rng.choice(near or targets)
    found = list(_INT.finditer(lines[j]))
    if found:
        m = rng.choice(found)
        value = rng.choice(EXTREMES)
        lines[j] = lines[j][:m.start()] + value + lines[j][m.end():]
        return "\n".join(lines) + "\n", f"line {j + 1}: {m.group()} -> {value}"
    del lines[i]
    return "\n".join(lines) + "\n", f"line {i + 1} dropped"


def crashed(proc: subprocess.CompletedProcess) -> bool:
    """A signal, an exit status other than 0 / 1, or a crash message."""
    return (proc.returncode < 0 or proc.returncode not in (0, 1)
            or bool(CRASH.search(proc.stderr)))


def run_opt(opt: str, text: str, pipeline: List[str],
            timeout: int = 60) -> subprocess.CompletedProcess:
    return subprocess.run([opt, "-", "-o", os.devnull, *pipeline], input=text,
                          capture_output=True, text=True, timeout=timeout)


def find_opt(explicit: Optional[str] = None) -> str:
    for cand in (explicit, os.environ.get("TSPIPE_OPT"),
                 os.path.join(os.path.dirname(sys.executable), "tspipe-opt"),
                 os.path.join(ROOT, "build", "skbuild", "bin", "tspipe-opt")):
        if cand and os.access(cand, os.X_OK):
            return cand
    raise FileNotFoundError("tspipe-opt not found (set TSPIPE_OPT)")


def mutants(n: int, seed: int) -> Iterator[Tuple[str, str, str]]:
    """(seed name, change, text) of ``n`` mutants, deterministic in
    ``seed``."""
    rng = random.Random(seed)
    pool = seeds()
    for _ in range(n):
        name, text = rng.choice(pool)
        for _ in range(rng.choice([1, 1, 2])):
            text, change = mutate(text, rng)
        yield name, change, text


def fuzz(opt: str, n: int, seed: int, pipelines=PIPELINES, timeout=60,
         slow=None):
    """The crashes among ``n`` mutants: (seed name, change, pipeline,
    stderr tail, text). A run past ``timeout`` seconds is no crash; it is
    appended to ``slow`` (a list) when one is given."""
    found = []
    for name, change, text in mutants(n, seed):
        for pipeline in pipelines:
            try:
                proc = run_opt(opt, text, pipeline, timeout=timeout)
            except subprocess.TimeoutExpired:
                if slow is not None:
                    slow.append((name, change, pipeline, "timeout", text))
                continue
            if crashed(proc):
                found.append((name, change, pipeline, proc.stderr[-1500:], text))
            if proc.returncode != 0:
                # A rejected input fails every later pipeline the same way.
                break
    return found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mutants", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opt", default=None)
    ap.add_argument("--out", default=None,
                    help="folder to write each crashing input to")
    args = ap.parse_args(argv)
    opt = find_opt(args.opt)
    slow = []
    found = fuzz(opt, args.mutants, args.seed, slow=slow)
    for name, change, pipeline, _, _ in slow:
        print(f"SLOW {name} ({change}) {' '.join(pipeline) or '(verify)'}: "
              "over 60 s")
    for k, (name, change, pipeline, err, text) in enumerate(found):
        print(f"CRASH {name} ({change}) {' '.join(pipeline) or '(verify)'}")
        print("  " + "\n  ".join(err.strip().splitlines()[-6:]))
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            with open(os.path.join(args.out, f"crash{k}.mlir"), "w") as f:
                f.write(f"// {name}: {change}; {' '.join(pipeline)}\n{text}")
    print(f"{args.mutants} mutants, {len(found)} crashes")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
