"""Hopper GEMM: C = A @ B in bf16 with fp32 accumulation, warp-specialized,
written with the TS-style front end (sm_90a).

Layouts: A is M x K row-major, B is given as its transpose, N x K
row-major (B column-major, the "TN" GEMM: both operands K-major, as wgmma
reads them without transposition), C is M x N row-major bf16.
``build(b_layout="n")`` builds the transposed case instead: B stored K x N
row-major (N-major), which wgmma reads with its transpose-B mode.

Structure (docs/gemm.md):

* one 128 x 256 output tile per CTA step, K in stages of 64 (one
  128-byte-swizzled TMA box per operand); a cluster of two CTAs along M
  shares the B tile: each CTA loads its own A tile (128 x 64) and half of
  B (128 x 64), multicast to both CTAs;
* a 4-stage TmaAsync pipeline ``ab`` (48 KiB of A and B per stage, plus
  1 KiB to align each stage to the 1024-byte swizzle atom); its stage
  releases to the peer CTA are CTA-scope releases
  (``remote_arrive_scope(cta)``, as CUTLASS issues them: the consumers
  only read a stage, through wgmma, retired before the release;
  docs/Protocols.md, Remote-arrive scope); ``build(k_sub=2,
  num_stages=2)`` gives 2 stages of K 128;
* the deferred release (``advance_on_wait``): the MMA task waits for stage
  0 in its head; each iteration issues stage i's MMAs, waits until only
  their group is pending and releases stage i - 1; the tail releases the
  last (rule X25 proves that no release frees a stage an MMA still reads;
  ``build(release="drain")``: every stage drained and released in its own
  iteration);
* warpgroup 0: the TMA producer (warp 0, one elected thread issues
  ``nvgpu.tma.async.load``; warps 1-3 pad the warpgroup), 40 registers;
* warpgroups 1 and 2: the MMA consumers, one task of 8 warps at 232
  registers (``setmaxnreg``); warpgroup w computes rows 64 w .. 64 w + 63
  of the tile with four ``nvvm.wgmma.mma_async`` m64n256k16 per stage
  (one commit), its 64 x 256 fp32 accumulator (an LLVM struct of
  128 f32 per thread) carried by the domain loop (a ``TaskLocalVariable``);
  the first MMA of a tile has scale-d zero instead of a zeroed
  accumulator, so no instruction writes the accumulator registers between
  MMAs;
* persistent tiles: cluster c takes the tile pairs c, c + G, c + 2G, ...
  (G clusters) of a grouped raster order (``_tile_of``); the domain loop runs ``iters`` = tiles per cluster x
  stages-per-tile iterations (a kernel argument, so that the TMA and MMA tasks
  count the same domain); a step past the last tile pair loads out of
  bounds (TMA fills zeros) and stores nothing;
* epilogue on the last stage of a tile, through shared memory: each MMA
  warpgroup converts its 64 x 256 slice to bf16 in eight 64 x 32 subtiles,
  each written (64-byte swizzled) into one of its two 4 KiB buffers, then
  ``fence.proxy.async.shared::cta``, a named barrier of the warpgroup's
  128 threads, and one thread's ``nvgpu.tma.async.store`` of the subtile
  (one bulk group each); before it reuses a buffer that thread waits
  (``cp.async.bulk.wait_group.read``) for the store that last read it, so
  the stores overlap the rest of the epilogue and the next tile's main
  loop. ``build(epilogue="registers")``: each thread stores its bf16 pairs
  to C from registers instead.

Kernel ``hopper_gemm(a_map, b_map, c_map, c, m, n, kt, iters, pairs_m)``:
``a_map`` / ``b_map`` / ``c_map`` are CUtensorMaps (128-byte
``__grid_constant__`` parameters, built by ``tspipe.runtime.tensor_map``
from the types the IR declares; ``c_map`` over ``c``), ``c`` the output
(the register epilogue stores through it), ``m``, ``n`` the sizes
(multiples of 256),
``kt`` = K / 64 (K / 128 with ``k_sub=2``), ``iters`` the domain length
(the tasks run ``max(iters, 1)`` iterations), ``pairs_m`` = M / 256.
Launch: 384 threads, cluster (2, 1, 1), grid 2 G.

Run: ``python examples/python/hopper_gemm.py [out_dir]``. Launch spec:
``examples/hopper_gemm.py``; benchmark: ``bench/gemm_bench.py``, the other
builds compiled by ``bench/gemm_variants.py``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Optional

import tspipe.ts as pipeline
from tspipe import ir
from tspipe.dialects import arith, gpu, llvm, nvgpu, nvvm, scf
from tspipe.ts import nvgpu_bridge as bridge
from tspipe.ts.resources import (
    MemoryResource,
    PipelineConfig,
    StageInfo,
    TaskLocalVariable,
    consumer_work,
    producer_work,
)
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.memory import SmemAllocation
from tspipe.ts.task_manager import TaskManager
from tspipe.ts.tensor_maps import TensorMapArg, tensor_map

ARCH = "sm_90a"
TILE_M, TILE_N, TILE_K = 128, 256, 64
WGMMA_K = 16
CLUSTER_M = 2
# Tile pairs per raster group along M (_tile_of).
GROUP_M = 8
# 4 stages of one 64-wide K slice (with the deferred release, faster than
# 2 stages of two slices, which leave the producer one load in flight:
# bench/RESULTS.md); the same for NN.
NUM_STAGES, K_SUB = 4, 1
NUM_STAGES_NN = 4
STAGE_K = K_SUB * 64                          # K per stage (TN)
A_BYTES = TILE_M * TILE_K * 2                 # 16 KiB
B_HALF_BYTES = (TILE_N // CLUSTER_M) * TILE_K * 2   # 16 KiB per CTA
STAGE_DATA = A_BYTES + CLUSTER_M * B_HALF_BYTES      # 48 KiB
STAGE_SLOT = STAGE_DATA + 1024                # + alignment to 1 KiB
NUM_WARPS = 12                                # 3 warpgroups
MMA_WARPS = 8
PRODUCER_REGS, CONSUMER_REGS = 40, 232
# TMA-store epilogue: each MMA warpgroup writes its 64 x 256 slice of C as
# eight 64 x 32 bf16 subtiles (4 KiB, rows of 64 bytes, 64-byte swizzle)
# through C_BUFS shared-memory buffers of its own, one TMA store each.
C_SUB_ROWS, C_SUB_COLS = 64, 32
C_SUB_BYTES = C_SUB_ROWS * C_SUB_COLS * 2     # 4 KiB
C_BUFS = 2                                    # buffers per warpgroup


def c_smem_bytes(c_bufs: int) -> int:
    """Shared memory of the TMA-store epilogue: ``c_bufs`` 4 KiB subtile
    buffers for each of the two MMA warpgroups, + 1 KiB of alignment."""
    return 2 * c_bufs * C_SUB_BYTES + 1024


C_SMEM = c_smem_bytes(C_BUFS)
# Named barrier ids of the two warpgroups' epilogues (bar.sync id, 128):
# the top of the 16 ids; tspipe gives its tspipe.named_barrier ops ids
# from 1 up, and this kernel declares none.
C_BARRIER_IDS = (14, 15)

# The tensor maps the IR declares (box: rows x 64 bf16, 128-byte swizzle).
A_MAP = TensorMapArg(box=(TILE_M, TILE_K), element="bf16",
                     swizzle="swizzle_128b")
B_MAP = TensorMapArg(box=(TILE_N // CLUSTER_M, TILE_K), element="bf16",
                     swizzle="swizzle_128b")
# Transposed case: B stored K x N, boxes of 64 K-rows x 64 N-columns.
B_MAP_N = TensorMapArg(box=(TILE_K, 64), element="bf16",
                       swizzle="swizzle_128b")

# C for the TMA-store epilogue: boxes of one subtile (64 rows x 32
# columns), 64-byte swizzle (the span of a 32-column bf16 row).
C_MAP = TensorMapArg(box=(C_SUB_ROWS, C_SUB_COLS), element="bf16",
                     swizzle="swizzle_64b")

# Every build has the same parameters: the register epilogue stores through
# ``c``, the TMA-store epilogue through ``c_map`` (a map over ``c``).
ARGS = [("a_map", A_MAP), ("b_map", B_MAP), ("c_map", C_MAP), ("c", "ptr"),
        ("m", "i32"), ("n", "i32"), ("kt", "i32"), ("iters", "i32"),
        ("pairs_m", "i32")]


# --- index arithmetic helpers --------------------------------------------------
def _idx(v: int):
    return arith.constant(ir.IndexType.get(), v)


def _i32(v: int):
    return arith.constant(ir.IntegerType.get_signless(32), v)


def _arg_index(kernel, name):
    return arith.index_cast(ir.IndexType.get(), kernel.arg(name))


def _aligned_stage(buffer):
    """The stage buffer rounded up to the 1024-byte swizzle atom (each stage
    slot has 1 KiB of slack)."""
    i32 = ir.IntegerType.get_signless(32)
    addr = llvm.ptrtoint(i32, buffer)
    addr = arith.andi(arith.addi(addr, _i32(1023)), _i32(-1024))
    return llvm.inttoptr(llvm.PointerType.get(3), addr)


def _offset(ptr, nbytes):
    """``ptr + nbytes`` for a shared-memory pointer (32-bit addresses);
    ``nbytes`` an int or an i32 Value."""
    i32 = ir.IntegerType.get_signless(32)
    if isinstance(nbytes, int):
        if nbytes == 0:
            return ptr
        nbytes = _i32(nbytes)
    addr = arith.addi(llvm.ptrtoint(i32, ptr), nbytes)
    return llvm.inttoptr(llvm.PointerType.get(3), addr)


def _tile_of(kernel, iteration, group_m: int):
    """(k-slice, m block of this CTA, n block, rank, valid) of a domain
    iteration (see the module docstring): tile pairs in groups of
    ``group_m`` pairs along M, the pairs of a group taken M fastest, one
    column of N blocks after the other (the last group narrower when the M
    pairs do not divide), so that the clusters running at once share their
    A and B slices in L2."""
    # In 32 bits: index arithmetic is 64-bit, and a 64-bit division is a
    # subroutine call in SASS (several per iteration in each task).
    i32 = ir.IntegerType.get_signless(32)

    def as_i32(v):
        return arith.index_cast(i32, v)

    kt = kernel.arg("kt")
    pairs_m = kernel.arg("pairs_m")
    it = as_i32(iteration)
    step = arith.divui(it, kt)
    kk = arith.remui(it, kt)
    cluster = arith.divui(as_i32(gpu.block_id(gpu.Dimension.x)), _i32(CLUSTER_M))
    clusters = arith.divui(as_i32(gpu.grid_dim(gpu.Dimension.x)),
                           _i32(CLUSTER_M))
    pair = arith.addi(cluster, arith.muli(step, clusters))
    rank = nvvm.read_ptx_sreg_cluster_ctarank(i32)
    n_blocks = arith.divui(kernel.arg("n"), _i32(TILE_N))
    per_group = arith.muli(_i32(group_m), n_blocks)
    group = arith.divui(pair, per_group)
    in_group = arith.remui(pair, per_group)
    first_m = arith.muli(group, _i32(group_m))
    width = arith.minui(_i32(group_m), arith.subi(
        arith.maxui(pairs_m, arith.addi(first_m, _i32(1))), first_m))
    pm = arith.addi(first_m, arith.remui(in_group, width))
    nb = arith.divui(in_group, width)
    mb = arith.addi(arith.muli(pm, _i32(CLUSTER_M)), rank)
    valid = arith.cmpi(arith.CmpIPredicate.ult, pair,
                       arith.muli(pairs_m, n_blocks))
    index = ir.IndexType.get()
    return (arith.index_cast(index, kk), arith.index_cast(index, mb),
            arith.index_cast(index, nb), arith.index_cast(index, rank), valid)


@dataclass
class SmemAB(MemoryResource):
    """A and B tiles of one k-slice (TmaAsync, multicast of B along M)."""

    b_layout: str = "t"
    k_sub: int = 1
    release: str = "deferred"
    group_m: int = GROUP_M

    @producer_work
    def tma_load(self, stage_info: StageInfo):
        k = self.kernel
        kk, mb, nb, rank, valid = _tile_of(k, _iteration(stage_info), self.group_m)
        base = _aligned_stage(stage_info.buffer())
        group = bridge.mbarrier_group_at(stage_info.full_barrier())
        a_map = tensor_map(k, "a_map")
        b_map = tensor_map(k, "b_map")
        # Past the last tile pair: coordinates beyond M (zeros, full bytes).
        m_rows = _arg_index(k, "m")
        row_a = arith.select(valid, arith.muli(mb, _idx(TILE_M)), m_rows)
        leader = nvvm.elect_sync(ir.IntegerType.get_signless(1))
        branch = scf.IfOp(leader)
        with ir.InsertionPoint(branch.then_block):
            mask = arith.constant(ir.IntegerType.get_signless(16),
                                  (1 << CLUSTER_M) - 1)
            if self.b_layout == "t":
                # k_sub sub-slices of 64 columns, each A then both B halves.
                for sub in range(self.k_sub):
                    k_col = arith.muli(
                        arith.addi(arith.muli(kk, _idx(self.k_sub)),
                                   _idx(sub)), _idx(TILE_K))
                    sub_base = _offset(base, sub * STAGE_DATA)
                    a_dst = bridge.memref_at(
                        sub_base, bridge.shared_memref_type((128, 64)))
                    nvgpu.tma_async_load(a_dst, group, a_map, [k_col, row_a],
                                         _idx(0))
                    # This CTA's half of the 256 B rows, to both CTAs.
                    row_b = arith.addi(
                        arith.muli(nb, _idx(TILE_N)),
                        arith.muli(rank, _idx(TILE_N // CLUSTER_M)))
                    half = arith.index_cast(
                        ir.IntegerType.get_signless(32),
                        arith.muli(rank, _idx(B_HALF_BYTES)))
                    dst = _offset(_offset(sub_base, A_BYTES), half)
                    b_dst = bridge.memref_at(
                        dst, bridge.shared_memref_type((128, 64)))
                    nvgpu.tma_async_load(b_dst, group, b_map, [k_col, row_b],
                                         _idx(0), multicast_mask=mask)
            else:
                k_col = arith.muli(kk, _idx(TILE_K))
                a_dst = bridge.memref_at(base,
                                         bridge.shared_memref_type((128, 64)))
                nvgpu.tma_async_load(a_dst, group, a_map, [k_col, row_a],
                                     _idx(0))
                # K x N storage: this CTA's two 64-column boxes of the 256.
                for j in range(2):
                    col = arith.addi(
                        arith.muli(nb, _idx(TILE_N)),
                        arith.addi(arith.muli(rank, _idx(128)), _idx(64 * j)))
                    off = arith.index_cast(
                        ir.IntegerType.get_signless(32),
                        arith.addi(arith.muli(rank, _idx(B_HALF_BYTES)),
                                   _idx(j * TILE_K * 64 * 2)))
                    dst = _offset(_offset(base, A_BYTES), off)
                    b_dst = bridge.memref_at(dst, bridge.shared_memref_type((64, 64)))
                    nvgpu.tma_async_load(b_dst, group, b_map, [col, k_col],
                                         _idx(0), multicast_mask=mask)
            scf.yield_([])

    @consumer_work(returns="acc")
    def mma(self, stage_info: StageInfo, *, acc):
        """The stage's MMAs, then a wait until only this stage's MMA groups
        may be pending (``release="deferred"``: the previous stage's reads
        have retired, rule X25), or none (``release="drain"``)."""
        k = self.kernel
        kk, _, _, _, _ = _tile_of(k, _iteration(stage_info), self.group_m)
        base = _aligned_stage(stage_info.buffer())
        a_map = tensor_map(k, "a_map")
        b_map = tensor_map(k, "b_map")
        tid = gpu.thread_id(gpu.Dimension.x)
        wg = arith.subi(arith.divui(tid, _idx(128)), _idx(1))
        wg_off = arith.index_cast(ir.IntegerType.get_signless(32),
                                  arith.muli(wg, _idx(64 * TILE_K * 2)))
        a_base = _offset(base, wg_off)
        b_base = _offset(base, A_BYTES)
        first = arith.cmpi(arith.CmpIPredicate.eq, kk, _idx(0))
        deferred = self.release == "deferred"
        if self.b_layout == "t":
            acc = _slice_scaled(
                acc, [(_offset(a_base, sub * STAGE_DATA),
                       _offset(b_base, sub * STAGE_DATA))
                      for sub in range(self.k_sub)], first)
            # One group a stage: keep it in flight when deferred.
            _retire(1 if deferred else 0)
            return acc
        acc_type = acc.type
        pick = scf.IfOp(first, [acc_type], has_else=True)
        with ir.InsertionPoint(pick.then_block):
            # Zeroing the registers of an accumulator a group may still
            # write: every group complete first (see _retire).
            nvvm.wgmma_wait_group_sync_aligned(0)
            scf.yield_([nvgpu.warpgroup_mma_init_accumulator(acc_type)])
        with ir.InsertionPoint(pick.else_block):
            scf.yield_([acc])
        acc = pick.results[0]
        steps = TILE_K // WGMMA_K
        # nvgpu.warpgroup.mma commits a group per MMA: this stage's four
        # stay in flight when deferred.
        acc = self._slice(acc, a_base, b_base, a_map, b_map,
                          steps if deferred else 0)
        return acc

    @consumer_work
    def retire(self, stage_info: StageInfo):
        """Before the tail's release: every MMA group complete."""
        nvvm.wgmma_wait_group_sync_aligned(0)

    def _slice(self, acc, a_base, b_base, a_map, b_map, final_wait: int):
        """The four m64n256k16 MMAs of one 64-wide K slice; the last one
        waits until at most ``final_wait`` MMA groups are pending."""
        desc_a_t = bridge.warpgroup_descriptor_type((64, WGMMA_K))
        desc_b_t = bridge.warpgroup_descriptor_type((WGMMA_K, TILE_N))
        steps = TILE_K // WGMMA_K
        for j in range(steps):
            a_ptr = _offset(a_base, j * WGMMA_K * 2)
            if self.b_layout == "t":
                b_ptr = _offset(b_base, j * WGMMA_K * 2)
            else:
                b_ptr = _offset(b_base, j * WGMMA_K * 128)
            a_mem = bridge.memref_at(a_ptr, bridge.shared_memref_type((64, 16)),
                                     strides=[TILE_K, 1])
            b_mem = bridge.memref_at(b_ptr, bridge.shared_memref_type((16, 256)),
                                     strides=[1, TILE_K])
            da = nvgpu.warpgroup_generate_descriptor(desc_a_t, a_mem, a_map)
            db = nvgpu.warpgroup_generate_descriptor(desc_b_t, b_mem, b_map)
            # The earlier MMAs of the slice stay in flight (a bound of
            # 2 * steps groups never stalls); the last one waits until at
            # most final_wait groups are pending.
            wait = final_wait if j == steps - 1 else 2 * steps
            kwargs = {"transpose_b": True} if self.b_layout == "n" else {}
            acc = nvgpu.warpgroup_mma(
                acc.type, da, db, acc,
                wait_group=ir.IntegerAttr.get(
                    ir.IntegerType.get_signless(64), wait), **kwargs)
        return acc


