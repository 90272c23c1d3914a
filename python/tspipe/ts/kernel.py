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

from .config import PipelineConfig
from .errors import ScheduleError, error_from_mlir
from .errors import caller_location as _caller_location
from .errors import mlir_string as _mlir_string

__all__ = ["Kernel", "Pipeline", "Task", "Stage", "Token", "ptx_features"]

# PTX ISA versions that the NVPTX backend of LLVM 22 needs for the
# architecture-specific targets (BUILD-NOTES "NVVM to PTX").
_PTX_FEATURES = {
    "sm_90": "+ptx80",
    "sm_90a": "+ptx80",
    "sm_100": "+ptx86",
    "sm_100a": "+ptx86",
    "sm_101a": "+ptx86",
    "sm_103a": "+ptx88",
    "sm_120a": "+ptx87",
}

_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.\-]*")
_GENERATED_NAME = re.compile(r"(stage|ready|iv|c|cm|idx|fbar|ebar|buf)\d+")


def ptx_features(arch: str) -> Optional[str]:
    """The ``features`` string of ``#nvvm.target`` for ``arch`` (e.g.
    ``"+ptx80"`` for ``sm_90a``), or None to let LLVM choose."""
    return _PTX_FEATURES.get(arch)


def _ir():
    return importlib.import_module("tspipe.ir")


def _symbol(name: str) -> str:
    if _BARE_ID.fullmatch(name):
        return "@" + name
    return "@" + _mlir_string(name)


def _check_int(what: str, value, allow_none: bool = False):
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {value!r}")


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
    SSA name of the result.
    """

    def __init__(self, task: "Task", name: str, pipeline: str):
        self.task = task
        self.name = name
        self.pipeline = pipeline

    def __str__(self):
        return self.name

    def index(self) -> str:
        """The stage index in ``[0, num_stages)`` (``index``)."""
        return self.task._emit_value(
            "idx", f"tspipe.stage_index {self.name}")

    def full_barrier(self) -> str:
        """Address of the stage's full mbarrier (8 bytes, ``!llvm.ptr<3>``):
        the barrier TMA copies complete their bytes on."""
        return self.task._emit_value(
            "fbar", f"tspipe.full_barrier {self.name} : !llvm.ptr<3>")

    def empty_barrier(self) -> str:
        """Address of the stage's empty mbarrier (8 bytes, ``!llvm.ptr<3>``)."""
        return self.task._emit_value(
            "ebar", f"tspipe.empty_barrier {self.name} : !llvm.ptr<3>")

    def buffer(self) -> str:
        """Address of the stage's slice of the pipeline's data buffer
        (``smem_bytes / num_stages`` bytes, ``!llvm.ptr<3>``); the pipeline
        needs ``smem_bytes``."""
        return self.task._emit_value(
            "buf", f"tspipe.stage_buffer {self.name} : !llvm.ptr<3>")


class Token:
    """The ``i1`` result of ``try_acquire`` / ``try_wait`` (true: ready).

    ``str(token)`` is its SSA name.
    """

    def __init__(self, name: str, pipeline: str, side: str, block):
        self.name = name
        self.pipeline = pipeline
        self.side = side
        self._block = block

    def __str__(self):
        return self.name


class _Block:
    """A region being written: the task body, the domain loop or a guard."""

    def __init__(self, header: Optional[str], loc: str):
        self.header = header
        self.loc = loc
        self.items: List[Union[str, "_Block"]] = []


ResourceRef = Union[Pipeline, str]


