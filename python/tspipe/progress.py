"""The progress checker from Python: can a kernel deadlock or leave barrier
credits unbalanced, for any domain length?

Runs the ``tspipe-check-progress`` pass (docs/ProgressChecker.md) on a module
and returns its verdict per kernel::

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
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from . import diagnostics as errors
from . import ir, passmanager

__all__ = ["Note", "ProgressReport", "check_progress", "check_progress_all"]


@dataclass(frozen=True)
class Note:
    """A note of the counterexample: the op it is attached to (its name,
    e.g. ``"tspipe.consumer_wait"``), the op's MLIR location and the text."""

    op: str
    location: str
    text: str


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
        ``"early-arrival"`` or ``"not-modeled"`` (a bracket nested in an op
        the checker cannot follow: no verdict); None when ok.
      message: the error text (without the rule tag); None when ok.
      lengths: iterations of each task's domain loop in the counterexample.
      symbols: values of the dynamic domain bounds in the counterexample.
      notes: the counterexample's notes (:class:`Note`).
      timeline: the counterexample's barrier events, oldest first (dicts with
        task, pipeline, full, stage, phase, what, iteration, blocked).
      warnings: lengths the verdict does not cover (see the docs).
      assignments_checked: number of domain-length assignments simulated.
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
    assignments_checked: int = 0
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


def _module_text(module) -> str:
    if hasattr(module, "to_mlir"):
        return module.to_mlir()
    if isinstance(module, str):
        return module
    if hasattr(module, "operation"):
        return str(module.operation)
    raise TypeError(f"expected MLIR text, a tspipe.ir.Module or a Kernel, got "
                    f"{type(module).__name__}")


def _read(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def _svg(dot_path: str, svg_path: str, dot_text: Optional[str]) -> Optional[str]:
    if dot_text is None:
        return None
    svg = _read(svg_path)
    if svg is None and shutil.which("dot"):
        try:
            svg = subprocess.run(["dot", "-Tsvg", dot_path], check=True,
                                 capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError):
            svg = None
    return svg


def check_progress_all(module) -> List[ProgressReport]:
    """Check every ``tspipe.kernel`` of ``module`` (MLIR text, a
    ``tspipe.ir.Module`` or a :class:`tspipe.ts.Kernel`).

    Raises ScheduleError / PipelineConfigError (ValueError) when the module
    does not parse or breaks a rule the verifiers check.
    """
    text = _module_text(module)
    with tempfile.TemporaryDirectory(prefix="tspipe-progress-") as tmp:
        with ir.Context(), ir.Location.unknown():
            try:
                parsed = ir.Module.parse(text)
            except ir.MLIRError as err:
                raise errors.error_from_mlir(
                    err, untagged=errors.ScheduleError) from None
            pm = passmanager.PassManager.parse(
                f"builtin.module(tspipe-check-progress{{dot-dir={tmp}}})")
            try:
                pm.run(parsed.operation)
            except ir.MLIRError:
                pass  # a failing kernel; its verdict is in the JSON file
        reports = []
        for name in sorted(os.listdir(tmp)):
            if not name.endswith(".progress.json"):
                continue
            stem = os.path.join(tmp, name[: -len(".progress.json")])
            data = json.loads(_read(stem + ".progress.json"))
            cex = data.get("counterexample") or {}
            graph = _read(stem + ".graph.dot") or ""
            timeline = _read(stem + ".timeline.dot")
            reports.append(ProgressReport(
                kernel=data["kernel"], ok=data["ok"], rule=cex.get("rule"),
                kind=cex.get("kind"), message=cex.get("message"),
                lengths=dict(cex.get("lengths", {})),
                symbols=dict(cex.get("symbols", {})),
                notes=[Note(n["op"], n["loc"], n["text"])
                       for n in cex.get("notes", [])],
                timeline=list(cex.get("timeline", [])),
                warnings=list(data.get("warnings", [])),
                assignments_checked=data.get("assignments_checked", 0),
                graph_dot=graph, timeline_dot=timeline,
                graph_svg=_svg(stem + ".graph.dot", stem + ".graph.svg", graph),
                timeline_svg=_svg(stem + ".timeline.dot", stem + ".timeline.svg",
                                  timeline)))
        return reports


def check_progress(module) -> ProgressReport:
    """Check the only kernel of ``module`` (see :func:`check_progress_all`).

    Raises ValueError when the module has no kernel or several.
    """
    reports = check_progress_all(module)
    if len(reports) != 1:
        raise ValueError(f"the module has {len(reports)} tspipe.kernels; use "
                         f"check_progress_all")
    return reports[0]
