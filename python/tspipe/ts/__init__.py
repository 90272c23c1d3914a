"""The TS front end: CuTe DSL Task Scheduling vocabulary over tspipe IR.

* :mod:`~tspipe.ts.vocabulary`: ``Agent``, ``CooperativeGroup``,
  ``SignalingThreads``, ``PipelineOp``, ``PipelineType`` (the dialect's
  generated enums).
* :mod:`~tspipe.ts.config`: ``PipelineConfig`` and its seven factories
  (built through the C API, validated by the C++ verifier of
  ``#tspipe.config``).
* :mod:`~tspipe.ts.kernel`: ``Kernel`` -- pipelines and tasks, built with
  the op builders and verified in C++; :mod:`~tspipe.ts.brackets`: ``Task``,
  ``Stage``, ``Token`` -- schedules written with
  acquire/try_acquire/commit/wait/try_wait/release, the domain loop and
  first_iter/last_iter (work steps are callables using the dialect
  builders); :mod:`~tspipe.ts.builder`: the builder core (``Pipeline``,
  user locations, argument types); :mod:`~tspipe.ts.verification`: target,
  verifiers, progress checker and lowering of a Kernel.
* :mod:`~tspipe.ts.errors` (:mod:`tspipe.diagnostics`):
  ``PipelineConfigError``, ``ScheduleError``, ``ArchError`` (all
  ``ValueError`` with ``rule`` and ``message``: mistakes in the input),
  ``ConfigTypeError`` (``TypeError``), ``CompileError`` (``RuntimeError``:
  lowering a verified module failed).
* ``SUPPORTED_ARCHS``: the chips tspipe kernels compile for
  (:mod:`tspipe.targets`).
* TS's own module layout, so TS code ports by changing imports:
  :mod:`~tspipe.ts.schedule` (``schedule``, ``domain_loop``,
  ``producer_work``, ``consumer_work``), :mod:`~tspipe.ts.resources`
  (``MemoryResource``, ``PipelineConfig``), :mod:`~tspipe.ts.task`
  (``Task``), :mod:`~tspipe.ts.task_manager` (``TaskManager``),
  :mod:`~tspipe.ts.memory` (``SmemAllocator``).
* :func:`~tspipe.ts.importer.from_ts`: a real TS ``TaskManager`` as tspipe IR.

Importing this package loads the compiled extension (the enums are the
dialect's generated ones).
"""

from ..diagnostics import (
    ArchError,
    CompileError,
    ConfigTypeError,
    Diagnostic,
    PipelineConfigError,
    ScheduleError,
    TSPipeError,
)
from ..targets import SUPPORTED_ARCHS
from .brackets import Stage, Task, Token
from .builder import Pipeline
from .config import (
    PipelineConfig,
    create_async_async_pipeline_cfg,
    create_async_umma_pipeline_cfg,
    create_clc_fetch_async_pipeline_cfg,
    create_tma_async_pipeline_cfg,
    create_tma_umma_pipeline_cfg,
    create_umma_async_pipeline_cfg,
    create_umma_umma_pipeline_cfg,
)
from .importer import from_ts
from .kernel import Kernel
from .memory import SmemAllocator, TmemAllocator
from .resources import (
    MemoryResource,
    PdlLaunchBarrier,
    PdlWaitBarrier,
    WorkAttr,
)
from .schedule import (
    consumer_work,
    domain_loop,
    producer_work,
    schedule,
    when_false,
    when_true,
    work_tile_loop,
)
from .task_manager import TaskManager
from .vocabulary import (
    Agent,
    CooperativeGroup,
    PipelineOp,
    PipelineType,
    RemoteArriveScope,
    SignalingThreads,
)
from .work_queue import TileSchedulerType, WorkQueue

__all__ = [
    "Agent",
    "CooperativeGroup",
    "SignalingThreads",
    "PipelineOp",
    "PipelineType",
    "RemoteArriveScope",
    "PipelineConfig",
    "create_async_async_pipeline_cfg",
    "create_tma_async_pipeline_cfg",
    "create_tma_umma_pipeline_cfg",
    "create_umma_async_pipeline_cfg",
    "create_async_umma_pipeline_cfg",
    "create_umma_umma_pipeline_cfg",
    "create_clc_fetch_async_pipeline_cfg",
    "Kernel",
    "Pipeline",
    "Task",
    "Stage",
    "Token",
    "TSPipeError",
    "PipelineConfigError",
    "ScheduleError",
    "ConfigTypeError",
    "ArchError",
    "CompileError",
    "Diagnostic",
    "SUPPORTED_ARCHS",
    "schedule",
    "domain_loop",
    "producer_work",
    "consumer_work",
    "work_tile_loop",
    "WorkQueue",
    "TileSchedulerType",
    "when_true",
    "when_false",
    "WorkAttr",
    "MemoryResource",
    "PdlWaitBarrier",
    "PdlLaunchBarrier",
    "SmemAllocator",
    "TmemAllocator",
    "TaskManager",
    "from_ts",
]
