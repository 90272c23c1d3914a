"""Split-K GEMM: the pipeline skeleton of CUTLASS's TS tutorial 6
(``gemm_split_k``), with its shared-memory alias group (Blackwell, sm_100a).

Structure (as in the tutorial): A/B tiles stream into shared memory through
a TmaUmma pipeline (8 stages); one MMA warp accumulates into tensor memory
behind a single-stage UmmaAsync pipeline; four epilogue warps wait for the
accumulator, read it in subtiles and hand each partial to the epilogue's
staging buffer, from which the CTAs of the split-K cluster reduce.

The alias group: once the main loop is over, the A/B ring is free, so the
epilogue's staging buffer reuses its storage
(``add_alias_group([[a, b], [staging]])``; tspipe: ``tspipe.alias_group
@smem_alias0 smem [[@SmemAb], [@GmemD_smem_staging]]``). tspipe checks that
the IR orders the reuse (rule X23): the MMA's reads of the ring end when its
tcgen05 commit of the accumulator arrives, and the epilogue writes the
staging buffer only after waiting on the accumulator. :func:`build` with
``early_store=True`` writes it before that wait, which X23 rejects.

  Load (warp 4):      acquire -> tma_load -> commit              (K tiles)
  MMA (warp 5):       acc.acquire; wait -> mma -> release; acc.commit
  Store (warps 0-3):  acc.wait -> (load_subtile -> store) x 2 -> acc.release
  Padding (6-7):      completes the warpgroup of warps 4-7 (R41)

The work methods build only what the pipelines and the alias group need
(the staging buffer's stores; the TMA copies, MMAs, TMEM loads and the DSMEM
reduction are outside this skeleton). Lowering: ``tspipe.compile`` for
sm_100a, assembled with ``ptxas -arch=sm_100a``.

Run: ``python examples/python/gemm_split_k.py [out_dir]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import tspipe.ts as pipeline
from tspipe.dialects import arith, llvm
from tspipe import ir
from tspipe.ts.memory import SmemAllocation, SmemAllocator, TmemAllocation, \
    TmemAllocator
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

SPLIT_K = 2
MMA_TILER_MNK = (128, 16, 64)
AB_STAGES = 8
ACC_STAGES = 1
K_TILES_PER_CTA = 8
ELEM_BYTES = 2  # fp16
SUBTILES = 2
NUM_EPILOGUE_WARPS = 4
ARCH = "sm_100a"

_M, _N, _K = MMA_TILER_MNK
A_BYTES = _M * _K * AB_STAGES * ELEM_BYTES
B_BYTES = _N * _K * AB_STAGES * ELEM_BYTES
STAGE_BYTES = (_M + _N) * _K * ELEM_BYTES
# One [M, N / SPLIT_K] fp16 chunk per peer CTA.
EPILOGUE_BYTES = SPLIT_K * _M * (_N // SPLIT_K) * ELEM_BYTES


class GmemAbResource(MemoryResource):
    """The global A/B tiles (no pipeline): split-K offsets per CTA."""

    @consumer_work
    def compute_coords(self, stage_info):
        pass


@dataclass(eq=False)
class SmemAbResource(MemoryResource):
    """A and B stages in shared memory (TmaUmma): two allocations, one data
    buffer of their sum."""

    def __post_init__(self):
        self._alloc_a = SmemAllocation("smem_a", A_BYTES)
        self._alloc_b = SmemAllocation("smem_b", B_BYTES)

    def get_smem_requirements(self):
        return [self._alloc_a, self._alloc_b]

    @producer_work
    def tma_load(self, stage_info: StageInfo):
        pass  # TMA copies of A and B complete on stage_info.barrier

    @consumer_work
    def mma(self, stage_info: StageInfo):
        pass  # tcgen05.mma on the stage's descriptors


@dataclass(eq=False)
class TmemCResource(MemoryResource):
    """The accumulator (UmmaAsync): N x ACC_STAGES TMEM columns, rounded up
    to the 32 a tcgen05.alloc takes at least (R44)."""

    def __post_init__(self):
        self._alloc_acc = TmemAllocation("tmem_acc", max(32, _N * ACC_STAGES))

    def get_tmem_requirements(self):
        return [self._alloc_acc]

    @consumer_work
    def load_subtile(self, stage_info: StageInfo):
        pass  # tcgen05.ld of one subtile


@dataclass(eq=False)
class GmemDResource(MemoryResource):
    """The epilogue (no pipeline): the staging buffer (reusing the A/B
    ring) and the receive buffer of the peers' partials."""

    def __post_init__(self):
        self._alloc_staging = SmemAllocation("smem_staging", EPILOGUE_BYTES)
        self._alloc_recv = SmemAllocation("smem_recv", EPILOGUE_BYTES)

    def get_smem_requirements(self):
        return [self._alloc_staging, self._alloc_recv]

    @producer_work
    def store(self, stage_info):
        # The partial of this subtile goes to the staging buffer (one fp32
        # word stands for the subtile's stores).
        addr = stage_info.smem_address(self._alloc_staging)
        zero = arith.constant(ir.F32Type.get(), 0.0)
        llvm.StoreOp(zero, addr)


