"""TS's ``TaskManager`` over tspipe (``tspipe.ts.task_manager``).

``TaskManager(tasks, resource_dependency_graph, ...)`` takes TS 4.8.1's
parameters and builds a :class:`tspipe.ts.Kernel`: one ``tspipe.pipeline``
per resource, one ``tspipe.task`` per :class:`~tspipe.ts.task.Task`, each
task's recorded ``@schedule`` replayed with the kernel builder (every op at
the Python line of the schedule call it came from). Unless
``skip_validation`` is set, the kernel is verified at once by the C++
verifiers and a broken rule raises :class:`~tspipe.ts.errors.ScheduleError`
or :class:`~tspipe.ts.errors.PipelineConfigError` (both ValueError, as TS
raises), listing every diagnostic.

tspipe's own keywords (after TS's): ``num_warps`` (default: up to the last
task's warps), ``cluster`` (CTAs, x, y, z), ``name``, ``args`` (the kernel's
arguments, see :class:`tspipe.ts.Kernel`), ``arch``, ``pdl_inputs`` (the
arguments the previous grid writes, X20).
"""

from __future__ import annotations

import inspect
from typing import Any, Dict, List, Optional, Sequence

from ..diagnostics import ScheduleError, at_site, caller_location
from .aliasing import StorageAliases
from .brackets import Stage
from .dependency import check_graph
from .kernel import Kernel
from .resources import (
    GroupMember,
    MemoryResource,
    PdlWaitBarrier,
    PipelineGroup,
    TaskLocalVariable,
)
from .schedule import BRACKETS, Assign, Block, DataFlowToken, Step
from .task import Task
from .work_queue import WorkQueue

__all__ = ["TaskManager", "LoopInfo"]


class _WorkTile:
    """TS's ``WorkTileInfo`` of the tile being worked on: ``tile_idx``, its
    coordinates (``index`` Values, one per grid extent)."""

    def __init__(self, tile_idx):
        self.tile_idx = tile_idx


class LoopInfo:
    """What a work method of a resource without a pipeline receives in
    place of a stage: ``loop_offset``, the domain loop's iteration Value
    (None outside the loop), ``work_tile.tile_idx``, the tile coordinates
    in a persistent task (``work_tile`` None elsewhere), and the addresses
    of the resource's storage
    (:meth:`smem_address`, :meth:`tmem_column`)."""

    def __init__(self, builder, aliases: Optional[StorageAliases] = None):
        self.loop_offset = builder._iv
        # TS's stage_info.work_tile: the tile coordinates (index Values) of
        # the work_tile_loop around the step (None outside one).
        coords = builder.__dict__.get("_tile_coords")
        self.work_tile = _WorkTile(tuple(coords)) if coords else None
        self._builder = builder
        self._aliases = aliases

    def _buffer(self, alloc) -> str:
        name = self._aliases.buffer_of(alloc) if self._aliases else None
        if name is None:
            raise ScheduleError(
                f"[X24] {alloc!r} is no allocation of a resource without a "
                f"pipeline (get_smem_requirements / get_tmem_requirements), "
                f"so it has no tspipe.buffer", "X24", caller_location())
        return name

    def smem_address(self, alloc):
        """The ``!llvm.ptr<3>`` address of an ``SmemAllocation`` of the
        resource (its ``tspipe.buffer``)."""
        return self._builder.buffer_address(self._buffer(alloc))

    def tmem_column(self, alloc):
        """The first tensor-memory column (``i32``) of a
        ``TmemAllocation`` of the resource."""
        return self._builder.tmem_column(self._buffer(alloc))


