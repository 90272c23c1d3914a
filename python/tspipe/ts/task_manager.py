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

from typing import Any, Dict, List, Optional, Sequence

from ..diagnostics import ScheduleError, at_site, caller_location
from .brackets import Stage
from .kernel import Kernel
from .resources import (
    GroupMember,
    MemoryResource,
    PdlWaitBarrier,
    PipelineGroup,
)
from .schedule import BRACKETS, Block, DataFlowToken, Step
from .task import Task

__all__ = ["TaskManager", "LoopInfo"]


class LoopInfo:
    """What a work method of a resource without a pipeline receives in
    place of a stage: ``loop_offset``, the domain loop's iteration Value
    (None outside the loop)."""

    def __init__(self, builder):
        self.loop_offset = builder._iv


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
        for res in resources:
            if not isinstance(res, MemoryResource):
                raise TypeError(f"resources must be tspipe.ts.resources."
                                f"MemoryResource objects, got {res!r}")
            res.__dict__["_tspipe_kernel"] = self.kernel
            # A resource without a pipeline (a global-memory source or sink)
            # only has work methods; it is no tspipe.pipeline.
            if res.pipeline_config is not None:
                self.kernel.pipeline(res.name, res.pipeline_config,
                                     smem_bytes=res.smem_bytes,
                                     tmem_columns=res.tmem_columns)
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
            produces=[r.name for r in _members(task.dst_resources)
                      if r.pipeline_config is not None],
            consumes=[r.name for r in _members(task.src_resources)
                      if r.pipeline_config is not None],
            run_only_on_cta_id=task.run_only_on_cta_id,
            num_registers=task.num_registers)
        self._replay(task, builder, task.schedule.body, {})

    def _replay(self, task: Task, builder, body: List[Any],
                stages: Dict[Any, Stage]):
        for node in body:
            if isinstance(node, Block):
                inner = dict(stages)
                with at_site(node.file, node.line):
                    if node.kind == "domain_loop":
                        bounds = [b(self.kernel) if callable(b) else b
                                  for b in node.bounds]
                        scope = builder.domain_loop(*bounds)
                    elif node.kind == "first_iter":
                        scope = builder.first_iter()
                    elif node.kind == "every":
                        scope = builder.every(*node.guard)
                    elif node.kind in ("when_true", "when_false"):
                        scope = getattr(builder, node.kind)(node.guard[0])
                    else:
                        scope = builder.last_iter()
                    scope.__enter__()
                try:
                    self._replay(task, builder, node.body, inner)
                finally:
                    scope.__exit__(None, None, None)
                continue
            with at_site(node.file, node.line):
                self._step(task, builder, node, stages)

    def _step(self, task: Task, builder, step: Step, stages: Dict[Any, Stage]):
        res, method = step.resource, step.method
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
        stage = LoopInfo(builder)
        if res.pipeline_config is not None:
            stage = stages.get((res, role))
            if stage is None or stage._scope not in builder._stack:
                stage = builder.current_stage(res.name, role, group=group)
        args = [self._routed(a) for a in step.args]
        kwargs = {k: self._routed(v) for k, v in step.kwargs.items()}
        self._values[id(step.result)] = builder.work(hook, stage, *args, **kwargs)

    def _routed(self, value):
        """A recorded DataFlowToken becomes the Value(s) its work method
        returned."""
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


def _groups_of(body) -> List[PipelineGroup]:
    """The pipeline groups a recorded schedule names."""
    groups: List[PipelineGroup] = []
    for node in body:
        if isinstance(node, Block):
            found = _groups_of(node.body)
        else:
            res = node.resource
            found = ([res] if isinstance(res, PipelineGroup) else
                     [res.group] if isinstance(res, GroupMember) else [])
        for group in found:
            if group not in groups:
                groups.append(group)
    return groups
