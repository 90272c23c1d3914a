"""Importing a real TS ``TaskManager`` as tspipe IR.

:func:`from_ts` reads a ``cutlass.experimental.task_scheduling``
``TaskManager`` (TS 4.8.1, built on a CPU; see docs/python.md) and builds the
equivalent :class:`tspipe.ts.Kernel`: one ``tspipe.pipeline`` per resource
with its config and data buffer (bytes of its ``SmemAllocation`` list,
tensor-memory columns of its ``TmemAllocation`` list), one ``tspipe.task``
per task with its warp range, CTA and register count, the head / domain loop
/ tail of each schedule with its brackets and its loop guards (first /
last iteration, ``every(period, start)``, and TS's opaque ``when_true`` /
``when_false`` conditions, each distinct condition key an ``i1`` kernel
argument ``cond<N>``). A ``PdlWaitBarrier``'s ``wait_griddep`` becomes
``tspipe.pdl_wait``, a ``PdlLaunchBarrier``'s ``launch_griddep``
``tspipe.pdl_launch_dependents``; the resources the dependency graph feeds
from a ``PdlWaitBarrier`` are listed in ``tspipe.pdl_pipelines`` (R37).
A TS ``PipelineGroup`` becomes a ``tspipe.pipeline_group`` of its members
with the group's mode (its config derived by the verifier, R67); a
bracket on a member (TS's ``group.member``) names the group
(``tspipe.consumer_wait @a group(@ab)``), a bracket on the group itself
(a merge group's release, a fork group's commit) is that bracket on the
group (``tspipe.consumer_release @ab``). Work steps become named
placeholders: an ``llvm.inline_asm`` PTX comment ``// ts work: <resource>.<label>`` located at
``Location.name("<task>/<resource>.<label>")`` and, on a pipelined resource,
the ``tspipe.stage_index`` of the stage the step works on (so R32 / R33
check its place, as TS checks its work entries). The user then verifies and
lowers the schedule with tspipe. ``make crosscheck`` round-trips every
generated kernel through it (crosscheck/import_check.py).

TS is never imported here: the TaskManager's objects are read by attribute
(TS must be installed in the interpreter that built them, never as a tspipe
dependency). TS's dependency graph is checked against the one the tasks
make (R26, R28-R30; tspipe.ts.dependency). TS's alias groups
(``add_alias_group`` on the task manager's ``SmemAllocator`` /
``TmemAllocator``) become ``tspipe.alias_group``s: an allocation of a
pipelined resource stands for its pipeline, one of a resource without a
pipeline becomes a ``tspipe.buffer`` whose address that resource's work
placeholders take, so that X23 checks the reuse. A ``WorkQueue`` (static
persistent or CLC-driven) becomes a ``tspipe.work_queue`` and each
persistent task's schedule a ``tspipe.work_tile_loop`` with its
``skip_if`` / ``skippable`` parts and a per-tile domain end from the
task's ``get_domain`` (tspipe.ts.import_work). Not modelled
(:class:`NotImplementedError`): a domain start or step that is not an int,
``cute.Layout`` cluster layouts, resources without a pipeline config that
brackets are used on.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from .. import ir
from ..diagnostics import ScheduleError
from .aliasing import StorageAliases
from .config import PipelineConfig
from .dependency import check_graph
from .import_work import QueueImport, is_work_queue, pipeline_name
from .kernel import Kernel, at_location
from .task_manager import TaskManager as OwnTaskManager
from .vocabulary import Agent, CooperativeGroup, PipelineOp, PipelineType, SignalingThreads

__all__ = ["from_ts", "config_from_ts"]

_BRACKETS = {
    "ProducerTryAcquire": "try_acquire",
    "ProducerAcquire": "acquire",
    "ProducerCommit": "commit",
    "ProducerTail": "producer_tail",
    "ConsumerTryWait": "try_wait",
    "ConsumerWait": "wait",
    "ConsumerRelease": "release",
}
_WORK = {"ProducerWork": "producer_work", "ConsumerWork": "consumer_work",
         "ProducerAuxWork": "producer_aux_work",
         "ConsumerAuxWork": "consumer_aux_work"}


# TS's PDL barrier resources: (builder method, TS work method).
_PDL_POINTS = {"PdlWaitBarrier": ("pdl_wait", "wait_griddep"),
               "PdlLaunchBarrier": ("pdl_launch_dependents", "launch_griddep")}


def _pdl_kind(resource) -> Optional[str]:
    """"PdlWaitBarrier" / "PdlLaunchBarrier" for TS's PDL resources and
    their subclasses, else None."""
    for cls in type(resource).__mro__:
        if cls.__name__ in _PDL_POINTS:
            return cls.__name__
    return None


def _name(value) -> str:
    """The member name of a TS enum value (``PipelineType.TmaAsync`` ->
    ``"TmaAsync"``)."""
    return getattr(value, "name", str(value))


def _group(ts_group) -> CooperativeGroup:
    return CooperativeGroup(Agent[_name(ts_group.agent)], ts_group.size)


def _signaling(value) -> Optional[SignalingThreads]:
    if value is None:
        return None
    return SignalingThreads(int(value.value if hasattr(value, "value") else value))


def _layout(value):
    if value is None or isinstance(value, (tuple, list)):
        return None if value is None else tuple(value)
    raise NotImplementedError(
        f"cta_layout_vmnk {value!r} is not a tuple of 4 ints; tspipe models "
        f"static cluster layouts only (pass the layout as a tuple in TS)")


def config_from_ts(ts_config) -> PipelineConfig:
    """The tspipe :class:`PipelineConfig` of a TS ``PipelineConfig`` (every
    field read by name; enums by member name). Raises PipelineConfigError /
    ConfigTypeError as the tspipe factories do, NotImplementedError for a
    ``cute.Layout`` cluster layout."""
    stride = ts_config.interleave_stride
    return PipelineConfig(
        num_stages=ts_config.num_stages,
        num_bytes=ts_config.num_bytes,
        producer_group=_group(ts_config.producer_group),
        consumer_group=_group(ts_config.consumer_group),
        pipeline_type=PipelineType[_name(ts_config.pipeline_type)],
        cta_layout_vmnk=_layout(ts_config.cta_layout_vmnk),
        producer_signaling_threads=_signaling(ts_config.producer_signaling_threads),
        consumer_signaling_threads=_signaling(ts_config.consumer_signaling_threads),
        consumer_wait_signaling_threads=_signaling(
            ts_config.consumer_wait_signaling_threads),
        async_producer_op=PipelineOp[_name(ts_config.async_producer_op)],
        umma_consumer_producer_op=PipelineOp[_name(
            ts_config.umma_consumer_producer_op)],
        advance_on_wait=bool(ts_config.advance_on_wait),
        advance_on_acquire=bool(ts_config.advance_on_acquire),
        num_bytes_per_warp_per_cta=ts_config.num_bytes_per_warp_per_cta,
        mcast_mode_mn=tuple(ts_config.mcast_mode_mn),
        interleave_stride=tuple(stride) if isinstance(stride, (tuple, list))
        else stride,
    )


def _is_group(resource) -> bool:
    """True for a TS ``PipelineGroup`` (a resource with members and a
    mode)."""
    return (getattr(resource, "members", None) is not None
            and getattr(resource, "mode", None) is not None)


def _group_of(resource):
    """The TS ``PipelineGroup`` a member resource joined, or None."""
    group = getattr(resource, "pipeline_group", None)
    return group if group is not None and _is_group(group) else None


def _members(resources) -> List[Any]:
    """``resources`` with every pipeline group replaced by its members (TS
    lists a group or its members in a task's resources)."""
    out: List[Any] = []
    for res in resources:
        out.extend(res.members if _is_group(res) else [res])
    return out


def _smem_bytes(resource) -> Optional[int]:
    """Bytes of the resource's data buffer: the sum of the ``size_bytes`` of
    the ``SmemAllocation`` list its ``get_smem_requirements()`` returns (TS
    allocates the barriers itself), or None when it needs none."""
    getter = getattr(resource, "get_smem_requirements", None)
    allocations = list(getter() or []) if callable(getter) else []
    if not allocations:
        return None
    return sum(int(a.size_bytes) for a in allocations)


def _tmem_columns(resource) -> Optional[int]:
    """Tensor-memory columns of the resource: the sum of the ``num_columns``
    of its ``get_tmem_requirements()``, or None when it needs none."""
    getter = getattr(resource, "get_tmem_requirements", None)
    allocations = list(getter() or []) if callable(getter) else []
    if not allocations:
        return None
    return sum(int(a.num_columns) for a in allocations)


def _cluster(configs: Sequence[PipelineConfig]) -> tuple:
    """The launch cluster implied by the pipelines' layouts: V*M along x,
    N along y, L along z (1 CTA when no pipeline has a layout)."""
    for cfg in configs:
        if cfg.cta_layout_vmnk:
            v, m, n, l = cfg.cta_layout_vmnk
            return (v * m, n, l)
    return (1, 1, 1)


def _placeholder(builder, task_name: str, resource: str, label: str,
                 stage=None):
    """A work step as a named placeholder: the PTX comment ``// ts work:
    <resource>.<label>`` and, on a pipelined resource, the index of the
    stage it works on (``stage``), so that the bracket rules (R32, R33)
    check where the work sits, as TS checks its work entries."""
    with builder.kernel.context:
        loc = ir.Location.name(f"{task_name}/{resource}.{label}")
    with at_location(loc):
        builder.ptx_comment(f"ts work: {resource}.{label}")
        if stage is not None:
            stage.index()


class _Stages:
    """The stage each pipelined resource's last acquire (producer) or wait
    (consumer) returned, while the block it was made in is open; a work
    step outside such a block works on the cursor's stage
    (``current_stage``), as TS's stage info follows the pipeline state."""

    def __init__(self, builder, pipelined):
        self.builder = builder
        self.pipelined = pipelined
        self.made: Dict[tuple, Any] = {}

    def record(self, name: str, side: str, stage) -> None:
        self.made[(name, side)] = stage

    def of(self, name: str, side: str, group: Optional[str] = None):
        if name not in self.pipelined:
            return None
        stage = self.made.get((name, side))
        if stage is not None and stage._scope in self.builder._stack:
            return stage
        return self.builder.current_stage(name, side, group=group)


def _emit(builder, task_name: str, entries: List[tuple], stages: _Stages,
          aliases: Optional[StorageAliases] = None,
          queues: Optional[QueueImport] = None,
          responses: Optional[Dict[str, Any]] = None):
    for entry in entries:
        resource, stage = entry[0], _name(entry[1])
        # Loop entries carry (resource, stage, call, guard, label), head and
        # tail entries (resource, stage, call, label).
        label = entry[4] if len(entry) > 4 else \
            entry[3] if len(entry) == 4 and isinstance(entry[3], str) else None
        label = label or None
        if is_work_queue(resource):
            if queues is None or responses is None:
                raise NotImplementedError(
                    f"task {task_name!r}: a step on work queue "
                    f"{resource.name!r} outside a persistent task")
            queues.step(builder, task_name, resource, stage, label, responses)
            continue
        # A member of a pipeline group is named through its group (R24); a
        # bracket on the group itself names the group alone.
        group = _group_of(resource)
        group_name = group.name if group is not None else None
        if stage in _BRACKETS:
            verb = _BRACKETS[stage]
            made = getattr(builder, verb)(resource.name, group=group_name)
            if verb in ("acquire", "wait") and not _is_group(resource):
                stages.record(resource.name, "producer" if verb == "acquire"
                              else "consumer", made)
        elif stage in _WORK and _pdl_kind(resource) is not None:
            kind = _pdl_kind(resource)
            verb, method = _PDL_POINTS[kind]
            if label not in (None, method):
                raise NotImplementedError(
                    f"task {task_name!r}: {kind} work "
                    f"{label!r} is not modelled (only {method})")
            getattr(builder, verb)()
        elif stage in _WORK:
            side = "producer" if stage.startswith("Producer") else "consumer"
            # An auxiliary step is outside the bracket rules (TS exempts
            # it from R32 / R33): it names no stage.
            _placeholder(builder, task_name, resource.name,
                         label or _WORK[stage],
                         None if "Aux" in stage else
                         stages.of(resource.name, side, group_name))
            if aliases is not None and "Aux" not in stage:
                aliases.touch(builder, resource)
        else:
            raise NotImplementedError(
                f"task {task_name!r}: schedule stage {stage} on "
                f"{resource.name!r} is not modelled by tspipe")


def _guard_of(entry):
    """The loop guard of a schedule entry as a hashable key: "Always",
    "FirstIter", "LastIter", ("Every", period, start) or ("Cond", key,
    negated)."""
    guard = entry[3] if len(entry) > 3 else None
    if guard is None:
        return "Always"
    kind = type(guard).__name__
    if kind == "_FirstIterPredicate":
        return "FirstIter"
    if kind == "_LastIterPredicate":
        return "LastIter"
    if kind == "Every":
        return ("Every", int(guard.period), int(guard.start))
    if kind == "OpaqueCondition":
        return ("Cond", guard.key, bool(guard.negated))
    return _name(guard)


def _guard_scope(builder, kernel, task_name: str, guard, cond_keys):
    """The builder scope of a guard key (None for Always)."""
    if guard == "FirstIter":
        return builder.first_iter()
    if guard == "LastIter":
        return builder.last_iter()
    if isinstance(guard, tuple) and guard[0] == "Every":
        _, period, start = guard
        if start >= period:
            raise NotImplementedError(
                f"task {task_name!r}: every(period={period}, start={start}) "
                f"with start >= period (TS fires on {start}, {start} + "
                f"{period}, ...) is not modelled by tspipe's tspipe.every, "
                f"whose start lies in [0, period)")
        return builder.every(period, start)
    if isinstance(guard, tuple) and guard[0] == "Cond":
        _, key, negated = guard
        cond = kernel.arg(f"cond{cond_keys.index(key)}")
        return builder.when_false(cond) if negated else builder.when_true(cond)
    if guard != "Always":
        raise NotImplementedError(
            f"task {task_name!r}: loop guard {guard!r} is not modelled by "
            f"tspipe")
    return None


def _check_task_manager(task_manager) -> None:
    """ScheduleError (R26) unless ``task_manager`` looks like a TS
    ``TaskManager``: ``tasks``, a non-empty list of tasks with warps and
    resources. tspipe's own port of ``TaskManager`` already holds its Kernel.
    """
    if isinstance(task_manager, OwnTaskManager):
        raise ScheduleError(
            "[R26] from_ts() takes a TaskManager of real TS; this is "
            "tspipe's own TaskManager, whose Kernel is task_manager.kernel "
            "already: use that", "R26")
    tasks = getattr(task_manager, "tasks", None)
    if tasks is None or isinstance(tasks, (str, bytes)) or \
            not hasattr(tasks, "__iter__"):
        raise ScheduleError(
            f"[R26] from_ts() takes a TS TaskManager (with a list of tasks), "
            f"got {task_manager!r}", "R26")
    tasks = list(tasks)
    if not tasks:
        raise ScheduleError(
            "[R26] the TaskManager has no tasks; give it the kernel's tasks",
            "R26")
    for index, task in enumerate(tasks):
        missing = [a for a in ("warp_idx", "num_warps", "dst_resources",
                               "src_resources") if not hasattr(task, a)]
        if missing:
            raise ScheduleError(
                f"[R26] task {index} of the TaskManager ({task!r}) is not a "
                f"TS Task: it has no {', '.join(missing)}", "R26")


def from_ts(task_manager, *, arch: str = "sm_90a", name: str = "kernel",
            num_warps: Optional[int] = None, cluster: Optional[Sequence[int]] = None,
            verify: bool = True, dependency_graph: bool = True,
            grid: Optional[Sequence[Any]] = None, skip_if=None,
            domain_end=None) -> Kernel:
    """The tspipe :class:`Kernel` of a real TS ``TaskManager``.

    Args:
      task_manager: a TS 4.8.1 ``TaskManager`` (validated or built with
        ``skip_validation=True``).
      arch: the kernel's target chip.
      name: the kernel (PTX entry) name.
      num_warps: warps per CTA (default: up to the last task's warps).
      cluster: cluster extents (default: from the pipelines' layouts).
      verify: build and verify the module (raising ScheduleError /
        PipelineConfigError, ValueError, listing every diagnostic).
      dependency_graph: check TS's ``resource_dependency_graph`` against
        the edges the tasks make (R26, R28-R30, tspipe.ts.dependency;
        ScheduleError).
      grid: a static work queue's tile grid (1-3 ints, ``index`` Values or
        callables ``f(kernel)``; default: the scheduler params'
        ``problem_shape_ntile_mnl``, a non-int extent an ``i32`` kernel
        argument ``<queue>_tiles_<m|n|l>``).
      skip_if: the tspipe form of TS's ``skip_if`` predicate, ``f(*coords)``
        building an ``i1`` (or a dict by task name; default: a named
        placeholder, tspipe.ts.import_work).
      domain_end: the tspipe form of a task's ``get_domain`` (the per-tile
        domain end), ``f(kernel, coords)`` building an ``index`` (or a dict
        by task name; default: a named placeholder).

    Raises NotImplementedError for a construct tspipe does not model (see
    the module docstring).
    """
    _check_task_manager(task_manager)
    resources: List[Any] = []
    for task in task_manager.tasks:
        for res in _members(list(task.dst_resources) + list(task.src_resources)):
            if res not in resources:
                resources.append(res)
    configs: Dict[int, PipelineConfig] = {}
    for res in resources:
        # A resource without a pipeline (a global-memory source or sink) only
        # has work steps; it is no tspipe.pipeline.
        if getattr(res, "pipeline_config", None) is not None:
            configs[id(res)] = config_from_ts(res.pipeline_config)
    all_resources = resources
    resources = [r for r in resources if id(r) in configs]
    queues = QueueImport(task_manager.tasks, grid=grid, skip_if=skip_if,
                         domain_end=domain_end)
    # TS's dependency graph against the one the tasks make (R26, R28-R30).
    if dependency_graph:
        check_graph(task_manager.tasks,
                    getattr(task_manager, "resource_dependency_graph", None))
    aliases = StorageAliases(getattr(task_manager, "_smem_allocator", None),
                             getattr(task_manager, "_tmem_allocator", None),
                             all_resources, configs)
    if num_warps is None:
        num_warps = max(t.warp_idx + t.num_warps for t in task_manager.tasks)
    if cluster is None:
        cluster = _cluster(list(configs.values()))
    # TS's opaque conditions, one i1 kernel argument per key.
    cond_keys: List[Any] = []
    for task in task_manager.tasks:
        for entry in getattr(task, "loop_schedule_list", None) or []:
            guard = entry[3] if len(entry) > 3 else None
            if type(guard).__name__ == "OpaqueCondition" and \
                    guard.key not in cond_keys:
                cond_keys.append(guard.key)
    kernel = Kernel(num_warps, cluster, name=name, arch=arch,
                    args=[(f"cond{i}", "i1") for i in range(len(cond_keys))]
                    + queues.kernel_args())
    graph = getattr(task_manager, "resource_dependency_graph", None) or {}
    fed = [pipeline_name(res) for res, deps in graph.items()
           if id(res) in configs
           and any(_pdl_kind(d) == "PdlWaitBarrier" for d in deps)]
    if fed and not getattr(task_manager, "assume_pdl_wait_completed", False):
        kernel.set_pdl_pipelines(fed)
    for res in resources:
        # A CLC queue's pipeline holds one 16-byte response per stage.
        smem = (16 * configs[id(res)].num_stages if is_work_queue(res)
                else _smem_bytes(res))
        kernel.pipeline(pipeline_name(res), configs[id(res)], smem_bytes=smem,
                        tmem_columns=_tmem_columns(res))
    queues.declare(kernel)
    # The pipeline groups of the members, in order of first member. The
    # group's config is left to the verifier to derive (R67): TS keeps a
    # derived and an explicit config in the same field.
    pipeline_groups: List[Any] = []
    for res in resources:
        group = _group_of(res)
        if group is not None and all(g is not group for g in pipeline_groups):
            pipeline_groups.append(group)
    for group in pipeline_groups:
        kernel.pipeline_group(group.name, _name(group.mode),
                              [m.name for m in group.members])
    aliases.declare(kernel)
    for index, task in enumerate(task_manager.tasks):
        task_name = task.name or f"task{index}"
        if getattr(task, "work_queue", None) is None and \
                getattr(task, "domain_getter", None) is not None:
            raise NotImplementedError(
                f"task {task_name!r}: a get_domain domain outside a "
                f"work_tile_loop is not modelled by tspipe (its domain is "
                f"per tile)")
        builder = kernel.task(
            task_name, task.warp_idx, task.num_warps,
            produces=[pipeline_name(r) for r in _members(task.dst_resources)
                      if id(r) in configs],
            consumes=[pipeline_name(r) for r in _members(task.src_resources)
                      if id(r) in configs],
            run_only_on_cta_id=task.run_only_on_cta_id,
            num_registers=task.num_registers)
        dynamic_end = getattr(task, "domain_getter", None) is not None
        bounds = (task.domain_start, 0 if dynamic_end else task.domain,
                  task.step)
        if not all(isinstance(b, int) for b in bounds):
            raise NotImplementedError(
                f"task {task_name!r}: domain bounds (start, end, step) = "
                f"{bounds} are not all ints; from_ts models int bounds and a "
                f"per-tile end from the task's get_domain (TS's traced values "
                f"are not readable): write this task with tspipe.ts, whose "
                f"bounds may be index Values or callables")
        stages = _Stages(builder, {pipeline_name(res) for res in resources})
        loop = _DomainLoop(builder, kernel, task, task_name, bounds, stages,
                           aliases, cond_keys)
        if getattr(task, "work_queue", None) is not None:
            _persistent(builder, kernel, task, task_name, queues, loop,
                        stages, aliases)
            continue
        _emit(builder, task_name, task.head_schedule_list, stages, aliases)
        loop.emit()
        _emit(builder, task_name, task.tail_schedule_list, stages, aliases)
    if verify:
        kernel.build()
    return kernel


class _DomainLoop:
    """The domain loop of one task with its guarded entries; ``emit(end)``
    builds it (``end``: the per-tile end Value of a persistent task with
    ``get_domain``, else the task's own)."""

    def __init__(self, builder, kernel, task, task_name, bounds, stages,
                 aliases, cond_keys):
        self.builder, self.kernel, self.task = builder, kernel, task
        self.task_name, self.bounds = task_name, bounds
        self.stages, self.aliases, self.cond_keys = stages, aliases, cond_keys

    def emit(self, end=None, queues=None, responses=None) -> None:
        builder, task_name = self.builder, self.task_name
        start, default_end, step = self.bounds
        with builder.domain_loop(start, default_end if end is None else end,
                                 step):
            # Consecutive entries with the same guard share one guard block.
            groups: List[tuple] = []
            for entry in self.task.loop_schedule_list:
                guard = _guard_of(entry)
                if groups and groups[-1][0] == guard:
                    groups[-1][1].append(entry)
                else:
                    groups.append((guard, [entry]))
            for guard, entries in groups:
                scope = _guard_scope(builder, self.kernel, task_name, guard,
                                     self.cond_keys)
                if scope is None:
                    _emit(builder, task_name, entries, self.stages,
                          self.aliases, queues, responses)
                    continue
                with scope:
                    _emit(builder, task_name, entries, self.stages,
                          self.aliases, queues, responses)


class _Outside(_Stages):
    """Stages of steps outside the tile loop: TS keeps only auxiliary steps
    and barrier resources there, so their placeholders name no stage (a
    tspipe op beside the tile loop is R22)."""

    def of(self, name, side, group=None):
        return None


def _persistent(builder, kernel, task, task_name: str, queues: QueueImport,
                loop: _DomainLoop, stages: _Stages, aliases) -> None:
    """A persistent task: the steps TS runs once before the tile loop, the
    ``tspipe.work_tile_loop`` (head, domain loop, tail; the skippable parts
    in ``tspipe.skippable``), the steps it runs once after."""
    before, head, tail, after = queues.split(task)
    outside = _Outside(builder, stages.pipelined)
    _emit(builder, task_name, before, outside, aliases)
    predicate = queues.skip_predicate(task, task_name)
    domain = queues.domain_bound(task, task_name, kernel)
    responses: Dict[str, Any] = {}
    # The tile's parts in order: runs of head entries, the domain loop (None)
    # and tail entries, each run skippable or not; with skip_if the domain
    # loop is skippable (R22).
    parts = [(predicate is not None and queues.skippable(task, e, "head"), e)
             for e in head]
    parts.append((predicate is not None, None))
    parts += [(predicate is not None and queues.skippable(task, e, "tail"), e)
              for e in tail]
    runs: List[tuple] = []
    for skippable, entry in parts:
        if runs and runs[-1][0] == skippable:
            runs[-1][1].append(entry)
        else:
            runs.append((skippable, [entry]))

    def emit_run(entries, coords):
        pending: List[tuple] = []
        for entry in entries:
            if entry is not None:
                pending.append(entry)
                continue
            _emit(builder, task_name, pending, stages, aliases, queues,
                  responses)
            pending = []
            end = builder.work(domain, coords) if domain is not None else None
            loop.emit(end, queues, responses)
        _emit(builder, task_name, pending, stages, aliases, queues, responses)

    with builder.work_tile_loop(queues.queue.name,
                                skip_if=predicate) as coords:
        for skippable, entries in runs:
            if skippable:
                with builder.skippable():
                    emit_run(entries, coords)
            else:
                emit_run(entries, coords)
    _emit(builder, task_name, after, outside, aliases)
