#!/usr/bin/env python3
"""SASS instructions per bracket: tspipe against real TS, same pipelines.

    .venv/bin/python bench/sass_brackets.py --ts-python .venv-ts/bin/python \\
        [--arch sm_100a --arch sm_90a] [--md FILE] [--cases a,b,...]

Takes the cases of crosscheck/ptx_compare.py (every pipeline type x
topology x variant; AsyncAsync and TmaAsync also on sm_90a), gets the PTX of
both sides as the PTX comparison does, and for each:

* whole kernel: the PTX as it is (its markers are comments), assembled with
  ``ptxas -arch=<arch>`` and disassembled with ``cuobjdump -sass``; counts
  every SASS instruction except NOP.
* per bracket: each marker ``// XMARK n`` becomes ``pmevent.mask n+1``,
  which survives into the SASS as ``PMTRIG n+1`` at the same place, so the
  SASS is cut into brackets the way the PTX comparison cuts PTX: along the
  control flow (branch targets are read from the SASS), a block belonging
  to the bracket its predecessors end in. A ``PMTRIG`` is an instruction
  ptxas does not move code across, so per-bracket counts come from this
  second, slightly different compile (both sides get the same markers);
  the whole-kernel column is the unmarked kernel.

Tools: ptxas on PATH (or ``--ptxas``; the ``nvidia-cuda-nvcc`` wheel ships
one), cuobjdump on PATH, in this interpreter's NVIDIA wheels
(``pip install nvidia-cuda-cuobjdump``) or ``--cuobjdump``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "crosscheck"))

import ptx_compare as P  # noqa: E402
from nvtools import find_tool  # noqa: E402

_SASS = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")
_MARK_LINE = re.compile(r"^\s*//\s*XMARK\s+(\d+)\s*$", re.M)


def assemble(ptxas, cuobjdump, ptx, arch, tmp):
    """SASS text of ``ptx`` (one kernel)."""
    src, cubin = Path(tmp) / "k.ptx", Path(tmp) / "k.cubin"
    src.write_text(ptx)
    subprocess.run([ptxas, f"-arch={arch}", str(src), "-o", str(cubin)],
                   check=True, capture_output=True, text=True)
    return subprocess.run([cuobjdump, "-sass", str(cubin)], check=True,
                          capture_output=True, text=True).stdout


def sass_instructions(sass):
    """(address, predicate, opcode, operands) per SASS instruction."""
    out = []
    for line in sass.splitlines():
        m = _SASS.search(line)
        if m:
            pred = m.group(2).strip().lstrip("@") if m.group(2) else None
            out.append((int(m.group(1), 16), pred, m.group(3),
                        m.group(4).strip()))
    return out


def as_pseudo_ptx(instrs):
    """The SASS as PTX-like text that ptx_compare.segments() reads: labels at
    branch targets, ``bra`` for BRA, ``ret`` for EXIT, ``// XMARK n`` for
    PMTRIG n+1."""
    targets = set()
    for _, _, op, args in instrs:
        if op.startswith("BRA"):
            m = re.search(r"0x([0-9a-f]+)", args)
            if m:
                targets.add(int(m.group(1), 16))
    lines = []
    for addr, pred, op, args in instrs:
        if addr in targets:
            lines.append(f"L{addr:x}:")
        at = f"@{pred} " if pred else ""
        if op.startswith("PMTRIG"):
            lines.append(f"// XMARK {int(args, 16) - 1}")
        elif op.startswith("BRA"):
            m = re.search(r"0x([0-9a-f]+)", args)
            # BRA.DIV (and any predicated BRA) may or may not be taken.
            if op.startswith("BRA.DIV") and not pred:
                at = "@divergent "
            lines.append(f"{at}bra L{m.group(1) if m else 'unknown'};")
        elif op.startswith("EXIT"):
            lines.append(f"{at}bra EXIT;" if pred else "ret;")
        else:
            lines.append(f"{at}{op} {args};")
    return "\n".join(lines)


def per_bracket(sass):
    """{segment key: instruction count} (NOPs excluded)."""
    segs = P.segments(as_pseudo_ptx(sass_instructions(sass)))
    out = {}
    for key, instrs in segs.items():
        out[key] = sum(1 for _, op, _, _ in instrs if op != "NOP")
    return out


def total(sass):
    return sum(1 for _, _, op, _ in sass_instructions(sass) if op != "NOP")


def marked(ptx):
    """``ptx`` with each marker comment replaced by ``pmevent.mask n+1``."""
    return _MARK_LINE.sub(lambda m: f"\tpmevent.mask {int(m.group(1)) + 1};",
                          ptx)


def run(ts_python, archs, ptxas, cuobjdump, cases=None):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for arch in archs:
            for (ptype, topo, variant, desc, labels, ts_ptx, _, tp_ptx,
                 _) in P.collect(ts_python, arch, cases):
                if not ts_ptx or not tp_ptx:
                    continue
                whole = {side: total(assemble(ptxas, cuobjdump, ptx, arch, tmp))
                         for side, ptx in (("ts", ts_ptx), ("tp", tp_ptx))}
                brackets = {side: per_bracket(assemble(ptxas, cuobjdump,
                                                       marked(ptx), arch, tmp))
                            for side, ptx in (("ts", ts_ptx), ("tp", tp_ptx))}
                rows.append(dict(arch=arch, ptype=ptype, topo=topo,
                                 variant=variant, labels=labels, whole=whole,
                                 brackets=brackets))
    return rows


BRACKETS = ("init", "try_acquire", "acquire", "commit", "producer end (drain)",
            "try_wait", "wait", "release")


def table(rows):
    head = ["arch", "type", "topology", "variant", "kernel TS / tspipe"] + \
        [f"{b} TS / tspipe" for b in BRACKETS]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "---|" * 4 + "---:|" * (len(head) - 4)]
    longer = []
    for r in rows:
        cells = [r["arch"], r["ptype"], r["topo"], r["variant"],
                 f"{r['whole']['ts']} / {r['whole']['tp']}"]
        names = {v: k for k, v in r["labels"].items()}
        for b in BRACKETS:
            key = "init" if b == "init" else names.get(b)
            if key is None:
                cells.append("")
                continue
            a, t = (r["brackets"][s].get(key, 0) for s in ("ts", "tp"))
            cells.append(f"{a} / {t}" + (" **+**" if t > a else ""))
            if t > a:
                longer.append((r, b, a, t))
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines), longer


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ts-python", default=os.environ.get("TS_PYTHON"))
    ap.add_argument("--arch", action="append")
    ap.add_argument("--ptxas")
    ap.add_argument("--cuobjdump")
    ap.add_argument("--md", help="write the table to this markdown file")
    ap.add_argument("--cases", help="type/topology/variant,... (default: all)")
    args = ap.parse_args()
    if not args.ts_python:
        ap.error("--ts-python (or TS_PYTHON) is required")
    ptxas = find_tool("ptxas", args.ptxas)
    cuobjdump = find_tool("cuobjdump", args.cuobjdump)
    if not ptxas or not cuobjdump:
        sys.exit("needs ptxas and cuobjdump (pip install nvidia-cuda-cuobjdump)")
    cases = None
    if args.cases:
        cases = [tuple(c.split("/")) for c in args.cases.split(",")]
    rows = run(args.ts_python, tuple(args.arch or P.ARCHS), ptxas, cuobjdump,
               cases)
    text, longer = table(rows)
    print(text)
    print(f"\n{len(longer)} brackets where tspipe's SASS is longer:")
    for r, b, a, t in longer:
        print(f"  {r['arch']} {r['ptype']}/{r['topo']}/{r['variant']} {b}: "
              f"TS {a}, tspipe {t}")
    if args.md:
        Path(args.md).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
