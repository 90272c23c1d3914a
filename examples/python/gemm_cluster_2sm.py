"""Clustered persistent GEMM with 2-CTA MMA pairs: the pipeline skeleton of
CUTLASS's TS tutorial 4 (``gemm_cluster_2sm``: PDL, a 2-CTA cluster, a
static or CLC-driven work queue), ported to tspipe (Blackwell, sm_100a,
compile-only).

Structure (as in the tutorial, cluster (2, 1, 1): one MMA pair of V = 2
CTAs computing a 256 x 256 tile):

* ``SmemA`` / ``SmemB``: TmaUmma pipelines over the cluster (layout
  ``(2, 1, 1, 1)``), 3 stages; each CTA's TMA load brings its half (16 KiB)
  and the pair leader's full barrier expects the pair's bytes
  (``num_bytes`` = 2 x 16 KiB, ``num_bytes_per_warp_per_cta`` = 16 KiB);
  one consumer per MMA pair, signalled by the leader CTA (``CtaLeader``).
* ``TmemC``: the UmmaAsync accumulator, 2 stages of 256 columns; the pair
  leader's tcgen05 commit (``producer_signaling_threads=CtaLeader``) is
  waited on by the 4 epilogue warps of both CTAs (256 threads).
* ``WorkQueue``: the static persistent scheduler over the tile grid (kernel
  arguments ``tiles_m``, ``tiles_n``, ``tiles_l``), or with ``clc=True``
  the CLC-driven one (a ClcFetchAsync pipeline, 2 stages of one 16-byte
  response, produced by a scheduler warp on the leader CTA and consumed by
  every warp of both CTAs: 32 x 2 x 8 threads).
* PDL: the A-load task waits for the previous grid once, before its first
  tile, and lets the dependent grid launch after its last tile
  (``PdlWaitBarrier`` -> ``SmemA``).

  StoreTask (warps 0-3): tiles: acc.wait; (load_subtile, store) x 8;
                         acc.release
  LoadATask (warp 4):    pdl wait; tiles: k-loop acquire, tma_load_a,
                         commit; pdl launch
  LoadBTask (warp 5):    tiles: k-loop acquire, tma_load_b, commit
  MmaTask (warp 6):      tiles: acc.acquire; k-loop wait A/B, mma, release
                         A/B; acc.commit
  warp 7:                PaddingTask (static) or WorkScheduleTask (CLC:
                         acquire, fetch_work_tile, commit)

Every task ends each tile with the queue's bookkeeping (``try_wait``,
``wait``, ``get_and_advance_work_tile``, ``release``). The work methods are
the skeleton's: they build no TMA copy, MMA or TMEM load (the schedule,
the pipelines, the queue and the PDL points are what tspipe verifies and
lowers here; examples/python/gemm.py shows real tcgen05 work methods).

Run: ``python examples/python/gemm_cluster_2sm.py [out_dir]``;
``gemm_cluster_2sm_clc.py`` is the CLC variant.
"""

from __future__ import annotations

from dataclasses import dataclass

import tspipe.ts as pipeline
from tspipe.ts.enums import WorkAttr
from tspipe.ts.memory import SmemAllocation, SmemAllocator, TmemAllocation, \
    TmemAllocator
from tspipe.ts.resources import (
    MemoryResource,
    PdlLaunchBarrier,
    PdlWaitBarrier,
    PipelineConfig,
    StageInfo,
    consumer_work,
    producer_work,
)
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager
from tspipe.ts.vocabulary import SignalingThreads

ARCH = "sm_100a"
CLUSTER_SHAPE_MNK = (2, 1, 1)
NUM_MMA_CTAS = 2                                  # V: the MMA pair
CLUSTER_SIZE = CLUSTER_SHAPE_MNK[0] * CLUSTER_SHAPE_MNK[1]
NUM_PAIRS = CLUSTER_SIZE // NUM_MMA_CTAS
CTA_LAYOUT_VMNK = (NUM_MMA_CTAS, CLUSTER_SHAPE_MNK[0] // NUM_MMA_CTAS,
                   CLUSTER_SHAPE_MNK[1], 1)
