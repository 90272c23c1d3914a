"""TS's schedule DSL over tspipe: ``@schedule`` functions, ``domain_loop``
and the work decorators, so that a TS schedule ports by changing imports.

A ``@schedule`` function is called with its resources (TS ``MemoryResource``
objects, :class:`tspipe.ts.resources.MemoryResource` here) and records what
it does -- brackets (``acquire``, ``try_acquire``, ``commit``, ``wait``,
``try_wait``, ``release``, ``producer_tail``), work calls (``producer_work``,
``consumer_work`` and named work methods) and the structure (``with
domain_loop(...) as d``, ``with d.first_iter()``, ``with d.last_iter()``,
``with d.every(period, start)``, ``with when_true(cond)``, ``with
when_false(cond)``) --
with the Python line of each call. :class:`tspipe.ts.task_manager.TaskManager`
replays the record into a :class:`tspipe.ts.Kernel` task, building each
step with the generated op classes at that line's location; a work call runs
the resource's method of that name as a work step (``method(stage, *args)``,
building ops with the dialect builders).

A work call returns a :class:`DataFlowToken`; passing it to a later work
call of the same task passes the Value(s) the first work method returned
(TS's data-flow routing, within a task). ``with work_tile_loop(wq,
skip_if=f) as wtl:`` walks a :class:`tspipe.ts.WorkQueue`'s tiles (``with
wtl.skippable():`` marks what a skipped tile leaves out; tspipe.ts.work_queue);
``every``, ``when_true`` and ``when_false`` guard steps of a domain loop.
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, List, Optional, Tuple

from ..diagnostics import ScheduleError, caller_frame, caller_location
from .resources import (
    GroupMember,
    MemoryResource,
    PipelineGroup,
    TaskLocalVariable,
    consumer_work,
    producer_work,
)

__all__ = [
    "schedule",
    "domain_loop",
    "producer_work",
    "consumer_work",
    "ScheduleResult",
    "DataFlowToken",
    "work_tile_loop",
    "when_true",
    "when_false",
]

# Bracket methods of a resource proxy and the side whose cursor they use.
BRACKETS = {
    "acquire": "producer",
    "try_acquire": "producer",
    "commit": "producer",
    "producer_tail": "producer",
    "wait": "consumer",
    "try_wait": "consumer",
    "release": "consumer",
}


@dataclass(eq=False)
class Step:
    """One recorded call: ``resource.method(*args, **kwargs)`` at
    ``file:line``. ``result`` is the :class:`DataFlowToken` the call
    returned while recording."""

    resource: Any
    method: str
    args: Tuple[Any, ...]
    kwargs: dict
    file: str
    line: int
    result: Any = None


class DataFlowToken:
    """What a work call returns while a schedule is recorded: a stand-in
    for the Value(s) its work method returns when the schedule is replayed.
    Passing it to a later work call of the same task hands that call the
    Value (TS's data-flow routing); it cannot be used as a Python value."""

    def __init__(self, step: "Step"):
        self.step = step

    def __bool__(self):
        raise TypeError("a work call's result is only known when the kernel "
                        "is built; pass it to another work call instead")

    def __repr__(self):
        return f"DataFlowToken({self.step.resource.name}.{self.step.method})"


@dataclass(eq=False)
class Assign:
    """``var.set(token)`` at ``file:line``: the task-local variable ``var``
    holds the Value(s) of the work call that returned ``token`` from here
    on."""

    var: Any
    value: Any
    file: str
    line: int


def record_assignment(var, value) -> None:
    """Records ``var.set(value)`` in the schedule being recorded
    (:class:`tspipe.ts.resources.TaskLocalVariable`). ScheduleError outside
    a ``@schedule`` function (R22); TypeError when ``value`` is not a work
    call's result."""
    recorder = _Recorder.get(f"{var!r}.set()")
    if not isinstance(value, DataFlowToken):
        raise TypeError(f"{var!r}.set() takes the result of a work call, got "
                        f"{value!r}")
    file, line = _site()
    recorder.stack[-1].append(Assign(var, value, file, line))


TaskLocalVariable._record = staticmethod(record_assignment)


@dataclass
class Block:
    """A recorded structure node: ``kind`` is ``"domain_loop"`` (``bounds``:
    start, end, step), ``"first_iter"``, ``"last_iter"``, ``"every"``
    (``guard``: period, start), ``"when_true"`` or ``"when_false"``
    (``guard``: the condition, an ``i1`` Value or a callable ``f(kernel)``
    returning one)."""

    kind: str
    file: str
    line: int
    bounds: Tuple[Any, Any, Any] = (0, 0, 1)
    body: List[Any] = field(default_factory=list)
    # work_tile_loop: the WorkQueue and the skip predicate.
    queue: Any = None
    skip_if: Any = None
    guard: Tuple[Any, ...] = ()


@dataclass
class ScheduleResult:
    """What a ``@schedule`` function recorded: ``name``, the resources it was
    called with, and ``body`` (a list of :class:`Step` and :class:`Block`)."""

    name: str
    resources: Tuple[Any, ...]
    body: List[Any]


class _Recorder:
    """The schedule being recorded (one at a time, like TS's tracer)."""

    current: Optional["_Recorder"] = None

    def __init__(self):
        self.stack: List[List[Any]] = [[]]

    @staticmethod
    def get(what: str) -> "_Recorder":
        if _Recorder.current is None:
            raise ScheduleError(
                f"[R22] {what} is only valid inside a @schedule function",
                "R22", caller_location())
        return _Recorder.current


def _site() -> Tuple[str, int]:
    frame = caller_frame()
    if frame is None:
        return ("<unknown>", 0)
    return (frame.f_code.co_filename, frame.f_lineno)


class ResourceProxy:
    """What a ``@schedule`` function sees for each resource argument:
    every method call is recorded as a step."""

    def __init__(self, resource):
        self._resource = resource

    def __getattr__(self, method: str) -> Callable[..., None]:
        if method.startswith("_"):
            raise AttributeError(method)
        resource = self._resource
        if isinstance(resource, PipelineGroup) and any(
                m.name == method for m in resource.members):
            # `group.member`: the member named through its group (R24),
            # whose brackets and work calls are recorded in turn.
            return ResourceProxy(GroupMember(resource, getattr(resource, method)
                                             .member))

        def record(*args, **kwargs):
            recorder = _Recorder.get(f"{resource.name}.{method}()")
            file, line = _site()
            step = Step(resource, method, args, kwargs, file, line)
            step.result = DataFlowToken(step)
            recorder.stack[-1].append(step)
            return step.result

        record.__name__ = method
        return record

    def __repr__(self):
        return f"ResourceProxy({self._resource!r})"


class _DomainLoopHandle:
    """``d`` in ``with domain_loop(...) as d``: the loop guards."""

    @contextlib.contextmanager
    def _guard(self, kind: str, guard: Tuple[Any, ...] = ()) -> Iterator[None]:
        recorder = _Recorder.get(f"d.{kind}()")
        file, line = _site()
        block = Block(kind, file, line, guard=guard)
        recorder.stack[-1].append(block)
        recorder.stack.append(block.body)
        try:
            yield
        finally:
            recorder.stack.pop()

    def first_iter(self):
        """``with d.first_iter():`` -- steps of the first iteration only."""
        return self._guard("first_iter")

    def last_iter(self):
        """``with d.last_iter():`` -- steps of the last iteration only."""
        return self._guard("last_iter")

    def every(self, period: int, start: int = 0):
        """``with d.every(period, start):`` -- steps of the iterations whose
        zero-based count k has ``k % period == start`` (period > 0,
        0 <= start < period; X22)."""
        return self._guard("every", (period, start))

    def when_true(self, cond):
        """``with d.when_true(cond):`` -- :func:`when_true`."""
        return self._guard("when_true", (cond,))

    def when_false(self, cond):
        """``with d.when_false(cond):`` -- :func:`when_false`."""
        return self._guard("when_false", (cond,))


@contextlib.contextmanager
def domain_loop(*bounds, unroll: Optional[int] = None
                ) -> Iterator[_DomainLoopHandle]:
    """``with domain_loop(start, end, step) as d:`` inside a ``@schedule``
    function, with TS's signature: the bounds as Python's ``range`` takes
    them (``end``; ``start, end``; ``start, end, step``), each an int
    (iterations), an ``index`` Value, or a callable ``f(kernel)`` returning
    one (built in the kernel when the schedule is replayed). ``unroll`` is
    accepted and ignored (the lowering decides). Raises TypeError for
    another number of bounds."""
    if not 1 <= len(bounds) <= 3:
        raise TypeError(f"domain_loop takes 1 to 3 bounds (as range), got "
                        f"{len(bounds)}")
    start, end, step = ((0, bounds[0], 1) if len(bounds) == 1 else
                        (bounds[0], bounds[1], 1) if len(bounds) == 2 else
                        tuple(bounds))
    recorder = _Recorder.get("domain_loop()")
    file, line = _site()
    block = Block("domain_loop", file, line, (start, end, step))
    recorder.stack[-1].append(block)
    recorder.stack.append(block.body)
    try:
        yield _DomainLoopHandle()
    finally:
        recorder.stack.pop()


def schedule(fn: Callable[..., Any]) -> Callable[..., ScheduleResult]:
    """TS's ``@schedule``: calling the decorated function with resources
    records its schedule and returns a :class:`ScheduleResult` to pass to
    ``Task(..., schedule=...)``. Arguments that are not resources are
    passed through unchanged."""

    @functools.wraps(fn)
    def record(*args, **kwargs) -> ScheduleResult:
        def proxy(value):
            if isinstance(value, (MemoryResource, PipelineGroup, GroupMember)):
                return ResourceProxy(value)
            return value

        if _Recorder.current is not None:
            raise ScheduleError(
                f"[R22] @schedule function {fn.__name__} called while "
                f"another schedule is being recorded", "R22",
                caller_location())
        recorder = _Recorder()
        _Recorder.current = recorder
        try:
            fn(*[proxy(a) for a in args],
               **{k: proxy(v) for k, v in kwargs.items()})
        finally:
            _Recorder.current = None
        resources = tuple(getattr(a, "member", a)
                          for a in list(args) + list(kwargs.values())
                          if isinstance(a, (MemoryResource, GroupMember)))
        return ScheduleResult(fn.__name__, resources, recorder.stack[0])

    return record


class _WorkTileLoopHandle:
    """``wtl`` in ``with work_tile_loop(wq, skip_if=...) as wtl``."""

    def __init__(self, block: Block):
        self._block = block

    @contextlib.contextmanager
    def skippable(self) -> Iterator[None]:
        """``with wtl.skippable():`` -- steps a skipped tile leaves out (the
        domain loop must be among them when the loop has ``skip_if``,
        R22)."""
        recorder = _Recorder.get("wtl.skippable()")
        if self._block.skip_if is None:
            raise ScheduleError(
                "[R22] skippable() needs work_tile_loop(wq, skip_if=...)",
                "R22", caller_location())
        file, line = _site()
        block = Block("skippable", file, line)
        recorder.stack[-1].append(block)
        recorder.stack.append(block.body)
        try:
            yield
        finally:
            recorder.stack.pop()


@contextlib.contextmanager
def work_tile_loop(wq, skip_if: Optional[Callable[..., Any]] = None
                   ) -> Iterator[_WorkTileLoopHandle]:
    """``with work_tile_loop(wq, skip_if=None) as wtl:`` -- TS's persistent
    loop over the tiles of the :class:`tspipe.ts.WorkQueue` ``wq``, once
    per schedule, at its top (R22). ``skip_if(*coords)`` builds an ``i1``
    Value from the tile's ``index`` coordinates (R21); a callable domain
    bound ``f(kernel, coords)`` computes a per-tile domain (R20). The
    tile's tail ends with the queue's steps (``wq.wait()``,
    ``wq.get_and_advance_work_tile()``, ``wq.release()``; R35)."""
    if skip_if is not None and not callable(skip_if):
        raise ScheduleError(
            f"[R21] skip_if must be callable (a predicate on the tile "
            f"coordinates), got {skip_if!r}", "R21", caller_location())
    recorder = _Recorder.get("work_tile_loop()")
    file, line = _site()
    resource = getattr(wq, "_resource", wq)
    block = Block("work_tile_loop", file, line, queue=resource,
                  skip_if=skip_if)
    recorder.stack[-1].append(block)
    recorder.stack.append(block.body)
    try:
        yield _WorkTileLoopHandle(block)
    finally:
        recorder.stack.pop()



def _cond_guard(kind: str, cond, key) -> Any:
    if cond is None and key is None:
        raise TypeError(f"{kind}() takes the condition: an i1 Value or a "
                        f"callable f(kernel) returning one")
    return _DomainLoopHandle()._guard(kind, (cond if cond is not None
                                             else key,))


def when_true(token=None, key=None):
    """``with when_true(cond):`` inside a domain loop -- steps of the
    iterations where ``cond`` is true (TS's ``when_true(token, key=)``; here
    ``cond`` is an ``i1`` Value or a callable ``f(kernel)`` returning one,
    built when the schedule is replayed). The progress checker proves a
    kernel with such guards only when both sides of each pipeline are
    guarded by the same condition (R70)."""
    return _cond_guard("when_true", token, key)


def when_false(token=None, key=None):
    """``with when_false(cond):`` -- :func:`when_true` for the iterations
    where ``cond`` is false."""
    return _cond_guard("when_false", token, key)

