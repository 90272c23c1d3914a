"""TS's resource dependency graph against the one tspipe derives.

tspipe derives the graph from the tasks: a task that consumes ``U``
(``src_resources``) and produces ``D`` (``dst_resources``) makes the edge
``U -> D`` (TS writes it ``{D: [U, ...]}``). A graph the user writes down,
as TS requires, is checked against it (docs/Rules.md, D):

* R26: the graph is given and not empty when some task uses a resource;
* R28: every resource the graph names is used by some task;
* R29: every stated edge is backed by a task (consumes the upstream,
  produces the downstream; a self-edge ``R: [R]``, TS's ping-pong, by a
  task producing R and one consuming it; an edge touching an
  ``is_barrier`` resource by one task listing both);
* R30: every resource a task uses appears in the graph (as TS reports
  it; the message names the derived edges the resource is on). A derived
  edge between resources the graph names elsewhere is accepted, as TS
  accepts it.

:func:`derived_edges` and :func:`check_graph` take TS's objects or
tspipe.ts's: anything with ``src_resources`` / ``dst_resources`` lists and
resources with a ``name``.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ..diagnostics import ScheduleError

__all__ = ["derived_edges", "check_graph"]

Edge = Tuple[Any, Any]  # (upstream, downstream)


def _name(resource) -> str:
    return getattr(resource, "name", None) or repr(resource)


def _plain(resources: Iterable[Any]) -> List[Any]:
    """``resources`` with every pipeline group replaced by its members and
    every ``group.member`` by the member."""
    out: List[Any] = []
    for res in resources or ():
        if type(res).__name__ == "PipelineGroup":
            out.extend(res.members)
            continue
        member = getattr(res, "member", None)
        out.append(member if member is not None else res)
    return out


def _task_name(task, index: int) -> str:
    return getattr(task, "name", None) or f"task{index}"


def derived_edges(tasks: Sequence[Any]) -> Dict[Edge, List[str]]:
    """The edges ``(U, D)`` the tasks make, each with the tasks that back
    it, in task order (a task on both sides of R makes the self-edge)."""
    edges: Dict[Edge, List[str]] = {}
    for index, task in enumerate(tasks):
        for up in _plain(task.src_resources):
            for down in _plain(task.dst_resources):
                edges.setdefault((up, down), []).append(_task_name(task, index))
    return edges


def _backed(up, down, tasks) -> bool:
    """R29 for one stated edge, as TS backs it."""
    src = [_plain(t.src_resources) for t in tasks]
    dst = [_plain(t.dst_resources) for t in tasks]
    if up is down:
        return any(down in d for d in dst) and any(down in s for s in src)
    if getattr(up, "is_barrier", False) or getattr(down, "is_barrier", False):
        return any((up in s or up in d) and (down in s or down in d)
                   for s, d in zip(src, dst))
    return any(up in s and down in d for s, d in zip(src, dst))


def check_graph(tasks: Sequence[Any], graph: Optional[Dict[Any, List[Any]]],
                *, rules: Sequence[str] = ("R26", "R28", "R29", "R30"),
                location=None) -> None:
    """Checks ``graph`` (TS's ``resource_dependency_graph``) against the
    tasks for the rules named in ``rules``. Raises
    :class:`~tspipe.diagnostics.ScheduleError` listing every violation
    (the first one's rule id as its ``rule``)."""
    problems: List[Tuple[str, str]] = []
    used: List[Any] = []
    for task in tasks:
        for res in _plain(task.src_resources) + _plain(task.dst_resources):
            if res not in used:
                used.append(res)
    if not graph:
        if "R26" in rules and used:
            problems.append((
                "R26", "resource_dependency_graph must be provided and "
                "non-empty; the tasks make the edges " + ", ".join(
                    f"{_name(u)!r} -> {_name(d)!r}"
                    for (u, d) in derived_edges(tasks)) or
                "resource_dependency_graph must be provided and non-empty"))
        graph = {}
    stated: List[Edge] = [(up, down) for down, ups in graph.items()
                          for up in (ups or [])]
    named: List[Any] = []
    for down, ups in graph.items():
        for res in [down] + list(ups or []):
            if res not in named:
                named.append(res)
    if "R28" in rules:
        for res in named:
            if res not in used:
                problems.append((
                    "R28", f"resource {_name(res)!r} of "
                    f"resource_dependency_graph is not used by any task; "
                    f"remove it from the graph or list it in a task"))
    if "R29" in rules:
        for up, down in stated:
            if not _backed(up, down, tasks):
                problems.append((
                    "R29", f"edge {_name(up)!r} -> {_name(down)!r} is not "
                    f"backed by any task: no task consumes {_name(up)!r} "
                    f"(src_resources) and produces {_name(down)!r} "
                    f"(dst_resources); tspipe derives the edges from the "
                    f"tasks, so remove the edge or fix the task's lists"))
    if "R30" in rules:
        # As TS reports it: a resource a task uses that the graph never
        # names (a derived edge between two resources the graph names
        # elsewhere is accepted, as TS accepts it).
        edges = derived_edges(tasks)
        for index, task in enumerate(tasks):
            for res in _plain(task.src_resources) + _plain(task.dst_resources):
                if res in named:
                    continue
                mine = [f"{_name(u)!r} -> {_name(d)!r}" for (u, d) in edges
                        if res is u or res is d]
                problems.append((
                    "R30", f"task {_task_name(task, index)!r}: resource "
                    f"{_name(res)!r} is in src_resources or dst_resources but "
                    f"does not appear anywhere in resource_dependency_graph"
                    + (f"; the tasks make the edge(s) {', '.join(mine)}"
                       if mine else "")))
                named.append(res)  # one report per resource
    if problems:
        message = "\n".join(f"[{rule}] {text}" for rule, text in problems)
        raise ScheduleError(message, problems[0][0], location or "")
