"""The schedule of a task: the TS bracket methods (acquire, try_acquire,
commit, producer_tail, wait, try_wait, release), work steps, the domain loop
and the loop guards, and the stages and tokens they return.

A :class:`Task` is made by :meth:`tspipe.ts.Kernel.task`; each method builds
its op at the end of the block being written (the task body, the domain
loop or a guard), located at the user's Python line. Rules are the C++
verifiers' (reported when the kernel is built); only the builder's own
bookkeeping is checked here (a stage or token used outside the block or
task it belongs to, R22).
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from .. import ir
from ..diagnostics import ScheduleError, _short_location
from ..diagnostics import caller_location as _caller_location
from ..dialects import llvm
from ..dialects import tspipe as tsd
from .builder import (
    IndexLike,
    ResourceRef,
    _Scope,
    _user_location,
    traceback_locations,
)

__all__ = ["Task", "Stage", "Token"]

# The tasks whose work steps are running (innermost last).
_ACTIVE_TASKS: List["Task"] = []


class Stage:
    """The stage an acquire, a wait or ``current_stage`` returned (TS's
    ``StageInfo``). ``stage.value`` is the ``!tspipe.stage`` Value.

    The accessors build an op at the task's current insertion point and
    return its ``Value``. A stage belongs to the task and the block (task
    body, domain loop, loop guard) it was made in: using it after that block
    is closed, or in another task, raises
    :class:`~tspipe.diagnostics.ScheduleError` at the call.
    """

    def __init__(self, task: "Task", value, pipeline: str, scope: _Scope,
                 what: str):
        self.task = task
        self.value = value
        self.pipeline = pipeline
        self._scope = scope
        self._what = what

    def __repr__(self):
        return f"Stage({self._what}, pipeline={self.pipeline!r})"

    def _access(self, method: str, build) -> Any:
        use = f"{self._what}.{method}()"
        active = _ACTIVE_TASKS[-1] if _ACTIVE_TASKS else None
        if active is not None and active is not self.task:
            active._check_owner(self, use, self._what)
        self.task._check_scope(self._scope, use, self._what)
        if active is self.task:
            # Inside this task's work step: the accessor must stay a direct
            # child of the task, its loop or a guard (the lowering carries
            # the cursors there), so it goes before the step's first op of
            # the task's block -- it dominates the step's nested regions.
            ip = self.task._accessor_point()
            if ip is None:
                return build()
            with ip:
                return build()
        with self.task._building():
            return build()

    @property
    def loop_offset(self):
        """The domain loop's iteration Value (``index``; TS's
        ``stage_info.loop_offset``), or None outside the loop."""
        return self.task._iv

    @property
    def stage_idx(self):
        """TS's ``stage_info.stage_idx``: :meth:`index`."""
        return self.index()

    @property
    def barrier(self):
        """TS's ``stage_info.barrier``: :meth:`full_barrier` (the barrier a
        producer's TMA copy completes on)."""
        return self.full_barrier()

    def index(self):
        """The stage index in ``[0, num_stages)`` (an ``index`` Value)."""
        return self._access("index", lambda: tsd.stage_index(self.value))

    def full_barrier(self):
        """Address of the stage's full mbarrier (8 bytes, ``!llvm.ptr<3>``):
        the barrier TMA copies complete their bytes on."""
        return self._access("full_barrier", lambda: tsd.full_barrier(self.value))

    def leader_full_barrier(self):
        """Address of the CTA pair leader's full mbarrier of the stage (8
        bytes, ``!llvm.ptr<3>``, the peer bit cleared): the barrier the
        ``cta_group::2`` TMA copies of both CTAs of a pair complete on
        (``cta_layout_vmnk`` with V = 2, rule X5)."""
        return self._access("leader_full_barrier",
                            lambda: tsd.leader_full_barrier(self.value))

    def empty_barrier(self):
        """Address of the stage's empty mbarrier (8 bytes, ``!llvm.ptr<3>``)."""
        return self._access("empty_barrier", lambda: tsd.empty_barrier(self.value))

    def buffer(self):
        """Address of the stage's slice of the pipeline's data buffer
        (``smem_bytes / num_stages`` bytes, ``!llvm.ptr<3>``); the pipeline
        needs ``smem_bytes``."""
        return self._access("buffer", lambda: tsd.stage_buffer(self.value))


