"""Simple GEMM: TS's simple tcgen05 GEMM tutorial ported to tspipe by
changing imports, its work methods issuing the real tcgen05 instructions
(Blackwell, sm_100a).

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

Kernel ``gemm(tmap_a, tmap_b, c)``: C (M x N, f32, row-major) = A x B^T, A
M x K bf16 row-major, B N x K bf16 (K contiguous), K = 64 K_TILES, N = 128
gridDim.y; CTA (x, y) computes the 128 x 128 tile at rows 128 x, columns
128 y. ``tmap_a`` / ``tmap_b`` are global-memory addresses of 64-byte
aligned CUtensorMaps (bf16, 2-D, dims {K, rows}, box {64, 128},
CU_TENSOR_MAP_SWIZZLE_128B). The work methods build the ops of
examples/umma_gemm.mlir (docs/blackwell-gemm.md gives the descriptors):

* ``tma_load``: two tensor copies (16 KiB each) into the stage's first
  1024-byte aligned address, completing on the stage's full barrier;
* ``mma``: the elected lane issues 4 ``tcgen05.mma.cta_group::1.kind::f16``
  of 128 x 128 x 16 (instruction descriptor and 128-byte swizzle K-major
  smem descriptors), the first of k-tile 0 overwriting the accumulator;
  the release that follows is the same lane's ``tcgen05.commit``;
* ``epilogue``: warp w reads TMEM lanes 32 (w % 4) .. + 31 with
  ``tcgen05.ld.32x32b.x32`` and stores its row of the tile.

Tensor memory (TILE_N = 128 columns) is allocated by the MMA warp in the
kernel's prologue (``Kernel.prologue``) and freed after every task is done
(``Kernel.epilogue``).

Lowering: ``tspipe.compile`` lowers both pipelines for sm_100a (tcgen05
commits; see docs/Protocols.md) and the PTX is assembled with
``ptxas -arch=sm_100a``.

Run: ``python examples/python/gemm.py [out_dir]``.
"""

from __future__ import annotations

import sys
import weakref
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

# --- the work methods' builders ----------------------------------------------
from tspipe import ir
from tspipe.dialects import arith, gpu, llvm, nvvm, scf

NUM_AB_STAGES = 4
TILE_M, TILE_N, TILE_K = 128, 128, 64
MMA_K = 16                                  # K of one kind::f16 MMA
AB_BYTES = (TILE_M + TILE_N) * TILE_K * 2   # bf16 A and B tiles per stage
A_BYTES = TILE_M * TILE_K * 2
# Each stage keeps 1 KiB spare to start its tiles 1024-byte aligned (the
# 128-byte swizzle atom).
STAGE_BYTES = AB_BYTES + 1024
K_TILES = 16
NUM_EPILOGUE_WARPS = 4
MMA_WARP = 4
ARCH = "sm_100a"

# Instruction descriptor, kind::f16 (docs/blackwell-gemm.md): D f32 (bits
# 4-5), A and B bf16 (bits 7-9, 10-12), both K-major (bits 15, 16 = 0),
# N >> 3 (bits 17-22), M >> 4 (bits 24-28).
IDESC = (1 << 4) | (1 << 7) | (1 << 10) | ((TILE_N >> 3) << 17) | \
    ((TILE_M >> 4) << 24)
# Shared-memory descriptor fields, K-major, 128-byte swizzle: LBO unused
# (1), SBO = 8 rows x 128 bytes (in 16-byte units), swizzle mode 2.
SMEM_LBO, SMEM_SBO, SMEM_SWIZZLE_128B = 1, (8 * 128) >> 4, 2
# One CTA: the MMAs, the TMEM allocation and the pipelines' commits all use
# cta_group::1 (rule X32).
MMA_CTA_GROUP = nvvm.CTAGroupKind.CTA_1


def _i(width: int, value: int):
    return arith.constant(ir.IntegerType.get_signless(width), value)


def _index(value: int):
    return arith.constant(ir.IndexType.get(), value)


