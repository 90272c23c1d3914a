"""Persistent kernels in the tspipe builder and in TS's vocabulary: the
kernel's work queue, the tile loop of each task, ``skip_if`` /
``skippable`` (ts-semantics 2.7, 2.8, 4.1; rules R19-R22, R35;
docs/python.md, Persistent kernels).

Builder (:meth:`tspipe.ts.Kernel.work_queue`, :meth:`tspipe.ts.Task.work_tile_loop`)::

    k.work_queue("tiles", grid=[m, n, 1])         # static persistent
    k.work_queue("dyn", clc="clc")               # CLC-driven, pipeline @clc
    with t.work_tile_loop("tiles", skip_if=lambda m, n, l: ...) as (m, n, l):
        with t.skippable():
            with t.domain_loop(0, end_of(m), 1): ...
        t.advance_work_tile("tiles")

TS (``tspipe.ts.WorkQueue``, ``work_tile_loop``): a :class:`WorkQueue` is a
resource listed in every task's ``src_resources`` (and in the CLC
scheduler task's ``dst_resources``); a schedule walks it with ``with
work_tile_loop(wq, skip_if=...) as wtl:`` and ends each tile with the
queue's steps in the tail (``wq.wait()``, ``wq.get_and_advance_work_tile()``,
``wq.release()``; the scheduler first ``wq.acquire()``,
``wq.fetch_work_tile()``, ``wq.commit()``).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from .config import PipelineConfig
from .resources import MemoryResource

__all__ = ["WorkQueue", "TileSchedulerType"]


class TileSchedulerType:
    """TS's scheduler kinds of a :class:`WorkQueue`."""

    StaticPersistent = "static_persistent"
    ClcDynamicPersistent = "clc_dynamic_persistent"


class WorkQueue(MemoryResource):
    """TS's ``WorkQueue``: the tile scheduler of a persistent kernel.

    Args:
      name: the queue's symbol.
      grid: the tile grid of the static scheduler, 1 to 3 extents (ints or
        ``index`` Values, or callables ``f(kernel)`` returning one).
      pipeline_config: a ``clc_fetch_async`` config for the CLC-driven
        scheduler (the try_cancel responses; its pipeline is named
        ``<name>_clc``, 16 bytes per stage).

    Exactly one of ``grid`` and ``pipeline_config`` (R35; TypeError
    otherwise).
    """

    def __init__(self, name: str, grid: Optional[Sequence[Any]] = None,
                 pipeline_config: Optional[PipelineConfig] = None):
        if (grid is None) == (pipeline_config is None):
            raise TypeError("WorkQueue takes grid=(m, n, l) for the static "
                            "persistent scheduler or pipeline_config= (a "
                            "clc_fetch_async config) for the CLC scheduler")
        super().__init__(name=name, pipeline_config=pipeline_config)
        self.grid = tuple(grid) if grid is not None else None
        if pipeline_config is not None:
            self.smem_bytes = 16 * pipeline_config.num_stages

    @property
    def scheduler_type(self) -> str:
        return (TileSchedulerType.StaticPersistent if self.grid is not None
                else TileSchedulerType.ClcDynamicPersistent)

    @property
    def pipeline_name(self) -> str:
        """The name of the CLC queue's pipeline."""
        return f"{self.name}_clc"

    @property
    def num_coordinates(self) -> int:
        return len(self.grid) if self.grid is not None else 3
