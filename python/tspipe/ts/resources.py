"""TS's ``MemoryResource`` over tspipe (``tspipe.ts.resources``), so that
``from cutlass.experimental.task_scheduling.resources import
PipelineConfig, MemoryResource`` ports by changing the import.

A resource is a pipeline of the kernel: its ``pipeline_config`` becomes a
``tspipe.pipeline``; ``smem_bytes`` / ``tmem_columns`` (tspipe's fields,
defaulting to none) size its data buffer. Subclasses add work methods: the
default ``producer_work(stage)`` / ``consumer_work(stage)`` build nothing;
override them (or add named ones, marked with ``@producer_work`` /
``@consumer_work``) to build a work step's ops with the dialect builders.
``stage`` is a :class:`tspipe.ts.Stage` (``index()``, ``buffer()``,
``full_barrier()``, ``empty_barrier()`` return Values); ``self.kernel`` is
the :class:`tspipe.ts.Kernel` being built (``self.kernel.arg("x")``).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Optional

from ..dialects import tspipe as tsd
from .brackets import Stage
from .config import PipelineConfig
from .vocabulary import SignalingThreads

__all__ = ["GroupMember", "MemoryResource", "PdlLaunchBarrier",
           "PdlWaitBarrier", "PipelineConfig", "PipelineGroup",
           "PipelineGroupMode", "StageInfo", "TaskLocalVariable", "WorkAttr",
           "producer_work", "consumer_work"]

def _work_decorator(role: str):
    def decorator(fn=None, **options):
        # Usable bare (@producer_work) or with TS's options
        # (@consumer_work(returns=...)); the options are ignored.
        def mark(f):
            f._tspipe_work_role = role
            return f

        return mark(fn) if callable(fn) else mark

    decorator.__name__ = f"{role}_work"
    decorator.__doc__ = (
        f"TS's ``@{role}_work`` decorator for a named work method of a "
        f"MemoryResource: the method is called as a work step "
        f"``method(stage, *args)`` on the {role} side.")
    return decorator


producer_work = _work_decorator("producer")
consumer_work = _work_decorator("consumer")

# TS's name for the stage a work method receives.
StageInfo = Stage


class _ResourceMeta(type):
    """Keeps resources hashable by identity when a subclass is decorated
    with ``@dataclass`` (which would set ``__hash__`` to None), as TS's
    resources are: they key TaskManager's dependency graph."""

    def __setattr__(cls, name, value):
        if name == "__hash__" and value is None:
            value = object.__hash__
        super().__setattr__(name, value)


@dataclasses.dataclass(eq=False)
class MemoryResource(metaclass=_ResourceMeta):
    """A pipelined resource (TS ``MemoryResource``); keyword fields as TS's
    plus ``smem_bytes`` (data buffer bytes over all stages, or None) and
    ``tmem_columns``. ``is_barrier``, ``consumer_vars``, ``producer_vars``,
    ``pipeline`` are accepted and ignored."""

    name: str = ""
    is_barrier: bool = False
    pipeline_config: Optional[PipelineConfig] = None
    consumer_vars: dict = dataclasses.field(default_factory=dict)
    producer_vars: dict = dataclasses.field(default_factory=dict)
    pipeline: Any = None
    consumer_wait_signaling_threads: Optional[SignalingThreads] = None
    smem_bytes: Optional[int] = None
    tmem_columns: Optional[int] = None

    def __hash__(self):
        return id(self)

    @property
    def kernel(self):
        """The :class:`tspipe.ts.Kernel` the TaskManager is building (None
        before)."""
        return self.__dict__.get("_tspipe_kernel")

    def _buffer_of(self, alloc) -> str:
        from ..diagnostics import ScheduleError, caller_location
        from .brackets import _ACTIVE_TASKS

        aliases = self.__dict__.get("_tspipe_aliases")
        name = aliases.buffer_of(alloc) if aliases is not None else None
        if name is None or not _ACTIVE_TASKS:
            raise ScheduleError(
                f"[X24] {alloc!r} of {self.name!r} is not a tspipe.buffer (an "
                f"allocation of a resource without a pipeline, or one several "
                f"pipelines list), or this is not a work step",
                "X24", caller_location())
        return name

    def smem_address(self, alloc):
        """In a work step: the ``!llvm.ptr<3>`` address of an
        ``SmemAllocation`` that is a ``tspipe.buffer`` (an allocation of a
        resource without a pipeline, or one several pipelines share).
        Raises ScheduleError (X24) otherwise."""
        from .brackets import _ACTIVE_TASKS

        name = self._buffer_of(alloc)
        return _ACTIVE_TASKS[-1].buffer_address(name)

    def tmem_column(self, alloc):
        """In a work step: the first TMEM column (``i32``) of a
        ``TmemAllocation`` that is a ``tspipe.buffer``."""
        from .brackets import _ACTIVE_TASKS

        name = self._buffer_of(alloc)
        return _ACTIVE_TASKS[-1].tmem_column(name)

    def producer_work(self, stage) -> None:
        """The default producer work step: builds nothing."""

    def consumer_work(self, stage) -> None:
        """The default consumer work step: builds nothing."""


@dataclasses.dataclass(eq=False)
class PdlWaitBarrier(MemoryResource):
    """TS's ``PdlWaitBarrier``: a data-less ordering resource
    (``is_barrier``, no pipeline) whose ``wait_griddep()`` waits for the
    previous grid (``tspipe.pdl_wait``, ``griddepcontrol.wait``). A
    dependency-graph edge from it to a pipelined resource lists that
    pipeline in the kernel's ``tspipe.pdl_pipelines`` (R37)."""

    is_barrier: bool = True

    def wait_griddep(self, stage) -> None:
        """The wait point (any role, any task; X20 asks it of every task
        that reads a ``pdl_input`` argument)."""
        tsd.PdlWaitOp()