def _fence(kind: str):
    """tcgen05.fence::before_thread_sync or ::after_thread_sync."""
    nvvm.Tcgen05FenceOp(nvvm.Tcgen05FenceKind.BEFORE_THREAD_SYNC
                        if kind == "before"
                        else nvvm.Tcgen05FenceKind.AFTER_THREAD_SYNC)


def _aligned_tiles(stage_info: StageInfo):
    """(A, B) shared addresses (i32) of the stage: A at the first 1024-byte
    aligned address of the stage buffer, B A_BYTES after it."""
    i32 = ir.IntegerType.get_signless(32)
    base = llvm.ptrtoint(i32, stage_info.buffer())
    a = arith.andi(arith.addi(base, _i(32, 1023)), _i(32, -1024))
    return a, arith.addi(a, _i(32, A_BYTES))


def _if(cond):
    """An scf.if without results; use as ``with _if(c):``."""
    op = scf.IfOp(cond)

    class _Then:
        def __enter__(self):
            self._ip = ir.InsertionPoint(op.then_block)
            self._ip.__enter__()

        def __exit__(self, *exc):
            if exc[0] is None:
                scf.yield_([])
            self._ip.__exit__(*exc)
    return _Then()


def _warp():
    return arith.divui(gpu.thread_id(gpu.Dimension.x), _index(32))


_TMEM: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def tmem_address(kernel):
    """The accumulator's TMEM address (i32), allocated once per kernel in
    its prologue by the MMA warp (TILE_N columns; the allocation permit is
    given up at once) and freed in its epilogue, once every task is done."""
    if kernel in _TMEM:
        return _TMEM[kernel]
    i32 = ir.IntegerType.get_signless(32)
    kernel.shared_variable("gemm_tmem_base", i32)

    def alloc():
        slot = llvm.mlir_addressof(llvm.PointerType.get(3), "gemm_tmem_base")
        with _if(arith.cmpi(arith.CmpIPredicate.eq, _warp(),
                            _index(MMA_WARP))):
            nvvm.Tcgen05AllocOp(slot, _i(32, TILE_N))
            nvvm.Tcgen05RelinquishAllocPermitOp()
        _fence("before")
        gpu.barrier()
        _fence("after")
        return llvm.load(i32, slot)

    def dealloc(tmem):
        _fence("before")
        gpu.barrier()
        with _if(arith.cmpi(arith.CmpIPredicate.eq, _warp(),
                            _index(MMA_WARP))):
            _fence("after")
            nvvm.Tcgen05DeallocOp(llvm.inttoptr(llvm.PointerType.get(6), tmem),
                                  _i(32, TILE_N))

    tmem = kernel.prologue(alloc)
    kernel.epilogue(dealloc, tmem)
    _TMEM[kernel] = tmem
    return tmem


