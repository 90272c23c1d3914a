"""Clustered persistent GEMM with 2-CTA MMA pairs, the CuTe DSL version:
CUTLASS's TS tutorial 4, kernel 2 (``gemm_cute_cluster_2sm``, a 2-CTA
cluster, a static or CLC-driven work queue, CuTe TMA / MMA / T2R work
bodies), ported to tspipe with work methods that issue the real tcgen05
instructions (Blackwell, sm_100a, compile-only).

What differs from examples/python/gemm_cluster_2sm.py (the tutorial's
kernel 1) is what the tutorial changes: A and B share one resource and one
load task, there is no PDL, the A/B ring is deeper, and the work bodies
are real (the tutorial's CuTe copies and ``cute.gemm``, here the
instructions they become).

Structure (as in the tutorial, cluster (2, 1, 1): one MMA pair of V = 2
CTAs computing a 256 x 256 fp16 tile of C, f32 accumulation):

* ``SmemAb``: one TmaUmma pipeline for A and B over the cluster (layout
  ``(2, 1, 1, 1)``), 6 stages; per stage each CTA loads its 128 rows of A
  and its 128 rows (of N) of B, 64 K each (16 KiB + 16 KiB), with
  ``cta_group::2`` tensor copies that complete on the pair leader's full
  barrier, which expects the pair's bytes (``num_bytes`` = 64 KiB,
  ``num_bytes_per_warp_per_cta`` = 32 KiB); one consumer per MMA pair,
  signalled by the leader CTA (``CtaLeader``).
* ``TmemC``: the UmmaAsync accumulator, 2 stages of 256 TMEM columns (512
  in all, allocated by warp 0 of both CTAs together with
  ``tcgen05.alloc.cta_group::2``); the pair leader's tcgen05 commit
  (``producer_signaling_threads=CtaLeader``) is waited on by the 4
  epilogue warps of both CTAs (256 threads).
* ``WorkQueue``: the static persistent scheduler over the tile grid
  (kernel arguments ``tiles_m``, ``tiles_n``, ``tiles_l``, in 256 x 256
  tiles), or with ``clc=True`` the CLC-driven one (a ClcFetchAsync
  pipeline, 2 stages of one 16-byte response, produced by the scheduler
  warp on the leader CTA and consumed by every warp of both CTAs:
  32 x 2 x 8 threads).

  StoreTask (warps 0-3): tiles: acc.wait; (load_subtile, store) x 8;
                         acc.release
  LoadTask (warp 4):     tiles: k-loop compute_coords, acquire, tma_load
                         (A and B), commit
  MmaTask (warp 5):      tiles: acc.acquire; k-loop wait, get_stage_tiles,
                         mma, release; acc.commit
  warps 6-7:             PaddingTask (static); CLC: WorkScheduleTask
                         (warp 6: acquire, fetch_work_tile, commit) and
                         PaddingTask (warp 7)

Every task ends each tile with the queue's bookkeeping (``try_wait``,
``wait``, ``get_and_advance_work_tile``, ``release``).

Kernel ``gemm_cute_cluster_2sm(tmap_a, tmap_b, c, n[, tiles_m, tiles_n,
tiles_l])``: C (M x N, fp16, row-major) = A x B^T, A M x K fp16 row-major,
B N x K fp16 (K contiguous), K = 64 K_TILES (the tutorial's default
problem, 512 x 512 x 256, has 4), M and N multiples of 256 (the tutorial's
``super_tile_m`` / ``super_tile_n`` constraint). ``tmap_a`` / ``tmap_b``
are global-memory addresses of 64-byte aligned CUtensorMaps (fp16, 2-D,
dims {K, rows}, box {64, 128}, CU_TENSOR_MAP_SWIZZLE_128B). Tile (m, n)
of the queue is rows 256 m .. + 255 and columns 256 n .. + 255 of C; CTA
v (cluster rank) of the pair holds A rows 256 m + 128 v .. + 127 and B
rows 256 n + 128 v .. + 127, and its tensor memory holds accumulator rows
256 m + 128 v .. + 127.

The work methods (docs/blackwell-gemm.md gives the descriptors):

* ``compute_coords`` (GmemAb): the k-tile's TMA coordinates ``(64 k,
  A row, B row)`` (i32) from the tile and the CTA's rank in the pair;
* ``tma_load`` (SmemAb): two ``cta_group::2`` tensor copies into the
  stage's first 1024-byte aligned address (A, then B 16 KiB after it),
  completing on the pair leader's full barrier;
* ``get_stage_tiles`` (SmemAb): the waited stage's A address (i32);
* ``mma`` (TmemC): on the pair leader, the elected lane issues 4
  ``tcgen05.mma.cta_group::2.kind::f16`` of 256 x 256 x 16 into the
  acquired accumulator stage (columns 256 x stage), the first of k-tile 0
  overwriting it;
* ``load_subtile`` (TmemC): warp w reads TMEM lanes 32 (w % 4) .. + 31,
  32 columns of the waited stage, with ``tcgen05.ld.32x32b.x32``;
* ``store`` (GmemD): the 32 values, converted to fp16, to this thread's
  row of C.

What differs from the tutorial, and why:

* The tutorial's CuTe layer (``local_tile``, ``tma_partition``,
  ``make_fragment_A/B``, ``make_tmem_copy``) computes addresses that are
  written out here: tspipe has no CuTe layouts, so the work methods build
  the copies, descriptors and loads those partitions give for this one
  configuration.
* tspipe's work queue hands every CTA of the cluster the cluster's tile in
  256 x 256 units (docs/Protocols.md, Work queues); the tutorial's
  scheduler hands CTA coordinates, which its work bodies divide by the
  cluster shape. ``tiles_m`` is therefore M / 256, not M / 128.
* The multicast masks of a (2, 1, 1) cluster name the CTA alone (one pair,
  nothing to share), so the copies carry no mask.
* The stage passes its A address to the MMA (``get_stage_tiles``), where
  the tutorial passes the stage index (``get_stage_idx``) to index its
  SMEM fragments: tspipe addresses a stage by its buffer. One allocation
  holds the stages (each 32 KiB + 1 KiB to start it 1024-byte aligned, the
  128-byte swizzle atom), where the tutorial declares A and B apart.
* The kernel's prologue allocates TMEM and synchronizes the CTA with one
  barrier (the tutorial: named barrier 2 over the MMA and epilogue warps);
  the epilogue frees it after a cluster barrier (the tutorial: an
  mbarrier the peer CTA arrives on), so neither CTA frees the pair's
  columns while the other still reads them.
* The stores assume M and N multiples of 256 (the tutorial requires it,
  so its bounds checks never fail) and write 32 fp16 values (64 bytes) at
  once.

Run: ``python examples/python/gemm_cute_cluster_2sm.py [out_dir]``;
``gemm_cute_cluster_2sm_clc.py`` is the CLC variant.
"""

