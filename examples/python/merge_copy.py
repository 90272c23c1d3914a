"""Merge-group copy: the pipeline skeleton of TS's merge-group tutorial,
ported to tspipe by changing imports (Hopper, sm_90a).

Structure (as in the tutorial): tile A reaches shared memory through an
AsyncAsync pipeline (one load warp, 32 threads, plain loads and stores,
then each thread arrives); tile B through a TmaAsync pipeline (one elected
thread of another load warp issues a bulk copy). The store warps wait on
both, copy both tiles out, and release both with one ``release()`` on the
Merge group of the two pipelines.

  LoadA (warp 4):  offset -> try_acquire -> acquire -> load -> commit
  LoadB (warp 5):  offset -> try_acquire -> acquire -> load -> commit
  Store (warps 0-3): wait A, wait B -> store both -> group.release()
  Padding (warps 6-7): completes the loaders' warpgroup (R41)

The Merge group is a ``tspipe.pipeline_group``: the two pipelines share
one empty barrier array, ``group.release()`` arrives on it once (every store
thread, as TS's all-thread release of a mixed TMA / non-TMA merge) and frees
the stage of both members; ``ab_sync.smem_a`` is the member named through
its group. Kernel
``merge_copy(a, b, da, db)``: every CTA copies ``NUM_ITERS`` tiles of A and
B (``TILE_ELEMS`` float32 each), CTA ``i`` from tile ``i * NUM_ITERS``.

Run: ``python examples/python/merge_copy.py [out_dir]``.

Launch spec (sizes, inputs, reference, checker): ``examples/merge_copy.py``.
``make demo`` compiles this kernel into ``out/`` and runs it where a GPU
is present (docs/gpu-runs.md).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

# --- the TS imports, changed: ------------------------------------------------
#   import cutlass.pipeline as pipeline
#   from cutlass.experimental.task_scheduling.enums import PipelineGroupMode
#   from cutlass.experimental.task_scheduling.resources import (MemoryResource,
#       StageInfo, PipelineConfig, PipelineGroup, consumer_work, producer_work)
#   from cutlass.experimental.task_scheduling.memory import SmemAllocator
#   from cutlass.experimental.task_scheduling.schedule_builder import domain_loop, schedule
#   from cutlass.experimental.task_scheduling.task import Task
#   from cutlass.experimental.task_scheduling.task_manager import TaskManager
import tspipe.ts as pipeline
from tspipe.ts.enums import PipelineGroupMode
from tspipe.ts.resources import (
    MemoryResource,
    PipelineConfig,
    PipelineGroup,
    StageInfo,
    consumer_work,
    producer_work,
)
from tspipe.ts.memory import SmemAllocator
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

from tspipe import ir
from tspipe.dialects import arith, gpu, llvm, nvvm, scf

NUM_STAGES = 4
TILE_ELEMS = 512                  # float32 per tile
TILE_BYTES = TILE_ELEMS * 4       # 2 KiB
NUM_ITERS = 8
NUM_STORE_WARPS = 4
ARCH = "sm_90a"


def _index(value: int):
    return arith.constant(ir.IndexType.get(), value)


def _offset_ptr(base, byte_offset, address_space: int):
    i64 = ir.IntegerType.get_signless(64)
    address = llvm.ptrtoint(i64, base)
    offset = arith.index_cast(i64, byte_offset)
    return llvm.inttoptr(llvm.PointerType.get(address_space),
                         arith.addi(address, offset))


def _tile_bytes_of_cta(loop_offset):
    """Byte offset of this CTA's tile for the iteration."""
    bid = gpu.block_id(gpu.Dimension.x)
    tile = arith.addi(arith.muli(bid, _index(NUM_ITERS)), loop_offset)
    return arith.muli(tile, _index(TILE_BYTES))


