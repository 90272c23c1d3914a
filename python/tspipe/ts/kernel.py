"""Building tspipe kernels in TS's vocabulary, through the MLIR builders.

A :class:`Kernel` holds pipelines (``kernel.pipeline``) and tasks
(``kernel.task``); each task's schedule is written with the TS bracket
methods, the domain loop and the loop guards. Work steps are Python callables
that build their ops with the bundled upstream dialect builders
(``tspipe.dialects.arith``, ``scf``, ``llvm``, ``nvvm``, ``vector``, ``gpu``,
``memref``)::

    from tspipe.dialects import arith, llvm
    from tspipe.ts import *

    cfg = PipelineConfig.create_tma_async_pipeline_cfg(
        num_stages=4, num_bytes=4096,
        producer_group=CooperativeGroup(Agent.Thread, 1),
        consumer_group=CooperativeGroup(Agent.Thread, 4))
    k = Kernel(num_warps=5, args=["out"])
    ring = k.pipeline("ring", cfg, smem_bytes=4 * 4096)

    load = k.task("load", warp_idx=0, num_warps=1, produces=[ring])
    with load.domain_loop(0, 16, 1):
        stage = load.acquire(ring)
        load.work(lambda: fill(stage.buffer(), stage.full_barrier()))
        load.commit(ring)

    mma = k.task("mma", warp_idx=1, num_warps=4, consumes=[ring])
    with mma.domain_loop(0, 16, 1):
        mma.wait(ring)
        mma.release(ring)

    module = k.build()          # verified: C++ verifiers, progress checker
    ptx = k.to_ptx()            # through tspipe-to-nvvm

The module is built as the calls are made: a ``gpu.module`` (its
``#nvvm.target`` attached by MLIR's ``nvvm-attach-target`` pass), a
``gpu.func`` marked ``kernel`` whose arguments are the kernel's ``args``, and
in it one ``tspipe.kernel`` built with the generated op classes of
:mod:`tspipe.dialects.tspipe`. Every op carries the location of the user's
Python line (``Location.file``); ops a work step builds get the line of the
work step's own code. Rules are checked by the C++ verifiers and the
progress checker (:meth:`Kernel.build`, :meth:`Kernel.verify`,
:meth:`Kernel.to_ptx` alike): a failure raises
:class:`~tspipe.ts.errors.ScheduleError` or
:class:`~tspipe.ts.errors.PipelineConfigError` listing every diagnostic, each
with its rule id and Python line.
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from .checks import (
    as_int,
    check_arch,
    identifier_problem,
    int64_problem,
    ptx_features,
)
from .config import PipelineConfig
from .errors import ScheduleError, _short_location, error_from_mlir
from .errors import caller_location_object as _caller_location_object
from .errors import caller_location as _caller_location

__all__ = ["Kernel", "Pipeline", "Task", "Stage", "Token", "ptx_features",
           "ARG_TYPES", "at_location"]


def _ir():
    return importlib.import_module("tspipe.ir")


def _dialect(name: str):
    return importlib.import_module(f"tspipe.dialects.{name}")


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
    "ptr": lambda: _dialect("llvm").PointerType.get(1),
    "i32": lambda: _ir().IntegerType.get_signless(32),
    "i64": lambda: _ir().IntegerType.get_signless(64),
    "f32": lambda: _ir().F32Type.get(),
    "f64": lambda: _ir().F64Type.get(),
    "f16": lambda: _ir().F16Type.get(),
    "index": lambda: _ir().IndexType.get(),
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


class Stage:
    """The stage an acquire, a wait or ``current_stage`` returned (TS's
    ``StageInfo``). ``stage.value`` is the ``!tspipe.stage`` Value.

    The accessors build an op at the task's current insertion point and
    return its ``Value``. A stage belongs to the task and the block (task
    body, domain loop, loop guard) it was made in: using it after that block
    is closed, or in another task, raises
    :class:`~tspipe.ts.errors.ScheduleError` at the call.
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
        ts = _dialect("tspipe")
        return self._access("index", lambda: ts.stage_index(self.value))

    def full_barrier(self):
        """Address of the stage's full mbarrier (8 bytes, ``!llvm.ptr<3>``):
        the barrier TMA copies complete their bytes on."""
        ts = _dialect("tspipe")
        return self._access("full_barrier", lambda: ts.full_barrier(self.value))

    def empty_barrier(self):
        """Address of the stage's empty mbarrier (8 bytes, ``!llvm.ptr<3>``)."""
        ts = _dialect("tspipe")
        return self._access("empty_barrier", lambda: ts.empty_barrier(self.value))

    def buffer(self):
        """Address of the stage's slice of the pipeline's data buffer
        (``smem_bytes / num_stages`` bytes, ``!llvm.ptr<3>``); the pipeline
        needs ``smem_bytes``."""
        ts = _dialect("tspipe")
        return self._access("buffer", lambda: ts.stage_buffer(self.value))


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