from __future__ import annotations

import weakref

import tspipe.ts as pipeline
from tspipe import ir
from tspipe.dialects import arith, gpu, llvm, nvvm, scf
from tspipe.ts.enums import WorkAttr
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
from tspipe.ts.vocabulary import SignalingThreads

ARCH = "sm_100a"
CLUSTER_SHAPE_MNK = (2, 1, 1)
NUM_MMA_CTAS = 2                                  # V: the MMA pair
CLUSTER_SIZE = CLUSTER_SHAPE_MNK[0] * CLUSTER_SHAPE_MNK[1]
NUM_PAIRS = CLUSTER_SIZE // NUM_MMA_CTAS
CTA_LAYOUT_VMNK = (NUM_MMA_CTAS, CLUSTER_SHAPE_MNK[0] // NUM_MMA_CTAS,
                   CLUSTER_SHAPE_MNK[1], 1)
MMA_INST_SHAPE_MNK = (256, 256, 16)
MMA_TILER_MNK = (256, 256, 64)
MMA_TILER_MNK_PER_CTA = (128, MMA_TILER_MNK[1] // NUM_MMA_CTAS, 64)
NUM_K_BLOCKS = MMA_TILER_MNK[2] // MMA_INST_SHAPE_MNK[2]   # MMAs per k-tile
ELEM_BYTES = 2                                    # fp16
AB_STAGES = 6
ACC_STAGES = 2
NUM_SCHEDULER_STAGES = 2
K_TILES = 4
NUM_EPILOGUE_WARPS = 4
SUBTILE_COLS = 32                                 # the epilogue tile: 128 x 32
SUBTILES = MMA_TILER_MNK[1] // SUBTILE_COLS
A_BYTES_PER_CTA = MMA_TILER_MNK_PER_CTA[0] * MMA_TILER_MNK[2] * ELEM_BYTES
B_BYTES_PER_CTA = MMA_TILER_MNK_PER_CTA[1] * MMA_TILER_MNK[2] * ELEM_BYTES
AB_BYTES_PER_CTA = A_BYTES_PER_CTA + B_BYTES_PER_CTA          # 32 KiB
STAGE_BYTES = AB_BYTES_PER_CTA + 1024             # + the alignment spare
ACC_COLUMNS = MMA_TILER_MNK[1]                    # f32: one column per N
TMEM_COLUMNS = ACC_COLUMNS * ACC_STAGES           # 512
TMEM_ALLOC_WARP = 0

# Instruction descriptor, kind::f16 (docs/blackwell-gemm.md): D f32 (bits
# 4-5), A and B fp16 (bits 7-9, 10-12 = 0), both K-major (bits 15, 16 = 0),
# N >> 3 (bits 17-22), M >> 4 (bits 24-28), M = 256 over the pair.
IDESC = (1 << 4) | ((MMA_INST_SHAPE_MNK[1] >> 3) << 17) | \
    ((MMA_INST_SHAPE_MNK[0] >> 4) << 24)
# Shared-memory descriptor fields, K-major, 128-byte swizzle: LBO unused
# (1), SBO = 8 rows x 128 bytes (in 16-byte units), swizzle mode 2.
SMEM_LBO, SMEM_SBO, SMEM_SWIZZLE_128B = 1, (8 * 128) >> 4, 2
# The pair: the MMAs, the TMEM allocation, the copies and the pipelines'
# commits all use cta_group::2 (rule X32).
CTA_GROUP = nvvm.CTAGroupKind.CTA_2


def _i(width: int, value: int):
    return arith.constant(ir.IntegerType.get_signless(width), value)


def _index(value: int):
    return arith.constant(ir.IndexType.get(), value)


def _i32(value):
    return arith.index_cast(ir.IntegerType.get_signless(32), value)


def _fence(kind: str):
    """tcgen05.fence::before_thread_sync or ::after_thread_sync."""
    nvvm.Tcgen05FenceOp(nvvm.Tcgen05FenceKind.BEFORE_THREAD_SYNC
                        if kind == "before"
                        else nvvm.Tcgen05FenceKind.AFTER_THREAD_SYNC)


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


def _rank_in_pair():
    """The CTA's rank in its MMA pair (i32): its cluster rank mod 2."""
    rank = nvvm.read_ptx_sreg_cluster_ctarank(ir.IntegerType.get_signless(32))
    return arith.remui(rank, _i(32, NUM_MMA_CTAS))


_TMEM: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def tmem_address(kernel):
    """The accumulator's TMEM address (i32): warp TMEM_ALLOC_WARP of both
    CTAs of the pair allocates TMEM_COLUMNS together in the kernel's
    prologue (``cta_group::2``, the permit given up at once) and frees them
    in its epilogue, after a cluster barrier (no CTA of the pair reads the
    pair's columns any more)."""
    if kernel in _TMEM:
        return _TMEM[kernel]
    i32 = ir.IntegerType.get_signless(32)
    kernel.shared_variable("gemm_cute_cluster_2sm_tmem_base", i32)

    def is_alloc_warp():
        return arith.cmpi(arith.CmpIPredicate.eq, _warp(),
                          _index(TMEM_ALLOC_WARP))

    def alloc():
        slot = llvm.mlir_addressof(llvm.PointerType.get(3),
                                   "gemm_cute_cluster_2sm_tmem_base")
        with _if(is_alloc_warp()):
            nvvm.Tcgen05AllocOp(slot, _i(32, TMEM_COLUMNS), group=CTA_GROUP)
            nvvm.Tcgen05RelinquishAllocPermitOp(group=CTA_GROUP)
        _fence("before")
        gpu.barrier()
        _fence("after")
        return llvm.load(i32, slot)

    def dealloc(tmem):
        _fence("before")
        nvvm.cluster_arrive(aligned=True)
        nvvm.cluster_wait(aligned=True)
        with _if(is_alloc_warp()):
            _fence("after")
            nvvm.Tcgen05DeallocOp(llvm.inttoptr(llvm.PointerType.get(6), tmem),
                                  _i(32, TMEM_COLUMNS), group=CTA_GROUP)

    tmem = kernel.prologue(alloc)
    kernel.epilogue(dealloc, tmem)
    _TMEM[kernel] = tmem
    return tmem


def _tile_rows(loop_info):
    """(first A row, first B row, first C column) of this CTA in the tile
    (i32): 256 m + 128 v, 256 n + 128 v, 256 n."""
    tile_m, tile_n, _ = loop_info.work_tile.tile_idx
    v = arith.muli(_rank_in_pair(), _i(32, MMA_TILER_MNK_PER_CTA[0]))
    m0 = arith.muli(_i32(tile_m), _i(32, MMA_TILER_MNK[0]))
    n0 = arith.muli(_i32(tile_n), _i(32, MMA_TILER_MNK[1]))
    return arith.addi(m0, v), arith.addi(n0, v), n0


class GmemAbResource(MemoryResource):
    """The global A/B tiles (no pipeline): the TMA coordinates."""

    @consumer_work
    def compute_coords(self, stage_info):
        """``(k, a_row, b_row)`` (i32) of the k-tile's TMA boxes: K element
        64 k, A row 256 m + 128 v, B row 256 n + 128 v."""
        a_row, b_row, _ = _tile_rows(stage_info)
        k = arith.muli(_i32(stage_info.loop_offset), _i(32, MMA_TILER_MNK[2]))
        return k, a_row, b_row


def _aligned_a(stage_info: StageInfo):
    """The stage's A tile address (i32): its first 1024-byte aligned byte
    (B follows A_BYTES_PER_CTA after it)."""
    i32 = ir.IntegerType.get_signless(32)
    base = llvm.ptrtoint(i32, stage_info.buffer())
    return arith.andi(arith.addi(base, _i(32, 1023)), _i(32, -1024))


class SmemAbResource(MemoryResource):
    """The A and B stages in shared memory (one TmaUmma pipeline over the
    cluster)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._alloc = SmemAllocation("smem_ab", STAGE_BYTES * AB_STAGES)

    def get_smem_requirements(self):
        return [self._alloc]

    @producer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_load_state(self, stage_info):
        pass  # the tutorial's SMEM views and multicast masks: none here

    @consumer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_stage_state(self, stage_info):
        pass  # the tutorial's SMEM views: none here

    @producer_work
    def tma_load(self, stage_info: StageInfo, coords):
        """This CTA's A and B boxes (16 KiB each) with ``cta_group::2``
        tensor copies from one elected lane, completing on the pair
        leader's full barrier (which the acquire armed with the pair's
        bytes)."""
        k, a_row, b_row = coords
        full = stage_info.leader_full_barrier()
        a = _aligned_a(stage_info)
        b = arith.addi(a, _i(32, A_BYTES_PER_CTA))
        generic = llvm.PointerType.get()
        with _if(nvvm.elect_sync(ir.IntegerType.get_signless(1))):
            for dst, tmap, row in ((a, "tmap_a", a_row), (b, "tmap_b", b_row)):
                dst7 = llvm.addrspacecast(
                    llvm.PointerType.get(7),
                    llvm.inttoptr(llvm.PointerType.get(3), dst))
                desc = llvm.addrspacecast(generic, self.kernel.arg(tmap))
                nvvm.CpAsyncBulkTensorGlobalToSharedClusterOp(
                    dst7, desc, [k, row], full, [], group=CTA_GROUP)

    @consumer_work
    def get_stage_tiles(self, stage_info: StageInfo):
        """The waited stage's A address (i32), for the MMA."""
        return _aligned_a(stage_info)