class TaskManager:
    """Builds (and, unless ``skip_validation``, verifies) the kernel of
    ``tasks``. ``kernel`` is the :class:`tspipe.ts.Kernel`; :meth:`to_ptx`
    lowers it. TS's allocator, profiling and checker keywords are accepted
    and ignored (tspipe allocates shared memory and checks capacity itself).

    Raises ScheduleError / PipelineConfigError (ValueError) for a broken
    rule, TypeError for a task that is not a :class:`~tspipe.ts.task.Task`
    or a resource without a ``pipeline_config``.
    """

    def __init__(self, tasks: List[Task],
                 resource_dependency_graph: Dict[Any, List[Any]],
                 dma_consumer_release_labels=None,
                 iket_enable_profiling: bool = False,
                 iket_profiling_stages=None, iket_profiling_resources=None,
                 skip_validation: bool = False, smem_allocator=None,
                 tmem_allocator=None, tmem_ptr_i32=None, verbose: bool = True,
                 smem_capacity_bytes: Optional[int] = None,
                 tmem_capacity_columns: Optional[int] = None,
                 exhaustive_deadlock_race_check: bool = True,
                 assume_pdl_wait_completed: bool = False, *,
                 num_warps: Optional[int] = None,
                 cluster: Sequence[int] = (1, 1, 1), name: str = "kernel",
                 args: Sequence[Any] = (), arch: str = "sm_90a",
                 pdl_inputs: Sequence[str] = ()):
        for task in tasks:
            if not isinstance(task, Task):
                raise TypeError(f"tasks must be tspipe.ts.task.Task objects, "
                                f"got {task!r}")
        self.tasks = list(tasks)
        self.resource_dependency_graph = resource_dependency_graph
        resources: List[MemoryResource] = []
        for task in tasks:
            for res in _members(task.dst_resources + task.src_resources):
                if res not in resources:
                    resources.append(res)
        for res in list(resource_dependency_graph) + [
                r for deps in resource_dependency_graph.values() for r in deps]:
            if isinstance(res, MemoryResource) and res not in resources:
                resources.append(res)
        self.resources = resources
        if num_warps is None:
            num_warps = max((t.warp_idx + t.num_warps for t in tasks), default=1)
        self.kernel = Kernel(num_warps, cluster, name=name, args=args, arch=arch,
                             pdl_inputs=pdl_inputs)
        self._values: Dict[int, Any] = {}
        # Buffers of resources without a pipeline, allocations several
        # pipelines share, and the allocators' alias groups
        # (tspipe.ts.aliasing; X23 orders the reuse).
        self.aliases = StorageAliases(
            smem_allocator, tmem_allocator, resources,
            {id(r) for r in resources
             if isinstance(r, MemoryResource) and r.pipeline_config is not None})
        for res in resources:
            if not isinstance(res, MemoryResource):
                raise TypeError(f"resources must be tspipe.ts.resources."
                                f"MemoryResource objects, got {res!r}")
            res.__dict__["_tspipe_kernel"] = self.kernel
            res.__dict__["_tspipe_aliases"] = self.aliases
            # A resource without a pipeline (a global-memory source or sink)
            # only has work methods; it is no tspipe.pipeline.
            if res.pipeline_config is not None:
                # The data buffer: smem_bytes, or the sum of the resource's
                # allocations (TS's get_smem_requirements).
                smem = res.smem_bytes
                if smem is None:
                    smem = self.aliases.pipeline_storage(res, False)
                tmem = res.tmem_columns
                if tmem is None:
                    tmem = self.aliases.pipeline_storage(res, True)
                self.kernel.pipeline(_pipeline_name(res), res.pipeline_config,
                                     smem_bytes=smem, tmem_columns=tmem)
        for res in resources:
            if isinstance(res, WorkQueue):
                self._declare_queue(res)
        # The pipeline groups the schedules name (a group, or a member
        # through its group), in order of first use.
        groups: List[PipelineGroup] = []
        for task in tasks:
            for group in _groups_of(task.schedule.body):
                if group not in groups:
                    groups.append(group)
        for group in groups:
            self.kernel.pipeline_group(group.name, group.mode.name,
                                       [m.name for m in group.members],
                                       group.pipeline_config)
        self.aliases.declare(self.kernel)
        # An edge the graph states must be backed by a task (R29); the
        # rest of the graph is derived from the tasks.
        if not skip_validation:
            check_graph(self.tasks, resource_dependency_graph,
                        rules=("R29",))
        # TS's edges from a PdlWaitBarrier: the pipelines the previous
        # grid's data feeds (R37), unless TS's assume_pdl_wait_completed.
        if not assume_pdl_wait_completed:
            fed = [res.name for res, deps in resource_dependency_graph.items()
                   if isinstance(res, MemoryResource)
                   and res.pipeline_config is not None
                   and any(isinstance(d, PdlWaitBarrier) for d in deps)]
            if fed:
                self.kernel.set_pdl_pipelines(fed)
        for index, task in enumerate(tasks):
            self._build_task(task, task.name or f"task{index}")
        if not skip_validation:
            self.kernel.build()

    # -- replaying schedules ------------------------------------------------

    def _build_task(self, task: Task, name: str):
        builder = self.kernel.task(
            name, task.warp_idx, task.num_warps,
            produces=[_pipeline_name(r) for r in _members(task.dst_resources)
                      if r.pipeline_config is not None],
            consumes=[_pipeline_name(r) for r in _members(task.src_resources)
                      if r.pipeline_config is not None],
            run_only_on_cta_id=task.run_only_on_cta_id,
            num_registers=task.num_registers)
        # Task-local variables: each task has its own current Values.
        self._locals: Dict[int, Any] = {}
        self._builder = builder
        # Steps beside a persistent task's tile loop take no stage (TS keeps
        # only auxiliary steps there; a tspipe op there is R22).
        self._beside_tile_loop = any(isinstance(r, WorkQueue)
                                     for r in task.src_resources)
        self._replay(task, builder, task.schedule.body, {})

    def _replay(self, task: Task, builder, body: List[Any],
                stages: Dict[Any, Stage], guard: Optional[str] = None):
        for node in body:
            if isinstance(node, Block):
                inner = dict(stages)
                carried: List[TaskLocalVariable] = []
                with at_site(node.file, node.line):
                    if node.kind == "work_tile_loop":
                        scope = builder.work_tile_loop(node.queue.name,
                                                       skip_if=node.skip_if)
                    elif node.kind == "skippable":
                        scope = builder.skippable()
                    elif node.kind == "domain_loop":
                        bounds = [self._bound(b, builder) for b in node.bounds]
                        carried = _assigned_in(node.body)
                        inits = [self._local_value(v) for v in carried]
                        scope = builder.domain_loop(*bounds, iter_args=inits)
                    elif node.kind == "first_iter":
                        scope = builder.first_iter()
                    elif node.kind == "every":
                        scope = builder.every(*node.guard)
                    elif node.kind in ("when_true", "when_false"):
                        scope = getattr(builder, node.kind)(node.guard[0])
                    else:
                        scope = builder.last_iter()
                    entered = scope.__enter__()
                    if node.kind == "work_tile_loop":
                        builder.__dict__["_tile_coords"] = entered
                if carried:
                    for var, arg in zip(carried, entered[1]):
                        self._locals[id(var)] = arg
                beside = self._beside_tile_loop
                if node.kind == "work_tile_loop":
                    self._beside_tile_loop = False
                try:
                    self._replay(task, builder, node.body, inner,
                                 guard if node.kind in ("domain_loop",
                                                        "work_tile_loop",
                                                        "skippable")
                                 else node.kind)
                    if carried:
                        with at_site(node.file, node.line):
                            builder.loop_yield(
                                *[self._locals[id(v)] for v in carried])
                finally:
                    scope.__exit__(None, None, None)
                    self._beside_tile_loop = beside
                for var, result in zip(carried, scope.results if carried
                                       else ()):
                    self._locals[id(var)] = result
                continue
            if isinstance(node, Assign):
                with at_site(node.file, node.line):
                    self._assign(node, guard)
                continue
            with at_site(node.file, node.line):
                self._step(task, builder, node, stages)

    def _bound(self, bound, builder):
        """A domain bound: a value, ``f(kernel)``, or in a tile loop
        ``f(kernel, coords)`` (a per-tile dynamic domain, R20)."""
        if not callable(bound):
            return bound
        try:
            params = len(inspect.signature(bound).parameters)
        except (TypeError, ValueError):
            params = 1
        if params >= 2:
            # Built where the domain loop goes: in the tile loop.
            return builder.work(bound, self.kernel,
                                builder.__dict__.get("_tile_coords"))
        return bound(self.kernel)

    def _declare_queue(self, res: "WorkQueue"):
        if res.grid is not None:
            grid = [g(self.kernel) if callable(g) else g for g in res.grid]
            self.kernel.work_queue(res.name, grid=grid)
        else:
            self.kernel.work_queue(res.name, clc=res.pipeline_name)

    def _queue_step(self, builder, res: "WorkQueue", method: str,
                    stages: Dict[Any, Stage]):
        """A WorkQueue step: the brackets of a CLC queue's pipeline (none
        for a static queue), get_and_advance_work_tile, fetch_work_tile."""
        clc = res.pipeline_config is not None
        if method == "get_and_advance_work_tile":
            builder.advance_work_tile(
                res.name, stages.get((res, "consumer")) if clc else None)
            return
        if method == "fetch_work_tile":
            builder.fetch_work_tile(res.name, stages[(res, "producer")])
            return
        if method not in BRACKETS:
            raise ScheduleError(
                f"[R38] WorkQueue {res.name!r} has no work method {method!r} "
                f"(get_and_advance_work_tile, fetch_work_tile)", "R38",
                caller_location())
        if not clc:
            return  # a static queue's wait / release emit nothing (2.8)
        result = getattr(builder, method)(res.pipeline_name)
        if method in ("acquire", "wait"):
            stages[(res, BRACKETS[method])] = result
    def _assign(self, node: Assign, guard: Optional[str]) -> None:
        """``var.set(token)`` replayed: the variable's current Value becomes
        the work call's. ScheduleError (X26) inside a loop guard or for a
        work call that returned no single Value."""
        if guard is not None:
            raise ScheduleError(
                f"[X26] {node.var!r}.set() inside {guard}(): a value assigned "
                f"in a loop guard does not reach the next iteration; assign "
                f"it in the domain loop's body and select the value in the "
                f"work method", "X26", caller_location())
        value = self._routed(node.value)
        from .. import ir
        if not isinstance(value, ir.Value):
            raise ScheduleError(
                f"[X26] {node.var!r}.set() takes a work call that returns one "
                f"Value, got {value!r}", "X26", caller_location())
        self._locals[id(node.var)] = value

    def _local_value(self, var: TaskLocalVariable):
        """The current Value of ``var`` in the task being built; its initial
        value is built at the first read. ScheduleError (X26) for an
        uninitialized variable read before it is assigned."""
        if id(var) in self._locals:
            return self._locals[id(var)]
        init = var.init
        if init is None:
            raise ScheduleError(
                f"[X26] {var!r} is read before a work call assigns it; give "
                f"it an initial value (TaskLocalVariable(init)) or set() it "
                f"first", "X26", caller_location())
        from .. import ir
        from ..dialects import arith

        def build():
            if isinstance(init, int):
                return arith.constant(ir.IntegerType.get_signless(32), init)
            if isinstance(init, float):
                return arith.constant(ir.F32Type.get(), init)
            return init()

        value = self._builder.work(build)
        if not isinstance(value, ir.Value):
            raise ScheduleError(
                f"[X26] the initial value of {var!r} must be one Value, got "
                f"{value!r}", "X26", caller_location())
        self._locals[id(var)] = value
        return value

    def _step(self, task: Task, builder, step: Step, stages: Dict[Any, Stage]):
        res, method = step.resource, step.method
        if isinstance(res, WorkQueue):
            self._queue_step(builder, res, method, stages)
            return
        # A member named through its group (TS's group.member): its brackets
        # name the group (R24).
        group = None
        if isinstance(res, GroupMember):
            group, res = res.group.name, res.member
        if method in BRACKETS:
            side = BRACKETS[method]
            # On a group itself (a merge group's release, a fork group's
            # commit), the bracket names the group; the verifier checks that
            # the mode takes it (R24).
            result = getattr(builder, method)(res.name, group=group)
            if method in ("acquire", "wait"):
                stages[(res, side)] = result
            return
        hook = getattr(res, method, None)
        if not callable(hook):
            raise ScheduleError(
                f"[R38] resource {res.name!r} ({type(res).__name__}) has no work "
                f"method {method!r}: define it on the MemoryResource subclass "
                f"as def {method}(self, stage, ...) building its ops",
                "R38", caller_location())
        role = getattr(hook, "_tspipe_work_role", None)
        if role is None:
            role = {"producer_work": "producer",
                    "consumer_work": "consumer"}.get(method)
        if role is None:
            role = "producer" if res in task.dst_resources else "consumer"
        stage = LoopInfo(builder, self.aliases)
        if res.pipeline_config is not None and not self._beside_tile_loop:
            stage = stages.get((res, role))
            if stage is None or stage._scope not in builder._stack:
                stage = builder.current_stage(res.name, role, group=group)
        args = [self._routed(a) for a in step.args]
        kwargs = {k: self._routed(v) for k, v in step.kwargs.items()}
        self._values[id(step.result)] = builder.work(hook, stage, *args, **kwargs)

    def _routed(self, value):
        """A recorded DataFlowToken becomes the Value(s) its work method
        returned."""
        if isinstance(value, TaskLocalVariable):
            return self._local_value(value)
        if isinstance(value, DataFlowToken):
            if id(value) not in self._values:
                raise ScheduleError(
                    f"[R39] {value!r} is used before its work call ran (or "
                    f"in another task's schedule)", "R39", caller_location())
            return self._values[id(value)]
        return value

    # -- TS's entry points and output ---------------------------------------

    def setup_resources_and_tasks(self) -> None:
        """TS's tracing entry point; the kernel is already built here."""

    def run(self) -> None:
        """TS's tracing entry point; the kernel is already built here."""

    @property
    def module(self):
        """The verified ``tspipe.ir.Module``."""
        return self.kernel.build()

    def to_ptx(self, arch: Optional[str] = None, **options) -> str:
        """PTX of the kernel (:meth:`tspipe.ts.Kernel.to_ptx`)."""
        return self.kernel.to_ptx(arch, **options)


