"""Building tspipe kernels in TS's vocabulary.

A :class:`Kernel` holds pipelines (``kernel.pipeline``) and tasks
(``kernel.task``); each task's schedule is written with the TS bracket
methods, the domain loop and the loop guards::

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
        load.work(f"// TMA into {stage.buffer()} completing on {stage.full_barrier()}")
        load.commit(ring)

    mma = k.task("mma", warp_idx=1, num_warps=4, consumes=[ring])
    with mma.domain_loop(0, 16, 1):
        mma.wait(ring)
        mma.release(ring)

    module = k.build()          # parsed and verified by the C++ verifiers
    text = k.to_mlir()          # the module text
    ptx = k.to_ptx("sm_90a")    # through tspipe-to-nvvm

The builder writes tspipe IR as text: a ``gpu.module`` carrying an
``#nvvm.target``, a ``gpu.func`` marked ``kernel`` whose arguments are
``!llvm.ptr<1>`` (global memory) pointers, and in it one ``tspipe.kernel``.
Every op gets the location of the Python line that emitted it, so a verifier
error points at the schedule line. All rules are checked by the C++ verifiers
when the module is parsed (:meth:`Kernel.build`, :meth:`Kernel.verify`); a
failure raises :class:`~tspipe.ts.errors.ScheduleError` or
:class:`~tspipe.ts.errors.PipelineConfigError` with the rule id.
"""

from __future__ import annotations

import contextlib
import importlib
import re
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

from .checks import (
    as_int,
    check_arch,
    identifier_problem,
    int64_problem,
    ptx_features,
)
from .config import PipelineConfig
from .errors import ScheduleError, _short_location, error_from_mlir
from .errors import caller_location as _caller_location
from .errors import mlir_string as _mlir_string

__all__ = ["Kernel", "Pipeline", "Task", "Stage", "Token", "ptx_features"]

_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.\-]*")
_GENERATED_NAME = re.compile(r"(stage|ready|iv|c|cm|idx|fbar|ebar|buf)\d+")
# An SSA name in op text (MLIR's suffix-id), and one being defined.
_SSA_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+")
_SSA_DEFINED = re.compile(r"(%[A-Za-z0-9_$.\-]+)(?::\d+)?\s*=(?!=)")
_SSA_RESULTS = re.compile(
    r"^\s*((?:%[A-Za-z0-9_$.\-]+(?::\d+)?\s*,\s*)+%[A-Za-z0-9_$.\-]+(?::\d+)?)\s*=")


def _ir():
    return importlib.import_module("tspipe.ir")


def _symbol(name: str) -> str:
    if _BARE_ID.fullmatch(name):
        return "@" + name
    return "@" + _mlir_string(name)


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
        raise ScheduleError(problem, None, _caller_location())
    return number


def _check_name(kind: str, name) -> str:
    """``name`` if it is a C identifier; ScheduleError naming it otherwise
    (TypeError for a non-str)."""
    problem = identifier_problem(kind, name)
    if problem is not None:
        raise ScheduleError(problem, None, _caller_location())
    return name


class Pipeline:
    """A pipelined resource of a :class:`Kernel` (``tspipe.pipeline``).

    Attributes: ``name``, ``config`` (:class:`PipelineConfig`), ``smem_bytes``
    (bytes of the data buffer, split evenly over the stages, or None),
    ``tmem_columns`` (or None). ``symbol`` is its IR symbol (``@name``).
    """

    def __init__(self, kernel, name, config, smem_bytes, tmem_columns, loc):
        self.kernel = kernel
        self.name = name
        self.config = config
        self.smem_bytes = smem_bytes
        self.tmem_columns = tmem_columns
        self._loc = loc

    @property
    def symbol(self) -> str:
        return _symbol(self.name)

    def _emit(self) -> str:
        line = f"tspipe.pipeline {self.symbol} config({self.config.ir_body})"
        if self.smem_bytes is not None:
            line += f" smem_bytes({self.smem_bytes})"
        if self.tmem_columns is not None:
            line += f" tmem_columns({self.tmem_columns})"
        return f"{line} {self._loc}"

    def __repr__(self):
        return f"Pipeline({self.name!r}, {self.config})"


