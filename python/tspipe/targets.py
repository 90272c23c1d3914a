"""The chips tspipe kernels are built for, as the C++ targets table holds
them (``tspipe-c/Targets.h``; docs/Rules.md, X7).

Python keeps no chip list of its own: :func:`chips`, :func:`chip_facts`,
:func:`ptx_features` and :func:`smem_capacity` ask the extension, and the
kernel verifier and the ``tspipe-to-nvvm`` pass read the same table.
:data:`SUPPORTED_ARCHS` are the chips the compile API accepts as ``arch``:
those tspipe kernels lower for (sm_90 or newer) that are
architecture-specific (``a``: the lowering uses ``setmaxnreg`` for task
register counts, which the NVPTX backend selects only there).
"""

from __future__ import annotations

from typing import Optional, Tuple

from ._mlir_libs import _tspipe
from .diagnostics import ArchError, caller_location

__all__ = ["SUPPORTED_ARCHS", "chips", "chip_facts", "ptx_features",
           "smem_capacity", "check_arch"]


def chips() -> Tuple[str, ...]:
    """Every chip the CUDA 13 toolkit and LLVM 22 both know, in SM order."""
    return tuple(_tspipe.chips())


def chip_facts(chip: str) -> dict:
    """What the targets table says of ``chip``: ``known``, ``supported``
    (tspipe kernels lower for it), ``arch_specific``, ``tcgen05``, ``clc``,
    ``min_ptx_version`` (x10; -1 unknown), ``smem_bytes_per_block`` (bytes
    one CTA may use; 0 where tspipe does not lower) and ``features`` (the
    ``#nvvm.target`` features the compile API gives it). Raises TypeError
    for a non-str."""
    if not isinstance(chip, str):
        raise TypeError(f"chip must be a str, got {chip!r}")
    return _tspipe.chip_facts(chip)


SUPPORTED_ARCHS: Tuple[str, ...] = tuple(
    c for c in chips()
    if chip_facts(c)["supported"] and chip_facts(c)["arch_specific"])


def ptx_features(arch: str) -> Optional[str]:
    """The ``features`` string of ``#nvvm.target`` for ``arch`` (e.g.
    ``"+ptx80"`` for ``sm_90a``), or None to let LLVM choose."""
    return chip_facts(arch)["features"] or None


def smem_capacity(arch: str) -> int:
    """Bytes of shared memory one CTA may use on ``arch`` (the capacity the
    allocation checks, R43); 0 for a chip tspipe does not lower for."""
    return chip_facts(arch)["smem_bytes_per_block"]


def check_arch(arch) -> str:
    """Returns ``arch`` if tspipe kernels can be compiled for it.

    Raises:
      ArchError (ValueError, rule X7): ``arch`` is not one of
        :data:`SUPPORTED_ARCHS`: a chip the targets table does not know,
        one below sm_90, or one that is not architecture-specific.
    """
    if isinstance(arch, str) and arch in SUPPORTED_ARCHS:
        return arch
    accepted = ", ".join(SUPPORTED_ARCHS)
    facts = chip_facts(arch) if isinstance(arch, str) else None
    if facts is None:
        why = ""
    elif not facts["known"]:
        why = "the CUDA 13 toolkit knows no such chip; "
    elif not facts["supported"]:
        why = ("tspipe kernels need sm_90 or newer (elect.sync, mbarrier "
               "parity waits, clusters, bulk async copies); ")
    else:
        why = ("tspipe kernels need the architecture-specific target "
               f"({arch}a) for setmaxnreg; ")
    raise ArchError(
        f"[X7] unsupported target architecture {arch!r}: {why}use one of "
        f"{accepted}",
        location=caller_location())
