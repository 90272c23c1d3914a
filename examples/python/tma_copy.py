"""CTA-local TMA copy: the pipeline skeleton of TS's TMA copy tutorial,
ported to tspipe by changing imports (Hopper, sm_90a).

Structure (as in the tutorial): a coordinate-only global-memory source, a
pipelined shared-memory tile filled by a bulk copy (TmaAsync, producer:
one elected thread of the load warp; consumer: the four store warps, lane 0
of each releases), and a global-memory sink.

  load task (warp 4):   coords -> try_acquire -> acquire -> tma_load -> commit
  store task (warps 0-3): try_wait -> wait -> read_smem -> release -> store
  padding task (warps 5-7): completes the load warp's warpgroup, whose
  register count (setmaxnreg) must agree (R41)

The schedule, config, resource and task code is TS's API; only the imports
and the bodies of the work methods differ (they build MLIR ops with the
bundled dialect builders instead of CuTe). Kernel:
``tma_copy(x, y)`` (two global-memory pointers) copies ``TILES_PER_CTA``
tiles of ``TILE_ELEMS`` float32 per CTA, CTA ``i`` starting at tile
``i * TILES_PER_CTA``; launch ``NUM_WARPS * 32`` threads per CTA.

Run: ``python examples/python/tma_copy.py [out_dir]`` verifies, lowers to
sm_90a PTX and assembles it with ptxas when found.

Launch spec (sizes, inputs, reference, checker): ``examples/tma_copy.py``.
``make demo`` compiles this kernel into ``out/`` and runs it where a GPU
is present (docs/gpu-runs.md).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

# --- the TS imports, changed: ---------------------------------------------
#   import cutlass.pipeline as pipeline
#   from cutlass.experimental.task_scheduling.resources import (
#       MemoryResource, StageInfo, PipelineConfig, consumer_work, producer_work)
#   from cutlass.experimental.task_scheduling.memory import SmemAllocator
#   from cutlass.experimental.task_scheduling.schedule_builder import schedule, domain_loop
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
from tspipe.ts.memory import SmemAllocator
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

# --- the work methods' builders ----------------------------------------------
from tspipe import ir
from tspipe.dialects import arith, gpu, llvm, nvvm, scf

NUM_STAGES = 4
TILE_ELEMS = 1024                # float32 per tile
TILE_BYTES = TILE_ELEMS * 4      # 4 KiB per stage
TILES_PER_CTA = 8
NUM_STORE_WARPS = 4
ELEMS_PER_THREAD = TILE_ELEMS // (NUM_STORE_WARPS * 32)  # 8
NUM_WARPS = 8
ARCH = "sm_90a"


def _index(value: int):
    return arith.constant(ir.IndexType.get(), value)


def _offset_ptr(base, byte_offset, address_space: int):
    """``base + byte_offset`` (index bytes) as a pointer of address_space."""
    i64 = ir.IntegerType.get_signless(64)
    ptr_type = llvm.PointerType.get(address_space)
    address = llvm.ptrtoint(i64, base)
    offset = arith.index_cast(i64, byte_offset)
    return llvm.inttoptr(ptr_type, arith.addi(address, offset))


def _tile_of_cta(loop_offset):
    bid = gpu.block_id(gpu.Dimension.x)
    return arith.addi(arith.muli(bid, _index(TILES_PER_CTA)), loop_offset)


@dataclass
class InputGmemResource(MemoryResource):
    """Coordinate-only source: the tile this iteration copies."""

    @consumer_work(returns="tile")
    def compute_coords(self, stage_info: StageInfo):
        return _tile_of_cta(stage_info.loop_offset)


@dataclass
class SmemResource(MemoryResource):
    """The pipelined shared-memory tile (TmaAsync)."""

    @producer_work
    def tma_load(self, stage_info: StageInfo, *, tile):
        src = _offset_ptr(self.kernel.arg("x"),
                          arith.muli(tile, _index(TILE_BYTES)), 1)
        dst = llvm.addrspacecast(llvm.PointerType.get(7), stage_info.buffer())
        size = arith.constant(ir.IntegerType.get_signless(32), TILE_BYTES)
        leader = nvvm.elect_sync(ir.IntegerType.get_signless(1))
        branch = scf.IfOp(leader)
        with ir.InsertionPoint(branch.then_block):
            nvvm.CpAsyncBulkGlobalToSharedClusterOp(
                dst, src, stage_info.full_barrier(), size)
            scf.yield_([])

    @consumer_work(returns="values")
    def read_smem(self, stage_info: StageInfo):
        tid = gpu.thread_id(gpu.Dimension.x)
        offset = arith.muli(tid, _index(ELEMS_PER_THREAD * 4))
        src = _offset_ptr(stage_info.buffer(), offset, 3)
        vector = ir.VectorType.get([ELEMS_PER_THREAD], ir.F32Type.get())
        return llvm.load(vector, src, alignment=32)


@dataclass
class OutputGmemResource(MemoryResource):
    """Global-memory sink."""

    @producer_work
    def store(self, stage_info, *, values):
        tid = gpu.thread_id(gpu.Dimension.x)
        tile = _tile_of_cta(stage_info.loop_offset)
        first = arith.addi(arith.muli(tile, _index(TILE_ELEMS)),
                           arith.muli(tid, _index(ELEMS_PER_THREAD)))
        dst = _offset_ptr(self.kernel.arg("y"),
                          arith.muli(first, _index(4)), 1)
        llvm.store(values, dst, alignment=32)


def build(arch: str = ARCH, skip_validation: bool = False) -> TaskManager:
    """The TaskManager of the kernel (verified unless skip_validation)."""
    # --- from here on: TS code, unchanged -------------------------------------
    pipeline_config = PipelineConfig.create_tma_async_pipeline_cfg(
        num_stages=NUM_STAGES,
        num_bytes=TILE_BYTES,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
        consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread,
                                                 NUM_STORE_WARPS),
    )
    input_gmem = InputGmemResource(name="input_gmem")
    smem = SmemResource(name="smem", pipeline_config=pipeline_config,
                        smem_bytes=NUM_STAGES * TILE_BYTES)
    output_gmem = OutputGmemResource(name="output_gmem")

    allocator = SmemAllocator()
    allocator.add_resource(smem)
    allocator.compute_layout()

    @schedule
    def load_schedule(gmem_in, smem):
        with domain_loop(0, TILES_PER_CTA, 1):
            tile = gmem_in.compute_coords()
            smem.try_acquire()
            smem.acquire()
            smem.tma_load(tile=tile)
            smem.commit()

    @schedule
    def store_schedule(smem, gmem_out):
        with domain_loop(0, TILES_PER_CTA, 1):
            smem.try_wait()
            smem.wait()
            values = smem.read_smem()
            smem.release()
            gmem_out.store(values=values)

    @schedule
    def padding_schedule():
        with domain_loop(0, TILES_PER_CTA, 1):
            pass

    load_task = Task(name="LoadTask", src_resources=[input_gmem],
                     dst_resources=[smem], warp_idx=4, num_warps=1,
                     schedule=load_schedule(input_gmem, smem),
                     num_registers=40)
    store_task = Task(name="StoreTask", src_resources=[smem],
                      dst_resources=[output_gmem], warp_idx=0,
                      num_warps=NUM_STORE_WARPS,
                      schedule=store_schedule(smem, output_gmem),
                      num_registers=160)
    padding_task = Task(name="PaddingTask", src_resources=[], dst_resources=[],
                        warp_idx=5, num_warps=3, schedule=padding_schedule(),
                        num_registers=40)
    # --- up to here --------------------------------------------------------------
    return TaskManager(
        tasks=[load_task, store_task, padding_task],
        resource_dependency_graph={smem: [input_gmem], output_gmem: [smem]},
        smem_allocator=allocator, skip_validation=skip_validation,
        # tspipe's own keywords: the kernel's name, arguments and target.
        name="tma_copy", args=["x", "y"], arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble

    return compile_and_assemble(build(), ARCH, argv)


if __name__ == "__main__":
    sys.exit(main())
