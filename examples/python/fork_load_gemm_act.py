"""GEMM + activation over one fork load: the pipeline skeleton of CUTLASS's
TS tutorial 7 (``fork_load_gemm_act``, TMA mode; Blackwell, sm_100a).

One load task fills the A tile once per k-step; a fork ``PipelineGroup``
hands it to two consumers that view the same shared-memory buffer through
two pipelines: the MMA (``SmemAGemm``, TmaUmma, with B from its own ring)
and the activation task (``SmemAAct``, TmaAsync), which reads the tile,
applies ReLU and stores it. The accumulator goes to the store task through
a UmmaAsync pipeline.

The shared storage: TS gives both views one ``SmemAllocation``; in tspipe
that allocation is a ``tspipe.buffer`` (``@smem_a``) that neither member
owns, sliced per stage by the stage index. Its reuse across stages is
ordered by the fork itself: the load acquires both members (both empty
barriers) before it overwrites a stage. In tspipe the members' stage
indices address the buffer (``tspipe.stage_index``), so R36 checks that
the MMA task releases each stage only after the MMA that reads it.

  LoadA (warp 4):     acquire gemm, acquire act -> tma_load -> group commit
  LoadB (warp 5):     acquire -> tma_load -> commit
  MMA (warp 6):       acc.acquire; wait a, wait b -> mma -> release a, b;
                      acc.commit
  StoreD (warps 0-2): acc.wait -> store -> acc.release
  StoreReLU (warp 3): wait act -> relu -> release act
  Padding (warp 7):   completes the warpgroup of warps 4-7 (R41)

Lowering: ``tspipe.compile`` for sm_100a, assembled with
``ptxas -arch=sm_100a``.

Run: ``python examples/python/fork_load_gemm_act.py [out_dir]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import tspipe.ts as pipeline
from tspipe import ir
from tspipe.dialects import arith, llvm
from tspipe.ts.memory import SmemAllocation, SmemAllocator, TmemAllocation, \
    TmemAllocator
from tspipe.ts.resources import (
    MemoryResource,
    PipelineConfig,
    PipelineGroup,
    PipelineGroupMode,
    StageInfo,
    consumer_work,
    producer_work,
)
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

MMA_TILER_MNK = (128, 64, 64)
AB_STAGES = 4
ACC_STAGES = 1
K_TILES = 8
ELEM_BYTES = 2  # fp16
NUM_STORE_WARPS = 3
NUM_RELU_WARPS = 1
ARCH = "sm_100a"

_M, _N, _K = MMA_TILER_MNK
BYTES_A = _M * _K * ELEM_BYTES
BYTES_B = _N * _K * ELEM_BYTES


class GmemResource(MemoryResource):
    """A global-memory operand or output (no pipeline)."""

    @consumer_work
    def coords(self, stage_info):
        pass

    @producer_work
    def store(self, stage_info):
        pass


@dataclass(eq=False)
class SmemAGemmResource(MemoryResource):
    """The A tile for the MMA (TmaUmma): owns the shared allocation."""

    def __post_init__(self):
        self._alloc = SmemAllocation("smem_a", BYTES_A * AB_STAGES)

    def get_smem_requirements(self):
        return [self._alloc]

    @producer_work
    def tma_load(self, stage_info: StageInfo):
        # The TMA copy of A into this stage's slice of the shared buffer
        # (the slice address stands for the copy).
        base = self.smem_address(self._alloc)
        slice_ptr(base, stage_info.index())

    @consumer_work
    def mma_operand(self, stage_info: StageInfo):
        # The MMA's descriptor of the stage's A slice (one tcgen05.mma of
        # A x B stands for the k-step's MMAs).
        base = self.smem_address(self._alloc)
        desc = llvm.PtrToIntOp(ir.IntegerType.get_signless(64),
                               slice_ptr(base, stage_info.index())).result
        llvm.InlineAsmOp(None, [desc], "// mma a-desc $0", "l",
                         has_side_effects=True)


@dataclass(eq=False)
class SmemAActResource(MemoryResource):
    """The same A tile for the activation (TmaAsync): lists the gemm view's
    allocation (TS's ``gemm_alloc``), so the two share one buffer."""

    gemm_alloc: object = None

    def get_smem_requirements(self):
        return [self.gemm_alloc]

    @consumer_work
    def relu(self, stage_info: StageInfo):
        # Read one word of the stage's A slice (stands for the ReLU pass).
        base = self.smem_address(self.gemm_alloc)
        ptr = slice_ptr(base, stage_info.index())
        llvm.LoadOp(ir.F32Type.get(), ptr)


@dataclass(eq=False)
class SmemBResource(MemoryResource):
    """B tiles (TmaUmma)."""

    @producer_work
    def tma_load(self, stage_info: StageInfo):
        pass

    @consumer_work
    def mma_operand(self, stage_info: StageInfo):
        pass


@dataclass(eq=False)
class TmemCResource(MemoryResource):
    """The accumulator (UmmaAsync)."""

    def __post_init__(self):
        self._alloc_acc = TmemAllocation("tmem_acc", _N * ACC_STAGES)

    def get_tmem_requirements(self):
        return [self._alloc_acc]

    @producer_work
    def mma(self, stage_info: StageInfo):
        pass

    @consumer_work
    def load_acc(self, stage_info: StageInfo):
        pass


def slice_ptr(base, index):
    """``base + index * BYTES_A``: the stage's A slice."""
    i64 = ir.IntegerType.get_signless(64)
    addr = llvm.PtrToIntOp(i64, base).result
    idx = arith.index_cast(i64, index)
    off = arith.muli(idx, arith.constant(i64, BYTES_A))
    return llvm.IntToPtrOp(base.type, arith.addi(addr, off)).result


def build(arch: str = ARCH, skip_validation: bool = False,
          release_before_mma: bool = False) -> TaskManager:
    """The TaskManager of the kernel (verified unless skip_validation).
    ``release_before_mma``: the MMA task releases the A stage before its
    MMA reads it (rejected, R36)."""
    cta = (1, 1, 1, 1)
    cfg_gemm = PipelineConfig.create_tma_umma_pipeline_cfg(
        num_stages=AB_STAGES, num_bytes=BYTES_A,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        cta_layout_vmnk=cta)
    cfg_act = PipelineConfig.create_tma_async_pipeline_cfg(
        num_stages=AB_STAGES, num_bytes=BYTES_A,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread,
                                                 NUM_RELU_WARPS),
        cta_layout_vmnk=cta)
    cfg_b = PipelineConfig.create_tma_umma_pipeline_cfg(
        num_stages=AB_STAGES, num_bytes=BYTES_B,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        cta_layout_vmnk=cta)
    cfg_c = PipelineConfig.create_umma_async_pipeline_cfg(
        num_stages=ACC_STAGES,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
        consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread,
                                                 NUM_STORE_WARPS * 32),
        cta_layout_vmnk=cta)

    gmem_a = GmemResource(name="gmem_a")
    gmem_b = GmemResource(name="gmem_b")
    smem_a_gemm = SmemAGemmResource(name="smem_a_gemm",
                                    pipeline_config=cfg_gemm)
    smem_a_act = SmemAActResource(name="smem_a_act", pipeline_config=cfg_act,
                                  gemm_alloc=smem_a_gemm._alloc)
    fork_sync = PipelineGroup(name="fork_sync",
                              members=[smem_a_gemm, smem_a_act],
                              mode=PipelineGroupMode.Fork)
    smem_b = SmemBResource(name="smem_b", pipeline_config=cfg_b,
                           smem_bytes=BYTES_B * AB_STAGES)
    tmem_c = TmemCResource(name="tmem_c", pipeline_config=cfg_c)
    gmem_d = GmemResource(name="gmem_d")
    gmem_relu_d = GmemResource(name="gmem_relu_d")

    allocator = SmemAllocator()
    allocator.add_resource(smem_a_gemm)
    allocator.add_resource(smem_b)
    allocator.add_pipeline_group(fork_sync)
    tmem_allocator = TmemAllocator()
    tmem_allocator.add_resource(tmem_c)

    @schedule
    def load_a_schedule(gmem, smem_gemm, smem_act, group):
        with domain_loop(0, K_TILES, 1):
            gmem.coords()
            smem_gemm.try_acquire()
            smem_gemm.acquire()
            smem_act.try_acquire()
            smem_act.acquire()
            smem_gemm.tma_load()
            group.commit()

    @schedule
    def load_b_schedule(gmem, smem):
        with domain_loop(0, K_TILES, 1):
            gmem.coords()
            smem.try_acquire()
            smem.acquire()
            smem.tma_load()
            smem.commit()

    @schedule
    def mma_schedule(smem_a, smem_b_ref, tmem):
        tmem.try_acquire()
        tmem.acquire()
        with domain_loop(0, K_TILES, 1):
            smem_a.try_wait()
            smem_a.wait()
            smem_b_ref.try_wait()
            smem_b_ref.wait()
            smem_b_ref.mma_operand()
            if release_before_mma:
                smem_a.release()
                smem_a.mma_operand()
            else:
                smem_a.mma_operand()
                smem_a.release()
            tmem.mma()
            smem_b_ref.release()
        tmem.commit()

    @schedule
    def store_d_schedule(tmem, gmem):
        with domain_loop(0, 1, 1):
            pass
        tmem.try_wait()
        tmem.wait()
        tmem.load_acc()
        gmem.store()
        tmem.release()

    @schedule
    def store_relu_schedule(smem, gmem):
        with domain_loop(0, K_TILES, 1):
            smem.try_wait()
            smem.wait()
            smem.relu()
            gmem.store()
            smem.release()

    @schedule
    def padding_schedule():
        with domain_loop(0, 1, 1):
            pass

    tasks = [
        Task([gmem_a], [smem_a_gemm, smem_a_act], 4, 1, name="LoadA",
             schedule=load_a_schedule(gmem_a, fork_sync.smem_a_gemm,
                                      fork_sync.smem_a_act, fork_sync)),
        Task([gmem_b], [smem_b], 5, 1, name="LoadB",
             schedule=load_b_schedule(gmem_b, smem_b)),
        Task([smem_a_gemm, smem_b], [tmem_c], 6, 1, name="MmaTask",
             schedule=mma_schedule(fork_sync.smem_a_gemm, smem_b, tmem_c)),
        Task([tmem_c], [gmem_d], 0, NUM_STORE_WARPS, name="StoreD",
             schedule=store_d_schedule(tmem_c, gmem_d)),
        Task([smem_a_act], [gmem_relu_d], 3, NUM_RELU_WARPS, name="StoreReLU",
             schedule=store_relu_schedule(fork_sync.smem_a_act, gmem_relu_d)),
        Task([], [], 7, 1, name="Padding", schedule=padding_schedule()),
    ]
    return TaskManager(
        tasks=tasks,
        resource_dependency_graph={smem_a_gemm: [gmem_a], smem_b: [gmem_b],
                                   tmem_c: [smem_a_gemm, smem_b],
                                   gmem_d: [tmem_c],
                                   gmem_relu_d: [smem_a_act]},
        smem_allocator=allocator, tmem_allocator=tmem_allocator,
        skip_validation=skip_validation, name="fork_load_gemm_act",
        arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble

    task_manager = build()
    print("fork_load_gemm_act: verified")
    return compile_and_assemble(task_manager, ARCH, argv)


if __name__ == "__main__":
    raise SystemExit(main())
