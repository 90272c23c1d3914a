"""The NVVM targets tspipe kernels are built for.

`PTX_FEATURES` maps a chip to the PTX ISA version (the `features` of
`#nvvm.target`) it needs: the least version that LLVM 22's NVPTX backend
and the CUDA 13 toolkit (ptxas 13.0) accept for it. The kernel verifier
holds the same table (lib/Dialect/TSPipe/IR/TSPipeTargetRules.cpp, rule X7)
and rejects any other chip, or a chip with an older PTX version, when the
module is verified.

CUDA 13 renamed sm_101 to sm_110: ptxas 13.0 rejects `sm_101a`, so it is not
listed (field bug B24).
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from .diagnostics import ArchError, caller_location

__all__ = ["PTX_FEATURES", "SUPPORTED_ARCHS", "ptx_features", "check_arch"]

PTX_FEATURES = {
    "sm_90": "+ptx80",
    "sm_90a": "+ptx80",
    "sm_100": "+ptx86",
    "sm_100a": "+ptx86",
    "sm_103a": "+ptx88",
    "sm_110a": "+ptx90",
    "sm_120a": "+ptx87",
    "sm_121a": "+ptx88",
}

# The chips tspipe kernels may target: sm_90 or newer, and
# architecture-specific ("a"), because the lowering uses setmaxnreg (task
# register counts), which the NVPTX backend selects only for those; on
# sm_80/sm_89 it cannot select elect.sync or the mbarrier parity waits either.
# Each of these lowers every example and the builder's kernels without an
# LLVM fatal error (test_compile.py).
SUPPORTED_ARCHS: Tuple[str, ...] = ("sm_90a", "sm_100a", "sm_103a", "sm_110a",
                                    "sm_120a")


def ptx_features(arch: str) -> Optional[str]:
    """The ``features`` string of ``#nvvm.target`` for ``arch`` (e.g.
    ``"+ptx80"`` for ``sm_90a``), or None to let LLVM choose."""
    return PTX_FEATURES.get(arch)


def check_arch(arch) -> str:
    """Returns ``arch`` if tspipe kernels can be compiled for it.

    Raises:
      ArchError (ValueError, rule X7): ``arch`` is not one of
        :data:`SUPPORTED_ARCHS` (a chip below sm_90, a non-"a" chip, a
        misspelling).
    """
    if isinstance(arch, str) and arch in SUPPORTED_ARCHS:
        return arch
    accepted = ", ".join(SUPPORTED_ARCHS)
    why = ""
    match = re.fullmatch(r"sm_(\d+)([a-z]?)", arch) if isinstance(arch, str) else None
    if match and int(match.group(1)) < 90:
        why = ("tspipe kernels need sm_90 or newer (elect.sync, mbarrier "
               "parity waits, clusters, bulk async copies); ")
    elif match and not match.group(2):
        why = ("tspipe kernels need the architecture-specific target "
               f"({arch}a) for setmaxnreg; ")
    raise ArchError(
        f"[X7] unsupported target architecture {arch!r}: {why}use one of "
        f"{accepted}",
        location=caller_location())