ResourceRef = Union[Pipeline, str]
IndexLike = Any  # int, numpy integer, or an ``index`` Value

# The tasks whose work steps are running (innermost last).
_ACTIVE_TASKS: List["Task"] = []


class Task:
    """A TS task: warps ``[warp_idx, warp_idx + num_warps)`` of every CTA (or
    of CTA ``run_only_on_cta_id`` only) and its schedule (``tspipe.task``).

    Made by :meth:`Kernel.task`. The schedule is the sequence of calls on the
    task: head steps, one :meth:`domain_loop` (rule R16), tail steps. Every
    bracket names a pipeline the task lists in ``produces`` (acquire, commit,
    producer_tail) or ``consumes`` (wait, release) (rule R27).

    Stages and tokens belong to this task and to the block they were made in;
    using one in another task, or after its block is closed, raises
    :class:`~tspipe.ts.errors.ScheduleError` at the call. Values a work step
    built are checked by MLIR's dominance verifier when the kernel is built.
    """

    def __init__(self, kernel: "Kernel", name: str, op, loc_text: str):
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
        ir = _ir()
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
        if ready.side != side:
            other = "try_wait" if side == "producer" else "try_acquire"
            raise ScheduleError(
                f"[R34] {method}(ready=...) needs a token from {probe}(); "
                f"{ready!r} comes from {other}()", "R34", _caller_location())
        if ready.pipeline != pipe:
            raise ScheduleError(
                f"[R34] {method}(@{pipe}, ready=...): the token probes "
                f"@{ready.pipeline}; probe @{pipe} with {probe}()",
                "R34", _caller_location())
        if self._pending.get((pipe, side)) is ready:
            del self._pending[(pipe, side)]
        return ready.value

    def _symbol(self, resource: ResourceRef):
        pipe = self.kernel._resource_name(resource)
        return pipe, pipe

    def _probe(self, resource: ResourceRef, side: str,
               group: Optional[str] = None) -> Token:
        ts = _dialect("tspipe")
        pipe, symbol = self._symbol(resource)
        with self._building():
            if side == "producer":
                value = ts.producer_try_acquire(symbol, group=group)
            else:
                value = ts.consumer_try_wait(symbol, group=group)
        token = Token(value, pipe, side, self._stack[-1], self)
        self._pending[(pipe, side)] = token
        return token

    def _blocking(self, resource: ResourceRef, side: str, verb: str,
                  ready: Optional[Token], group: Optional[str] = None) -> Stage:
        ts = _dialect("tspipe")
        pipe, symbol = self._symbol(resource)
        token = self._ready_operand(pipe, side, verb, ready)
        with self._building():
            build = ts.producer_acquire if side == "producer" else ts.consumer_wait
            value = build(symbol, group=group, ready=token)
        return Stage(self, value, pipe, self._stack[-1],
                     f"stage of {verb}(@{pipe})")

    def _advancing(self, resource: ResourceRef, side: str, build_name: str,
                   group: Optional[str] = None):
        ts = _dialect("tspipe")
        pipe, symbol = self._symbol(resource)
        # A probe taken before a bracket that moves the same cursor is stale.
        self._pending.pop((pipe, side), None)
        with self._building():
            getattr(ts, build_name)(symbol, group=group)

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
        ts = _dialect("tspipe")
        pipe, symbol = self._symbol(resource)
        with self._building():
            value = ts.current_stage(symbol, role, group=group)
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
        with self._building(), _traceback_locations(), self._active():
            self._work_anchor = self._last_op()
            return step(*args, **kwargs)

    def ptx_comment(self, text: str) -> None:
        """A marker in the PTX: ``// <text>`` (an ``llvm.inline_asm`` with
        side effects and no operands, so it stays where it is). Raises
        ValueError for a text with a line break (it would end the comment)."""
        if not isinstance(text, str):
            raise TypeError(f"ptx_comment() takes a str, got {text!r}")
        if "\n" in text or "\r" in text:
            raise ValueError(f"a PTX comment is one line, got {text!r}")
        llvm = _dialect("llvm")
        with self._building():
            llvm.InlineAsmOp(None, [], f"// {text}", "", has_side_effects=True)

    @contextlib.contextmanager
    def ops(self) -> Iterator[None]:
        """``with task.ops():`` -- build ops inline, like :meth:`work`
        without a callable: the Context, an InsertionPoint at the end of the
        current block and traceback locations are current in the body."""
        with self._building(), _traceback_locations(), self._active():
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
        ir = _ir()
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
                    step: IndexLike = 1) -> "_RegionScope":
        """``with task.domain_loop(start, end, step) as iv:`` -- the task's
        domain loop (exactly one per task, R16; step non-zero, R17).

        ``start``, ``end``, ``step`` are ints (iterations; numpy integers
        accepted) or ``index`` Values (e.g. built in
        :meth:`Kernel.prologue`). Steps before the loop are the head, steps
        after it the tail. Yields the iteration Value (``index``). The
        bounds are checked at the call (TypeError for a float, ScheduleError
        beyond 64 bits).
        """
        ts = _dialect("tspipe")
        bounds = [self.kernel._index_value(value, what) for what, value in
                  (("domain_loop start", start), ("domain_loop end", end),
                   ("domain_loop step", step))]
        with self._building():
            op = ts.DomainLoopOp(*bounds)
        return _RegionScope(self, op, "domain_loop")

    def _guard(self, cls_name: str, kind: str) -> "_RegionScope":
        ts = _dialect("tspipe")
        with self._building():
            op = getattr(ts, cls_name)()
        return _RegionScope(self, op, kind)

    def first_iter(self):
        """``with task.first_iter():`` -- steps run on the first iteration of
        the domain loop only (inside the loop, R22)."""
        return self._guard("FirstIterOp", "first_iter")

    def last_iter(self):
        """``with task.last_iter():`` -- steps run on the last iteration of the
        domain loop only (inside the loop, R22)."""
        return self._guard("LastIterOp", "last_iter")

    def __repr__(self):
        return f"Task({self.name!r})"