class TmemCResource(MemoryResource):
    """The accumulator (UmmaAsync, pair-scoped)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._alloc = TmemAllocation("tmem_acc", TMEM_COLUMNS)

    def get_tmem_requirements(self):
        return [self._alloc]

    @producer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_accumulator_state(self, stage_info):
        pass  # the tutorial's SMEM views and cluster rank: none here

    @consumer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_store_state(self, stage_info):
        pass

    def _stage_columns(self, stage_info: StageInfo):
        """The TMEM address (i32) of the stage's first column."""
        column = arith.muli(_i32(stage_info.index()), _i(32, ACC_COLUMNS))
        return arith.addi(tmem_address(self.kernel), column)

    @producer_work
    def mma(self, stage_info: StageInfo, ab_tiles):
        """On the pair leader, the elected lane's NUM_K_BLOCKS
        ``tcgen05.mma.cta_group::2`` of 256 x 256 x 16 on the stage at
        ``ab_tiles`` (A, B A_BYTES_PER_CTA after it, in both CTAs), into the
        acquired accumulator stage; the first of k-tile 0 overwrites it."""
        d = llvm.inttoptr(llvm.PointerType.get(6),
                          self._stage_columns(stage_info))
        _fence("after")
        a_enc = arith.shrui(ab_tiles, _i(32, 4))
        b_enc = arith.shrui(arith.addi(ab_tiles, _i(32, A_BYTES_PER_CTA)),
                            _i(32, 4))
        first_k = arith.cmpi(arith.CmpIPredicate.eq, stage_info.loop_offset,
                             _index(0))
        leader = arith.cmpi(arith.CmpIPredicate.eq, _rank_in_pair(), _i(32, 0))
        elected = nvvm.elect_sync(ir.IntegerType.get_signless(1))
        i64 = ir.IntegerType.get_signless(64)
        with _if(arith.andi(leader, elected)):
            for kk in range(NUM_K_BLOCKS):
                # K block kk: 16 fp16 = 32 bytes further along each row.
                step = _i(32, kk * MMA_INST_SHAPE_MNK[2] * ELEM_BYTES >> 4)
                descs = [nvvm.tcgen05_mma_smem_desc(
                    i64, arith.addi(enc, step), _i(32, SMEM_LBO),
                    _i(32, SMEM_SBO), _i(8, 0), _i(1, 0),
                    _i(8, SMEM_SWIZZLE_128B)) for enc in (a_enc, b_enc)]
                accumulate = (arith.xori(first_k, _i(1, 1)) if kk == 0
                              else _i(1, 1))
                nvvm.Tcgen05MMAOp(nvvm.Tcgen05MMAKind.F16, CTA_GROUP, d,
                                  descs[0], descs[1], _i(32, IDESC),
                                  accumulate)

    @consumer_work
    def load_subtile(self, stage_info: StageInfo, subtile_idx: int):
        """Columns 32 subtile_idx .. + 31 of this thread's accumulator row
        (TMEM lane 32 (warp % 4) + lane) of the waited stage, with
        ``tcgen05.ld.32x32b.x32``: a ``vector<32xi32>`` of f32 bits."""
        i32 = ir.IntegerType.get_signless(32)
        lane_base = arith.muli(arith.remui(_warp(), _index(4)), _index(32))
        taddr = arith.addi(self._stage_columns(stage_info), arith.addi(
            arith.shli(_i32(lane_base), _i(32, 16)),
            _i(32, SUBTILE_COLS * subtile_idx)))
        if subtile_idx == 0:
            _fence("after")
        values = nvvm.tcgen05_ld(ir.VectorType.get([SUBTILE_COLS], i32),
                                 nvvm.Tcgen05LdStShape.SHAPE_32X32B,
                                 llvm.inttoptr(llvm.PointerType.get(6), taddr))
        nvvm.Tcgen05WaitOp(nvvm.Tcgen05WaitKind.LOAD)
        if subtile_idx == SUBTILES - 1:
            _fence("before")  # the release follows: the reads are done
        return values


