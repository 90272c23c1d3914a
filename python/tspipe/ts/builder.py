"""The builder core of the TS front end: user locations, value checks,
kernel argument types, pipelines and the blocks a task is writing.

Every op the front end builds carries the user's Python line
(``Location.file`` of the innermost frame outside the package), or the
:func:`at_location` override; ops a work step builds get MLIR's traceback
locations (:func:`traceback_locations`). Only checks of Python values live
here (an int that does not fit the IR, a name that is not an identifier);
every rule is the C++ verifiers'.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Callable, Dict, Iterator, List, Optional, Union

from .. import ir
from ..diagnostics import ScheduleError
from ..diagnostics import caller_location as _caller_location
from ..diagnostics import caller_location_object as _caller_location_object
from ..dialects import llvm
from ..values import as_int, identifier_problem, int64_problem

__all__ = ["ARG_TYPES", "Pipeline", "at_location", "traceback_locations"]


def _check_int(what: str, value, allow_none: bool = False) -> Optional[int]:
    """``value`` as an ``int`` (numpy integers accepted, ``bool`` not).

    Raises TypeError for a non-integer, ScheduleError naming ``what`` when it
    does not fit the IR's 64-bit field.
    """
    if value is None and allow_none:
        return None
    number = as_int(value)
    if number is None:
        raise TypeError(f"{what} must be an int, got {value!r}")
    problem = int64_problem(what, number)
    if problem is not None:
        raise ScheduleError(f"[X9] {problem}", "X9", _caller_location())
    return number


def _check_name(kind: str, name) -> str:
    """``name`` if it is a C identifier; ScheduleError naming it otherwise
    (TypeError for a non-str)."""
    problem = identifier_problem(kind, name)
    if problem is not None:
        raise ScheduleError(f"[X9] {problem}", "X9", _caller_location())
    return name


_FORCED_LOCATIONS: List[Any] = []


@contextlib.contextmanager
def at_location(location) -> Iterator[None]:
    """``with at_location(loc):`` -- ops the builder makes meanwhile get
    ``loc`` (an ``ir.Location``, e.g. ``Location.name``) instead of the
    user's Python line (the importer of real TS uses it)."""
    _FORCED_LOCATIONS.append(location)
    try:
        yield
    finally:
        _FORCED_LOCATIONS.pop()


def _user_location():
    """``Location.file`` of the user's Python line that called into the
    front end (the innermost frame outside the tspipe package), in the
    current Context; or the :func:`at_location` override."""
    if _FORCED_LOCATIONS:
        return _FORCED_LOCATIONS[-1]
    return _caller_location_object()


# Kernel argument types by short name; an ``ir.Type`` is accepted as well.
ARG_TYPES: Dict[str, Callable[[], Any]] = {
    "ptr": lambda: llvm.PointerType.get(1),
    "i1": lambda: ir.IntegerType.get_signless(1),
    "i32": lambda: ir.IntegerType.get_signless(32),
    "i64": lambda: ir.IntegerType.get_signless(64),
    "f32": lambda: ir.F32Type.get(),
    "f64": lambda: ir.F64Type.get(),
    "f16": lambda: ir.F16Type.get(),
    "index": lambda: ir.IndexType.get(),
}



class Pipeline:
    """A pipelined resource of a :class:`Kernel` (``tspipe.pipeline``).

    Attributes: ``name``, ``config`` (:class:`PipelineConfig`), ``smem_bytes``
    (bytes of the data buffer, split evenly over the stages, or None),
    ``tmem_columns`` (or None), ``op`` (the ``tspipe.pipeline`` op).
    """

    def __init__(self, kernel, name, config, smem_bytes, tmem_columns, op):
        self.kernel = kernel
        self.name = name
        self.config = config
        self.smem_bytes = smem_bytes
        self.tmem_columns = tmem_columns
        self.op = op

    @property
    def symbol(self) -> str:
        """``@name``, for messages."""
        return "@" + self.name

    def __repr__(self):
        return f"Pipeline({self.name!r}, {self.config})"


class _Scope:
    """A block being written: the task body, the domain loop or a guard."""

    def __init__(self, block, kind: str, loc_text: str):
        self.block = block
        self.kind = kind
        self.loc_text = loc_text


ResourceRef = Union[Pipeline, str]
IndexLike = Any  # int, numpy integer, or an ``index`` Value


@contextlib.contextmanager
def traceback_locations() -> Iterator[None]:
    """MLIR's traceback-based op locations (innermost user frame) when the
    bindings have them; otherwise the ambient Location stays."""
    tracebacks = getattr(ir, "loc_tracebacks", None)
    if tracebacks is None:
        yield
        return
    global _EXCLUDED
    if not _EXCLUDED:
        # Frames inside the package (the dialect builders' wrappers, the
        # front end) are never the user's line.
        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        ir._globals.register_traceback_file_exclusion(package)
        _EXCLUDED = True
    with tracebacks(max_depth=1):
        yield


_EXCLUDED = False


def _user_location_in(context):
    """The user's ``Location.file`` made in ``context``."""
    with context:
        return _user_location()