def _copy(src_base, dst_base, threads: int, lane):
    """Each of ``threads`` threads copies TILE_ELEMS / threads float4s
    (static loop, unrolled here)."""
    v4 = ir.VectorType.get([4], ir.F32Type.get())
    for i in range(TILE_ELEMS // (4 * threads)):
        chunk = arith.addi(lane, _index(i * threads))
        offset = arith.muli(chunk, _index(16))
        src = _offset_ptr(src_base[0], arith.addi(src_base[1], offset),
                          src_base[2])
        dst = _offset_ptr(dst_base[0], arith.addi(dst_base[1], offset),
                          dst_base[2])
        llvm.store(llvm.load(v4, src, alignment=16), dst, alignment=16)


@dataclass
class GmemResource(MemoryResource):
    """Coordinate computation of one input."""

    @consumer_work(returns="gmem_offset")
    def compute_offset(self, stage_info: StageInfo):
        return _tile_bytes_of_cta(stage_info.loop_offset)


@dataclass
class SmemAResource(MemoryResource):
    """Tile A: filled by the 32 threads of its load warp (AsyncAsync)."""

    @producer_work
    def load(self, stage_info: StageInfo, *, gmem_offset):
        lane = arith.remui(gpu.thread_id(gpu.Dimension.x), _index(32))
        _copy((self.kernel.arg("a"), gmem_offset, 1),
              (stage_info.buffer(), _index(0), 3), 32, lane)

    @consumer_work
    def consume_tile(self, stage_info: StageInfo):
        pass

    @consumer_work(returns="buffer")
    def stage_buffer(self, stage_info: StageInfo):
        return stage_info.buffer()


@dataclass
class SmemBResource(MemoryResource):
    """Tile B: one bulk copy completing on the full barrier (TmaAsync)."""

    @producer_work
    def load(self, stage_info: StageInfo, *, gmem_offset):
        src = _offset_ptr(self.kernel.arg("b"), gmem_offset, 1)
        dst = llvm.addrspacecast(llvm.PointerType.get(7), stage_info.buffer())
        size = arith.constant(ir.IntegerType.get_signless(32), TILE_BYTES)
        branch = scf.IfOp(nvvm.elect_sync(ir.IntegerType.get_signless(1)))
        with ir.InsertionPoint(branch.then_block):
            nvvm.CpAsyncBulkGlobalToSharedClusterOp(
                dst, src, stage_info.full_barrier(), size)
            scf.yield_([])

    @consumer_work
    def consume_tile(self, stage_info: StageInfo):
        pass

    @consumer_work(returns="buffer")
    def stage_buffer(self, stage_info: StageInfo):
        return stage_info.buffer()


@dataclass
class StoreResource(MemoryResource):
    """Copies both waited tiles to the outputs (their stage buffers arrive
    as routed work results)."""

    @producer_work
    def store(self, stage_info, *, a_stage, b_stage, offset_a, offset_b):
        tid = gpu.thread_id(gpu.Dimension.x)
        threads = NUM_STORE_WARPS * 32
        _copy((a_stage, _index(0), 3), (self.kernel.arg("da"), offset_a, 1),
              threads, tid)
        _copy((b_stage, _index(0), 3), (self.kernel.arg("db"), offset_b, 1),
              threads, tid)


def build(arch: str = ARCH, skip_validation: bool = False) -> TaskManager:
    """The TaskManager of the kernel (verified unless skip_validation)."""
    # --- TS code, unchanged (resource classes above are tspipe's) -------------
    cfg_a = PipelineConfig.create_async_async_pipeline_cfg(
        num_stages=NUM_STAGES,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, size=32),
        consumer_group=pipeline.CooperativeGroup(
            pipeline.Agent.Thread, size=NUM_STORE_WARPS * 32),
        cta_layout_vmnk=(1, 1, 1, 1),
    )
    cfg_b = PipelineConfig.create_tma_async_pipeline_cfg(
        num_stages=NUM_STAGES,
        num_bytes=TILE_BYTES,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread,
                                                 NUM_STORE_WARPS),
        cta_layout_vmnk=(1, 1, 1, 1),
    )
    gmem_a = GmemResource(name="gmem_a")
    gmem_b = GmemResource(name="gmem_b")
    smem_a = SmemAResource(name="smem_a", pipeline_config=cfg_a,
                           smem_bytes=NUM_STAGES * TILE_BYTES)
    smem_b = SmemBResource(name="smem_b", pipeline_config=cfg_b,
                           smem_bytes=NUM_STAGES * TILE_BYTES)
    ab_sync = PipelineGroup(name="ab_sync", members=[smem_a, smem_b],
                            mode=PipelineGroupMode.Merge)
    store_res = StoreResource(name="store_res")

    allocator = SmemAllocator()
    allocator.add_resource(smem_a)
    allocator.add_resource(smem_b)

    @schedule
    def load_schedule(gmem, smem):
        with domain_loop(0, NUM_ITERS, 1):
            gmem_offset = gmem.compute_offset()
            smem.try_acquire()
            smem.acquire()
            smem.load(gmem_offset=gmem_offset)
            smem.commit()

    @schedule
    def store_schedule(smem_a_ref, smem_b_ref, gmem_a, gmem_b, store, group):
        with domain_loop(0, NUM_ITERS, 1):
            smem_a_ref.try_wait()
            smem_a_ref.wait()
            smem_b_ref.try_wait()
            smem_b_ref.wait()
            smem_a_ref.consume_tile()
            smem_b_ref.consume_tile()
            store.store(a_stage=smem_a_ref.stage_buffer(),
                        b_stage=smem_b_ref.stage_buffer(),
                        offset_a=gmem_a.compute_offset(),
                        offset_b=gmem_b.compute_offset())
            group.release()

    @schedule
    def padding_schedule():
        with domain_loop(0, NUM_ITERS, 1):
            pass

    tasks = [
        Task(src_resources=[gmem_a], dst_resources=[smem_a], warp_idx=4,
             num_warps=1, schedule=load_schedule(gmem_a, ab_sync.smem_a),
             num_registers=40, name="LoadA"),
        Task(src_resources=[gmem_b], dst_resources=[smem_b], warp_idx=5,
             num_warps=1, schedule=load_schedule(gmem_b, ab_sync.smem_b),
             num_registers=40, name="LoadB"),
        Task(src_resources=[smem_a, smem_b, gmem_a, gmem_b],
             dst_resources=[store_res], warp_idx=0,
             num_warps=NUM_STORE_WARPS,
             schedule=store_schedule(ab_sync.smem_a, ab_sync.smem_b, gmem_a,
                                     gmem_b, store_res, ab_sync),
             num_registers=160, name="Store"),
        Task(src_resources=[], dst_resources=[], warp_idx=6, num_warps=2,
             schedule=padding_schedule(), num_registers=40, name="Padding"),
    ]
    # --- up to here ----------------------------------------------------------
    return TaskManager(
        tasks=tasks,
        resource_dependency_graph={smem_a: [gmem_a], smem_b: [gmem_b],
                                   store_res: [smem_a, smem_b]},
        smem_allocator=allocator, skip_validation=skip_validation,
        name="merge_copy", args=["a", "b", "da", "db"], arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble

    return compile_and_assemble(build(), ARCH, argv)


if __name__ == "__main__":
    sys.exit(main())