class Task:
    """A TS task: warps ``[warp_idx, warp_idx + num_warps)`` of every CTA (or
    of CTA ``run_only_on_cta_id`` only) and its schedule (``tspipe.task``).

    Made by :meth:`Kernel.task`. The schedule is the sequence of calls on the
    task: head steps, one :meth:`domain_loop` (rule R16), tail steps. Every
    bracket names a pipeline the task lists in ``produces`` (acquire, commit,
    producer_tail) or ``consumes`` (wait, release) (rule R27).

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

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    # -- emission helpers --------------------------------------------------

    def _emit(self, text: str):
        self._stack[-1].items.append(f"{text} {_caller_location()}")

    def _emit_value(self, prefix: str, text: str) -> str:
        name = self.kernel._fresh(prefix)
        self._emit(f"{name} = {text}")
        return name

    @contextlib.contextmanager
    def _region(self, header: str, result=None) -> Iterator:
        block = _Block(header, _caller_location())
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

    def _take_token(self, pipeline: str, side: str, ready) -> Optional[str]:
        if ready is not None:
            return str(ready)
        token = self._pending.pop((pipeline, side), None)
        if token is not None and token._block in self._stack:
            return token.name
        return None

    # -- schedule: producer side -------------------------------------------

    def try_acquire(self, resource: ResourceRef) -> Token:
        """One non-blocking probe of the producer stage's empty barrier.

        Returns a :class:`Token` (``i1``, true when the stage is free). The
        next :meth:`acquire` of the same resource in this block (or a nested
        one) uses it and skips its blocking wait when it is true; TS's status
        register is sticky, this token is consumed by that one acquire.
        """
        pipe = self.kernel._resource_name(resource)
        name = self._emit_value(
            "ready", f"tspipe.producer_try_acquire {_symbol(pipe)}")
        token = Token(name, pipe, "producer", self._stack[-1])
        self._pending[(pipe, "producer")] = token
        return token

    def acquire(self, resource: ResourceRef, ready: Optional[Token] = None) -> Stage:
        """Wait until the producer's next stage is empty (and, for TMA
        pipelines, arm its full barrier with ``num_bytes``). Returns the
        :class:`Stage`. ``ready``: a token from :meth:`try_acquire` (default:
        the pending one of this resource, if any)."""
        pipe = self.kernel._resource_name(resource)
        token = self._take_token(pipe, "producer", ready)
        suffix = f" ready({token})" if token else ""
        name = self._emit_value(
            "stage", f"tspipe.producer_acquire {_symbol(pipe)}{suffix}")
        return Stage(self, name, pipe)

    def commit(self, resource: ResourceRef) -> None:
        """Signal that the producer's stage is full (arrive on its full
        barrier with the type's producer operation) and advance."""
        pipe = self.kernel._resource_name(resource)
        self._emit(f"tspipe.producer_commit {_symbol(pipe)}")

    def producer_tail(self, resource: ResourceRef) -> None:
        """Drain: wait until the consumers released every stage this producer
        filled (``num_stages`` empty-barrier waits). Inserted by the lowering
        after the body when a producing task does not write it."""
        pipe = self.kernel._resource_name(resource)
        self._emit(f"tspipe.producer_tail {_symbol(pipe)}")

    # -- schedule: consumer side -------------------------------------------

    def try_wait(self, resource: ResourceRef) -> Token:
        """One non-blocking probe of the consumer stage's full barrier.

        Returns a :class:`Token` used by the next :meth:`wait` of the same
        resource (see :meth:`try_acquire`)."""
        pipe = self.kernel._resource_name(resource)
        name = self._emit_value(
            "ready", f"tspipe.consumer_try_wait {_symbol(pipe)}")
        token = Token(name, pipe, "consumer", self._stack[-1])
        self._pending[(pipe, "consumer")] = token
        return token

    def wait(self, resource: ResourceRef, ready: Optional[Token] = None) -> Stage:
        """Wait until the consumer's next stage is full. Returns the
        :class:`Stage` to read. ``ready``: a token from :meth:`try_wait`
        (default: the pending one of this resource, if any)."""
        pipe = self.kernel._resource_name(resource)
        token = self._take_token(pipe, "consumer", ready)
        suffix = f" ready({token})" if token else ""
        name = self._emit_value(
            "stage", f"tspipe.consumer_wait {_symbol(pipe)}{suffix}")
        return Stage(self, name, pipe)

    def release(self, resource: ResourceRef) -> None:
        """Signal that the consumer's stage is empty (arrive on its empty
        barrier with the type's consumer operation) and advance."""
        pipe = self.kernel._resource_name(resource)
        self._emit(f"tspipe.consumer_release {_symbol(pipe)}")

    # -- schedule: work steps ------------------------------------------------

    def current_stage(self, resource: ResourceRef, role: str = "consumer") -> Stage:
        """The stage a work step addresses when this task did not acquire or
        wait itself (split producers/consumers, §4.5): the commit cursor's
        (``role="producer"``) or the release cursor's (``"consumer"``)."""
        if role not in ("producer", "consumer"):
            raise ValueError(f"role must be 'producer' or 'consumer', got {role!r}")
        pipe = self.kernel._resource_name(resource)
        name = self._emit_value(
            "stage", f"tspipe.current_stage {_symbol(pipe)} {role}")
        return Stage(self, name, pipe)

    def work(self, text: str) -> None:
        """A work step: MLIR op text copied verbatim into the current block
        (e.g. NVVM ops that read a stage's buffer). Use the SSA names that
        :class:`Stage` accessors and :meth:`Kernel.arg` return."""
        for line in text.strip("\n").splitlines():
            self._stack[-1].items.append(line.strip())

    # -- schedule: structure -------------------------------------------------

    def domain_loop(self, start, end, step=1):
        """``with task.domain_loop(start, end, step) as iv:`` -- the task's
        domain loop (exactly one per task, R16; step non-zero, R17).

        ``start``, ``end``, ``step`` are ints (iterations) or SSA names of
        ``index`` values (e.g. made in :meth:`Kernel.prologue`). Steps before
        the loop are the head, steps after it the tail. Yields the SSA name of
        the iteration value.
        """
        lb = self.kernel._index_value(start)
        ub = self.kernel._index_value(end)
        st = self.kernel._index_value(step)
        iv = self.kernel._fresh("iv")
        return self._region(f"tspipe.domain_loop {iv} = {lb} to {ub} step {st}", iv)

    def first_iter(self):
        """``with task.first_iter():`` -- steps run on the first iteration of
        the domain loop only (inside the loop, R22)."""
        return self._region("tspipe.first_iter")

    def last_iter(self):
        """``with task.last_iter():`` -- steps run on the last iteration of the
        domain loop only (inside the loop, R22)."""
        return self._region("tspipe.last_iter")

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
      name: the ``gpu.func`` symbol (the PTX entry name).
      args: names of the kernel's pointer arguments (``!llvm.ptr<1>``, global
        memory), in order; :meth:`arg` gives their SSA names.
      arch: the ``#nvvm.target`` chip the module is written for.

    Raises TypeError for non-int warps or cluster extents; every other rule
    is checked by the C++ verifiers in :meth:`build`.
    """

    def __init__(self, num_warps: int, cluster: Sequence[int] = (1, 1, 1), *,
                 name: str = "kernel", args: Sequence[str] = (),
                 arch: str = "sm_90a"):
        _check_int("num_warps", num_warps)
        cluster = tuple(cluster)
        for extent in cluster:
            _check_int("cluster extent", extent)
        for arg in args:
            if not isinstance(arg, str) or not re.fullmatch(r"[A-Za-z_]\w*", arg):
                raise ValueError(f"kernel argument name must be an identifier, got {arg!r}")
            if _GENERATED_NAME.fullmatch(arg):
                raise ValueError(f"kernel argument name {arg!r} is reserved for "
                                 "names the builder generates")
        if len(set(args)) != len(args):
            raise ValueError(f"kernel argument names must be unique, got {list(args)}")
        self.num_warps = num_warps
        self.cluster = cluster
        self.name = name
        self.args = list(args)
        self.arch = arch
        self.pipelines: List[Pipeline] = []
        self.tasks: List[Task] = []
        self._prologue: List[str] = []
        self._constants: Dict[int, str] = {}
        self._counter = 0
        self._loc = _caller_location()

    # -- naming ------------------------------------------------------------

    def _fresh(self, prefix: str) -> str:
        name = f"%{prefix}{self._counter}"
        self._counter += 1
        return name

    def _index_value(self, value) -> str:
        if isinstance(value, str):
            if not value.startswith("%"):
                raise ValueError(f"expected an int or an SSA name like '%n', got {value!r}")
            return value
        _check_int("domain bound", value)
        if value not in self._constants:
            self._constants[value] = f"%c{value}" if value >= 0 else f"%cm{-value}"
        return self._constants[value]

    def _resource_name(self, resource: ResourceRef) -> str:
        if isinstance(resource, Pipeline):
            return resource.name
        if isinstance(resource, str):
            return resource
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
          name: its symbol.
          cfg: a :class:`PipelineConfig` (already verified by its factory).
          smem_bytes: bytes of the shared-memory data buffer the pipeline
            owns, split evenly over ``cfg.num_stages`` stages (each a multiple
            of 16 bytes), or None for barriers only.
          tmem_columns: tensor-memory columns (tcgen05 pipelines), or None.
        """
        if not isinstance(cfg, PipelineConfig):
            raise TypeError(f"cfg must be a PipelineConfig, got {cfg!r}")
        _check_int("smem_bytes", smem_bytes, allow_none=True)
        _check_int("tmem_columns", tmem_columns, allow_none=True)
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
          produces: pipelines the task uses producer brackets on (TS
            ``dst_resources``).
          consumes: pipelines it uses consumer brackets on (``src_resources``).
          run_only_on_cta_id: run on this cluster rank only (>= 0, R18), or
            None for every CTA.
          num_registers: registers per thread (``setmaxnreg``; a multiple of
            8, R18), or None.
        """
        _check_int("warp_idx", warp_idx)
        _check_int("num_warps", num_warps)
        _check_int("run_only_on_cta_id", run_only_on_cta_id, allow_none=True)
        _check_int("num_registers", num_registers, allow_none=True)
        task = Task(self, name, warp_idx, num_warps, produces, consumes,
                    run_only_on_cta_id, num_registers, _caller_location())
        self.tasks.append(task)
        return task

    def prologue(self, text: str) -> None:
        """MLIR op text placed in the ``gpu.func`` before the kernel body
        (e.g. computing a dynamic domain bound from an argument)."""
        for line in text.strip("\n").splitlines():
            self._prologue.append(line.strip())

    # -- output --------------------------------------------------------------

    def to_mlir(self, arch: Optional[str] = None) -> str:
        """The module text (not verified; see :meth:`build`)."""
        arch = arch or self.arch
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
        """Verify with the C++ verifiers; raises like :meth:`build`."""
        self.build()

    def to_ptx(self, arch: Optional[str] = None, **options) -> str:
        """Lower to PTX for ``arch`` (default: the kernel's) with
        :func:`tspipe.compile.lower_to_ptx`."""
        compile_mod = importlib.import_module("tspipe.compile")
        arch = arch or self.arch
        return compile_mod.lower_to_ptx(self.to_mlir(arch), arch=arch, **options)
