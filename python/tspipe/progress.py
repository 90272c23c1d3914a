"""The progress checker from Python: can a kernel deadlock or leave barrier
credits unbalanced, for any domain length?

Runs the progress checker (docs/ProgressChecker.md) on a module in process,
through the C API (``tspipeCheckProgress``), and returns its verdict per
kernel::

    from tspipe.progress import check_progress

    report = check_progress(open("examples/tma_stream.mlir").read())
    assert report.ok
    report.graph_dot          # task / pipeline dependency graph (DOT text)

    bad = check_progress(kernel)        # a tspipe.ts.Kernel, or module text
    bad.ok, bad.rule, bad.kind          # False, "R70", "deadlock"
    bad.lengths                         # {"producer": 0, "consumer": 1}
    bad.notes                           # [Note(op, location, text), ...]
    bad.timeline_dot                    # per-stage timeline of the counterexample
    bad                                 # renders as SVG in a notebook (Graphviz)
    bad.raise_on_failure()              # ScheduleError with the rule id

``check_progress`` returns the report of the module's only kernel;
``check_progress_all`` returns one report per kernel. SVG renderings need
Graphviz's ``dot`` on the PATH (optional); DOT text is always there.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from . import diagnostics as errors
from . import ir
from ._mlir_libs import _tspipe as ext

__all__ = ["Note", "ProgressReport", "check_progress", "check_progress_all"]


@dataclass(frozen=True)
class Note:
    """A finding of the counterexample: the op it is attached to (its name,
    e.g. ``"tspipe.consumer_wait"``), the op's MLIR location, the text and
    its fields: ``kind`` (``"blocked"``, ``"credit-holder"``, ``"context"``)
    and, where the note names them, the ``task``, ``iteration`` (-1 head,
    -2 tail), ``bracket``, ``pipeline``, ``full`` (full or empty barrier),
    ``stage`` and ``phase``."""

    op: str
    location: str
    text: str
    kind: str = "context"
    task: Optional[str] = None
    iteration: Optional[int] = None
    bracket: Optional[str] = None
    pipeline: Optional[str] = None
    full: Optional[bool] = None
    stage: Optional[int] = None
    phase: Optional[int] = None


@dataclass
class ProgressReport:
    """The checker's verdict on one kernel.

    Attributes:
      kernel: name of the kernel (its ``gpu.func``).
      ok: True when no domain length can deadlock, unbalance credits or let
        a parity wait see the wrong phase.
      rule: ``"R70"`` (deadlock, credit balance), ``"R71"`` (phase hazards)
        or ``"X8"`` (guarded release with an empty domain); None when ok.
      kind: ``"deadlock"``, ``"unbalanced"``, ``"phase-overrun"``,
        ``"early-arrival"``, ``"lap-early"``, ``"not-modeled"`` (a bracket
        nested in an op the checker cannot follow: no verdict) or
        ``"unproven"`` (no counterexample, but not every domain length is
        decided; see ``unproven``); None when ok.
      message: the error text (without the rule tag); None when ok.
      lengths: iterations of each task's domain loop in the counterexample.
      symbols: values of the dynamic domain bounds in the counterexample.
      notes: the counterexample's notes (:class:`Note`).
      timeline: the counterexample's barrier events, oldest first (dicts with
        task, pipeline, full, stage, phase, what, iteration, blocked).
      warnings: kernels not simulated at all (a ring no GPU can hold).
      unproven: what the checker could not prove for every domain length;
        an error (``ok`` False) unless the kernel carries the
        ``tspipe.assume_progress`` attribute (``assume_progress`` True).
      assignments_checked: number of domain-length assignments simulated.
      text: the verdict as the pass's diagnostics (error or warnings and
        notes, each with its location); empty when ok with nothing to say.
      graph_dot, timeline_dot: DOT text of the dependency graph and of the
        counterexample's timeline (None when ok).
      graph_svg, timeline_svg: their SVG renderings, or None without
        Graphviz.
    """

    kernel: str
    ok: bool
    rule: Optional[str] = None
    kind: Optional[str] = None
    message: Optional[str] = None
    lengths: Dict[str, int] = field(default_factory=dict)
    symbols: Dict[str, int] = field(default_factory=dict)
    notes: List[Note] = field(default_factory=list)
    timeline: List[Dict[str, Any]] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)
    unproven: List[str] = field(default_factory=list)
    assume_progress: bool = False
    assignments_checked: int = 0
    text: str = ""
    graph_dot: str = ""
    timeline_dot: Optional[str] = None
    graph_svg: Optional[str] = None
    timeline_svg: Optional[str] = None

    def _repr_svg_(self) -> Optional[str]:
        """Notebook rendering: the counterexample's timeline, else the
        dependency graph (None without Graphviz)."""
        return self.timeline_svg or self.graph_svg

    def __bool__(self) -> bool:
        return self.ok

    def raise_on_failure(self) -> None:
        """Raise :class:`tspipe.ts.ScheduleError` (a ValueError) carrying the
        rule id and the notes when the kernel can hang."""
        if self.ok:
            return
        # At the bracket that blocks (the first note), each note with the
        # line of the op it names.
        location = self.notes[0].location if self.notes else ""
        diag = errors.Diagnostic(
            message=f"[{self.rule}] {self.message}", location=location,
            rule=self.rule,
            notes=tuple(errors.note_text(n.location, n.text)
                        for n in self.notes))
        raise errors.ScheduleError(f"[{self.rule}] {self.message}", self.rule,
                                   location, [diag])


def _svg(dot_text: Optional[str]) -> Optional[str]:
    """SVG of DOT text through Graphviz's ``dot``; None without it."""
    if not dot_text or not shutil.which("dot"):
        return None
    try:
        return subprocess.run(["dot", "-Tsvg"], input=dot_text, check=True,
                              capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None


def _report(data: Dict[str, Any]) -> ProgressReport:
    """A :class:`ProgressReport` from the checker's structured verdict."""
    cex = data.get("counterexample") or {}
    unproven = list(data.get("unproven", []))
    if not data["ok"] and not cex and unproven:
        # Nothing failed, but not every length is decided (R70).
        cex = {"rule": "R70", "kind": "unproven",
               "message": "progress not proven for every domain length: " +
                          "; ".join(unproven)}
    graph = data.get("graph_dot") or ""
    timeline = data.get("timeline_dot")
    return ProgressReport(
        kernel=data["kernel"], ok=data["ok"], rule=cex.get("rule"),
        kind=cex.get("kind"), message=cex.get("message"),
        lengths=dict(cex.get("lengths", {})),
        symbols=dict(cex.get("symbols", {})),
        notes=[Note(n["op"], n["loc"], n["text"], n.get("kind", "context"),
                    n.get("task"), n.get("iteration"), n.get("bracket"),
                    n.get("pipeline"), n.get("full"), n.get("stage"),
                    n.get("phase"))
               for n in cex.get("notes", [])],
        timeline=list(cex.get("timeline", [])),
        warnings=list(data.get("warnings", [])),
        unproven=unproven,
        assume_progress=bool(data.get("assume_progress", False)),
        assignments_checked=data.get("assignments_checked", 0),
        text=data.get("text", ""),
        graph_dot=graph, timeline_dot=timeline,
        graph_svg=_svg(graph), timeline_svg=_svg(timeline))


def check_progress_all(module) -> List[ProgressReport]:
    """Check every ``tspipe.kernel`` of ``module``: a ``tspipe.ir.Module``
    or ``Operation`` (checked in place, through the C API), a
    :class:`tspipe.ts.Kernel` (built and verified first) or MLIR text
    (parsed).

    Raises ScheduleError / PipelineConfigError (ValueError) when the module
    does not parse or breaks a rule the verifiers check.
    """
    if hasattr(module, "build") and hasattr(module, "to_mlir"):
        module = module.build(check_progress=False)
    if isinstance(module, str):
        with ir.Context(), ir.Location.unknown():
            try:
                parsed = ir.Module.parse(module)
            except ir.MLIRError as err:
                raise errors.error_from_mlir(
                    err, untagged=errors.ScheduleError) from None
            verdicts = ext.check_progress(parsed.operation)
    else:
        op = getattr(module, "operation", None)
        if op is None:
            raise TypeError(f"expected MLIR text, a tspipe.ir.Module or a "
                            f"Kernel, got {type(module).__name__}")
        with op.context:
            try:
                op.verify()
            except ir.MLIRError as err:
                raise errors.error_from_mlir(
                    err, untagged=errors.ScheduleError) from None
            verdicts = ext.check_progress(op)
    return [_report(json.loads(v)) for v in verdicts]


def check_progress(module) -> ProgressReport:
    """Check the only kernel of ``module`` (see :func:`check_progress_all`).

    Raises ValueError when the module has no kernel or several.
    """
    reports = check_progress_all(module)
    if len(reports) != 1:
        raise ValueError(f"the module has {len(reports)} tspipe.kernels; use "
                         f"check_progress_all")
    return reports[0]