class Stage:
    """The stage an acquire, a wait or ``current_stage`` returned (TS's
    ``StageInfo``); ``str(stage)`` is its SSA name (``!tspipe.stage``).

    The accessors emit an op into the task's current block and return the
    SSA name of the result. A stage belongs to the task and the block (task
    body, domain loop, loop guard) it was made in: using it (or a value an
    accessor returned) after that block is closed, or in another task, raises
    :class:`~tspipe.ts.errors.ScheduleError`.
    """

    def __init__(self, task: "Task", name: str, pipeline: str):
        self.task = task
        self.name = name
        self.pipeline = pipeline

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"Stage({self.name}, pipeline={self.pipeline!r})"

    def _access(self, prefix: str, text: str, method: str, what: str) -> str:
        self.task._check_use(self.name, f"{self.name}.{method}()")
        return self.task._emit_value(
            prefix, text, f"{what} of stage {self.name} (@{self.pipeline})")

    def index(self) -> str:
        """The stage index in ``[0, num_stages)`` (``index``)."""
        return self._access("idx", f"tspipe.stage_index {self.name}",
                            "index", "index")

    def full_barrier(self) -> str:
        """Address of the stage's full mbarrier (8 bytes, ``!llvm.ptr<3>``):
        the barrier TMA copies complete their bytes on."""
        return self._access(
            "fbar", f"tspipe.full_barrier {self.name} : !llvm.ptr<3>",
            "full_barrier", "full barrier")

    def empty_barrier(self) -> str:
        """Address of the stage's empty mbarrier (8 bytes, ``!llvm.ptr<3>``)."""
        return self._access(
            "ebar", f"tspipe.empty_barrier {self.name} : !llvm.ptr<3>",
            "empty_barrier", "empty barrier")

    def buffer(self) -> str:
        """Address of the stage's slice of the pipeline's data buffer
        (``smem_bytes / num_stages`` bytes, ``!llvm.ptr<3>``); the pipeline
        needs ``smem_bytes``."""
        return self._access(
            "buf", f"tspipe.stage_buffer {self.name} : !llvm.ptr<3>",
            "buffer", "buffer")


class Token:
    """The ``i1`` result of ``try_acquire`` / ``try_wait`` (true: ready).

    ``str(token)`` is its SSA name. Only a Token is accepted as the
    ``ready`` argument of :meth:`Task.acquire` / :meth:`Task.wait`.
    """

    def __init__(self, name: str, pipeline: str, side: str, block, task=None):
        self.name = name
        self.pipeline = pipeline
        self.side = side
        self._block = block
        self.task = task

    def __str__(self):
        return self.name

    def __repr__(self):
        probe = "try_acquire" if self.side == "producer" else "try_wait"
        return f"Token({self.name}, {probe} @{self.pipeline})"


class _Def:
    """Where the builder made an SSA value: its task, its block, what it is."""

    __slots__ = ("task", "block", "what")

    def __init__(self, task, block, what):
        self.task = task
        self.block = block
        self.what = what


class _Block:
    """A region being written: the task body, the domain loop or a guard."""

    def __init__(self, header: Optional[str], loc: str, kind: str = "task body"):
        self.header = header
        self.loc = loc
        self.kind = kind
        self.items: List[Union[str, "_Block"]] = []


ResourceRef = Union[Pipeline, str]


