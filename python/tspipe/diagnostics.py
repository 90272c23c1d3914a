"""Diagnostics and exceptions of tspipe (the lowest layer of the package).

The C++ verifiers of the tspipe dialect tag every rule diagnostic with the
rule id of docs/Rules.md (``[R5] producer_acquire interleave_stride=4 must
evenly divide num_stages=6; ...``). The front end turns those diagnostics into
Python exceptions that carry the id:

* :class:`PipelineConfigError` (a ``ValueError``): a config-time rule
  (R1-R15) failed, at the factory call (or when a kernel is verified).
* :class:`ScheduleError` (a ``ValueError``): a task, schedule or kernel rule
  (R16 and above, or a structural check without a rule id) failed when a
  :class:`~tspipe.ts.Kernel` was verified.
* :class:`ConfigTypeError` (a ``TypeError``): a field has the wrong Python
  type, where TS raises ``TypeError`` too (R1: not a ``SignalingThreads``;
  R4: a stride that is not an ``int`` or is a ``bool``). No C++ is involved.
* :class:`ArchError` (a ``ValueError``): the target architecture cannot run
  tspipe kernels (rule X7); raised before anything is lowered.
* :class:`CompileError` (a ``RuntimeError``): lowering a module that passed
  verification failed (a construct the lowering does not implement, an LLVM
  failure). Every mistake in the input is a ``ValueError`` instead.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import sys
from typing import List, Optional, Sequence

from . import ir

__all__ = [
    "Diagnostic",
    "TSPipeError",
    "PipelineConfigError",
    "ScheduleError",
    "ConfigTypeError",
    "ArchError",
    "CompileError",
]

_RULE_RE = re.compile(r"\[((?:R|X)\d+)\]")

# Structural checks that MLIR's ODS traits perform without a rule id, mapped to
# the TS rule they implement (docs/Rules.md). Matched on the C++ text.
_UNTAGGED_RULES = (
    # first_iter / last_iter outside the domain loop (HasParent<DomainLoopOp>).
    ("expects parent op 'tspipe.domain_loop'", "R22"),
    # a domain_loop nested in another one or outside a task.
    ("expects parent op 'tspipe.task'", "R22"),
    # the same, for the parents a persistent task adds (tile loop, skippable),
    # and a tile-loop op outside its loop.
    ("expects parent op to be one of 'tspipe.task, tspipe.work_tile_loop",
     "R22"),
    ("expects parent op 'tspipe.work_tile_loop'", "R22"),
    # MLIR's dominance check: a Value a work step built (or a stage) used
    # where it is not defined, e.g. after the block that made it (data flow
    # between work steps, R39).
    ("does not dominate this use", "R39"),
)

_CONFIG_RULES = frozenset(f"R{i}" for i in range(1, 16))
# The target chip cannot run tspipe kernels (below sm_90).
_ARCH_RULES = frozenset({"X7"})

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_CONTEXTLIB_FILE = os.path.abspath(contextlib.__file__)


def mlir_string(text: str) -> str:
    """``text`` as an MLIR string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def caller_frame():
    """The innermost frame outside the tspipe package (the user's line that
    called into the front end), or None."""
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        filename = os.path.abspath(frame.f_code.co_filename)
        inside = (module == "tspipe" or module.startswith("tspipe.")
                  or filename.startswith(_PACKAGE_DIR + os.sep)
                  or filename == _CONTEXTLIB_FILE)
        if not inside:
            return frame
        frame = frame.f_back
    return None


_site_override: List[tuple] = []


@contextlib.contextmanager
def at_site(file: str, line: int):
    """``with at_site(file, line):`` -- the user's line is ``file:line``
    meanwhile, whatever the call stack (replaying a recorded TS schedule
    gives each op the line of the schedule call it came from)."""
    _site_override.append((file, line))
    try:
        yield
    finally:
        _site_override.pop()


def caller_site():
    """``(file, line)`` of the user's line: the innermost frame outside the
    tspipe package, or the :func:`at_site` override; None if none."""
    if _site_override:
        return _site_override[-1]
    frame = caller_frame()
    if frame is None:
        return None
    return (frame.f_code.co_filename, frame.f_lineno)