class GmemDResource(MemoryResource):
    """The output tile (no pipeline)."""

    @producer_work
    def store(self, stage_info, t2r_rmem, subtile_idx: int):
        """The 32 accumulator values of ``t2r_rmem``, converted to fp16, to
        row 256 m + 128 v + 32 (warp % 4) + lane, columns 256 n +
        32 subtile_idx .. + 31 of C (64 bytes)."""
        i64 = ir.IntegerType.get_signless(64)
        a_row, _, n0 = _tile_rows(stage_info)
        tid = gpu.thread_id(gpu.Dimension.x)
        row_in_cta = arith.addi(
            arith.muli(arith.remui(_warp(), _index(4)), _index(32)),
            arith.remui(tid, _index(32)))
        row = arith.addi(arith.extui(i64, a_row),
                         arith.index_cast(i64, row_in_cta))
        col = arith.addi(n0, _i(32, SUBTILE_COLS * subtile_idx))
        ldc = arith.extui(i64, self.kernel.arg("n"))
        element = arith.addi(arith.muli(row, ldc), arith.extui(i64, col))
        f32s = llvm.bitcast(ir.VectorType.get([SUBTILE_COLS], ir.F32Type.get()),
                            t2r_rmem)
        halves = arith.truncf(
            ir.VectorType.get([SUBTILE_COLS], ir.F16Type.get()), f32s)
        dst = llvm.inttoptr(llvm.PointerType.get(1), arith.addi(
            llvm.ptrtoint(i64, self.kernel.arg("c")),
            arith.muli(element, _i(64, ELEM_BYTES))))
        llvm.store(halves, dst, alignment=16)


