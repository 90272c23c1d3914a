"""Shared driver of the Python examples: verify, lower, assemble.

``compile_and_assemble(task_manager, arch, argv)`` lowers the verified
kernel to PTX in process (``tspipe.compile``), writes
``<out>/<kernel>.<arch>.ptx`` (``out`` = ``argv[0]``, default
``out/python``) and assembles it with ``ptxas -arch=<arch>`` when ptxas is
on PATH (or in ``$CUDA_HOME/bin``). Returns the process exit status: 0 on
success, 1 when ptxas rejects the PTX.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional, Sequence


def find_ptxas() -> Optional[str]:
    """ptxas from PATH or ``$CUDA_HOME/bin``, or None."""
    found = shutil.which("ptxas")
    if found:
        return found
    home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    candidate = Path(home) / "bin" / "ptxas"
    return str(candidate) if candidate.exists() else None


def assemble(ptx_path: Path, arch: str) -> subprocess.CompletedProcess:
    """``ptxas -arch=<arch>`` on ``ptx_path`` (cubin next to it)."""
    ptxas = find_ptxas()
    if ptxas is None:
        raise FileNotFoundError("ptxas not found")
    return subprocess.run(
        [ptxas, f"-arch={arch}", "-o", str(ptx_path.with_suffix(".cubin")),
         str(ptx_path)], capture_output=True, text=True)


def compile_and_assemble(task_manager, arch: str,
                         argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out = Path(argv[0] if argv else "out/python")
    out.mkdir(parents=True, exist_ok=True)
    kernel = task_manager.kernel
    ptx = task_manager.to_ptx(arch)
    path = out / f"{kernel.name}.{arch}.ptx"
    path.write_text(ptx)
    print(f"{kernel.name}: verified, lowered to {path} "
          f"({len(ptx.splitlines())} lines)")
    if find_ptxas() is None:
        print(f"{kernel.name}: ptxas not found, not assembled")
        return 0
    result = assemble(path, arch)
    if result.returncode != 0:
        print(f"{kernel.name}: ptxas -arch={arch} failed:\n{result.stderr}")
        return 1
    print(f"{kernel.name}: ptxas -arch={arch} ok")
    return 0