class Task:
    """A TS task: warps ``[warp_idx, warp_idx + num_warps)`` of every CTA (or
    of CTA ``run_only_on_cta_id`` only) and its schedule (``tspipe.task``).

    Made by :meth:`Kernel.task`. The schedule is the sequence of calls on the
    task: head steps, one :meth:`domain_loop` (rule R16), tail steps. Every
    bracket names a pipeline the task lists in ``produces`` (acquire, commit,
    producer_tail) or ``consumes`` (wait, release) (rule R27).

    Stages, tokens and the values their accessors return belong to this task
    and to the block they were made in (the task body, the domain loop, a loop
    guard); using one in another task, or after its block is closed, raises
    :class:`~tspipe.ts.errors.ScheduleError` at the call.

    The task may be used as a context manager (``with k.task(...) as t:``);
    that only scopes the code, nothing is emitted at exit.
    """

    def __init__(self, kernel, name, warp_idx, num_warps, produces, consumes,
                 run_only_on_cta_id, num_registers, loc):
        self.kernel = kernel
        self.name = name
        self.warp_idx = warp_idx
        self.num_warps = num_warps
        self.produces = [kernel._resource_name(r) for r in produces]
        self.consumes = [kernel._resource_name(r) for r in consumes]
        self.run_only_on_cta_id = run_only_on_cta_id
        self.num_registers = num_registers
        self._root = _Block(None, loc)
        self._stack: List[_Block] = [self._root]
        self._pending: Dict[Tuple[str, str], Token] = {}
        # SSA names the user's work text defined in this task.
        self._user_names = set()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    # -- emission helpers --------------------------------------------------

    def _emit(self, text: str):
        self._stack[-1].items.append(f"{text} {_caller_location()}")

    def _define(self, name: str, what: str, block: Optional[_Block] = None):
        self.kernel._values[name] = _Def(self, block or self._stack[-1], what)

    def _emit_value(self, prefix: str, text: str, what: str = "value") -> str:
        name = self.kernel._fresh(prefix)
        self._emit(f"{name} = {text}")
        self._define(name, what)
        return name

    def _check_use(self, name: str, use: str):
        """ScheduleError unless the builder-made value ``name`` is visible here:
        made by this task, in a block that is still open."""
        made = self.kernel._values.get(name)
        if made is None or name in self._user_names:
            return
        if made.task is not self:
            raise ScheduleError(
                f"{made.what} {name} is used in task '{self.name}' ({use}) but "
                f"comes from task '{made.task.name}': a stage or value exists "
                f"only in the bracket scope of the task that made it; acquire "
                f"or wait in task '{self.name}' to get its own stage",
                None, _caller_location())
        if made.block not in self._stack:
            where = made.block.kind
            if made.block.loc.startswith("loc("):
                where += f" opened at {_short_location(made.block.loc)}"
            raise ScheduleError(
                f"{made.what} {name} is used outside the bracket scope it came "
                f"from ({use}): it was made inside the {where} of task "
                f"'{self.name}', which is closed here; use it inside that "
                f"block, or acquire/wait again where it is needed",
                None, _caller_location())

    @contextlib.contextmanager
    def _region(self, header: str, kind: str, result=None,
                what: Optional[str] = None) -> Iterator:
        block = _Block(header, _caller_location(), kind)
        if result is not None:
            self._define(result, what or "value", block)
        self._stack[-1].items.append(block)
        self._stack.append(block)
        try:
            yield result
        finally:
            popped = self._stack.pop()
            assert popped is block, "tspipe.ts: regions closed out of order"
            # A token made inside the region does not dominate what follows.
            for key in [k for k, t in self._pending.items() if t._block is block]:
                del self._pending[key]

    def _ready_operand(self, pipe: str, side: str, method: str,
                       ready) -> Optional[str]:
        """The SSA name of the ``ready`` token for ``method`` (acquire/wait).

        With ``ready`` None, the pending probe of ``pipe`` is used when it was
        made in the current block (the verifier requires a fresh probe).
        """
        probe = "try_acquire" if side == "producer" else "try_wait"
        if ready is None:
            token = self._pending.get((pipe, side))
            if token is not None and token._block is self._stack[-1]:
                del self._pending[(pipe, side)]
                return token.name
            return None
        if not isinstance(ready, Token):
            raise TypeError(
                f"{method}(ready=...) takes the Token that {probe}() returned "
                f"(or None), got {ready!r}")
        self._check_use(ready.name, f"{method}(ready={ready.name})")
        if ready.side != side:
            other = "try_wait" if side == "producer" else "try_acquire"
            raise ScheduleError(
                f"{method}(ready={ready.name}) needs a token from {probe}(); "
                f"{ready.name} comes from {other}()", None, _caller_location())
        if ready.pipeline != pipe:
            raise ScheduleError(
                f"{method}(@{pipe}, ready={ready.name}): the token probes "
                f"@{ready.pipeline}; probe @{pipe} with {probe}()",
                None, _caller_location())
        if self._pending.get((pipe, side)) is ready:
            del self._pending[(pipe, side)]
        return ready.name

    def _cursor_moved(self, pipe: str, side: str):
        # A probe taken before a bracket that moves the same cursor is stale.
        self._pending.pop((pipe, side), None)

    def _probe(self, resource: ResourceRef, side: str, op: str,
               verb: str) -> Token:
        """Emits the try op `op` of `side` and records its token as the
        pending probe of (resource, side)."""
        pipe = self.kernel._resource_name(resource)
        name = self._emit_value("ready", f"{op} {_symbol(pipe)}",
                                f"{verb} token (@{pipe})")
        token = Token(name, pipe, side, self._stack[-1], self)
        self._pending[(pipe, side)] = token
        return token

    def _blocking(self, resource: ResourceRef, side: str, op: str, verb: str,
                  ready: Optional[Token]) -> "Stage":
        """Emits the blocking op `op` of `side`, with its `ready` token (or
        the pending probe), and returns the stage it reaches."""
        pipe = self.kernel._resource_name(resource)
        token = self._ready_operand(pipe, side, verb, ready)
        suffix = f" ready({token})" if token else ""
        name = self._emit_value("stage", f"{op} {_symbol(pipe)}{suffix}",
                                f"stage ({verb} @{pipe})")
        return Stage(self, name, pipe)

    def _advancing(self, resource: ResourceRef, side: str, op: str) -> None:
        """Emits `op`, a bracket that moves the `side` cursor."""
        pipe = self.kernel._resource_name(resource)
        self._cursor_moved(pipe, side)
        self._emit(f"{op} {_symbol(pipe)}")

    # -- schedule: producer side -------------------------------------------

    def try_acquire(self, resource: ResourceRef) -> Token:
        """One non-blocking probe of the producer stage's empty barrier.

        Returns a :class:`Token` (``i1``, true when the stage is free). The
        next :meth:`acquire` of the same resource in the same block uses it
        and skips its blocking wait when it is true; TS's status register is
        sticky, this token is consumed by that one acquire.
        """
        return self._probe(resource, "producer", "tspipe.producer_try_acquire",
                           "try_acquire")

    def acquire(self, resource: ResourceRef, ready: Optional[Token] = None) -> Stage:
        """Wait until the producer's next stage is empty (and, for TMA
        pipelines, arm its full barrier with ``num_bytes``). Returns the
        :class:`Stage`. ``ready``: a :class:`Token` from :meth:`try_acquire`
        of the same resource (default: the pending one made in this block, if
        any); anything else raises TypeError."""
        return self._blocking(resource, "producer", "tspipe.producer_acquire",
                              "acquire", ready)

    def commit(self, resource: ResourceRef) -> None:
        """Signal that the producer's stage is full (arrive on its full
        barrier with the type's producer operation) and advance."""
        self._advancing(resource, "producer", "tspipe.producer_commit")

    def producer_tail(self, resource: ResourceRef) -> None:
        """Drain: wait until the consumers released every stage this producer
        filled (``num_stages / stride`` empty-barrier waits per lane).
        Inserted by the lowering after the body when a producing task does
        not write it."""
        self._advancing(resource, "producer", "tspipe.producer_tail")

    # -- schedule: consumer side -------------------------------------------

    def try_wait(self, resource: ResourceRef) -> Token:
        """One non-blocking probe of the consumer stage's full barrier.

        Returns a :class:`Token` used by the next :meth:`wait` of the same
        resource in the same block (see :meth:`try_acquire`)."""
        return self._probe(resource, "consumer", "tspipe.consumer_try_wait",
                           "try_wait")

    def wait(self, resource: ResourceRef, ready: Optional[Token] = None) -> Stage:
        """Wait until the consumer's next stage is full. Returns the
        :class:`Stage` to read. ``ready``: a :class:`Token` from
        :meth:`try_wait` of the same resource (default: the pending one made
        in this block, if any); anything else raises TypeError."""
        return self._blocking(resource, "consumer", "tspipe.consumer_wait",
                              "wait", ready)

    def release(self, resource: ResourceRef) -> None:
        """Signal that the consumer's stage is empty (arrive on its empty
        barrier with the type's consumer operation) and advance."""
        self._advancing(resource, "consumer", "tspipe.consumer_release")

    # -- schedule: work steps ------------------------------------------------

    def current_stage(self, resource: ResourceRef, role: str = "consumer") -> Stage:
        """The stage a work step addresses when this task did not acquire or
        wait itself (split producers/consumers, docs/Protocols.md, Split cursors): the commit cursor's
        (``role="producer"``) or the release cursor's (``"consumer"``)."""
        if role not in ("producer", "consumer"):
            raise ValueError(f"role must be 'producer' or 'consumer', got {role!r}")
        pipe = self.kernel._resource_name(resource)
        name = self._emit_value(
            "stage", f"tspipe.current_stage {_symbol(pipe)} {role}",
            f"stage (current_stage @{pipe})")
        return Stage(self, name, pipe)

    def work(self, text: str) -> None:
        """A work step: MLIR op text copied verbatim into the current block
        (e.g. NVVM ops that read a stage's buffer). Use the SSA names that
        :class:`Stage` accessors and :meth:`Kernel.arg` return; a stage or
        value of another task, or of a closed block, raises ScheduleError."""
        if not isinstance(text, str):
            raise TypeError(f"work() takes MLIR op text (a str), got {text!r}")
        lines = [line.strip() for line in text.strip("\n").splitlines()]
        defined = set()
        for line in lines:
            results = _SSA_RESULTS.match(line)
            if results:
                defined.update(n.split(":")[0].strip()
                               for n in results.group(1).split(","))
            defined.update(_SSA_DEFINED.findall(line))
        for line in lines:
            for name in _SSA_NAME.findall(line):
                if name not in defined:
                    self._check_use(name, "work()")
        self._user_names |= defined
        for line in lines:
            self._stack[-1].items.append(line)

    # -- schedule: structure -------------------------------------------------

    def domain_loop(self, start, end, step=1):
        """``with task.domain_loop(start, end, step) as iv:`` -- the task's
        domain loop (exactly one per task, R16; step non-zero, R17).

        ``start``, ``end``, ``step`` are ints (iterations; numpy integers
        accepted) or SSA names of ``index`` values (e.g. made in
        :meth:`Kernel.prologue`). Steps before the loop are the head, steps
        after it the tail. Yields the SSA name of the iteration value.
        """
        bounds = []
        for what, value in (("domain_loop start", start),
                            ("domain_loop end", end),
                            ("domain_loop step", step)):
            if isinstance(value, str):
                self._check_use(value, what)
            bounds.append(self.kernel._index_value(value, what))
        lb, ub, st = bounds
        iv = self.kernel._fresh("iv")
        return self._region(f"tspipe.domain_loop {iv} = {lb} to {ub} step {st}",
                            "domain_loop", iv, "domain loop iteration value")

    def first_iter(self):
        """``with task.first_iter():`` -- steps run on the first iteration of
        the domain loop only (inside the loop, R22)."""
        return self._region("tspipe.first_iter", "first_iter")

    def last_iter(self):
        """``with task.last_iter():`` -- steps run on the last iteration of the
        domain loop only (inside the loop, R22)."""
        return self._region("tspipe.last_iter", "last_iter")

    # -- text ------------------------------------------------------------------

    def _emit_text(self, out: List[str], indent: str):
        header = (f"tspipe.task {_symbol(self.name)} warps({self.warp_idx}, "
                  f"{self.num_warps})")
        if self.produces:
            header += " produces [" + ", ".join(_symbol(p) for p in self.produces) + "]"
        if self.consumes:
            header += " consumes [" + ", ".join(_symbol(p) for p in self.consumes) + "]"
        if self.run_only_on_cta_id is not None:
            header += f" cta({self.run_only_on_cta_id})"
        if self.num_registers is not None:
            header += f" registers({self.num_registers})"
        out.append(f"{indent}{header} {{")
        _emit_items(self._root.items, out, indent + "  ")
        out.append(f"{indent}}} {self._root.loc}")

    def __repr__(self):
        return (f"Task({self.name!r}, warp_idx={self.warp_idx}, "
                f"num_warps={self.num_warps})")