def _retire(pending: int):
    """Waits until at most ``pending`` MMA groups are in flight. The
    epilogue, which reads the accumulator, waits for all of them in its own
    branch (``GmemC.store``): ptxas serializes every wgmma of the kernel
    when a non-wgmma instruction may read an accumulator with a group in
    flight, and it cannot tell that a wait under one branch covers reads
    under another."""
    nvvm.wgmma_wait_group_sync_aligned(pending)


def _smem_descriptor(ptr):
    """The wgmma shared-memory matrix descriptor (i64) of a K-major tile at
    ``ptr`` stored with the 128-byte swizzle: start address / 16 in bits
    0-13, stride between 8-row groups 1024 bytes (64 in bits 32-45), the
    128-byte swizzle mode in bits 62-63 (the leading offset is unused for a
    swizzled K-major tile)."""
    i32 = ir.IntegerType.get_signless(32)
    i64 = ir.IntegerType.get_signless(64)
    addr = arith.andi(arith.shrui(llvm.ptrtoint(i32, ptr), _i32(4)),
                      _i32(0x3FFF))
    return arith.ori(arith.extui(i64, addr),
                     arith.constant(i64, (1 << 62) | (64 << 32)))


def _slice_scaled(acc, bases, first):
    """The four m64n256k16 MMAs of each 64-wide K slice (A and B K-major,
    ``nvvm.wgmma.mma_async``), then one commit.
    On the first k-slice of a tile (``first``) the first MMA ignores the
    accumulator (scale-d zero), so the registers are never zeroed by other
    instructions between MMAs. ``acc``: the thread's 128 f32 (wgmma's
    m64n256 D fragment) as an LLVM struct. The caller waits for the group
    (:func:`_retire`)."""
    steps = TILE_K // WGMMA_K
    descs = [(_smem_descriptor(_offset(a_base, j * WGMMA_K * 2)),
              _smem_descriptor(_offset(b_base, j * WGMMA_K * 2)))
             for a_base, b_base in bases for j in range(steps)]
    shape = bridge.wgmma_shape(64, TILE_N, WGMMA_K)
    bf16, f32 = nvvm.WGMMATypes.bf16, nvvm.WGMMATypes.f32
    one = nvvm.WGMMAScaleIn.one
    # K-major A and B: "row" A, "col" B (no transposition).
    row, col = nvvm.MMALayout.row, nvvm.MMALayout.col

    def chain(value, zero_first):
        nvvm.wgmma_fence_aligned()
        for j, (da, db) in enumerate(descs):
            scale = (nvvm.WGMMAScaleOut.zero if zero_first and j == 0
                     else nvvm.WGMMAScaleOut.one)
            value = nvvm.WgmmaMmaAsyncOp(
                value.type, value, da, db, shape, bf16, bf16, f32, scale,
                one, one, row, col).result
        nvvm.wgmma_commit_group_sync_aligned()
        return value

    branch = scf.IfOp(first, [acc.type], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.yield_([chain(acc, True)])
    with ir.InsertionPoint(branch.else_block):
        scf.yield_([chain(acc, False)])
    return branch.results[0]


def _acc_struct_type():
    """The LLVM struct of a thread's 128 f32 accumulator registers."""
    return llvm.StructType.get_literal([ir.F32Type.get()] * (TILE_N // 2))


def _iteration(stage_info):
    """The domain iteration of a work step (0 outside the domain loop)."""
    iv = stage_info.loop_offset
    return iv if iv is not None else _idx(0)


@dataclass
class GmemC(MemoryResource):
    """C in global memory: the epilogue of the last k-slice of a tile.
    ``epilogue``: ``"tma"`` (through the shared-memory subtile buffers,
    ``C_SMEM`` bytes, a ``tspipe.buffer``) or ``"registers"`` (each thread
    stores its bf16 pairs)."""

    epilogue: str = "tma"
    group_m: int = GROUP_M
    c_bufs: int = C_BUFS

    def __post_init__(self):
        self._alloc_c = SmemAllocation("c_stage", c_smem_bytes(self.c_bufs))

    def get_smem_requirements(self):
        return [self._alloc_c] if self.epilogue == "tma" else []

    @producer_work
    def store(self, stage_info, *, acc):
        k = self.kernel
        kt = _arg_index(k, "kt")
        kk, mb, nb, _, valid = _tile_of(k, _iteration(stage_info), self.group_m)
        last = arith.cmpi(arith.CmpIPredicate.eq, kk,
                          arith.subi(kt, _idx(1)))
        buffers = (_aligned_stage(stage_info.smem_address(self._alloc_c))
                   if self.epilogue == "tma" else None)
        branch = scf.IfOp(arith.andi(last, valid))
        with ir.InsertionPoint(branch.then_block):
            # The accumulator is read: every MMA group complete first.
            nvvm.wgmma_wait_group_sync_aligned(0)
            if self.epilogue == "tma":
                _tma_epilogue(k, acc, mb, nb, buffers, self.c_bufs)
            else:
                _epilogue(k, acc, mb, nb)
            scf.yield_([])

    @producer_work
    def drain(self, stage_info):
        """After the last tile: the issuing thread of each warpgroup waits
        until its TMA stores have read their buffers (the CTA's shared
        memory must outlive them)."""
        if self.epilogue != "tma":
            return
        branch = scf.IfOp(_epilogue_thread()[3])
        with ir.InsertionPoint(branch.then_block):
            nvvm.cp_async_bulk_wait_group(0, read=True)
            scf.yield_([])


def _epilogue_thread():
    """(warpgroup 0 / 1 of the MMA task, warp 0-3 in it, lane, is the
    warpgroup's issuing thread (its thread 0)) as index Values / i1."""
    tid = gpu.thread_id(gpu.Dimension.x)
    local = arith.subi(tid, _idx(128))
    wg = arith.divui(local, _idx(128))
    t = arith.remui(local, _idx(128))
    warp = arith.divui(t, _idx(32))
    lane = arith.remui(t, _idx(32))
    issuer = arith.cmpi(arith.CmpIPredicate.eq, t, _idx(0))
    return wg, warp, lane, issuer


def _f32_pairs(acc):
    """The accumulator as an LLVM struct and the path of its element i."""
    if str(acc.type).startswith("!llvm.struct"):
        return acc, (lambda i: [i])
    return bridge.accumulator_struct(acc, 64, TILE_N), (lambda i: [0, i])


def _bf16_pair(s, path, i):
    """Elements i and i + 1 of the accumulator as a vector<2xbf16>."""
    f32x2 = ir.VectorType.get([2], ir.F32Type.get())
    bf16x2 = ir.VectorType.get([2], ir.BF16Type.get())
    v0 = llvm.extractvalue(ir.F32Type.get(), s, path(i))
    v1 = llvm.extractvalue(ir.F32Type.get(), s, path(i + 1))
    pair = llvm.insertelement(
        llvm.insertelement(llvm.mlir_poison(f32x2), v0, _i32(0)), v1,
        _i32(1))
    return arith.truncf(bf16x2, pair)


def _warpgroup_barrier(bar_id):
    """``bar.sync bar_id, 128``: a named barrier of one warpgroup (the
    warpgroups run their epilogues independently, so the barrier spans 128
    threads, not the MMA task's 256 a ``tspipe.named_barrier`` would).
    Written as inline PTX: ``nvvm.barrier id = ... number_of_threads = ...``
    prints in a form MLIR 22's parser rejects once a location alias follows
    it, and the kernel's text is re-read by the progress checker."""
    llvm.inline_asm(None, [bar_id], "bar.sync $0, 128;", "r,~{memory}",
                    has_side_effects=True)


def _tma_epilogue(k, acc, mb, nb, buffers, c_bufs: int):
    """The warpgroup's 64 x 256 fp32 slice to C through shared memory, in
    eight 64 x 32 subtiles: subtile s goes to buffer s % c_bufs of the
    warpgroup (``buffers``: the 1024-byte aligned base of both
    warpgroups' c_bufs x 4 KiB). Per subtile: the issuing thread waits until
    at most c_bufs - 1 of its stores still read their buffers
    (``cp.async.bulk.wait_group.read``), so the buffer is free; a named
    barrier of the warpgroup's 128 threads; every thread writes its bf16
    pairs (wgmma's m64n256 D fragment: rows 16 warp + lane / 4 (+ 8),
    columns 8 j + 2 (lane % 4)) at the 64-byte-swizzled position (16-byte
    chunk c of row r at chunk c ^ ((r / 2) % 4), the layout the tensor map's
    swizzle_64b reads, so a warp's 32 stores hit 32 banks);
    ``fence.proxy.async.shared::cta``; the barrier again; the issuing
    thread stores the subtile with ``nvgpu.tma.async.store`` and commits
    the bulk group. The stores of the last subtiles stay in flight during
    the next tile's main loop."""
    i32 = ir.IntegerType.get_signless(32)
    s, path = _f32_pairs(acc)
    wg, warp, lane, issuer = _epilogue_thread()
    c_map = tensor_map(k, "c_map")
    wg32 = arith.index_cast(i32, wg)
    bar_id = arith.addi(_i32(C_BARRIER_IDS[0]), wg32)
    wg_base = _offset(buffers, arith.muli(wg32, _i32(c_bufs * C_SUB_BYTES)))
    lane32 = arith.index_cast(i32, lane)
    # Row 16 warp + lane / 4 at 64 bytes a row, 4 bytes a column pair.
    row_in = arith.addi(arith.muli(arith.index_cast(i32, warp), _i32(16)),
                        arith.shrui(lane32, _i32(2)))
    thread_off = arith.addi(arith.muli(row_in, _i32(C_SUB_COLS * 2)),
                            arith.muli(arith.andi(lane32, _i32(3)), _i32(4)))
    # (row / 2) % 4 = (lane / 8) % 4 for every row the thread holds.
    swz = arith.andi(arith.shrui(lane32, _i32(3)), _i32(3))
    chunk = [arith.muli(arith.xori(swz, _i32(c)), _i32(16))
             for c in range(C_SUB_COLS * 2 // 16)]
    row = arith.addi(arith.muli(mb, _idx(TILE_M)), arith.muli(wg, _idx(64)))
    groups = C_SUB_COLS // 8                  # 8-column groups per subtile
    for sub in range(TILE_N // C_SUB_COLS):
        buf = _offset(wg_base, (sub % c_bufs) * C_SUB_BYTES)
        wait = scf.IfOp(issuer)
        with ir.InsertionPoint(wait.then_block):
            nvvm.cp_async_bulk_wait_group(c_bufs - 1, read=True)
            scf.yield_([])
        _warpgroup_barrier(bar_id)
        mine = _offset(buf, thread_off)
        for g in range(groups):
            j = sub * groups + g
            for half in range(2):
                packed = _bf16_pair(s, path, 4 * j + 2 * half)
                ptr = _offset(_offset(mine, chunk[g]),
                              half * 8 * C_SUB_COLS * 2)
                llvm.store(packed, ptr, alignment=4)
        nvvm.fence_proxy(nvvm.ProxyKind.async_shared,
                         space=nvvm.SharedSpace.shared_cta)
        _warpgroup_barrier(bar_id)
        store = scf.IfOp(issuer)
        with ir.InsertionPoint(store.then_block):
            col = arith.addi(arith.muli(nb, _idx(TILE_N)),
                             _idx(sub * C_SUB_COLS))
            src = bridge.memref_at(
                buf, bridge.shared_memref_type((C_SUB_ROWS, C_SUB_COLS)))
            nvgpu.tma_async_store(src, c_map, [col, row])
            nvvm.cp_async_bulk_commit_group()
            scf.yield_([])


def _epilogue(k, acc, mb, nb):
    """Each thread's 128 fp32 (wgmma's m64n256 D fragment: for each
    8-column group j, rows r and r + 8, columns 8 j + 2 (lane % 4) + {0, 1})
    to bf16 pairs stored into C (row-major, n columns)."""
    i64 = ir.IntegerType.get_signless(64)
    s, path = _f32_pairs(acc)
    wg, warp, lane, _ = _epilogue_thread()
    row = arith.addi(
        arith.addi(arith.muli(mb, _idx(TILE_M)), arith.muli(wg, _idx(64))),
        arith.addi(arith.muli(warp, _idx(16)), arith.divui(lane, _idx(4))))
    col = arith.addi(arith.muli(nb, _idx(TILE_N)),
                     arith.muli(arith.remui(lane, _idx(4)), _idx(2)))
    n = _arg_index(k, "n")
    c_addr = llvm.ptrtoint(i64, k.arg("c"))
    base = arith.addi(arith.muli(row, n), col)
    row8 = arith.muli(n, _idx(8))
    for j in range(TILE_N // 8):
        for half in range(2):
            packed = _bf16_pair(s, path, 4 * j + 2 * half)
            elem = arith.addi(base, _idx(8 * j))
            if half:
                elem = arith.addi(elem, row8)
            byte = arith.index_cast(i64, arith.muli(elem, _idx(2)))
            ptr = llvm.inttoptr(llvm.PointerType.get(1),
                                arith.addi(c_addr, byte))
            llvm.store(packed, ptr, alignment=4)


def kernel_name(b_layout: str = "t",
                k_sub: Optional[int] = None, num_stages: Optional[int] = None,
                epilogue: str = "tma",
                remote_arrive_scope: str = "cta",
                release: str = "deferred", group_m: int = GROUP_M,
                c_bufs: int = C_BUFS) -> str:
    """The kernel name of ``build()`` with these options: ``hopper_gemm``
    (``hopper_gemm_nn`` for ``b_layout="n"``), then ``_k<K per stage>x<stages>``
    for a stage shape other than the layout's default, ``_regs`` for the
    register epilogue, ``_cluster_release`` for cluster-scope releases,
    ``_drain`` for the drained release, ``_g<group_m>`` for another raster
    group and ``_c<c_bufs>`` for another number of epilogue buffers."""
    d_sub, d_stages = ((K_SUB, NUM_STAGES) if b_layout == "t"
                       else (1, NUM_STAGES_NN))
    name = "hopper_gemm" if b_layout == "t" else "hopper_gemm_nn"
    k_sub = d_sub if k_sub is None else k_sub
    num_stages = d_stages if num_stages is None else num_stages
    if (k_sub, num_stages) != (d_sub, d_stages):
        name += f"_k{k_sub * TILE_K}x{num_stages}"
    if epilogue == "registers":
        name += "_regs"
    if remote_arrive_scope == "cluster":
        name += "_cluster_release"
    if release == "drain":
        name += "_drain"
    if group_m != GROUP_M:
        name += f"_g{group_m}"
    if c_bufs != C_BUFS:
        name += f"_c{c_bufs}"
    return name


def build(arch: str = ARCH, skip_validation: bool = False,
          b_layout: str = "t",
          k_sub: Optional[int] = None,
          num_stages: Optional[int] = None, epilogue: str = "tma",
          remote_arrive_scope: str = "cta",
          release: str = "deferred", group_m: int = GROUP_M,
          c_bufs: int = C_BUFS) -> TaskManager:
    """The TaskManager of the GEMM. ``b_layout``: ``"t"`` (B as N x K,
    K-major) or ``"n"`` (B as K x N, N-major). ``k_sub``: 64-wide K
    sub-slices per stage (``kt`` = K / (64 k_sub); default ``K_SUB`` for
    "t", 1 for "n", which supports only 1); ``num_stages``: default
    ``NUM_STAGES`` for "t", ``NUM_STAGES_NN`` for "n" (``k_sub=1,
    num_stages=4``: 4 stages of K 64). ``epilogue``: ``"tma"`` (C through
    shared memory and TMA stores, ``C_SMEM`` bytes) or ``"registers"`` (each
    thread stores its bf16 pairs to C). ``remote_arrive_scope``: ``"cta"``
    (the consumers' stage releases to the peer CTA are CTA-scope releases,
    as CUTLASS issues them) or ``"cluster"`` (tspipe's default, a
    cluster-scope release; docs/Protocols.md, Remote-arrive scope).
    ``release``: ``"deferred"`` (each stage released one iteration after
    its wait, once the next stage's MMAs are issued and the stage's own
    have retired: ``advance_on_wait``, a head wait and a tail release;
    docs/gemm.md) or ``"drain"`` (released in its own iteration after
    ``wgmma.wait_group 0``). ``group_m``: tile pairs per raster group along
    M (``_tile_of``; at least 1). ``c_bufs``: 4 KiB subtile buffers per
    warpgroup of the TMA-store epilogue (1 to 8: with 8 no subtile waits
    for an earlier store). Raises ValueError for an unknown option, a
    k_sub other than 1 with "n" or stages (and C buffers) that overflow the
    227 KiB of shared memory. The kernel's name is :func:`kernel_name` of the options."""
    if group_m < 1:
        raise ValueError(f"group_m must be >= 1, got {group_m}")
    if not 1 <= c_bufs <= TILE_N // C_SUB_COLS:
        raise ValueError(f"c_bufs must be 1 to {TILE_N // C_SUB_COLS}, got "
                         f"{c_bufs}")
    if release not in ("deferred", "drain"):
        raise ValueError(f"release must be 'deferred' or 'drain', got "
                         f"{release!r}")
    if b_layout not in ("t", "n"):
        raise ValueError(f"b_layout must be 't' or 'n', got {b_layout!r}")
    if epilogue not in ("tma", "registers"):
        raise ValueError(f"epilogue must be 'tma' or 'registers', got "
                         f"{epilogue!r}")
    scopes = {"cta": pipeline.RemoteArriveScope.Cta,
              "cluster": pipeline.RemoteArriveScope.Cluster}
    if remote_arrive_scope not in scopes:
        raise ValueError(f"remote_arrive_scope must be 'cta' or 'cluster', "
                         f"got {remote_arrive_scope!r}")
    name = kernel_name(b_layout, k_sub, num_stages, epilogue,
                       remote_arrive_scope, release, group_m, c_bufs)
    if k_sub is None:
        k_sub = K_SUB if b_layout == "t" else 1
    if num_stages is None:
        num_stages = NUM_STAGES if b_layout == "t" else NUM_STAGES_NN
    if k_sub < 1 or (b_layout == "n" and k_sub != 1):
        raise ValueError(f"k_sub must be >= 1 (1 for b_layout 'n'), got "
                         f"{k_sub}")
    smem = num_stages * (k_sub * STAGE_DATA + 1024)
    c_smem = c_smem_bytes(c_bufs) if epilogue == "tma" else 0
    # Barriers (16 bytes a stage) and each buffer's 128-byte alignment.
    total = 128 + smem + c_smem
    if num_stages < 1 or total > 227 * 1024:
        raise ValueError(
            f"{num_stages} stages of {k_sub} x {STAGE_DATA} bytes and "
            f"{c_smem} bytes of C buffers need {total} bytes of shared "
            f"memory (at most {227 * 1024}); use fewer stages, a smaller "
            f"k_sub or epilogue='registers'")
    ab_config = PipelineConfig.create_tma_async_pipeline_cfg(
        num_stages=num_stages,
        num_bytes=k_sub * STAGE_DATA,
        producer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread, 1),
        # Lane 0 of each MMA warp releases, in both CTAs of the cluster.
        consumer_group=pipeline.CooperativeGroup(pipeline.Agent.Thread,
                                                 MMA_WARPS * CLUSTER_M),
        # Two CTAs along M: B (shared along M) is multicast; A would be
        # along N, which has one CTA.
        cta_layout_vmnk=(1, CLUSTER_M, 1, 1),
        remote_arrive_scope=scopes[remote_arrive_scope],
        # The deferred release: the wait and the release have cursors of
        # their own (docs/Protocols.md, Split cursors).
        advance_on_wait=release == "deferred",
    )
    ab = SmemAB(name="ab", pipeline_config=ab_config,
                smem_bytes=smem,
                b_layout=b_layout, k_sub=k_sub, release=release,
                group_m=group_m)
    out = GmemC(name="c_out", epilogue=epilogue,
                group_m=group_m, c_bufs=c_bufs)

    def acc_init():
        if b_layout == "t":
            # Never read: the first MMA of each tile has scale-d zero.
            return llvm.mlir_undef(_acc_struct_type())
        return nvgpu.warpgroup_mma_init_accumulator(
            bridge.accumulator_type(64, TILE_N))

    acc = TaskLocalVariable(acc_init, name="acc")

    def iters(kernel):
        # At least one iteration: the deferred schedule waits once in its
        # head, so both tasks run max(iters, 1) stages (the progress checker
        # proves that for every iters).
        return kernel.prologue(lambda: arith.maxui(
            _arg_index(kernel, "iters"), _idx(1)))

    @schedule
    def tma_schedule(smem):
        with domain_loop(0, iters, 1):
            smem.acquire()
            smem.tma_load()
            smem.commit()
        smem.producer_tail()

    @schedule
    def mma_drain_schedule(smem, gmem):
        with domain_loop(0, iters, 1):
            smem.wait()
            acc.set(smem.mma(acc=acc))
            smem.release()
            gmem.store(acc=acc)
        gmem.drain()

    @schedule
    def mma_deferred_schedule(smem, gmem):
        # Stage 0 in the head; each loop iteration issues stage i's MMAs,
        # then frees stage i - 1 (its MMAs retired: X25); the tail frees
        # the last.
        smem.wait()
        acc.set(smem.mma(acc=acc))
        gmem.store(acc=acc)
        with domain_loop(1, iters, 1):
            smem.wait()
            acc.set(smem.mma(acc=acc))
            smem.release()
            gmem.store(acc=acc)
        smem.retire()
        smem.release()
        gmem.drain()

    mma_schedule = (mma_deferred_schedule if release == "deferred"
                    else mma_drain_schedule)

    @schedule
    def padding_schedule():
        with domain_loop(0, 1, 1):
            pass

    tasks = [
        Task(src_resources=[], dst_resources=[ab], warp_idx=0, num_warps=1,
             schedule=tma_schedule(ab), name="TMA",
             num_registers=PRODUCER_REGS),
        Task(src_resources=[], dst_resources=[], warp_idx=1, num_warps=3,
             schedule=padding_schedule(), name="Padding",
             num_registers=PRODUCER_REGS),
        Task(src_resources=[ab], dst_resources=[out], warp_idx=4,
             num_warps=MMA_WARPS, schedule=mma_schedule(ab, out), name="MMA",
             num_registers=CONSUMER_REGS),
    ]
    args = list(ARGS)
    if b_layout == "n":
        args[1] = ("b_map", B_MAP_N)

    return TaskManager(
        tasks=tasks, resource_dependency_graph={out: [ab]},
        skip_validation=skip_validation, num_warps=NUM_WARPS,
        cluster=(CLUSTER_M, 1, 1), name=name, args=args, arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble
    return compile_and_assemble(build(), ARCH, argv)


if __name__ == "__main__":
    sys.exit(main())