def caller_location() -> str:
    """``loc("file":line:1)`` of the innermost frame outside the tspipe
    package (the user's line that called into the front end)."""
    site = caller_site()
    if site is None:
        return "loc(unknown)"
    return f"loc({mlir_string(site[0])}:{site[1]}:1)"


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One diagnostic of the C++ verifier.

    ``message`` is the C++ text (rule tag included), ``location`` MLIR's
    location (``loc("kernel.py":12:1)`` for builder-made IR: the Python line
    that emitted the op), ``rule`` the id found in the message, or None.
    ``notes`` are the attached note messages.
    """

    message: str
    location: str
    rule: Optional[str]
    notes: Sequence[str] = ()


def rule_of(message: str) -> Optional[str]:
    """The rule id a C++ diagnostic names (``"R5"``), or None."""
    match = _RULE_RE.search(message)
    if match:
        return match.group(1)
    for needle, rule in _UNTAGGED_RULES:
        if needle in message:
            return rule
    return None


class TSPipeError(ValueError):
    """A tspipe verification failure carrying the TS rule id.

    Attributes:
      rule: the rule id of docs/Rules.md (``"R5"``, ``"X9"``); None only
        for a failure of an upstream dialect's own verifier in ops a work
        step built (e.g. ``arith.addi`` operands of different types).
      message: the C++ verifier's text of the first error.
      location: its MLIR location as text (may be empty).
      diagnostics: every error diagnostic (:class:`Diagnostic`), first first.
    """

    def __init__(
        self,
        message: str,
        rule: Optional[str] = None,
        location: str = "",
        diagnostics: Sequence[Diagnostic] = (),
    ):
        self.message = message
        self.rule = rule
        self.location = location
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        text = message
        if location:
            text = f"{message} (at {_short_location(location)})"
        first = next((d for d in self.diagnostics
                      if (d.message, d.location) == (message, location)), None)
        for note in (first.notes if first is not None else ()):
            text += f"\n  note: {note}"
        others = [d for d in self.diagnostics
                  if (d.message, d.location) != (message, location)]
        if others:
            # Every failure, not only the first: one line each, with the
            # Python line of the op it concerns.
            text += f"\n{len(others)} more error(s):"
            for diag in others:
                where = _short_location(diag.location) if diag.location else "?"
                text += f"\n  {where}: {diag.message}"
        super().__init__(text)


class PipelineConfigError(TSPipeError):
    """A ``PipelineConfig`` broke a config-time rule (R1-R15).

    Raised by the ``PipelineConfig`` factories (and by ``PipelineConfig``
    itself) when the C++ verifier of ``#tspipe.config`` rejects the config.
    """


class ScheduleError(TSPipeError):
    """A kernel, task or schedule broke a rule (R16 and up, or structural).

    Raised by :meth:`tspipe.ts.Kernel.build` / ``verify`` when the C++
    verifiers reject the emitted module.
    """


class ArchError(TSPipeError):
    """The target architecture cannot run tspipe kernels (rule X7).

    tspipe kernels use sm_90 instructions (``elect.sync``, ``mbarrier``
    try-wait with parity, clusters, bulk async copies) and the
    architecture-specific ``setmaxnreg``, so the target must be one of the
    architecture-specific chips of Hopper or Blackwell (``sm_90a``,
    ``sm_100a``, ...). Raised by :class:`~tspipe.ts.Kernel` and
    :mod:`tspipe.compile` before anything reaches LLVM.
    """

    def __init__(self, message: str, rule: Optional[str] = "X7",
                 location: str = "", diagnostics: Sequence[Diagnostic] = ()):
        super().__init__(message, rule, location, diagnostics)


class ConfigTypeError(TypeError):
    """A config field has the wrong Python type (TS raises TypeError too).

    Attributes: ``rule`` (``"R1"`` or ``"R4"``; None for type checks TS does
    not number) and ``message``.
    """

    def __init__(self, message: str, rule: Optional[str] = None):
        self.message = message
        self.rule = rule
        super().__init__(message)


class CompileError(RuntimeError):
    """Lowering a verified module to PTX failed: the lowering does not
    implement a construct the module uses, or LLVM failed. Mistakes in the
    input (a broken rule, IR that does not parse or verify, an unsupported
    architecture) raise ``ValueError`` subclasses instead.

    Attributes: ``message`` (first error), ``diagnostics``.
    """

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()):
        self.message = message
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        super().__init__(message)


def _short_location(location: str) -> str:
    # loc("file.py":12:1) -> file.py:12:1; a call-site chain (traceback
    # locations) -> its innermost file location.
    match = re.search(r'"([^"]*)":(\d+):(\d+)', location)
    if match:
        return f"{match.group(1)}:{match.group(2)}:{match.group(3)}"
    return location


# Rules of the progress checker: its error is emitted on the tspipe.kernel
# op, its counterexample's notes on the brackets involved.
_PROGRESS_RULES = frozenset({"R70", "R71", "X8"})


def note_text(location: str, message: str) -> str:
    """A note as one line: ``file:line:col: message`` (the message alone
    when the location is not a file location)."""
    where = _short_location(location) if location else ""
    if not where or where.startswith("loc("):
        return message
    return f"{where}: {message}"


def _is_file_location(location: str) -> bool:
    return re.search(r'"[^"]*":\d+:\d+', location) is not None


def diagnostics_of(mlir_error) -> List[Diagnostic]:
    """Converts a ``tspipe.ir.MLIRError`` into :class:`Diagnostic` values.

    Each note keeps its location (``file:line:col: text``, see
    :func:`note_text`); MLIR's "see current operation" dump is dropped. A
    progress-checker failure (R70, R71, X8), which the pass reports on the
    ``tspipe.kernel``, is located at its first note with a file location:
    the bracket that blocks (as :func:`tspipe.progress.check_progress`
    reports it).
    """
    result = []
    for diag in getattr(mlir_error, "error_diagnostics", None) or []:
        message = diag.message
        rule = rule_of(message)
        location = str(diag.location)
        notes = [(str(note.location), note.message) for note in diag.notes
                 if not note.message.startswith("see current operation")]
        if rule in _PROGRESS_RULES:
            first = next((loc for loc, _ in notes if _is_file_location(loc)),
                         None)
            if first is not None:
                location = first
        result.append(
            Diagnostic(
                message=message,
                location=location,
                rule=rule,
                notes=tuple(note_text(loc, text) for loc, text in notes),
            )
        )
    return result


def error_from_mlir(mlir_error, untagged=ScheduleError, config_only=False):
    """The exception to raise for a failed parse/verify (``MLIRError``).

    The first diagnostic with a rule id decides: R1-R15 give
    :class:`PipelineConfigError`, X7 (unsupported chip) :class:`ArchError`,
    other rules :class:`ScheduleError`. With no
    rule id anywhere, ``untagged`` is used (a :class:`TSPipeError` subclass or
    :class:`CompileError`). ``config_only`` forces
    :class:`PipelineConfigError` (the config factories).
    """
    diags = diagnostics_of(mlir_error)
    if not diags:
        message = getattr(mlir_error, "message", str(mlir_error))
        diags = [Diagnostic(message=message, location="", rule=rule_of(message))]
    first = next((d for d in diags if d.rule), diags[0])
    if config_only:
        cls = PipelineConfigError
    elif first.rule in _ARCH_RULES:
        cls = ArchError
    elif first.rule in _CONFIG_RULES:
        cls = PipelineConfigError
    elif first.rule is not None:
        cls = ScheduleError
    else:
        cls = untagged
    if issubclass(cls, CompileError):
        return cls(first.message, diags)
    return cls(first.message, first.rule, first.location, diags)


def caller_location_object(context=None):
    """``tspipe.ir.Location.file`` of the user's line (see
    :func:`caller_frame`) in ``context`` (default: the current one)."""
    site = caller_site()
    with (context if context is not None else contextlib.nullcontext()):
        if site is None:
            return ir.Location.unknown()
        return ir.Location.file(site[0], site[1], 1)


@contextlib.contextmanager
def collect_diagnostics(context):
    """``with collect_diagnostics(ctx) as diags:`` -- the error diagnostics
    emitted in ``ctx`` meanwhile (by a C API builder's verifier), as
    :class:`Diagnostic` values appended to ``diags``; they are not printed."""
    diags: List[Diagnostic] = []

    def handler(diag):
        if diag.severity == ir.DiagnosticSeverity.ERROR:
            diags.append(Diagnostic(
                message=diag.message, location=str(diag.location),
                rule=rule_of(diag.message),
                notes=tuple(note.message for note in diag.notes)))
        return True

    attached = context.attach_diagnostic_handler(handler)
    try:
        yield diags
    finally:
        attached.detach()
