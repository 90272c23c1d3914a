"""Finding the CUDA binary tools (ptxas, cuobjdump, nvdisasm) for the SASS
benchmarks. A module of its own, free of import side effects, so that
bench/sass_size.py and bench/sass_brackets.py share it without either
putting the other's sys.path entries in front of the installed package."""

from __future__ import annotations

import glob
import os
import shutil
import sysconfig


def find_tool(name: str, given: str | None = None) -> str | None:
    """The path of tool ``name``: ``given`` if set, else ``name`` on PATH,
    else the binary in this interpreter's NVIDIA wheels (``nvidia/**/bin``);
    None when none of them has it."""
    if given:
        return given
    found = shutil.which(name)
    if found:
        return found
    purelib = sysconfig.get_paths()["purelib"]
    for cand in glob.glob(os.path.join(purelib, "nvidia", "**", "bin", name),
                          recursive=True):
        return cand
    return None