class Token:
    """The ``i1`` result of ``try_acquire`` / ``try_wait`` (true: ready).

    ``token.value`` is the Value. Only a Token is accepted as the ``ready``
    argument of :meth:`Task.acquire` / :meth:`Task.wait`.
    """

    def __init__(self, value, pipeline: str, side: str, scope: _Scope,
                 task=None):
        self.value = value
        self.pipeline = pipeline
        self.side = side
        self._scope = scope
        self.task = task

    def __repr__(self):
        probe = "try_acquire" if self.side == "producer" else "try_wait"
        return f"Token({probe} @{self.pipeline})"



class Task:
    """A TS task: warps ``[warp_idx, warp_idx + num_warps)`` of every CTA (or
    of CTA ``run_only_on_cta_id`` only) and its schedule (``tspipe.task``).

    Made by :meth:`Kernel.task`. The schedule is the sequence of calls on the
    task: head steps, one :meth:`domain_loop` (rule R16), tail steps. Every
    bracket names a pipeline the task lists in ``produces`` (acquire, commit,
    producer_tail) or ``consumes`` (wait, release) (rule R27).

    Stages and tokens belong to this task and to the block they were made in;
    using one in another task, or after its block is closed, raises
    :class:`~tspipe.diagnostics.ScheduleError` at the call. Values a work step
    built are checked by MLIR's dominance verifier when the kernel is built.
    """

    def __init__(self, kernel, name: str, op, loc_text: str):
        self.kernel = kernel
        self.name = name
        self.op = op
        self.produces: List[str] = []
        self.consumes: List[str] = []
        self._root = _Scope(op.body_block, "task body", loc_text)
        self._stack: List[_Scope] = [self._root]
        self._pending: Dict[Tuple[str, str], Token] = {}
        self._iv = None
        self._work_anchor = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    # -- building -------------------------------------------------------------

    @contextlib.contextmanager
    def _building(self, loc=None) -> Iterator[None]:
        """Context, the user's location and the insertion point at the end
        of the current block."""
        with self.kernel.context, (loc or _user_location()), \
                ir.InsertionPoint(self._stack[-1].block):
            yield

    def _check_scope(self, scope: _Scope, use: str, what: str):
        if scope not in self._stack:
            where = scope.kind
            if scope.loc_text:
                where += f" opened at {scope.loc_text}"
            raise ScheduleError(
                f"[R22] {what} is used outside the bracket scope it came from "
                f"({use}): it was made inside the {where} of task "
                f"'{self.name}', which is closed here; use it inside that "
                f"block, or acquire/wait again where it is needed",
                "R22", _caller_location())

    def _check_owner(self, obj, use: str, what: str):
        if obj.task is not self:
            raise ScheduleError(
                f"[R22] {what} is used in task '{self.name}' ({use}) but comes "
                f"from task '{obj.task.name}': a stage or token exists only "
                f"in the bracket scope of the task that made it; acquire or "
                f"wait in task '{self.name}' to get its own", "R22",
                _caller_location())
        self._check_scope(obj._scope, use, what)

    @contextlib.contextmanager
    def _region(self, op, kind: str) -> Iterator[Any]:
        block = op.body_block
        scope = _Scope(block, kind, _short_location(_caller_location()))
        self._stack.append(scope)
        try:
            yield block
        finally:
            popped = self._stack.pop()
            assert popped is scope, "tspipe.ts: regions closed out of order"
            # A token made inside the region does not dominate what follows.
            for key in [k for k, t in self._pending.items()
                        if t._scope is scope]:
                del self._pending[key]

    def _ready_operand(self, pipe: str, side: str, method: str, ready):
        """The ``ready`` Value for ``method`` (acquire/wait), or None.

        With ``ready`` None, the pending probe of ``pipe`` is used when it was
        made in the current block (the verifier requires a fresh probe).
        """
        probe = "try_acquire" if side == "producer" else "try_wait"
        if ready is None:
            token = self._pending.get((pipe, side))
            if token is not None and token._scope is self._stack[-1]:
                del self._pending[(pipe, side)]
                return token.value
            return None
        if not isinstance(ready, Token):
            raise TypeError(
                f"{method}(ready=...) takes the Token that {probe}() returned "
                f"(or None), got {ready!r}")
        self._check_owner(ready, f"{method}(ready=...)", repr(ready))
        if self._pending.get((pipe, side)) is ready:
            del self._pending[(pipe, side)]
        return ready.value

    def _symbol(self, resource: ResourceRef):
        pipe = self.kernel._resource_name(resource)
        return pipe, pipe

    def _probe(self, resource: ResourceRef, side: str,
               group: Optional[str] = None) -> Token:
        pipe, symbol = self._symbol(resource)
        with self._building():
            if side == "producer":
                value = tsd.producer_try_acquire(symbol, group=group)
            else:
                value = tsd.consumer_try_wait(symbol, group=group)
        token = Token(value, pipe, side, self._stack[-1], self)
        self._pending[(pipe, side)] = token
        return token

    def _blocking(self, resource: ResourceRef, side: str, verb: str,
                  ready: Optional[Token], group: Optional[str] = None) -> Stage:
        pipe, symbol = self._symbol(resource)
        token = self._ready_operand(pipe, side, verb, ready)
        with self._building():
            build = tsd.producer_acquire if side == "producer" else tsd.consumer_wait
            value = build(symbol, group=group, ready=token)
        return Stage(self, value, pipe, self._stack[-1],
                     f"stage of {verb}(@{pipe})")

    def _advancing(self, resource: ResourceRef, side: str, build_name: str,
                   group: Optional[str] = None):
        pipe, symbol = self._symbol(resource)
        # A probe taken before a bracket that moves the same cursor is stale.
        self._pending.pop((pipe, side), None)
        with self._building():
            getattr(tsd, build_name)(symbol, group=group)

    # -- schedule: producer side -------------------------------------------

    def try_acquire(self, resource: ResourceRef,
                    group: Optional[str] = None) -> Token:
        """One non-blocking probe of the producer stage's empty barrier.

        Returns a :class:`Token` (``i1``, true when the stage is free). The
        next :meth:`acquire` of the same resource in the same block uses it
        and skips its blocking wait when it is true; TS's status register is
        sticky, this token is consumed by that one acquire.
        """
        return self._probe(resource, "producer", group)

    def acquire(self, resource: ResourceRef, ready: Optional[Token] = None,
                group: Optional[str] = None) -> Stage:
        """Wait until the producer's next stage is empty (and, for TMA
        pipelines, arm its full barrier with ``num_bytes``). Returns the
        :class:`Stage`. ``ready``: a :class:`Token` from :meth:`try_acquire`
        of the same resource (default: the pending one made in this block, if
        any); anything else raises TypeError. ``group``: the pipeline group
        of a member (R24)."""
        return self._blocking(resource, "producer", "acquire", ready, group)

    def commit(self, resource: ResourceRef, group: Optional[str] = None) -> None:
        """Signal that the producer's stage is full (arrive on its full
        barrier with the type's producer operation) and advance. On a fork
        group, ``resource`` is the group (one commit fills every member);
        ``group``: the pipeline group of a member (R24)."""
        self._advancing(resource, "producer", "producer_commit", group)

    def producer_tail(self, resource: ResourceRef,
                      group: Optional[str] = None) -> None:
        """Drain: wait until the consumers released every stage this producer
        filled (``num_stages / stride`` empty-barrier waits per lane).
        Inserted by the lowering after the body when a producing task does
        not write it. ``group``: the pipeline group of a member (R24)."""
        self._advancing(resource, "producer", "producer_tail", group)

    # -- schedule: consumer side -------------------------------------------

    def try_wait(self, resource: ResourceRef,
                 group: Optional[str] = None) -> Token:
        """One non-blocking probe of the consumer stage's full barrier.

        Returns a :class:`Token` used by the next :meth:`wait` of the same
        resource in the same block (see :meth:`try_acquire`)."""
        return self._probe(resource, "consumer", group)

    def wait(self, resource: ResourceRef, ready: Optional[Token] = None,
             group: Optional[str] = None) -> Stage:
        """Wait until the consumer's next stage is full. Returns the
        :class:`Stage` to read. ``ready``: a :class:`Token` from
        :meth:`try_wait` of the same resource (default: the pending one made
        in this block, if any); anything else raises TypeError. ``group``:
        the pipeline group of a member (R24)."""
        return self._blocking(resource, "consumer", "wait", ready, group)

    def release(self, resource: ResourceRef, group: Optional[str] = None) -> None:
        """Signal that the consumer's stage is empty (arrive on its empty
        barrier with the type's consumer operation) and advance. On a merge
        group, ``resource`` is the group (one release frees every member);
        ``group``: the pipeline group of a member (R24)."""
        self._advancing(resource, "consumer", "consumer_release", group)

    # -- schedule: work steps ------------------------------------------------

    def current_stage(self, resource: ResourceRef, role: str = "consumer",
                      group: Optional[str] = None) -> Stage:
        """The stage a work step addresses when this task did not acquire or
        wait itself (split producers/consumers, docs/Protocols.md, Split
        cursors): the commit cursor's (``role="producer"``) or the release
        cursor's (``"consumer"``). Raises ValueError for another role."""
        if role not in ("producer", "consumer"):
            raise ValueError(f"role must be 'producer' or 'consumer', got {role!r}")
        pipe, symbol = self._symbol(resource)
        with self._building():
            value = tsd.current_stage(symbol, role, group=group)
        return Stage(self, value, pipe, self._stack[-1],
                     f"stage of current_stage(@{pipe})")

    def work(self, step: Callable[..., Any], *args, **kwargs) -> Any:
        """Run a work step: ``step(*args, **kwargs)`` builds its ops with the
        MLIR dialect builders at the end of the current block (the task body,
        domain loop or guard) and returns whatever it returns.

        Inside ``step`` the kernel's Context, an InsertionPoint and a
        Location are current, so ``arith.addi(a, b)`` or
        ``nvvm.elect_sync()`` need no ``ip=`` / ``loc=``; each op gets the
        Python line in ``step`` that built it (MLIR's traceback locations),
        or the line of this ``work`` call. Stage accessors may be called in
        it. Raises TypeError if ``step`` is not callable; MLIR's own errors
        (a wrong operand type) propagate.
        """
        if not callable(step):
            raise TypeError(
                f"work() takes a callable that builds ops with the dialect "
                f"builders (MLIR text is not accepted; for a PTX marker use "
                f"ptx_comment()), got {step!r}")
        with self._building(), traceback_locations(), self._active():
            self._work_anchor = self._last_op()
            return step(*args, **kwargs)

    def _placed(self, build):
        """Builds an accessor op where the lowering can see it: a direct
        child of the task's current block, before the running work step's
        first op when called from one (as stage accessors are)."""
        if _ACTIVE_TASKS and _ACTIVE_TASKS[-1] is self:
            ip = self._accessor_point()
            if ip is None:
                return build()
            with ip:
                return build()
        with self._building():
            return build()

    def buffer_address(self, buffer) -> Any:
        """The address (``!llvm.ptr<3>``) of a shared-memory buffer
        (:meth:`Kernel.buffer`); may be called in a work step."""
        name = buffer if isinstance(buffer, str) else buffer.sym_name.value
        return self._placed(lambda: tsd.buffer_address(name))

    def tmem_column(self, resource) -> Any:
        """The first tensor-memory column (``i32``) of a pipeline with
        ``tmem_columns`` or a tensor-memory buffer, as placed by
        ``tspipe-allocate-smem``; may be called in a work step."""
        if isinstance(resource, str):
            name = resource
        elif hasattr(resource, "sym_name"):
            name = resource.sym_name.value
        else:
            name = resource.name
        return self._placed(lambda: tsd.tmem_column(name))

    def ptx_comment(self, text: str) -> None:
        """A marker in the PTX: ``// <text>`` (an ``llvm.inline_asm`` with
        side effects and no operands, so it stays where it is). Raises
        ValueError for a text with a line break (it would end the comment)."""
        if not isinstance(text, str):
            raise TypeError(f"ptx_comment() takes a str, got {text!r}")
        if "\n" in text or "\r" in text:
            raise ValueError(f"a PTX comment is one line, got {text!r}")
        with self._building():
            llvm.InlineAsmOp(None, [], f"// {text}", "", has_side_effects=True)

    @contextlib.contextmanager
    def ops(self) -> Iterator[None]:
        """``with task.ops():`` -- build ops inline, like :meth:`work`
        without a callable: the Context, an InsertionPoint at the end of the
        current block and traceback locations are current in the body."""
        with self._building(), traceback_locations(), self._active():
            self._work_anchor = self._last_op()
            yield

    def _last_op(self):
        """The last op of the current block, or None."""
        ops = self._stack[-1].block.operations
        return ops[len(ops) - 1].operation if len(ops) else None

    def _accessor_point(self):
        """Where a stage accessor called in a work step goes: None when the
        step builds directly in the task's current block (the ambient
        insertion point), else before the step's first op in that block."""
        block = self._stack[-1].block
        if ir.InsertionPoint.current.block == block:
            return None
        found = self._work_anchor is None
        for op in block.operations:
            if found:
                return ir.InsertionPoint(op)
            found = op.operation == self._work_anchor
        return ir.InsertionPoint(block)

    @contextlib.contextmanager
    def _active(self) -> Iterator[None]:
        """Marks this task as the one a work step builds for (a stage of
        another task used in it is an error)."""
        _ACTIVE_TASKS.append(self)
        try:
            yield
        finally:
            _ACTIVE_TASKS.pop()

    # -- schedule: structure -------------------------------------------------

    def domain_loop(self, start: IndexLike, end: IndexLike,
                    step: IndexLike = 1, *,
                    iter_args: Sequence[Any] = ()) -> "_RegionScope":
        """``with task.domain_loop(start, end, step) as iv:`` -- the task's
        domain loop (exactly one per task, R16; step non-zero, R17).

        ``start``, ``end``, ``step`` are ints (iterations; numpy integers
        accepted) or ``index`` Values (e.g. built in
        :meth:`Kernel.prologue`). Steps before the loop are the head, steps
        after it the tail. Yields the iteration Value (``index``). The
        bounds are checked at the call (TypeError for a float, ScheduleError
        beyond 64 bits).

        ``iter_args``: Values the loop carries (task-local state, rule X26);
        then the ``with`` yields ``(iv, [carried block arguments])``, the
        body ends with :meth:`loop_yield` of the next values and the scope's
        ``results`` (after the ``with``) are the values after the last
        iteration. TypeError for an entry that is not a Value.
        """
        bounds = [self.kernel._index_value(value, what) for what, value in
                  (("domain_loop start", start), ("domain_loop end", end),
                   ("domain_loop step", step))]
        carried = list(iter_args)
        for value in carried:
            if not isinstance(value, ir.Value):
                raise TypeError(f"domain_loop(iter_args=...) takes Values, "
                                f"got {value!r}")
        with self._building():
            op = tsd.DomainLoopOp(*bounds, iter_args=carried)
        return _RegionScope(self, op, "domain_loop", carries=bool(carried))

    def loop_yield(self, *values) -> None:
        """``tspipe.yield values``: the next values of the carried state,
        the last step of a domain loop built with ``iter_args`` (X26: one
        per carried value, same types; checked when the kernel is
        verified). ScheduleError outside the domain loop's own block."""
        if not self._stack or self._stack[-1].kind != "domain_loop":
            raise ScheduleError(
                "[X26] loop_yield() ends the domain loop's body: call it in "
                "the `with task.domain_loop(...)` block, outside any guard",
                "X26", _short_location(_caller_location()))
        with self._building():
            tsd.YieldOp(list(values))

    def _guard(self, cls_name: str, kind: str) -> "_RegionScope":
        with self._building():
            op = getattr(tsd, cls_name)()
        return _RegionScope(self, op, kind)

    def first_iter(self):
        """``with task.first_iter():`` -- steps run on the first iteration of
        the domain loop only (inside the loop, R22)."""
        return self._guard("FirstIterOp", "first_iter")

    def last_iter(self):
        """``with task.last_iter():`` -- steps run on the last iteration of the
        domain loop only (inside the loop, R22)."""
        return self._guard("LastIterOp", "last_iter")

    # -- schedule: persistent tile loop -----------------------------------

    @contextlib.contextmanager
    def work_tile_loop(self, queue: str, skip_if=None) -> Iterator[list]:
        """``with task.work_tile_loop(queue, skip_if=f) as coords:`` -- the
        task's loop over the tiles of the kernel's work queue ``queue``
        (:meth:`Kernel.work_queue`; R19-R22, R35). ``coords`` are the
        tile's ``index`` Values, one per grid extent (three for a CLC
        queue). ``skip_if(*coords)`` builds the skip predicate, an ``i1``
        Value (R21). Raises ScheduleError (R19) for a queue the kernel does
        not declare."""
        queues = getattr(self.kernel, "_work_queues", {})
        if queue not in queues:
            raise ScheduleError(
                f"[R19] work_tile_loop names {queue!r}, which is not a work "
                f"queue of the kernel; declare it with kernel.work_queue(...)",
                "R19", _caller_location())
        with self._building():
            op = tsd.WorkTileLoopOp(queue, queues[queue],
                                    skip_if=skip_if is not None)
            if skip_if is not None:
                block = op.skip_block
                with ir.InsertionPoint(block):
                    tsd.SkipTileOp(skip_if(*block.arguments))
        with self._region(op, "work_tile_loop") as block:
            yield list(block.arguments)

    @contextlib.contextmanager
    def skippable(self) -> Iterator[None]:
        """``with task.skippable():`` -- steps a skipped tile leaves out (the
        domain loop among them, R22)."""
        with self._building():
            op = tsd.SkippableOp()
        with self._region(op, "skippable"):
            yield

    def advance_work_tile(self, queue: str, response: Optional[Stage] = None):
        """End the tile (``tspipe.advance_work_tile``, TS's
        ``get_and_advance_work_tile``); ``response``: the Stage of the wait
        on a CLC queue's pipeline (R35)."""
        if response is not None:
            self._check_owner(response, "advance_work_tile(response=...)",
                              repr(response))
        with self._building():
            return tsd.AdvanceWorkTileOp(
                queue, response=None if response is None else response.value)

    def fetch_work_tile(self, queue: str, stage: Stage):
        """The CLC scheduler's try_cancel into the acquired ``stage``
        (``tspipe.fetch_work_tile``, R35)."""
        self._check_owner(stage, "fetch_work_tile(stage)", repr(stage))
        with self._building():
            return tsd.FetchWorkTileOp(queue, stage.value)

    def every(self, period: int, start: int = 0):
        """``with task.every(period, start):`` -- steps run on the
        iterations of the domain loop whose zero-based count k satisfies
        ``k % period == start`` (TS's ``every``; period > 0 and
        0 <= start < period, X22)."""
        for what, value in (("period", period), ("start", start)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"every() {what} must be an int, got "
                                f"{value!r}")
        with self._building():
            op = tsd.EveryOp(period, start)
        return _RegionScope(self, op, "every")

    def _cond_guard(self, cls_name: str, kind: str, cond) -> "_RegionScope":
        if callable(cond) and not isinstance(cond, ir.Value):
            cond = cond(self.kernel)
        if not isinstance(cond, ir.Value) or \
                str(cond.type) != "i1":
            raise TypeError(f"{kind}() takes an i1 Value (or a callable "
                            f"f(kernel) returning one), got {cond!r}")
        with self._building():
            op = getattr(tsd, cls_name)(cond)
        return _RegionScope(self, op, kind)

    def when_true(self, cond):
        """``with task.when_true(cond):`` -- steps run on the iterations
        where the ``i1`` Value ``cond`` is true (TS's ``when_true``)."""
        return self._cond_guard("WhenTrueOp", "when_true", cond)

    def when_false(self, cond):
        """``with task.when_false(cond):`` -- steps run on the iterations
        where the ``i1`` Value ``cond`` is false (TS's ``when_false``)."""
        return self._cond_guard("WhenFalseOp", "when_false", cond)

    # -- programmatic dependent launch --------------------------------------

    def pdl_wait(self) -> None:
        """``griddepcontrol.wait``: wait for the previous grid (TS's
        ``PdlWaitBarrier.wait_griddep``). Every task that touches an
        argument declared ``pdl_input`` must call it first (X20)."""
        with self._building():
            tsd.PdlWaitOp()

    def pdl_launch_dependents(self) -> None:
        """``griddepcontrol.launch_dependents``: let the next grid launch
        (TS's ``PdlLaunchBarrier.launch_dependents``)."""
        with self._building():
            tsd.PdlLaunchDependentsOp()

    def __repr__(self):
        return f"Task({self.name!r})"


class _RegionScope:
    """The context manager of a domain loop or a guard: its op is built at
    the call; entering opens its body block (yielding the iteration Value
    for the domain loop), leaving closes it."""

    def __init__(self, task: Task, op, kind: str, carries: bool = False):
        self._task = task
        self._op = op
        self._kind = kind
        self._carries = carries
        self._cm = None

    @property
    def results(self):
        """The domain loop's results: its carried values after the last
        iteration (empty for a loop without ``iter_args``)."""
        return list(self._op.results)

    def __enter__(self):
        self._cm = self._task._region(self._op, self._kind)
        block = self._cm.__enter__()
        if self._kind == "domain_loop":
            self._task._iv = block.arguments[0]
            if self._carries:
                return self._task._iv, list(block.arguments)[1:]
            return self._task._iv
        return None

    def __exit__(self, *exc):
        if self._kind == "domain_loop":
            self._task._iv = None
        return self._cm.__exit__(*exc)