class _RegionScope:
    """The context manager of a domain loop or a guard: its op is built at
    the call; entering opens its body block (yielding the iteration Value
    for the domain loop), leaving closes it."""

    def __init__(self, task: Task, op, kind: str):
        self._task = task
        self._op = op
        self._kind = kind
        self._cm = None

    def __enter__(self):
        self._cm = self._task._region(self._op, self._kind)
        block = self._cm.__enter__()
        if self._kind == "domain_loop":
            self._task._iv = block.arguments[0]
            return self._task._iv
        return None

    def __exit__(self, *exc):
        if self._kind == "domain_loop":
            self._task._iv = None
        return self._cm.__exit__(*exc)


@contextlib.contextmanager
def _traceback_locations() -> Iterator[None]:
    """MLIR's traceback-based op locations (innermost user frame) when the
    bindings have them; otherwise the ambient Location stays."""
    ir = _ir()
    tracebacks = getattr(ir, "loc_tracebacks", None)
    if tracebacks is None:
        yield
        return
    global _EXCLUDED
    if not _EXCLUDED:
        # Frames inside the package (the dialect builders' wrappers, the
        # front end) are never the user's line.
        import os

        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        ir._globals.register_traceback_file_exclusion(package)
        _EXCLUDED = True
    with tracebacks(max_depth=1):
        yield


_EXCLUDED = False