def _pipeline_name(res) -> str:
    """The tspipe.pipeline of a resource (a CLC WorkQueue's is its own)."""
    return res.pipeline_name if isinstance(res, WorkQueue) else res.name


def _members(resources) -> List[Any]:
    """``resources`` with every pipeline group replaced by its members and
    every ``group.member`` by the member (TS lists either in a task's
    resources)."""
    out: List[Any] = []
    for res in resources:
        if isinstance(res, PipelineGroup):
            out.extend(res.members)
        else:
            out.append(getattr(res, "member", res)
                       if isinstance(res, GroupMember) else res)
    return out


def _assigned_in(body) -> List[TaskLocalVariable]:
    """The task-local variables a recorded block assigns (in its guards
    too), in the order of their first assignment."""
    found: List[TaskLocalVariable] = []
    for node in body:
        inner = (_assigned_in(node.body) if isinstance(node, Block) else
                 [node.var] if isinstance(node, Assign) else [])
        for var in inner:
            if all(var is not f for f in found):
                found.append(var)
    return found


def _groups_of(body) -> List[PipelineGroup]:
    """The pipeline groups a recorded schedule names."""
    groups: List[PipelineGroup] = []
    for node in body:
        if isinstance(node, Block):
            found = _groups_of(node.body)
        elif isinstance(node, Assign):
            found = []
        else:
            res = node.resource
            found = ([res] if isinstance(res, PipelineGroup) else
                     [res.group] if isinstance(res, GroupMember) else [])
        for group in found:
            if group not in groups:
                groups.append(group)
    return groups