def build(arch: str = ARCH, skip_validation: bool = False,
          early_store: bool = False) -> TaskManager:
    """The TaskManager of the kernel (verified unless skip_validation).
    ``early_store``: the epilogue writes its staging buffer before it waits
    for the accumulator (rejected, X23)."""
    ab_config = PipelineConfig.create_tma_umma_pipeline_cfg(
        num_stages=AB_STAGES,
        num_bytes=STAGE_BYTES,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
        consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        cta_layout_vmnk=(1, 1, 1, 1),
    )
    acc_config = PipelineConfig.create_umma_async_pipeline_cfg(
        num_stages=ACC_STAGES,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
        consumer_group=pipeline.CooperativeGroup(
            pipeline.Agent.Thread, NUM_EPILOGUE_WARPS * 32),
        cta_layout_vmnk=(1, 1, 1, 1),
    )
    gmem_ab = GmemAbResource(name="GmemAb")
    smem_ab = SmemAbResource(name="SmemAb", pipeline_config=ab_config)
    tmem_c = TmemCResource(name="TmemC", pipeline_config=acc_config)
    gmem_d = GmemDResource(name="GmemD")

    allocator = SmemAllocator()
    allocator.add_resource(smem_ab)
    allocator.add_resource(gmem_d)
    # The A/B ring is free once the main loop is done: the staging buffer
    # reuses it (the receive buffer may not: the peers' main loops may
    # still run).
    allocator.add_alias_group([
        [smem_ab._alloc_a, smem_ab._alloc_b],
        [gmem_d._alloc_staging],
    ])
    tmem_allocator = TmemAllocator()
    tmem_allocator.add_resource(tmem_c)

    @schedule
    def load_schedule(gmem, smem):
        with domain_loop(0, K_TILES_PER_CTA, 1):
            gmem.compute_coords()
            smem.try_acquire()
            smem.acquire()
            smem.tma_load()
            smem.commit()

    @schedule
    def mma_schedule(smem, tmem):
        tmem.try_acquire()
        tmem.acquire()
        with domain_loop(0, K_TILES_PER_CTA, 1):
            smem.try_wait()
            smem.wait()
            smem.mma()
            smem.release()
        tmem.commit()

    @schedule
    def store_schedule(tmem, gmem):
        with domain_loop(0, K_TILES_PER_CTA, 1):
            pass
        if early_store:
            gmem.store()
        tmem.try_wait()
        tmem.wait()
        for _ in range(SUBTILES):
            tmem.load_subtile()
            gmem.store()
        tmem.release()

    @schedule
    def padding_schedule():
        with domain_loop(0, K_TILES_PER_CTA, 1):
            pass

    tasks = [
        Task([gmem_ab], [smem_ab], 4, 1, schedule=load_schedule(gmem_ab, smem_ab),
             num_registers=40, name="LoadTask"),
        Task([smem_ab], [tmem_c], 5, 1, schedule=mma_schedule(smem_ab, tmem_c),
             num_registers=40, name="MmaTask"),
        Task([tmem_c], [gmem_d], 0, NUM_EPILOGUE_WARPS,
             schedule=store_schedule(tmem_c, gmem_d), num_registers=160,
             name="StoreTask"),
        Task([], [], 6, 2, schedule=padding_schedule(), num_registers=40,
             name="PaddingTask"),
    ]
    return TaskManager(
        tasks=tasks,
        resource_dependency_graph={smem_ab: [gmem_ab], tmem_c: [smem_ab],
                                   gmem_d: [tmem_c]},
        smem_allocator=allocator, tmem_allocator=tmem_allocator,
        skip_validation=skip_validation, cluster=(1, 1, SPLIT_K),
        name="gemm_split_k", arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble

    task_manager = build()
    print("gemm_split_k: verified")
    return compile_and_assemble(task_manager, ARCH, argv)


if __name__ == "__main__":
    raise SystemExit(main())