@dataclasses.dataclass(eq=False)
class PdlLaunchBarrier(MemoryResource):
    """TS's ``PdlLaunchBarrier``: ``launch_griddep()`` lets the next grid
    launch (``tspipe.pdl_launch_dependents``,
    ``griddepcontrol.launch_dependents``)."""

    is_barrier: bool = True

    def launch_griddep(self, stage) -> None:
        """The launch-dependents point (TS's name)."""
        tsd.PdlLaunchDependentsOp()

    def launch_dependents(self, stage) -> None:
        """The launch-dependents point (:meth:`launch_griddep`)."""
        self.launch_griddep(stage)


class PipelineGroupMode(enum.Enum):
    """TS's pipeline group modes, each a ``tspipe.pipeline_group`` mode:
    ``Merge`` (``merge``), ``Fork`` (``fork``), ``FusedMerge``
    (``fused_merge``)."""

    Merge = "Merge"
    Fork = "Fork"
    FusedMerge = "FusedMerge"


class WorkAttr(enum.Flag):
    """TS's work attributes; accepted by ``@producer_work`` /
    ``@consumer_work`` and ignored."""

    NONE = 0
    AUXILIARY = 1


class TaskLocalVariable:
    """TS's task-local variable: state a task keeps across the iterations of
    its domain loop (an accumulator, a counter, tile coordinates).

    ``TaskLocalVariable(init)``: ``init`` is the initial value, built in the
    task's head when the task is built: a Python ``int`` (an ``i32``
    constant), a ``float`` (``f32``), or a callable taking no arguments that
    builds ops with the dialect builders and returns one Value (e.g. a
    ``nvgpu.warpgroup.mma.init.accumulator``). ``uninitialized()`` declares
    one that a work call assigns before it is read.

    In a ``@schedule`` function, pass the variable to a work call as an
    argument (``smem.mma(acc=acc)``: the method receives its current Value)
    and assign it a work call's result with ``acc.set(token)``. A variable
    assigned inside the domain loop is carried by it (``tspipe.domain_loop
    iter_args``, rule X26): each iteration starts with the value the last
    one assigned and the task's tail reads the value after the last
    iteration. Each task that uses a variable has its own copy. Assigning
    inside ``first_iter`` / ``last_iter`` raises ScheduleError (X26): the
    guard's value does not reach the next iteration; select the value in
    the work method instead.
    """

    def __init__(self, init=None, *, name: Optional[str] = None):
        if init is not None and not (callable(init) or isinstance(
                init, (int, float))) or isinstance(init, bool):
            raise TypeError(
                f"TaskLocalVariable(init) takes an int, a float or a "
                f"callable building the initial Value, got {init!r}")
        self.init = init
        self.name = name or "task_local"

    @classmethod
    def uninitialized(cls, name: Optional[str] = None) -> "TaskLocalVariable":
        """A variable with no initial value: a work call must assign it
        (``var.set(token)``) before anything reads it."""
        return cls(None, name=name)

    # Installed by tspipe.ts.schedule (which records schedules).
    _record = None

    def set(self, value) -> None:
        """``var.set(token)`` in a ``@schedule`` function: from here on the
        variable holds the Value(s) of the work call that returned
        ``token``."""
        type(self)._record(self, value)

    def __repr__(self):
        return f"TaskLocalVariable({self.name!r})"


class PipelineGroup:
    """TS's ``PipelineGroup(name, members, mode)``: the members share one
    barrier array (``tspipe.pipeline_group``; docs/Protocols.md, Pipeline
    groups). ``Merge``: the members share the empty barriers, the consumer
    waits on each member (``group.<member>.wait()``) and releases once on
    the group (``group.release()``); ``Fork``: they share the full barriers,
    the producer acquires each member and commits once on the group
    (``group.commit()``); ``FusedMerge``: they share both arrays, each
    producer acquires and commits its member, the consumer waits and
    releases once on the group (``group.wait()``, ``group.release()``) and
    reads a member's stage through ``current_stage``. ``group.<member
    name>`` is the member named through the group, as every bracket on a
    member must be (R24). ``pipeline_config``: TS's explicit group config,
    or None to derive it. Raises ValueError for another mode."""

    def __init__(self, name: str, members, mode=PipelineGroupMode.Merge,
                 pipeline_config=None):
        if getattr(mode, "name", mode) not in ("Merge", "Fork", "FusedMerge"):
            raise ValueError(
                f"pipeline group {name!r}: mode must be a PipelineGroupMode "
                f"(Merge, Fork or FusedMerge), got {mode!r}")
        self.name = name
        self.members = list(members)
        self.mode = mode
        self.pipeline_config = pipeline_config

    def __getattr__(self, attr):
        for member in self.__dict__.get("members", ()):
            if member.name == attr:
                return GroupMember(self, member)
        raise AttributeError(attr)

    def __repr__(self):
        return f"PipelineGroup({self.name!r}, {[m.name for m in self.members]})"


class GroupMember:
    """``group.<member>``: a member of a :class:`PipelineGroup` named
    through its group (TS's ``group.member``). Brackets on it name the group
    (``tspipe.consumer_wait @m group(@g)``); every other attribute is the
    member's."""

    def __init__(self, group: PipelineGroup, member: MemoryResource):
        self.__dict__["group"] = group
        self.__dict__["member"] = member

    def __getattr__(self, attr):
        return getattr(self.__dict__["member"], attr)

    def __eq__(self, other):
        other = other.member if isinstance(other, GroupMember) else other
        return self.member is other

    def __hash__(self):
        return id(self.member)

    def __repr__(self):
        return f"{self.group.name}.{self.member.name}"