@dataclass
class SmemABResource(MemoryResource):
    """A/B tiles in shared memory (TmaUmma)."""

    @producer_work
    def tma_load(self, stage_info: StageInfo):
        """The TMA tensor copies of A and B, completing on the stage's full
        barrier (the acquire armed it with AB_BYTES)."""
        i32 = ir.IntegerType.get_signless(32)
        full = stage_info.full_barrier()
        a, b = _aligned_tiles(stage_info)
        k = arith.index_cast(i32, stage_info.loop_offset)
        kx = arith.muli(k, _i(32, TILE_K))
        m0 = arith.muli(arith.index_cast(i32, gpu.block_id(gpu.Dimension.x)),
                        _i(32, TILE_M))
        n0 = arith.muli(arith.index_cast(i32, gpu.block_id(gpu.Dimension.y)),
                        _i(32, TILE_N))
        generic = llvm.PointerType.get()
        with _if(nvvm.elect_sync(ir.IntegerType.get_signless(1))):
            for dst, tmap, row in ((a, "tmap_a", m0), (b, "tmap_b", n0)):
                dst7 = llvm.addrspacecast(
                    llvm.PointerType.get(7),
                    llvm.inttoptr(llvm.PointerType.get(3), dst))
                desc = llvm.addrspacecast(generic, self.kernel.arg(tmap))
                nvvm.CpAsyncBulkTensorGlobalToSharedClusterOp(
                    dst7, desc, [kx, row], full, [])

    @consumer_work
    def mma(self, stage_info: StageInfo):
        """tcgen05.mma on the stage's A/B tiles: TILE_K / MMA_K MMAs from
        the elected lane, accumulating into the TMEM tile (overwriting it on
        the first one of k-tile 0)."""
        tmem = tmem_address(self.kernel)
        a, b = _aligned_tiles(stage_info)
        _fence("after")
        a_enc = arith.shrui(a, _i(32, 4))
        b_enc = arith.shrui(b, _i(32, 4))
        first_k = arith.cmpi(arith.CmpIPredicate.eq, stage_info.loop_offset,
                             _index(0))
        d = llvm.inttoptr(llvm.PointerType.get(6), tmem)
        idesc = _i(32, IDESC)
        kind = nvvm.Tcgen05MMAKind.F16
        group = MMA_CTA_GROUP
        i64 = ir.IntegerType.get_signless(64)
        with _if(nvvm.elect_sync(ir.IntegerType.get_signless(1))):
            for kk in range(TILE_K // MMA_K):
                # K step kk: MMA_K bf16 = 32 bytes further along each row.
                step = _i(32, kk * MMA_K * 2 >> 4)
                descs = [nvvm.tcgen05_mma_smem_desc(
                    i64, arith.addi(enc, step), _i(32, SMEM_LBO),
                    _i(32, SMEM_SBO), _i(8, 0), _i(1, 0),
                    _i(8, SMEM_SWIZZLE_128B)) for enc in (a_enc, b_enc)]
                accumulate = (arith.xori(first_k, _i(1, 1)) if kk == 0
                              else _i(1, 1))
                nvvm.Tcgen05MMAOp(kind, group, d, descs[0], descs[1], idesc,
                                  accumulate)


@dataclass
class TmemAccResource(MemoryResource):
    """The accumulator in tensor memory (UmmaAsync)."""

    @consumer_work
    def epilogue(self, stage_info: StageInfo):
        """tcgen05.ld of this thread's accumulator row (32 columns at a
        time), stored to C as f32."""
        i32 = ir.IntegerType.get_signless(32)
        i64 = ir.IntegerType.get_signless(64)
        tmem = tmem_address(self.kernel)
        tid = gpu.thread_id(gpu.Dimension.x)
        lane_base = arith.muli(arith.remui(_warp(), _index(4)), _index(32))
        row = arith.addi(lane_base, arith.remui(tid, _index(32)))
        row_tmem = arith.addi(tmem, arith.shli(
            arith.index_cast(i32, lane_base), _i(32, 16)))
        out_row = arith.addi(arith.muli(gpu.block_id(gpu.Dimension.x),
                                        _index(TILE_M)), row)
        ldc = arith.muli(gpu.grid_dim(gpu.Dimension.y), _index(TILE_N))
        row_start = arith.addi(arith.muli(out_row, ldc), arith.muli(
            gpu.block_id(gpu.Dimension.y), _index(TILE_N)))
        _fence("after")
        shape = nvvm.Tcgen05LdStShape.SHAPE_32X32B
        values = ir.VectorType.get([32], i32)
        for chunk in range(TILE_N // 32):
            taddr = llvm.inttoptr(llvm.PointerType.get(6), arith.addi(
                row_tmem, _i(32, 32 * chunk)))
            v = nvvm.tcgen05_ld(values, shape, taddr)
            nvvm.Tcgen05WaitOp(nvvm.Tcgen05WaitKind.LOAD)
            e = arith.addi(row_start, _index(32 * chunk))
            offset = arith.index_cast(i64, arith.muli(e, _index(4)))
            dst = llvm.inttoptr(llvm.PointerType.get(1), arith.addi(
                llvm.ptrtoint(i64, self.kernel.arg("c")), offset))
            llvm.store(v, dst, alignment=16)
        _fence("before")


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
                             smem_bytes=NUM_AB_STAGES * STAGE_BYTES)
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
        name="gemm", args=["tmap_a", "tmap_b", "c"], arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble

    task_manager = build()
    print("gemm: verified")
    return compile_and_assemble(task_manager, ARCH, argv)


if __name__ == "__main__":
    sys.exit(main())
