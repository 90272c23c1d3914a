"""Checks the front end makes in Python, before any IR is built.

Everything here guards against input that the C++ side cannot report well:
an integer an attribute cannot hold (the binding would fail without naming
the field), a name that is not an MLIR/PTX identifier (an LLVM fatal error
at the PTX entry), a target chip the NVPTX backend cannot select tspipe's
instructions for (an LLVM fatal error that ends the process). Pure Python.
"""

from __future__ import annotations

import numbers
import re
from typing import Optional, Tuple

from ..targets import PTX_FEATURES
from .errors import ArchError, caller_location

__all__ = [
    "INT64_MIN",
    "INT64_MAX",
    "as_int",
    "int64_problem",
    "IDENTIFIER_FORM",
    "identifier_problem",
    "SUPPORTED_ARCHS",
    "ptx_features",
    "check_arch",
]

INT64_MIN = -(2 ** 63)
INT64_MAX = 2 ** 63 - 1


def as_int(value) -> Optional[int]:
    """``value`` as a Python ``int`` if it is an integer, else None.

    ``int`` and the numpy integer types (``np.int64``, ``np.uint32``, ...:
    any ``numbers.Integral``) are integers; ``bool`` (and ``np.bool_``) is not
    (stricter than TS 4.8.1, whose factories keep ``True`` as given).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)
    if isinstance(value, numbers.Integral) and type(value).__name__ not in (
            "bool_", "bool"):
        return int(value)
    return None


def int64_problem(field: str, value: int) -> Optional[str]:
    """Why ``value`` cannot be stored in the IR's 64-bit field, or None."""
    if INT64_MIN <= value <= INT64_MAX:
        return None
    return (f"{field} = {value} is out of range: it must fit in a signed 64-bit "
            f"integer [{INT64_MIN}, {INT64_MAX}]")


# Names that end up as MLIR symbols, SSA names and (for the kernel) the PTX
# entry: C identifiers.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
IDENTIFIER_FORM = "[A-Za-z_][A-Za-z0-9_]*"


def identifier_problem(kind: str, name) -> Optional[str]:
    """Why ``name`` is not a valid ``kind`` name (a C identifier), or None.

    Raises TypeError when ``name`` is not a ``str``.
    """
    if not isinstance(name, str):
        raise TypeError(f"{kind} name must be a str, got {name!r}")
    if _IDENTIFIER.fullmatch(name):
        return None
    return (f"{kind} name {name!r} is not a C identifier: use letters, digits "
            f"and '_', not starting with a digit ({IDENTIFIER_FORM})")


# -- target architectures -------------------------------------------------------

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