def _emit_items(items, out: List[str], indent: str):
    for item in items:
        if isinstance(item, _Block):
            out.append(f"{indent}{item.header} {{")
            _emit_items(item.items, out, indent + "  ")
            out.append(f"{indent}}} {item.loc}")
        else:
            out.append(f"{indent}{item}")


class Kernel:
    """A warp-specialized kernel: ``num_warps`` warps per CTA (``32 *
    num_warps`` threads along x), a cluster of ``cluster`` CTAs (x, y, z),
    pipelines and tasks.

    Args:
      num_warps: warps per CTA (1..32).
      cluster: cluster extents in CTAs, 3 ints (at most 16 CTAs).
      name: the ``gpu.func`` symbol (the PTX entry name), a C identifier
        other than ``_`` (which PTX rejects).
      args: names of the kernel's pointer arguments (``!llvm.ptr<1>``, global
        memory), in order, C identifiers; :meth:`arg` gives their SSA names.
      arch: the ``#nvvm.target`` chip the module is written for: one of
        ``tspipe.ts.checks.SUPPORTED_ARCHS`` (``sm_90a``, ``sm_100a``, ...).

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
                 name: str = "kernel", args: Sequence[str] = (),
                 arch: str = "sm_90a"):
        num_warps = _check_int("num_warps", num_warps)
        cluster = tuple(_check_int("cluster extent", extent) for extent in cluster)
        _check_name("kernel", name)
        if name == "_":
            # PTX identifiers that start with '_' need a second character:
            # ptxas rejects `.entry _` ("syntax error near '_'").
            raise ScheduleError(
                "kernel name '_' is not a valid PTX entry name (a name that "
                "starts with '_' needs more characters); use e.g. '_k' or "
                "'kernel'", None, _caller_location())
        if isinstance(args, str):
            raise TypeError(f"args must be a sequence of names, got {args!r}")
        args = list(args)
        for arg in args:
            _check_name("kernel argument", arg)
            if _GENERATED_NAME.fullmatch(arg):
                raise ScheduleError(
                    f"kernel argument name {arg!r} is reserved for names the "
                    "builder generates", None, _caller_location())
        if len(set(args)) != len(args):
            raise ScheduleError(
                f"kernel argument names must be unique, got {args}", None,
                _caller_location())
        check_arch(arch)
        self.num_warps = num_warps
        self.cluster = cluster
        self.name = name
        self.args = list(args)
        self.arch = arch
        self.pipelines: List[Pipeline] = []
        self.tasks: List[Task] = []
        self._prologue: List[str] = []
        self._constants: Dict[int, str] = {}
        self._values: Dict[str, _Def] = {}
        self._counter = 0
        self._loc = _caller_location()

    # -- naming ------------------------------------------------------------

    def _fresh(self, prefix: str) -> str:
        name = f"%{prefix}{self._counter}"
        self._counter += 1
        return name

    def _index_value(self, value, what: str = "domain bound") -> str:
        if isinstance(value, str):
            if not _SSA_NAME.fullmatch(value):
                raise ValueError(
                    f"{what}: expected an int or an SSA name like '%n', got {value!r}")
            return value
        value = _check_int(what, value)
        if value not in self._constants:
            self._constants[value] = f"%c{value}" if value >= 0 else f"%cm{-value}"
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

    def arg(self, name: str) -> str:
        """SSA name of kernel argument ``name`` (``!llvm.ptr<1>``)."""
        if name not in self.args:
            raise KeyError(f"kernel has no argument {name!r}; arguments: {self.args}")
        return f"%{name}"

    # -- contents ----------------------------------------------------------

    def pipeline(self, name: str, cfg: PipelineConfig,
                 smem_bytes: Optional[int] = None, *,
                 tmem_columns: Optional[int] = None) -> Pipeline:
        """Declare a pipelined resource.

        Args:
          name: its symbol, a C identifier (``[A-Za-z_][A-Za-z0-9_]*``).
          cfg: a :class:`PipelineConfig` (already verified by its factory).
          smem_bytes: bytes of the shared-memory data buffer the pipeline
            owns, split evenly over ``cfg.num_stages`` stages (each a multiple
            of 16 bytes), or None for barriers only.
          tmem_columns: tensor-memory columns (tcgen05 pipelines), or None.
        """
        _check_name("pipeline", name)
        if not isinstance(cfg, PipelineConfig):
            raise TypeError(f"cfg must be a PipelineConfig, got {cfg!r}")
        smem_bytes = _check_int("smem_bytes", smem_bytes, allow_none=True)
        tmem_columns = _check_int("tmem_columns", tmem_columns, allow_none=True)
        pipe = Pipeline(self, name, cfg, smem_bytes, tmem_columns, _caller_location())
        self.pipelines.append(pipe)
        return pipe

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
        for what, resources in (("produces", produces), ("consumes", consumes)):
            if isinstance(resources, (str, Pipeline)):
                raise TypeError(f"{what} must be a list of pipelines, got "
                                f"{resources!r}")
        task = Task(self, name, warp_idx, num_warps, produces, consumes,
                    run_only_on_cta_id, num_registers, _caller_location())
        self.tasks.append(task)
        return task

    def prologue(self, text: str) -> None:
        """MLIR op text placed in the ``gpu.func`` before the kernel body
        (e.g. computing a dynamic domain bound from an argument). Values a
        task made cannot be used here (ScheduleError)."""
        if not isinstance(text, str):
            raise TypeError(f"prologue() takes MLIR op text (a str), got {text!r}")
        for name in _SSA_NAME.findall(text):
            made = self._values.get(name)
            if made is not None:
                raise ScheduleError(
                    f"{made.what} {name} of task '{made.task.name}' is used in "
                    f"the kernel prologue, outside the bracket scope it came "
                    f"from", None, _caller_location())
        for line in text.strip("\n").splitlines():
            self._prologue.append(line.strip())

    # -- output --------------------------------------------------------------

    def to_mlir(self, arch: Optional[str] = None) -> str:
        """The module text (not verified; see :meth:`build`).

        Raises ArchError (ValueError) for an unsupported ``arch``."""
        arch = check_arch(arch or self.arch)
        features = ptx_features(arch)
        target = f"#nvvm.target<chip = {_mlir_string(arch)}"
        if features:
            target += f", features = {_mlir_string(features)}"
        target += ">"
        args = ", ".join(f"%{a}: !llvm.ptr<1>" for a in self.args)
        out = ["module {",
               f"  gpu.module {_symbol(self.name + '_module')} [{target}] {{",
               f"    gpu.func {_symbol(self.name)}({args}) kernel {{"]
        indent = "      "
        for value, name in sorted(self._constants.items()):
            out.append(f"{indent}{name} = arith.constant {value} : index")
        for line in self._prologue:
            out.append(f"{indent}{line}")
        header = f"tspipe.kernel warps({self.num_warps})"
        if self.cluster != (1, 1, 1):
            header += " cluster([" + ", ".join(str(e) for e in self.cluster) + "])"
        out.append(f"{indent}{header} {{")
        for pipe in self.pipelines:
            out.append(f"{indent}  {pipe._emit()}")
        for task in self.tasks:
            task._emit_text(out, indent + "  ")
        out.append(f"{indent}}} {self._loc}")
        out.append(f"{indent}gpu.return")
        out += ["    }", "  }", "}"]
        return "\n".join(out) + "\n"

    def build(self, context=None, arch: Optional[str] = None):
        """Parse and verify the module; returns a ``tspipe.ir.Module``.

        ``context``: a ``tspipe.ir.Context`` (default: a new one).

        Raises:
          ScheduleError (ValueError): a task, schedule or kernel rule failed
            (``.rule``, ``.message``, ``.location`` = the Python line).
          PipelineConfigError (ValueError): a config rule (R1-R15) failed.
          ArchError (ValueError): ``arch`` is not supported.
        """
        ir = _ir()
        if context is None:
            context = ir.Context()
        text = self.to_mlir(arch)
        try:
            return ir.Module.parse(text, context=context)
        except ir.MLIRError as err:
            raise error_from_mlir(err, untagged=ScheduleError) from None

    def verify(self) -> None:
        """Verify with the C++ verifiers and the progress checker
        (:func:`tspipe.progress.check_progress`: no domain length deadlocks
        or unbalances credits, R70 / R71 / X8); raises like :meth:`build`."""
        self.build()
        importlib.import_module("tspipe.progress").check_progress(
            self).raise_on_failure()

    def to_ptx(self, arch: Optional[str] = None, **options) -> str:
        """Lower to PTX for ``arch`` (default: the kernel's) with
        :func:`tspipe.compile.lower_to_ptx`.

        Raises what :meth:`build` raises for the same kernel (ScheduleError,
        PipelineConfigError, ArchError: all ValueError), and CompileError
        (RuntimeError) only when lowering the verified module fails.
        """
        compile_mod = importlib.import_module("tspipe.compile")
        arch = check_arch(arch or self.arch)
        return compile_mod.lower_to_ptx(self.to_mlir(arch), arch=arch, **options)
