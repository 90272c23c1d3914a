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

from typing import Any, Callable, Dict, List, Optional, Sequence

from .. import ir
from ..compile import lower_to_ptx
from ..diagnostics import ScheduleError, _short_location
from ..diagnostics import caller_location as _caller_location
from ..dialects import arith, gpu, llvm
from ..dialects import tspipe as tsd
from ..targets import check_arch, ptx_features
from . import verification
from .brackets import Stage, Task, Token
from .builder import (
    ARG_TYPES,
    Pipeline,
    ResourceRef,
    _check_int,
    _check_name,
    _user_location,
    _user_location_in,
    at_location,
    traceback_locations,
)
from .config import PipelineConfig
from .tensor_maps import TensorMapArg

__all__ = ["Kernel", "Pipeline", "Task", "Stage", "Token", "ptx_features",
           "ARG_TYPES", "at_location"]


class Kernel:
    """A warp-specialized kernel: ``num_warps`` warps per CTA (``32 *
    num_warps`` threads along x), a cluster of ``cluster`` CTAs (x, y, z),
    pipelines and tasks.

    Args:
      num_warps: warps per CTA (1..32, R18).
      cluster: cluster extents in CTAs, 3 ints (at most 16 CTAs, X9).
      name: the ``gpu.func`` symbol (the PTX entry name), a C identifier
        other than ``_`` (which PTX rejects, X10).
      args: the kernel's arguments, in order: a name (a global-memory
        pointer, ``!llvm.ptr<1>``) or a ``(name, type)`` pair where type is
        one of :data:`ARG_TYPES` (``"ptr"``, ``"i32"``, ``"i64"``, ``"f32"``,
        ``"f16"``, ``"index"``), an ``ir.Type`` or a
        :class:`~tspipe.ts.tensor_maps.TensorMapArg` (a CUtensorMap passed
        as a ``__grid_constant__`` parameter). :meth:`arg` gives their
        Values.
      arch: the chip the module is built for: one of
        ``tspipe.targets.SUPPORTED_ARCHS`` (``sm_90a``, ``sm_100a``, ...).
      context: a ``tspipe.ir.Context`` to build in (default: a new one).
      pdl_inputs: names of pointer arguments the previous grid writes
        (programmatic dependent launch): marked ``tspipe.pdl_input``, so
        that every task touching them must ``pdl_wait()`` first (X20).

    Integers may be ``int`` or numpy integers (``bool`` is rejected). Names
    of the kernel, its arguments, pipelines and tasks must be C identifiers
    (``[A-Za-z_][A-Za-z0-9_]*``).

    Raises TypeError for non-int warps or cluster extents,
    :class:`~tspipe.diagnostics.ScheduleError` (ValueError) for a name that
    is not a C identifier, an integer beyond 64 bits or a malformed argument
    list, :class:`~tspipe.diagnostics.ArchError` (ValueError) for an
    unsupported ``arch``. Every rule (the ranges above included) is checked
    by the C++ verifiers in :meth:`build`, which report it with its rule id
    at the Python line of the op.
    """

    def __init__(self, num_warps: int, cluster: Sequence[int] = (1, 1, 1), *,
                 name: str = "kernel", args: Sequence[Any] = (),
                 arch: str = "sm_90a", context=None,
                 pdl_inputs: Sequence[str] = ()):
        num_warps = _check_int("num_warps", num_warps)
        if isinstance(cluster, (str, bytes)) or not hasattr(cluster, "__iter__"):
            raise TypeError(f"cluster must be a sequence of 3 ints (x, y, z), "
                            f"got {cluster!r}")
        cluster = tuple(_check_int("cluster extent", extent) for extent in cluster)
        _check_name("kernel", name)
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
            if isinstance(kind, TensorMapArg):
                arg_specs.append((arg_name, kind))
                continue
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
        # Tensor-map parameters (tspipe.ts.tensor_maps): name -> TensorMapArg.
        self.tensor_map_args = {n: k for n, k in arg_specs
                                if isinstance(k, TensorMapArg)}
        self.arch = arch
        self.pipelines: List[Pipeline] = []
        self.buffers: List[str] = []
        self.tasks: List[Task] = []
        # Work queues declared (name -> tile coordinates per tile).
        self._work_queues: Dict[str, int] = {}
        self._constants: Dict[int, Any] = {}
        self.context = context if context is not None else ir.Context()
        loc = _user_location_in(self.context)
        self._loc_text = _short_location(_caller_location())
        with self.context, loc:
            types = []
            for arg_name, kind in arg_specs:
                if isinstance(kind, TensorMapArg):
                    types.append(kind.arg_type())
                elif isinstance(kind, str):
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
                if self.tensor_map_args:
                    self._func.attributes["arg_attrs"] = ir.ArrayAttr.get([
                        kind.arg_attrs(arg_name)
                        if isinstance(kind, TensorMapArg)
                        else ir.DictAttr.get({})
                        for arg_name, kind in arg_specs])
                    # The lowering makes these __grid_constant__ parameters.
                    self._func.attributes["tspipe.grid_constants"] = \
                        ir.DenseI64ArrayAttr.get([
                            i for i, (_, kind) in enumerate(arg_specs)
                            if isinstance(kind, TensorMapArg)])
            with ir.InsertionPoint(self._entry):
                self.op = tsd.KernelOp(
                    num_warps,
                    cluster_shape=None if cluster == (1, 1, 1) else cluster)
                self._body = self.op.body_block
                gpu.ReturnOp([])
        self._args = dict(zip(names, self._entry.arguments))
        self._target_attached = False
        if isinstance(pdl_inputs, str):
            raise TypeError(f"pdl_inputs must be a sequence of argument "
                            f"names, got {pdl_inputs!r}")
        for pdl_name in pdl_inputs:
            if pdl_name not in self._args:
                raise ScheduleError(
                    f"[X21] pdl_inputs names {pdl_name!r}, which is no "
                    f"argument of the kernel; its arguments are {names}",
                    "X21", _caller_location())
        if pdl_inputs:
            with self.context:
                self._func.operation.attributes["arg_attrs"] = ir.ArrayAttr.get(
                    [ir.DictAttr.get({"tspipe.pdl_input": ir.UnitAttr.get()}
                                     if n in pdl_inputs else {})
                     for n in names])

    def set_pdl_pipelines(self, names: Sequence[str]) -> None:
        """Lists the pipelines the previous grid's output feeds (TS's
        dependency edges from a ``PdlWaitBarrier``): their producers must
        ``pdl_wait()`` before their first bracket on them (R37)."""
        with self.context:
            self.op.operation.attributes["tspipe.pdl_pipelines"] = \
                ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(n) for n in names])

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
        if isinstance(value, ir.Value):
            if not isinstance(value.type, ir.IndexType):
                raise TypeError(f"{what}: expected an index Value, got one of "
                                f"type {value.type}")
            return value
        value = _check_int(what, value)
        if value not in self._constants:
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
          cfg: a :class:`PipelineConfig` (already verified by its factory);
            its ``remote_arrive_scope`` (if set) goes on the op.
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
        loc = _user_location_in(self.context)
        with self.context, loc:
            # Pipelines precede the tasks in the kernel body.
            ip = (ir.InsertionPoint(self.tasks[0].op) if self.tasks
                  else ir.InsertionPoint(self._body))
            with ip:
                op = tsd.PipelineOp(
                    name, cfg.to_attr(self.context), smem_bytes=smem_bytes,
                    tmem_columns=tmem_columns,
                    remote_arrive_scope=cfg.remote_arrive_scope)
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
        loc = _user_location_in(self.context)
        with self.context, loc:
            ip = (ir.InsertionPoint(self.tasks[0].op) if self.tasks
                  else ir.InsertionPoint(self._body))
            with ip:
                op = tsd.PipelineGroupOp(
                    name, mode, names,
                    config=cfg.to_attr(self.context) if cfg else None)
        return op

    def work_queue(self, name: str, grid=None, clc=None):
        """Declare the kernel's work queue: ``grid=[m, n, l]`` (ints or
        ``index`` Values) for the static persistent scheduler, ``clc=`` the
        clc_fetch_async pipeline for the CLC-driven one (R35); tasks walk
        it with ``task.work_tile_loop(name)``. Raises TypeError for neither
        or both."""
        _check_name("work queue", name)
        if (grid is None) == (clc is None):
            raise TypeError("work_queue takes grid=[...] (static persistent) "
                            "or clc= (the clc_fetch_async pipeline)")
        extents = ([] if grid is None else
                   [self._index_value(g, "work_queue grid") for g in grid])
        loc = _user_location_in(self.context)
        with self.context, loc:
            ip = (ir.InsertionPoint(self.tasks[0].op) if self.tasks
                  else ir.InsertionPoint(self._body))
            with ip:
                op = tsd.WorkQueueOp(
                    name, grid=extents,
                    clc_pipeline=None if clc is None
                    else self._resource_name(clc))
        self._work_queues[name] = len(extents) if grid is not None else 3
        return op

    def buffer(self, name: str, smem_bytes: Optional[int] = None, *,
               tmem_columns: Optional[int] = None):
        """Declare storage without a pipeline (``tspipe.buffer``; TS: a
        resource without a ``pipeline_config`` that declares an SMEM or TMEM
        allocation): ``smem_bytes`` bytes of shared memory or
        ``tmem_columns`` tensor-memory columns, exactly one of them (X24,
        checked when the kernel is built). Tasks address it with
        :meth:`Task.buffer_address` / :meth:`Task.tmem_column`. Returns the
        op."""
        _check_name("buffer", name)
        smem_bytes = _check_int("smem_bytes", smem_bytes, allow_none=True)
        tmem_columns = _check_int("tmem_columns", tmem_columns, allow_none=True)
        with self.context, _user_location_in(self.context):
            ip = (ir.InsertionPoint(self.tasks[0].op) if self.tasks
                  else ir.InsertionPoint(self._body))
            with ip:
                op = tsd.BufferOp(name, smem_bytes=smem_bytes,
                                  tmem_columns=tmem_columns)
        self.buffers.append(name)
        return op

    def alias_group(self, name: str, phases: Sequence[Sequence[ResourceRef]],
                    space: str = "smem"):
        """Declare an alias group (``tspipe.alias_group``; TS's
        ``add_alias_group``): ``phases``, in time order, each a list of
        pipelines or buffers whose storage coexists; every phase starts at
        the group's one offset in ``space`` (``"smem"`` or ``"tmem"``). The
        verifier requires the IR to order every use of a phase before the
        next phase's first write (X23) and checks the structure (X24).
        Returns the op. Raises ValueError for another space."""
        _check_name("alias group", name)
        if space not in ("smem", "tmem"):
            raise ValueError(f"alias group {name!r}: space must be 'smem' or "
                             f"'tmem', got {space!r}")
        if isinstance(phases, (str, bytes)) or not hasattr(phases, "__iter__"):
            raise TypeError(f"alias group {name!r}: phases must be a list of "
                            f"lists of resources, got {phases!r}")
        names = []
        for phase in phases:
            if isinstance(phase, (str, Pipeline)) or \
                    not hasattr(phase, "__iter__"):
                raise TypeError(f"alias group {name!r}: each phase must be a "
                                f"list of resources, got {phase!r}")
            names.append([m.sym_name.value if hasattr(m, "sym_name")
                          else self._resource_name(m) for m in phase])
        with self.context, _user_location_in(self.context):
            ip = (ir.InsertionPoint(self.tasks[0].op) if self.tasks
                  else ir.InsertionPoint(self._body))
            with ip:
                op = tsd.AliasGroupOp(name, names, tmem=space == "tmem")
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
          run_only_on_cta_id: run on this cluster rank only (a rank of the
            cluster, R18), or None for every CTA.
          num_registers: registers per thread (``setmaxnreg``; a multiple of
            8 in [24, 256], R18), or None.

        The warp range (R18, X9 when it leaves the kernel's warps), the CTA
        rank and the register count are checked by the C++ verifier of
        ``tspipe.task`` when the kernel is built; here only their Python
        types and 64-bit range (TypeError, ScheduleError X9).
        """
        _check_name("task", name)
        warp_idx = _check_int("warp_idx", warp_idx)
        num_warps = _check_int("num_warps", num_warps)
        run_only_on_cta_id = _check_int("run_only_on_cta_id", run_only_on_cta_id,
                                        allow_none=True)
        num_registers = _check_int("num_registers", num_registers,
                                   allow_none=True)
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
        loc = _user_location_in(self.context)
        with self.context, loc, ir.InsertionPoint(self._body):
            op = tsd.TaskOp(name, warp_idx, num_warps,
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
        with self.context, _user_location_in(self.context), \
                ir.InsertionPoint(self.op), traceback_locations():
            return step(*args, **kwargs)

    def shared_variable(self, name: str, type, *, alignment: int = 16):
        """Declare a static shared-memory variable ``name`` of ``type`` (an
        ``ir.Type``, e.g. i32 for the word ``tcgen05.alloc`` writes a tensor
        memory address to) in the kernel's ``gpu.module``: an internal
        ``llvm.mlir.global`` in address space 3, ``alignment`` bytes
        aligned. Work steps and :meth:`prologue` / :meth:`epilogue` take its
        address with ``llvm.mlir_addressof(llvm.PointerType.get(3), name)``.
        Raises ScheduleError (X9) for a name that is not a C identifier or
        already declared."""
        _check_name("shared variable", name)
        declared = self.__dict__.setdefault("_shared_variables", set())
        if name in declared:
            raise ScheduleError(
                f"[X9] kernel {self.name!r} already has a shared variable "
                f"{name!r}; give each one its own name", "X9",
                _caller_location())
        declared.add(name)
        with self.context, _user_location_in(self.context), \
                ir.InsertionPoint(self._func):
            # The generated bindings register no builder for the linkage
            # attribute, so it is spelled once here.
            llvm.GlobalOp(type, name, ir.Attribute.parse("#llvm.linkage<internal>"),
                          addr_space=3, alignment=alignment)

    def epilogue(self, step: Callable[..., Any], *args, **kwargs) -> Any:
        """Run ``step(*args, **kwargs)`` with the insertion point in the
        ``gpu.func`` after the ``tspipe.kernel``, before its return: code
        every thread runs once all its tasks are done (e.g. freeing tensor
        memory); returns what ``step`` returns. Values of :meth:`prologue`
        may be used here. Raises TypeError if ``step`` is not callable."""
        if not callable(step):
            raise TypeError(f"epilogue() takes a callable that builds ops, "
                            f"got {step!r}")
        ret = self._entry.operations[len(self._entry.operations) - 1]
        with self.context, _user_location_in(self.context), \
                ir.InsertionPoint(ret), traceback_locations():
            return step(*args, **kwargs)

    # -- output (tspipe.ts.verification) -----------------------------------

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
        verification.verify_kernel(self, check_arch(arch or self.arch),
                                   check_progress=check_progress)
        return self.module

    def verify(self) -> None:
        """Verify with the C++ verifiers and the progress checker
        (:func:`tspipe.progress.check_progress`: no domain length deadlocks
        or unbalances credits, R70 / R71 / X8); :meth:`build` without its
        result, raising like it."""
        self.build()

    def verified_copy(self, arch: Optional[str] = None):
        """A copy of the module (an ``Operation`` in the kernel's Context),
        its target attached for ``arch`` and verified by the C++ verifiers
        -- the progress checker is left to ``tspipe-to-nvvm``, which runs it
        on the copy. Raises like :meth:`build`."""
        self.build(arch, check_progress=False)
        with self.context:
            return self.module.operation.clone()

    def to_mlir(self, arch: Optional[str] = None) -> str:
        """The module printed with its locations (the Python lines), its
        target attached for ``arch``; not verified (see :meth:`build`).
        Parsing it back gives the same module and the same diagnostics."""
        verification.attach_kernel_target(self, check_arch(arch or self.arch))
        return self.module.operation.get_asm(enable_debug_info=True)

    def _attach_target(self, arch: str) -> None:
        """Attaches the NVVM target for ``arch`` (not verified)."""
        verification.attach_kernel_target(self, arch)

    def to_ptx_all(self, arch: Optional[str] = None, **options) -> Dict[str, str]:
        """``{gpu.module name: ptx}`` for ``arch`` (default: the kernel's):
        the target is attached once (with ``options``' ``features`` /
        ``opt_level``), the C++ verifiers run, and a copy of the module is
        lowered by ``tspipe-to-nvvm`` (the progress checker included) and
        serialized. ``options``: those of
        :func:`tspipe.compile.lower_to_ptx_all`. Raises like
        :meth:`to_ptx`."""
        return verification.lower_kernel(self, check_arch(arch or self.arch),
                                         **options)

    def to_ptx(self, arch: Optional[str] = None, **options) -> str:
        """Lower to PTX for ``arch`` (default: the kernel's) with
        :func:`tspipe.compile.lower_to_ptx` (a copy of the module is
        lowered; the Kernel keeps its tspipe IR).

        Raises what :meth:`build` raises for the same kernel (ScheduleError,
        PipelineConfigError, ArchError: all ValueError), and CompileError
        (RuntimeError) only when lowering the verified module fails.
        """
        return lower_to_ptx(self, arch, **options)
