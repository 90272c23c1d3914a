"""Simple GEMM: the pipeline skeleton of TS's simple tcgen05 GEMM tutorial,
ported to tspipe by changing imports (Blackwell, sm_100a).

Structure (as in the tutorial): A/B tiles stream into shared memory
through a TmaUmma pipeline (one elected TMA thread produces ``num_bytes`` =
A + B tile bytes per stage; the MMA warp's tcgen05 commit releases the
stage); the accumulator lives in tensor memory behind a UmmaAsync pipeline
(the MMA warp acquires it on the first k-tile and commits it on the last;
the four epilogue warps wait, read it and release it).

  TMA  (warp 5):     try_acquire -> acquire -> tma_load -> commit   (K_TILES)
  MMA  (warp 4):     first_iter: acc.acquire; wait -> mma -> release;
                     last_iter: acc.commit                           (K_TILES)
  Epilogue (0-3):    acc.wait -> epilogue -> acc.release             (1 tile)
  Padding (6-7):     completes the warpgroup of warps 4-7 (R41)

The work methods build no tcgen05 operations: the MMA descriptors and the
tensor-memory loads are outside this skeleton, which shows the pipelines,
tasks and schedules. The kernel verifies with tspipe's C++ verifiers.
Lowering: ``tspipe.compile`` lowers both pipelines for sm_100a (tcgen05
commits; see docs/Protocols.md) and the PTX is assembled with
``ptxas -arch=sm_100a``.

Run: ``python examples/python/gemm.py [out_dir]``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

# --- the TS imports, changed: ------------------------------------------------
#   import cutlass.pipeline as pipeline
#   from cutlass.experimental.task_scheduling.resources import (MemoryResource,
#       StageInfo, PipelineConfig, consumer_work, producer_work)
#   from cutlass.experimental.task_scheduling.schedule_builder import domain_loop, schedule
#   from cutlass.experimental.task_scheduling.task import Task
#   from cutlass.experimental.task_scheduling.task_manager import TaskManager
import tspipe.ts as pipeline
from tspipe.ts.resources import (
    MemoryResource,
    PipelineConfig,
    StageInfo,
    consumer_work,
    producer_work,
)
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

NUM_AB_STAGES = 4
TILE_M, TILE_N, TILE_K = 128, 128, 64
AB_BYTES = (TILE_M + TILE_N) * TILE_K * 2   # bf16 A and B tiles per stage
K_TILES = 16
NUM_EPILOGUE_WARPS = 4
ARCH = "sm_100a"


@dataclass
class SmemABResource(MemoryResource):
    """A/B tiles in shared memory (TmaUmma)."""

    @producer_work
    def tma_load(self, stage_info: StageInfo):
        pass  # the TMA tensor copies of A and B complete on stage_info.barrier

    @consumer_work
    def mma(self, stage_info: StageInfo):
        pass  # tcgen05.mma on the stage's A/B tiles


@dataclass
class TmemAccResource(MemoryResource):
    """The accumulator in tensor memory (UmmaAsync)."""

    @consumer_work
    def epilogue(self, stage_info: StageInfo):
        pass  # tcgen05.ld of the accumulator, convert, store


def build(arch: str = ARCH, skip_validation: bool = False) -> TaskManager:
    """The TaskManager of the kernel (verified unless skip_validation)."""
    # --- TS code, unchanged ---------------------------------------------------
    ab_config = PipelineConfig.create_tma_umma_pipeline_cfg(
        num_stages=NUM_AB_STAGES,
        num_bytes=AB_BYTES,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        cta_layout_vmnk=(1, 1, 1, 1),
    )
    acc_config = PipelineConfig.create_umma_async_pipeline_cfg(
        num_stages=1,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        consumer_group=pipeline.CooperativeGroup(
            pipeline.Agent.Thread, NUM_EPILOGUE_WARPS * 32),
        cta_layout_vmnk=(1, 1, 1, 1),
    )
    smem_ab = SmemABResource(name="smem_ab", pipeline_config=ab_config,
                             smem_bytes=NUM_AB_STAGES * AB_BYTES)
    tmem_acc = TmemAccResource(name="tmem_acc", pipeline_config=acc_config,
                               tmem_columns=TILE_N)

    @schedule
    def tma_schedule(smem):
        with domain_loop(0, K_TILES, 1):
            smem.try_acquire()
            smem.acquire()
            smem.tma_load()
            smem.commit()

    @schedule
    def mma_schedule(smem, acc):
        with domain_loop(0, K_TILES, 1) as d:
            with d.first_iter():
                acc.acquire()
            smem.try_wait()
            smem.wait()
            smem.mma()
            smem.release()
            with d.last_iter():
                acc.commit()

    @schedule
    def epilogue_schedule(acc):
        with domain_loop(0, 1, 1):
            acc.wait()
            acc.epilogue()
            acc.release()

    @schedule
    def padding_schedule():
        with domain_loop(0, 1, 1):
            pass

    tasks = [
        Task(src_resources=[], dst_resources=[smem_ab], warp_idx=5,
             num_warps=1, schedule=tma_schedule(smem_ab), name="TMA"),
        Task(src_resources=[smem_ab], dst_resources=[tmem_acc], warp_idx=4,
             num_warps=1, schedule=mma_schedule(smem_ab, tmem_acc),
             name="MMA"),
        Task(src_resources=[tmem_acc], dst_resources=[], warp_idx=0,
             num_warps=NUM_EPILOGUE_WARPS,
             schedule=epilogue_schedule(tmem_acc), name="Epilogue"),
        Task(src_resources=[], dst_resources=[], warp_idx=6, num_warps=2,
             schedule=padding_schedule(), name="Padding"),
    ]
    # --- up to here ----------------------------------------------------------
    return TaskManager(
        tasks=tasks, resource_dependency_graph={tmem_acc: [smem_ab]},
        skip_validation=skip_validation,
        name="gemm", args=["a", "b", "c"], arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble

    task_manager = build()
    print("gemm: verified")
    return compile_and_assemble(task_manager, ARCH, argv)


if __name__ == "__main__":
    sys.exit(main())
