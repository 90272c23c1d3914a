#!/usr/bin/env python3
"""SASS instruction counts of the example kernels.

    python3 bench/sass_size.py [--examples examples] [--tspipe-opt PATH]
        [--arch sm_90a] [--ptx-dir DIR] [--md FILE]

For each `examples/*.mlir` (or each `*.<arch>.ptx` of `--ptx-dir`, e.g. a
`make demo` output folder), lowers it to PTX with `tspipe-opt --tspipe-to-nvvm
--gpu-module-to-binary=format=isa`, assembles it with `ptxas -arch=<arch>`
and disassembles the cubin with `cuobjdump -sass` (or `nvdisasm`). Counts,
per kernel, every SASS instruction (NOPs excluded) and the ones that show
divergence handling: WARPSYNC, BSSY / BSYNC (reconvergence brackets) and
branches (BRA). ptxas's info lines (e.g. C7508, setmaxnreg ignored) are
reported too.

Tools are found on PATH, then in the NVIDIA wheels of this interpreter
(`nvidia-cuda-nvcc` ships ptxas, `nvidia-cuda-cuobjdump` cuobjdump,
`nvidia-cuda-nvdisasm` nvdisasm), or given with --ptxas / --cuobjdump.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from tspipe.runtime.meta import extract_gpu_objects  # noqa: E402
from nvtools import find_tool  # noqa: E402

SASS_LINE = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")


def lower(tspipe_opt: str, src: Path) -> str:
    out = subprocess.run([tspipe_opt, str(src), "--tspipe-to-nvvm",
                          "--gpu-module-to-binary=format=isa"],
                         check=True, capture_output=True, text=True).stdout
    objects = [o for o in extract_gpu_objects(out) if o["format"] == "assembly"]
    return objects[0]["payload"].decode()


def count_sass(ptxas: str, dump: list[str], ptx: str, arch: str,
               tmp: Path) -> tuple[dict[str, dict[str, int]], list[str]]:
    ptx_path, cubin = tmp / "k.ptx", tmp / "k.cubin"
    ptx_path.write_text(ptx)
    info = subprocess.run([ptxas, f"-arch={arch}", str(ptx_path), "-o",
                           str(cubin)], check=True, capture_output=True,
                          text=True)
    notes = [l for l in (info.stdout + info.stderr).splitlines() if l.strip()]
    sass = subprocess.run(dump + [str(cubin)], check=True,
                          capture_output=True, text=True).stdout
    kernels: dict[str, dict[str, int]] = {}
    current = None
    for line in sass.splitlines():
        m = re.search(r"Function : (\S+)", line) or \
            re.match(r"\s*\.text\.(\S+):", line)
        if m:
            current = kernels.setdefault(m.group(1), {
                "total": 0, "WARPSYNC": 0, "BSSY": 0, "BSYNC": 0, "BRA": 0})
            continue
        m = SASS_LINE.search(line)
        if not m or current is None:
            continue
        op = m.group(2).split(".")[0]
        if op == "NOP":
            continue
        current["total"] += 1
        if op in current:
            current[op] += 1
    return kernels, notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", default=str(ROOT / "examples"))
    ap.add_argument("--ptx-dir", help="count these PTX files instead")
    ap.add_argument("--tspipe-opt")
    ap.add_argument("--ptxas")
    ap.add_argument("--cuobjdump")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--md", help="write the table to this markdown file")
    args = ap.parse_args()

    ptxas = find_tool("ptxas", args.ptxas)
    cuobjdump = find_tool("cuobjdump", args.cuobjdump)
    nvdisasm = find_tool("nvdisasm", None)
    if not ptxas or not (cuobjdump or nvdisasm):
        sys.exit("needs ptxas and cuobjdump or nvdisasm (pip install "
                 "nvidia-cuda-cuobjdump)")
    dump = [cuobjdump, "-sass"] if cuobjdump else [nvdisasm, "-c"]

    sources: list[tuple[str, str]] = []
    if args.ptx_dir:
        for p in sorted(Path(args.ptx_dir).glob(f"*.{args.arch}.ptx")):
            sources.append((p.name.split(".")[0], p.read_text()))
    else:
        tool = args.tspipe_opt or shutil.which("tspipe-opt") or \
            str(ROOT / ".venv/bin/tspipe-opt")
        for src in sorted(Path(args.examples).glob("*.mlir")):
            sources.append((src.stem, lower(tool, src)))

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, ptx in sources:
            kernels, notes = count_sass(ptxas, dump, ptx, args.arch, Path(tmp))
            for kernel, c in kernels.items():
                rows.append((name, kernel, c, "; ".join(notes)))
    header = ("| example | kernel | SASS | WARPSYNC | BSSY | BSYNC | BRA | "
              "ptxas notes |\n|---|---|---:|---:|---:|---:|---:|---|")
    lines = [header] + [
        f"| {n} | {k} | {c['total']} | {c['WARPSYNC']} | {c['BSSY']} | "
        f"{c['BSYNC']} | {c['BRA']} | {notes} |" for n, k, c, notes in rows]
    print("\n".join(lines))
    if args.md:
        Path(args.md).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
