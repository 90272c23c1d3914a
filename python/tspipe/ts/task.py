"""TS's ``Task`` over tspipe (``tspipe.ts.task``): ``Task(src_resources,
dst_resources, warp_idx, num_warps, *, schedule, ...)`` with TS 4.8.1's
parameters, so ``from cutlass.experimental.task_scheduling.task import Task``
ports by changing the import. The kernel builder's task is
:class:`tspipe.ts.Task` (``Kernel.task``)."""

from __future__ import annotations

from typing import Any, List, Optional

from .schedule import ScheduleResult

__all__ = ["Task"]


class Task:
    """Warps ``[warp_idx, warp_idx + num_warps)`` running ``schedule`` (a
    :class:`~tspipe.ts.schedule.ScheduleResult` of a ``@schedule``
    function). ``src_resources`` are consumed (TS: the task waits on and
    releases them), ``dst_resources`` produced. ``num_registers``
    (``setmaxnreg``), ``name`` and ``run_only_on_cta_id`` as in TS; the
    profiling and debug keywords are accepted and ignored.

    Raises TypeError if ``schedule`` is not a ScheduleResult.
    """

    def __init__(self, src_resources: List[Any], dst_resources: List[Any],
                 warp_idx: int, num_warps: int, *, schedule: ScheduleResult,
                 num_registers: Optional[int] = None, name: str = "",
                 debug_print: bool = False, iket_enable_profiling: bool = False,
                 iket_profiling_stages=None, iket_profiling_resources=None,
                 run_only_on_cta_id: Optional[int] = None):
        if not isinstance(schedule, ScheduleResult):
            raise TypeError(
                f"schedule= takes what a @schedule function returned, got "
                f"{schedule!r}")
        self.src_resources = list(src_resources)
        self.dst_resources = list(dst_resources)
        self.warp_idx = warp_idx
        self.num_warps = num_warps
        self.schedule = schedule
        self.num_registers = num_registers
        self.name = name
        self.run_only_on_cta_id = run_only_on_cta_id

    def __repr__(self):
        return (f"Task({self.name!r}, warp_idx={self.warp_idx}, "
                f"num_warps={self.num_warps})")