class Kernel:
    """A warp-specialized kernel: ``num_warps`` warps per CTA (``32 *
    num_warps`` threads along x), a cluster of ``cluster`` CTAs (x, y, z),
    pipelines and tasks.

    Args:
      num_warps: warps per CTA (1..32).
      cluster: cluster extents in CTAs, 3 ints (at most 16 CTAs).
      name: the ``gpu.func`` symbol (the PTX entry name), a C identifier
        other than ``_`` (which PTX rejects).
      args: the kernel's arguments, in order: a name (a global-memory
        pointer, ``!llvm.ptr<1>``) or a ``(name, type)`` pair where type is
        one of :data:`ARG_TYPES` (``"ptr"``, ``"i32"``, ``"i64"``, ``"f32"``,
        ``"f16"``, ``"index"``) or an ``ir.Type``. :meth:`arg` gives their
        Values.
      arch: the chip the module is built for: one of
        ``tspipe.ts.checks.SUPPORTED_ARCHS`` (``sm_90a``, ``sm_100a``, ...).
      context: a ``tspipe.ir.Context`` to build in (default: a new one).

    Integers may be ``int`` or numpy integers (``bool`` is rejected). Names
    of the kernel, its arguments, pipelines and tasks must be C identifiers
    (``[A-Za-z_][A-Za-z0-9_]*``).

    Raises TypeError for non-int warps or cluster extents,
    :class:`~tspipe.ts.errors.ScheduleError` (ValueError) for a bad name or an
    integer beyond 64 bits, :class:`~tspipe.ts.errors.ArchError` (ValueError)
    for an unsupported ``arch``; every other rule is checked by the C++
    verifiers in :meth:`build`.
    """

    def __init__(self, num_warps: int, cluster: Sequence[int] = (1, 1, 1), *,
                 name: str = "kernel", args: Sequence[Any] = (),
                 arch: str = "sm_90a", context=None):
        num_warps = _check_int("num_warps", num_warps)
        if not 1 <= num_warps <= 32:
            raise ScheduleError(
                f"[R18] num_warps = {num_warps} must be in [1, 32]: a CTA has "
                f"at most 32 warps (1024 threads); give the CTA's warp count",
                "R18", _caller_location())
        if isinstance(cluster, (str, bytes)) or not hasattr(cluster, "__iter__"):
            raise TypeError(f"cluster must be a sequence of 3 ints (x, y, z), "
                            f"got {cluster!r}")
        cluster = tuple(_check_int("cluster extent", extent) for extent in cluster)
        if len(cluster) != 3:
            raise ScheduleError(
                f"[X9] cluster must have 3 extents (x, y, z), got "
                f"{len(cluster)}: {cluster}; e.g. cluster=(2, 1, 1)", "X9",
                _caller_location())
        if any(not 1 <= e <= 16 for e in cluster) or \
                cluster[0] * cluster[1] * cluster[2] > 16:
            raise ScheduleError(
                f"[X9] cluster {cluster} must have extents in [1, 16] and at "
                f"most 16 CTAs in all (the most a cluster holds)", "X9",
                _caller_location())
        _check_name("kernel", name)
        if name == "_":
            # PTX identifiers that start with '_' need a second character:
            # ptxas rejects `.entry _` ("syntax error near '_'").
            raise ScheduleError(
                "[X9] kernel name '_' is not a valid PTX entry name (a name "
                "that starts with '_' needs more characters); use e.g. '_k' "
                "or 'kernel'", "X9", _caller_location())
        if isinstance(args, str):
            raise TypeError(f"args must be a sequence of names, got {args!r}")
        arg_specs = []
        for position, arg in enumerate(args):
            if isinstance(arg, str):
                arg_name, kind = arg, "ptr"
            elif isinstance(arg, (tuple, list)):
                if len(arg) != 2:
                    raise ScheduleError(
                        f"[X9] kernel argument {position} must be a name or "
                        f"a (name, type) pair, got {tuple(arg)!r}; e.g. "
                        f"('n', 'i32')", "X9", _caller_location())
                arg_name, kind = arg
            else:
                raise TypeError(
                    f"kernel argument {position} must be a name or a (name, "
                    f"type) pair, got {arg!r}")
            _check_name("kernel argument", arg_name)
            if isinstance(kind, str) and kind not in ARG_TYPES:
                raise ScheduleError(
                    f"[X9] argument {arg_name!r}: unknown type {kind!r}; use "
                    f"one of {sorted(ARG_TYPES)} or an ir.Type", "X9",
                    _caller_location())
            arg_specs.append((arg_name, kind))
        names = [n for n, _ in arg_specs]
        if len(set(names)) != len(names):
            raise ScheduleError(
                f"[X9] kernel argument names must be unique, got {names}",
                "X9", _caller_location())
        check_arch(arch)
        self.num_warps = num_warps
        self.cluster = cluster
        self.name = name
        self.args = names
        self.arch = arch
        self.pipelines: List[Pipeline] = []
        self.tasks: List[Task] = []
        self._constants: Dict[int, Any] = {}

        ir = _ir()
        ts, gpu = _dialect("tspipe"), _dialect("gpu")
        self.context = context if context is not None else ir.Context()
        loc = _user_location_in(self.context)
        self._loc_text = _short_location(_caller_location())
        with self.context, loc:
            types = []
            for arg_name, kind in arg_specs:
                if isinstance(kind, str):
                    if kind not in ARG_TYPES:
                        raise ValueError(
                            f"argument {arg_name!r}: unknown type {kind!r}; "
                            f"use one of {sorted(ARG_TYPES)} or an ir.Type")
                    types.append(ARG_TYPES[kind]())
                elif isinstance(kind, ir.Type):
                    types.append(kind)
                else:
                    raise TypeError(f"argument {arg_name!r}: type must be a "
                                    f"name or an ir.Type, got {kind!r}")
            self.module = ir.Module.create()
            with ir.InsertionPoint(self.module.body):
                self._gpu_module = gpu.GPUModuleOp(name + "_module")
                self._gpu_module.bodyRegion.blocks.append()
            with ir.InsertionPoint(self._gpu_module.bodyRegion.blocks[0]):
                self._func = gpu.GPUFuncOp(
                    ir.FunctionType.get(types, []), sym_name=name, kernel=True)
                self._entry = self._func.add_entry_block()
            with ir.InsertionPoint(self._entry):
                self.op = ts.KernelOp(
                    num_warps,
                    cluster_shape=None if cluster == (1, 1, 1) else cluster)
                self._body = self.op.body_block
                gpu.ReturnOp([])
        self._args = dict(zip(names, self._entry.arguments))
        self._target_attached = False

    def __enter__(self):
        """``with kernel:`` makes the kernel's Context current (to make
        types, e.g. ``ir.F32Type.get()``, outside a work step)."""
        self.context.__enter__()
        return self

    def __exit__(self, *exc):
        return self.context.__exit__(*exc)

    # -- naming ------------------------------------------------------------

    def _index_value(self, value, what: str = "domain bound"):
        """An ``index`` Value for ``value`` (an int becomes a constant at the
        top of the ``gpu.func``, shared by every use)."""
        ir = _ir()
        if isinstance(value, ir.Value):
            if not isinstance(value.type, ir.IndexType):
                raise TypeError(f"{what}: expected an index Value, got one of "
                                f"type {value.type}")
            return value
        value = _check_int(what, value)
        if value not in self._constants:
            arith = _dialect("arith")
            # At the top of the gpu.func, located at the line that first
            # needed it (shared by every later use).
            with self.context, _user_location(), \
                    ir.InsertionPoint.at_block_begin(self._entry):
                self._constants[value] = arith.constant(ir.IndexType.get(), value)
        return self._constants[value]

    def _resource_name(self, resource: ResourceRef) -> str:
        if isinstance(resource, Pipeline):
            return resource.name
        if isinstance(resource, str):
            return _check_name("pipeline", resource)
        raise TypeError(f"expected a Pipeline or a pipeline name, got {resource!r}")

    @property
    def block_threads(self) -> int:
        """Threads per CTA: ``32 * num_warps``."""
        return 32 * self.num_warps

    def arg(self, name: str):
        """The Value of kernel argument ``name``; ScheduleError (X9) for an
        unknown name."""
        if name not in self._args:
            raise ScheduleError(
                f"[X9] kernel {self.name!r} has no argument {name!r}; its "
                f"arguments are {self.args} (declare it in Kernel(args=...))",
                "X9", _caller_location())
        return self._args[name]

    # -- contents ----------------------------------------------------------

    def pipeline(self, name: str, cfg: PipelineConfig,
                 smem_bytes: Optional[int] = None, *,
                 tmem_columns: Optional[int] = None) -> Pipeline:
        """Declare a pipelined resource (``tspipe.pipeline``).

        Args:
          name: its symbol, a C identifier (``[A-Za-z_][A-Za-z0-9_]*``).
          cfg: a :class:`PipelineConfig` (already verified by its factory).
          smem_bytes: bytes of the shared-memory data buffer the pipeline
            owns, split evenly over ``cfg.num_stages`` stages (each a multiple
            of 16 bytes), or None for barriers only.
          tmem_columns: tensor-memory columns (tcgen05 pipelines), or None.
        """
        _check_name("pipeline", name)
        if any(p.name == name for p in self.pipelines):
            raise ScheduleError(
                f"[X9] the kernel already has a pipeline named {name!r}; give "
                f"each pipeline its own name", "X9", _caller_location())
        if not isinstance(cfg, PipelineConfig):
            raise TypeError(f"cfg must be a PipelineConfig, got {cfg!r}")
        smem_bytes = _check_int("smem_bytes", smem_bytes, allow_none=True)
        tmem_columns = _check_int("tmem_columns", tmem_columns, allow_none=True)
        ir, ts = _ir(), _dialect("tspipe")
        loc = _user_location_in(self.context)
        with self.context, loc:
            # Pipelines precede the tasks in the kernel body.
            ip = (ir.InsertionPoint(self.tasks[0].op) if self.tasks
                  else ir.InsertionPoint(self._body))
            with ip:
                op = ts.PipelineOp(name, cfg.to_attr(self.context),
                                   smem_bytes=smem_bytes,
                                   tmem_columns=tmem_columns)
        pipe = Pipeline(self, name, cfg, smem_bytes, tmem_columns, op)
        self.pipelines.append(pipe)
        return pipe

    def pipeline_group(self, name: str, mode: str,
                       members: Sequence[ResourceRef],
                       cfg: Optional[PipelineConfig] = None):
        """Declare a pipeline group (``tspipe.pipeline_group``, TS's
        ``PipelineGroup``): ``members`` share one barrier array, the empty
        one for ``mode="merge"`` (release once on the group), the full one
        for ``mode="fork"`` (commit once on the group), both for
        ``mode="fused_merge"`` (TS's ``FusedMerge``: wait and release once
        on the group). ``cfg`` is TS's explicit group config, or None to
        derive it (R67-R69 are checked by the verifier). Returns the op.
        Raises ValueError for another mode."""
        _check_name("pipeline group", name)
        mode = getattr(mode, "name", mode)
        modes = {"merge": "merge", "fork": "fork", "fused_merge": "fused_merge",
                 "fusedmerge": "fused_merge"}
        if not isinstance(mode, str) or mode.lower() not in modes:
            raise ScheduleError(
                f"[R67] pipeline group {name!r}: mode must be 'merge', 'fork' "
                f"or 'fused_merge', got {mode!r}", "R67", _caller_location())
        mode = modes[mode.lower()]
        if cfg is not None and not isinstance(cfg, PipelineConfig):
            raise TypeError(f"cfg must be a PipelineConfig, got {cfg!r}")
        if isinstance(members, (str, Pipeline)) or \
                not hasattr(members, "__iter__"):
            raise TypeError(f"pipeline group {name!r}: members must be a list "
                            f"of pipelines, got {members!r}")
        names = [self._resource_name(m) for m in members]
        if not names:
            raise ScheduleError(
                f"[R67] pipeline group {name!r} has no members; list the "
                f"pipelines it groups", "R67", _caller_location())
        ir, ts = _ir(), _dialect("tspipe")
        loc = _user_location_in(self.context)
        with self.context, loc:
            ip = (ir.InsertionPoint(self.tasks[0].op) if self.tasks
                  else ir.InsertionPoint(self._body))
            with ip:
                op = ts.PipelineGroupOp(
                    name, mode, names,
                    config=cfg.to_attr(self.context) if cfg else None)
        return op

    def task(self, name: str, warp_idx: int, num_warps: int,
             produces: Sequence[ResourceRef] = (),
             consumes: Sequence[ResourceRef] = (),
             run_only_on_cta_id: Optional[int] = None,
             num_registers: Optional[int] = None) -> Task:
        """Declare a task on warps ``[warp_idx, warp_idx + num_warps)``.

        Args:
          name: the task's symbol, a C identifier (``[A-Za-z_][A-Za-z0-9_]*``).
          produces: pipelines the task uses producer brackets on (TS
            ``dst_resources``).
          consumes: pipelines it uses consumer brackets on (``src_resources``).
          run_only_on_cta_id: run on this cluster rank only (>= 0, R18), or
            None for every CTA.
          num_registers: registers per thread (``setmaxnreg``; a multiple of
            8, R18), or None.
        """
        _check_name("task", name)
        warp_idx = _check_int("warp_idx", warp_idx)
        num_warps = _check_int("num_warps", num_warps)
        run_only_on_cta_id = _check_int("run_only_on_cta_id", run_only_on_cta_id,
                                        allow_none=True)
        num_registers = _check_int("num_registers", num_registers,
                                   allow_none=True)
        if not 0 <= warp_idx or num_warps < 1:
            raise ScheduleError(
                f"[R18] task {name!r}: warp_idx = {warp_idx}, num_warps = "
                f"{num_warps} must name warps [warp_idx, warp_idx + num_warps) "
                f"with warp_idx >= 0 and num_warps >= 1", "R18",
                _caller_location())
        if warp_idx + num_warps > self.num_warps:
            raise ScheduleError(
                f"[X9] task {name!r}: warps [{warp_idx}, "
                f"{warp_idx + num_warps}) do not fit in the kernel's "
                f"{self.num_warps} warps; warp_idx + num_warps must be <= "
                f"{self.num_warps}", "X9", _caller_location())
        if num_registers is not None and (
                not 24 <= num_registers <= 256 or num_registers % 8):
            raise ScheduleError(
                f"[R18] task {name!r}: num_registers = {num_registers} must be "
                f"in [24, 256] and divisible by 8 (setmaxnreg); round to a "
                f"multiple of 8 in that range", "R18", _caller_location())
        ctas = self.cluster[0] * self.cluster[1] * self.cluster[2]
        if run_only_on_cta_id is not None and \
                not 0 <= run_only_on_cta_id < ctas:
            raise ScheduleError(
                f"[R18] task {name!r}: run_only_on_cta_id = "
                f"{run_only_on_cta_id} must be a CTA rank of the cluster, in "
                f"[0, {ctas})", "R18", _caller_location())
        if any(t.name == name for t in self.tasks):
            raise ScheduleError(
                f"[X9] the kernel already has a task named {name!r}; give "
                f"each task its own name", "X9", _caller_location())
        for what, resources in (("produces", produces), ("consumes", consumes)):
            if isinstance(resources, (str, Pipeline)) or \
                    not hasattr(resources, "__iter__"):
                raise TypeError(f"{what} must be a list of pipelines, got "
                                f"{resources!r}")
        produced = [self._resource_name(r) for r in produces]
        consumed = [self._resource_name(r) for r in consumes]
        ir, ts = _ir(), _dialect("tspipe")
        loc = _user_location_in(self.context)
        with self.context, loc, ir.InsertionPoint(self._body):
            op = ts.TaskOp(name, warp_idx, num_warps,
                           produces=produced or None,
                           consumes=consumed or None,
                           run_only_on_cta_id=run_only_on_cta_id,
                           num_registers=num_registers)
        task = Task(self, name, op, _short_location(_caller_location()))
        task.produces, task.consumes = produced, consumed
        task.warp_idx, task.num_warps = warp_idx, num_warps
        task.run_only_on_cta_id = run_only_on_cta_id
        task.num_registers = num_registers
        self.tasks.append(task)
        return task

    def prologue(self, step: Callable[..., Any], *args, **kwargs) -> Any:
        """Run ``step(*args, **kwargs)`` with the insertion point in the
        ``gpu.func`` before the ``tspipe.kernel`` (e.g. computing a dynamic
        domain bound from an argument); returns what ``step`` returns. Values
        built here may be used by every task. Raises TypeError if ``step``
        is not callable."""
        if not callable(step):
            raise TypeError(f"prologue() takes a callable that builds ops, "
                            f"got {step!r}")
        ir = _ir()
        with self.context, _user_location_in(self.context), \
                ir.InsertionPoint(self.op), _traceback_locations():
            return step(*args, **kwargs)

    # -- output --------------------------------------------------------------

    def _attach_target(self, arch: str):
        """Attaches ``#nvvm.target`` for ``arch`` with MLIR's
        ``nvvm-attach-target`` pass (the PTX ISA version from
        :data:`tspipe.targets.PTX_FEATURES`; LLVM's default -O level, as
        ``tspipe-opt`` uses for a target that does not name one)."""
        passmanager = importlib.import_module("tspipe.passmanager")
        if "targets" in self._gpu_module.attributes:
            del self._gpu_module.attributes["targets"]
        options = f"chip={arch}"
        features = ptx_features(arch)
        if features:
            options += f" features={features}"
        with self.context:
            pm = passmanager.PassManager.parse(
                f"builtin.module(nvvm-attach-target{{{options}}})")
            pm.enable_verifier(False)
            pm.run(self.module.operation)

    def build(self, arch: Optional[str] = None, *,
              check_progress: bool = True):
        """Attach the NVVM target and verify with the C++ verifiers and the
        progress checker; returns the ``tspipe.ir.Module`` (the Kernel's own:
        later calls keep building into it).

        :meth:`build`, :meth:`verify`, :meth:`to_ptx` and
        :func:`tspipe.compile.lower_to_ptx` raise alike for the same kernel.

        Args:
          arch: the target chip (default: the kernel's ``arch``).
          check_progress: also run :func:`tspipe.progress.check_progress`
            (no domain length deadlocks or unbalances credits: R70, R71,
            X8), as ``tspipe-to-nvvm`` does before lowering; False checks
            the C++ verifiers only.

        Raises:
          ScheduleError (ValueError): a task, schedule or kernel rule failed;
            its text lists every diagnostic with the Python line of the op
            (``.diagnostics``, ``.rule``, ``.location`` of the first). A
            progress failure (R70 / R71 / X8) is located at the bracket that
            blocks and lists the counterexample's notes, each with its line.
          PipelineConfigError (ValueError): a config rule (R1-R15) failed.
          ArchError (ValueError): ``arch`` is not supported (X7).
        """
        ir = _ir()
        arch = check_arch(arch or self.arch)
        self._attach_target(arch)
        with self.context:
            try:
                self.module.operation.verify()
            except ir.MLIRError as err:
                raise self._every_failure(err) from None
        if check_progress:
            progress = importlib.import_module("tspipe.progress")
            progress.check_progress(
                self.module.operation.get_asm(enable_debug_info=True)
            ).raise_on_failure()
        return self.module

    def _every_failure(self, first_error):
        """The exception for a failed verification, listing every failure:
        MLIR's verifier stops at the first failing op, so each pipeline and
        task is verified on its own as well and their diagnostics added."""
        ir = _ir()
        errors = importlib.import_module("tspipe.ts.errors")
        diagnostics = errors.diagnostics_of(first_error)
        for op in [p.op for p in self.pipelines] + [t.op for t in self.tasks]:
            try:
                op.operation.verify()
            except ir.MLIRError as err:
                diagnostics += errors.diagnostics_of(err)
        seen, unique = set(), []
        for diag in diagnostics:
            if (diag.message, diag.location) not in seen:
                seen.add((diag.message, diag.location))
                unique.append(diag)
        error = error_from_mlir(first_error, untagged=ScheduleError)
        return type(error)(error.message, error.rule, error.location, unique)

    def verify(self) -> None:
        """Verify with the C++ verifiers and the progress checker
        (:func:`tspipe.progress.check_progress`: no domain length deadlocks
        or unbalances credits, R70 / R71 / X8); :meth:`build` without its
        result, raising like it."""
        self.build()

    def to_mlir(self, arch: Optional[str] = None) -> str:
        """The module printed with its locations (the Python lines), its
        target attached for ``arch``; not verified (see :meth:`build`).
        Parsing it back gives the same module and the same diagnostics."""
        self._attach_target(check_arch(arch or self.arch))
        return self.module.operation.get_asm(enable_debug_info=True)

    def to_ptx(self, arch: Optional[str] = None, **options) -> str:
        """Lower to PTX for ``arch`` (default: the kernel's) with
        :func:`tspipe.compile.lower_to_ptx` (a copy of the module is
        lowered; the Kernel keeps its tspipe IR).

        Raises what :meth:`build` raises for the same kernel (ScheduleError,
        PipelineConfigError, ArchError: all ValueError), and CompileError
        (RuntimeError) only when lowering the verified module fails.
        """
        compile_mod = importlib.import_module("tspipe.compile")
        arch = check_arch(arch or self.arch)
        # lower_to_ptx builds (verifies) the Kernel first, as build() does.
        return compile_mod.lower_to_ptx(self, arch=arch, **options)


def _user_location_in(context):
    """The user's ``Location.file`` made in ``context``."""
    with context:
        return _user_location()