MMA_TILER_MNK = (256, 256, 64)
MMA_TILER_MNK_PER_CTA = (128, MMA_TILER_MNK[1] // NUM_MMA_CTAS, 64)
ELEM_BYTES = 2                                    # fp16
AB_STAGES = 3
ACC_STAGES = 2
NUM_SCHEDULER_STAGES = 2
NUM_K_TILES = 8
NUM_EPILOGUE_WARPS = 4
SUBTILES = MMA_TILER_MNK[1] // 32
A_BYTES_PER_CTA = MMA_TILER_MNK_PER_CTA[0] * MMA_TILER_MNK[2] * ELEM_BYTES
B_BYTES_PER_CTA = MMA_TILER_MNK_PER_CTA[1] * MMA_TILER_MNK[2] * ELEM_BYTES
TMEM_COLUMNS = 512                                # ACC_STAGES x 256


class GmemAbResource(MemoryResource):
    """The global A/B tiles (no pipeline): the tile's coordinates."""

    @consumer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_tile_coords(self, stage_info):
        pass  # the tile's (m, n, l) and the CTA's rank in the cluster

    @consumer_work
    def compute_coords(self, stage_info):
        pass  # the k-tile's TMA coordinates


class SmemAbResource(MemoryResource):
    """The A or B stages in shared memory (TmaUmma over the cluster)."""

    def __init__(self, operand: str, **kwargs):
        super().__init__(**kwargs)
        per_cta = A_BYTES_PER_CTA if operand == "a" else B_BYTES_PER_CTA
        self._alloc = SmemAllocation(f"smem_{operand}", per_cta * AB_STAGES)

    def get_smem_requirements(self):
        return [self._alloc]

    @producer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_load_state(self, stage_info):
        pass

    @consumer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_descriptors(self, stage_info):
        pass

    @producer_work
    def tma_load(self, stage_info: StageInfo):
        pass  # this CTA's half, multicast along the pair; completes on the
        # leader's full barrier

    @consumer_work
    def build_desc(self, stage_info: StageInfo):
        pass  # the stage's shared-memory descriptor


@dataclass(eq=False)
class TmemCResource(MemoryResource):
    """The accumulator (UmmaAsync, pair-scoped)."""

    def __post_init__(self):
        self._alloc = TmemAllocation("tmem_acc", TMEM_COLUMNS)

    def get_tmem_requirements(self):
        return [self._alloc]

    @producer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_accumulator_state(self, stage_info):
        pass

    @producer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_work_tile_state(self, stage_info):
        pass

    @consumer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_store_state(self, stage_info):
        pass

    @producer_work
    def mma(self, stage_info: StageInfo):
        pass  # tcgen05.mma.cta_group::2 from the pair leader

    @consumer_work
    def load_subtile(self, stage_info: StageInfo):
        pass  # tcgen05.ld of 32 columns


class GmemDResource(MemoryResource):
    """The output tile (no pipeline)."""

    @producer_work
    def store(self, stage_info):
        pass


def _tail(wq):
    wq.try_wait()
    wq.wait()
    wq.get_and_advance_work_tile()
    wq.release()


def _grid(axis: int):
    from tspipe import ir
    from tspipe.dialects import arith

    name = ("tiles_m", "tiles_n", "tiles_l")[axis]
    return lambda k: k.prologue(
        lambda: arith.index_cast(ir.IndexType.get(), k.arg(name)))


def build(arch: str = ARCH, skip_validation: bool = False,
          clc: bool = False) -> TaskManager:
    """The TaskManager of the kernel (verified unless skip_validation);
    ``clc``: the CLC-driven work queue and its scheduler warp."""
    num_load_warps, num_mma_warps = 2, 1
    num_scheduler_warps = 1 if clc else 0
    warps = NUM_EPILOGUE_WARPS + num_load_warps + num_mma_warps + \
        num_scheduler_warps
    num_padding_warps = (warps + 3) // 4 * 4 - warps

    def ab_config(per_cta: int):
        return PipelineConfig.create_tma_umma_pipeline_cfg(
            num_stages=AB_STAGES,
            num_bytes=per_cta * NUM_MMA_CTAS,
            producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
            consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread,
                                                     NUM_PAIRS),
            cta_layout_vmnk=CTA_LAYOUT_VMNK,
            consumer_signaling_threads=SignalingThreads.CtaLeader,
            num_bytes_per_warp_per_cta=per_cta)

    gmem_ab = GmemAbResource(name="GmemAb")
    smem_a = SmemAbResource("a", name="SmemA",
                            pipeline_config=ab_config(A_BYTES_PER_CTA))
    smem_b = SmemAbResource("b", name="SmemB",
                            pipeline_config=ab_config(B_BYTES_PER_CTA))
    pdl_wait = PdlWaitBarrier(name="PdlWait")
    pdl_launch = PdlLaunchBarrier(name="PdlLaunch")
    tmem_c = TmemCResource(
        name="TmemC",
        pipeline_config=PipelineConfig.create_umma_async_pipeline_cfg(
            num_stages=ACC_STAGES,
            producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
            consumer_group=pipeline.CooperativeGroup(
                pipeline.Agent.Thread,
                NUM_EPILOGUE_WARPS * 32 * NUM_MMA_CTAS),
            cta_layout_vmnk=CTA_LAYOUT_VMNK,
            producer_signaling_threads=SignalingThreads.CtaLeader))
    gmem_d = GmemDResource(name="GmemD")
    if clc:
        consumers = 32 * CLUSTER_SIZE * (warps + num_padding_warps)
        work_queue = pipeline.WorkQueue(
            "WorkQueue",
            pipeline_config=PipelineConfig.create_clc_fetch_async_pipeline_cfg(
                num_stages=NUM_SCHEDULER_STAGES,
                num_bytes=16,
                producer_group=pipeline.CooperativeGroup(
                    pipeline.Agent.Thread),
                consumer_group=pipeline.CooperativeGroup(
                    pipeline.Agent.Thread, consumers),
                cta_layout_vmnk=CTA_LAYOUT_VMNK,
                producer_signaling_threads=SignalingThreads.CtaLeader,
                consumer_signaling_threads=SignalingThreads.All))
    else:
        work_queue = pipeline.WorkQueue("WorkQueue",
                                        grid=(_grid(0), _grid(1), _grid(2)))

    allocator = SmemAllocator()
    allocator.add_resource(smem_a)
    allocator.add_resource(smem_b)
    tmem_allocator = TmemAllocator()
    tmem_allocator.add_resource(tmem_c)

    @schedule
    def load_a_schedule(gmem, smem, wait, launch, wq):
        wait.wait_griddep()
        smem.init_load_state()
        with pipeline.work_tile_loop(wq):
            gmem.init_tile_coords()
            with domain_loop(0, NUM_K_TILES, 1):
                gmem.compute_coords()
                smem.try_acquire()
                smem.acquire()
                smem.tma_load()
                smem.commit()
            _tail(wq)
        launch.launch_griddep()

    @schedule
    def load_b_schedule(gmem, smem, wq):
        smem.init_load_state()
        with pipeline.work_tile_loop(wq):
            gmem.init_tile_coords()
            with domain_loop(0, NUM_K_TILES, 1):
                gmem.compute_coords()
                smem.try_acquire()
                smem.acquire()
                smem.tma_load()
                smem.commit()
            _tail(wq)

    @schedule
    def mma_schedule(sa, sb, acc, wq):
        sa.init_descriptors()
        sb.init_descriptors()
        acc.init_accumulator_state()
        with pipeline.work_tile_loop(wq):
            acc.init_work_tile_state()
            acc.try_acquire()
            acc.acquire()
            with domain_loop(0, NUM_K_TILES, 1):
                sa.try_wait()
                sb.try_wait()
                sa.wait()
                sb.wait()
                sa.build_desc()
                sb.build_desc()
                acc.mma()
                sa.release()
                sb.release()
            acc.commit()
            _tail(wq)

    @schedule
    def store_schedule(acc, gmem, wq):
        acc.init_store_state()
        with pipeline.work_tile_loop(wq):
            with domain_loop(0, NUM_K_TILES, 1):
                pass
            acc.try_wait()
            acc.wait()
            for _ in range(SUBTILES):
                acc.load_subtile()
                gmem.store()
            acc.release()
            _tail(wq)

    @schedule
    def padding_schedule(wq):
        with pipeline.work_tile_loop(wq):
            with domain_loop(0, NUM_K_TILES, 1):
                pass
            _tail(wq)

    @schedule
    def scheduler_schedule(wq):
        with pipeline.work_tile_loop(wq):
            with domain_loop(0, 0, 1):
                pass
            wq.try_acquire()
            wq.acquire()
            wq.fetch_work_tile()
            wq.commit()
            _tail(wq)

    tasks = [
        Task([gmem_ab, pdl_wait, work_queue], [smem_a, pdl_launch], 4, 1,
             schedule=load_a_schedule(gmem_ab, smem_a, pdl_wait, pdl_launch,
                                      work_queue),
             num_registers=40, name="LoadATask"),
        Task([gmem_ab, work_queue], [smem_b], 5, 1,
             schedule=load_b_schedule(gmem_ab, smem_b, work_queue),
             num_registers=40, name="LoadBTask"),
        Task([smem_a, smem_b, work_queue], [tmem_c], 6, num_mma_warps,
             schedule=mma_schedule(smem_a, smem_b, tmem_c, work_queue),
             num_registers=40, name="MmaTask"),
        Task([tmem_c, work_queue], [gmem_d], 0, NUM_EPILOGUE_WARPS,
             schedule=store_schedule(tmem_c, gmem_d, work_queue),
             num_registers=160, name="StoreTask"),
    ]
    if num_padding_warps:
        tasks.append(Task([work_queue], [], warps, num_padding_warps,
                          schedule=padding_schedule(work_queue),
                          num_registers=40, name="PaddingTask"))
    if clc:
        tasks.append(Task([work_queue], [work_queue], warps - 1, 1,
                          schedule=scheduler_schedule(work_queue),
                          num_registers=40, name="WorkScheduleTask"))
    graph = {
        pdl_launch: [],
        smem_a: [gmem_ab, pdl_wait, work_queue],
        smem_b: [gmem_ab, work_queue],
        tmem_c: [smem_a, smem_b, work_queue],
        gmem_d: [tmem_c, work_queue],
    }
    if clc:
        graph[work_queue] = [work_queue]
    return TaskManager(
        tasks=tasks, resource_dependency_graph=graph,
        smem_allocator=allocator, tmem_allocator=tmem_allocator,
        skip_validation=skip_validation, cluster=CLUSTER_SHAPE_MNK,
        name="gemm_cluster_2sm_clc" if clc else "gemm_cluster_2sm",
        args=[] if clc else [("tiles_m", "i32"), ("tiles_n", "i32"),
                             ("tiles_l", "i32")],
        arch=arch)


def main(argv=None, clc: bool = False) -> int:
    from _common import compile_and_assemble

    task_manager = build(clc=clc)
    print(f"{task_manager.kernel.name}: verified")
    return compile_and_assemble(task_manager, ARCH, argv)


if __name__ == "__main__":
    raise SystemExit(main())
