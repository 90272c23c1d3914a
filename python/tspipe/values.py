"""Checks of Python values the front end makes before any IR is built.

They guard against input the C++ side cannot report well: an integer an
attribute cannot hold (the binding would fail without naming the field), a
name that is not an identifier. Every rule of docs/Rules.md is the C++
verifiers' to decide; these only say whether a value can be handed to them.
Pure Python.
"""

from __future__ import annotations

import numbers
import re
from typing import Optional

__all__ = [
    "INT64_MIN",
    "INT64_MAX",
    "as_int",
    "int64_problem",
    "IDENTIFIER_FORM",
    "identifier_problem",
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