def _tail(wq):
    wq.try_wait()
    wq.wait()
    wq.get_and_advance_work_tile()
    wq.release()


def _grid(axis: int):
    name = ("tiles_m", "tiles_n", "tiles_l")[axis]
    return lambda k: k.prologue(
        lambda: arith.index_cast(ir.IndexType.get(), k.arg(name)))


def build(arch: str = ARCH, skip_validation: bool = False,
          clc: bool = False) -> TaskManager:
    """The TaskManager of the kernel (verified unless skip_validation);
    ``clc``: the CLC-driven work queue and its scheduler warp."""
    num_load_warps, num_mma_warps = 1, 1
    num_scheduler_warps = 1 if clc else 0
    warps = NUM_EPILOGUE_WARPS + num_load_warps + num_mma_warps + \
        num_scheduler_warps
    num_padding_warps = (warps + 3) // 4 * 4 - warps

    gmem_ab = GmemAbResource(name="GmemAb")
    smem_ab = SmemAbResource(
        name="SmemAb",
        pipeline_config=PipelineConfig.create_tma_umma_pipeline_cfg(
            num_stages=AB_STAGES,
            num_bytes=AB_BYTES_PER_CTA * NUM_PAIRS * NUM_MMA_CTAS,
            producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread),
            consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread,
                                                     NUM_PAIRS),
            cta_layout_vmnk=CTA_LAYOUT_VMNK,
            consumer_signaling_threads=SignalingThreads.CtaLeader,
            num_bytes_per_warp_per_cta=AB_BYTES_PER_CTA))
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
    allocator.add_resource(smem_ab)
    tmem_allocator = TmemAllocator()
    tmem_allocator.add_resource(tmem_c)

    @schedule
    def load_schedule(gmem, smem, wq):
        smem.init_load_state()
        with pipeline.work_tile_loop(wq):
            with domain_loop(0, K_TILES, 1):
                coords = gmem.compute_coords()
                smem.try_acquire()
                smem.acquire()
                smem.tma_load(coords=coords)
                smem.commit()
            _tail(wq)

    @schedule
    def mma_schedule(smem, acc, wq):
        smem.init_stage_state()
        acc.init_accumulator_state()
        with pipeline.work_tile_loop(wq):
            acc.try_acquire()
            acc.acquire()
            with domain_loop(0, K_TILES, 1):
                smem.try_wait()
                smem.wait()
                ab_tiles = smem.get_stage_tiles()
                acc.mma(ab_tiles=ab_tiles)
                smem.release()
            acc.commit()
            _tail(wq)

    @schedule
    def store_schedule(acc, gmem, wq):
        acc.init_store_state()
        with pipeline.work_tile_loop(wq):
            with domain_loop(0, K_TILES, 1):
                pass
            acc.try_wait()
            acc.wait()
            for subtile_idx in range(SUBTILES):
                t2r_rmem = acc.load_subtile(subtile_idx=subtile_idx)
                gmem.store(t2r_rmem=t2r_rmem, subtile_idx=subtile_idx)
            acc.release()
            _tail(wq)

    @schedule
    def padding_schedule(wq):
        with pipeline.work_tile_loop(wq):
            with domain_loop(0, K_TILES, 1):
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
        Task([gmem_ab, work_queue], [smem_ab], 4, num_load_warps,
             schedule=load_schedule(gmem_ab, smem_ab, work_queue),
             num_registers=40, name="LoadTask"),
        Task([smem_ab, work_queue], [tmem_c], 5, num_mma_warps,
             schedule=mma_schedule(smem_ab, tmem_c, work_queue),
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
        tasks.append(Task([work_queue], [work_queue], 6, num_scheduler_warps,
                          schedule=scheduler_schedule(work_queue),
                          num_registers=40, name="WorkScheduleTask"))
    graph = {
        smem_ab: [gmem_ab, work_queue],
        tmem_c: [smem_ab, work_queue],
        gmem_d: [tmem_c, work_queue],
    }
    if clc:
        graph[work_queue] = [work_queue]
    args = ["tmap_a", "tmap_b", "c", ("n", "i32")]
    if not clc:
        args += [("tiles_m", "i32"), ("tiles_n", "i32"), ("tiles_l", "i32")]
    return TaskManager(
        tasks=tasks, resource_dependency_graph=graph,
        smem_allocator=allocator, tmem_allocator=tmem_allocator,
        skip_validation=skip_validation, cluster=CLUSTER_SHAPE_MNK,
        name="gemm_cute_cluster_2sm_clc" if clc else "gemm_cute_cluster_2sm",
        args=args, arch=arch)


def main(argv=None, clc: bool = False) -> int:
    from _common import compile_and_assemble

    task_manager = build(clc=clc)
    print(f"{task_manager.kernel.name}: verified")
    return compile_and_assemble(task_manager, ARCH, argv)


if __name__ == "__main__":
    raise SystemExit(main())
