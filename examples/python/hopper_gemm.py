"""Hopper GEMM: C = A @ B in bf16 with fp32 accumulation, warp-specialized,
written with the TS-style front end (sm_90a).

Layouts: A is M x K row-major, B is given as its transpose, N x K
row-major (B column-major, the "TN" GEMM: both operands K-major, as wgmma
reads them without transposition), C is M x N row-major bf16.
``build(b_layout="n")`` builds the transposed case instead: B stored K x N
row-major (N-major), which wgmma reads with its transpose-B mode.

Structure (docs/gemm.md):

* one 128 x 256 output tile per CTA step, K in stages of 128 (two
  64-wide sub-slices, each one 128-byte-swizzled TMA box per operand); a
  cluster of two CTAs along M shares the B tile: each CTA loads its own A
  tile (128 x 64 per sub-slice) and half of B (128 x 64), multicast to both
  CTAs;
* a 2-stage TmaAsync pipeline ``ab`` (2 x 48 KiB of A and B per stage,
  plus 1 KiB to align each stage to the 1024-byte swizzle atom); fewer,
  larger stages halve the stage releases, each of which costs a
  cluster-scope memory barrier (bench/RESULTS.md);
* warpgroup 0: the TMA producer (warp 0, one elected thread issues
  ``nvgpu.tma.async.load``; warps 1-3 pad the warpgroup), 40 registers;
* warpgroups 1 and 2: the MMA consumers, one task of 8 warps at 232
  registers (``setmaxnreg``); warpgroup w computes rows 64 w .. 64 w + 63
  of the tile with eight ``nvvm.wgmma.mma_async`` m64n256k16 per stage
  (one commit, one wait), its 64 x 256 fp32 accumulator (an LLVM struct of
  128 f32 per thread) carried by the domain loop (a ``TaskLocalVariable``);
  the first MMA of a tile has scale-d zero instead of a zeroed
  accumulator, so no instruction writes the accumulator registers between
  MMAs;
* persistent tiles: cluster c takes the tile pairs c, c + G, c + 2G, ...
  (G clusters); the domain loop runs ``iters`` = tiles per cluster x
  stages-per-tile iterations (a kernel argument, so that the TMA and MMA tasks
  count the same domain); a step past the last tile pair loads out of
  bounds (TMA fills zeros) and stores nothing;
* epilogue on the last stage of a tile: the accumulator goes to bf16 in
  registers and straight to C (each thread stores its bf16 pairs).

Kernel ``hopper_gemm(a_map, b_map, c, m, n, kt, iters, pairs_m)``:
``a_map`` / ``b_map`` are CUtensorMaps (128-byte ``__grid_constant__``
parameters, built by ``tspipe.runtime.tensor_map`` from the types the IR
declares), ``c`` the output, ``m``, ``n`` the sizes (multiples of 256),
``kt`` = K / 128 (K / 64 for ``b_layout="n"``, which keeps 4 stages of
one sub-slice and ``nvgpu.warpgroup.mma``), ``iters`` the domain length, ``pairs_m`` = M / 256.
Launch: 384 threads, cluster (2, 1, 1), grid 2 G.

Run: ``python examples/python/hopper_gemm.py [out_dir]``. Launch spec:
``examples/hopper_gemm.py``; benchmark: ``bench/gemm_bench.py``.
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
from tspipe.ts.task_manager import TaskManager
from tspipe.ts.tensor_maps import TensorMapArg, tensor_map

ARCH = "sm_90a"
TILE_M, TILE_N, TILE_K = 128, 256, 64
WGMMA_K = 16
CLUSTER_M = 2
# TN (B K-major): 2 stages of two 64-wide K sub-slices (K 128 per stage:
# half the stage releases of 4 x 64, measured faster, bench/RESULTS.md);
# NN: 4 stages of one.
NUM_STAGES, K_SUB = 2, 2
NUM_STAGES_NN = 4
STAGE_K = K_SUB * 64                          # K per stage (TN)
A_BYTES = TILE_M * TILE_K * 2                 # 16 KiB
B_HALF_BYTES = (TILE_N // CLUSTER_M) * TILE_K * 2   # 16 KiB per CTA
STAGE_DATA = A_BYTES + CLUSTER_M * B_HALF_BYTES      # 48 KiB
STAGE_SLOT = STAGE_DATA + 1024                # + alignment to 1 KiB
NUM_WARPS = 12                                # 3 warpgroups
MMA_WARPS = 8
PRODUCER_REGS, CONSUMER_REGS = 40, 232

# The tensor maps the IR declares (box: rows x 64 bf16, 128-byte swizzle).
A_MAP = TensorMapArg(box=(TILE_M, TILE_K), element="bf16",
                     swizzle="swizzle_128b")
B_MAP = TensorMapArg(box=(TILE_N // CLUSTER_M, TILE_K), element="bf16",
                     swizzle="swizzle_128b")
# Transposed case: B stored K x N, boxes of 64 K-rows x 64 N-columns.
B_MAP_N = TensorMapArg(box=(TILE_K, 64), element="bf16",
                       swizzle="swizzle_128b")

ARGS = [("a_map", A_MAP), ("b_map", B_MAP), ("c", "ptr"), ("m", "i32"),
        ("n", "i32"), ("kt", "i32"), ("iters", "i32"), ("pairs_m", "i32")]


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


def _tile_of(kernel, iteration):
    """(k-slice, m block of this CTA, n block, valid) of a domain
    iteration (see the module docstring)."""
    kt = _arg_index(kernel, "kt")
    pairs_m = _arg_index(kernel, "pairs_m")
    step = arith.divui(iteration, kt)
    kk = arith.remui(iteration, kt)
    cluster = arith.divui(gpu.block_id(gpu.Dimension.x), _idx(CLUSTER_M))
    clusters = arith.divui(gpu.grid_dim(gpu.Dimension.x), _idx(CLUSTER_M))
    pair = arith.addi(cluster, arith.muli(step, clusters))
    rank = arith.index_cast(ir.IndexType.get(),
                            nvvm.read_ptx_sreg_cluster_ctarank(
                                ir.IntegerType.get_signless(32)))
    pm = arith.remui(pair, pairs_m)
    nb = arith.divui(pair, pairs_m)
    mb = arith.addi(arith.muli(pm, _idx(CLUSTER_M)), rank)
    n_blocks = arith.divui(_arg_index(kernel, "n"), _idx(TILE_N))
    valid = arith.cmpi(arith.CmpIPredicate.ult, nb, n_blocks)
    return kk, mb, nb, rank, valid


@dataclass
class SmemAB(MemoryResource):
    """A and B tiles of one k-slice (TmaAsync, multicast of B along M)."""

    b_layout: str = "t"
    diagnostic: str = ""
    k_sub: int = 1

    @producer_work
    def tma_load(self, stage_info: StageInfo):
        k = self.kernel
        kk, mb, nb, rank, valid = _tile_of(k, _iteration(stage_info))
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
        k = self.kernel
        kk, _, _, _, _ = _tile_of(k, _iteration(stage_info))
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
        if self.b_layout == "t":
            return _slice_scaled(
                acc, [(_offset(a_base, sub * STAGE_DATA),
                       _offset(b_base, sub * STAGE_DATA))
                      for sub in range(self.k_sub)], first)
        acc_type = acc.type
        pick = scf.IfOp(first, [acc_type], has_else=True)
        with ir.InsertionPoint(pick.then_block):
            scf.yield_([nvgpu.warpgroup_mma_init_accumulator(acc_type)])
        with ir.InsertionPoint(pick.else_block):
            scf.yield_([acc])
        acc = pick.results[0]
        # Drain this stage's MMAs before it is released (the timing-only
        # diagnostic "no_drain" leaves them in flight: a race, not a kernel).
        return self._slice(acc, a_base, b_base, a_map, b_map,
                           TILE_K // WGMMA_K if self.diagnostic == "no_drain"
                           else 0)

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
    """The four m64n256k16 MMAs of one 64-wide K slice (A and B K-major,
    ``nvvm.wgmma.mma_async``), then one commit and a wait for all of them.
    On the first k-slice of a tile (``first``) the first MMA ignores the
    accumulator (scale-d zero), so the registers are never zeroed by other
    instructions between MMAs. ``acc``: the thread's 128 f32 (wgmma's
    m64n256 D fragment) as an LLVM struct."""
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
        nvvm.wgmma_wait_group_sync_aligned(0)
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
    """C in global memory: the epilogue of the last k-slice of a tile."""

    diagnostic: str = ""

    @producer_work
    def store(self, stage_info, *, acc):
        if self.diagnostic == "no_epilogue":
            return
        k = self.kernel
        kt = _arg_index(k, "kt")
        kk, mb, nb, _, valid = _tile_of(k, _iteration(stage_info))
        last = arith.cmpi(arith.CmpIPredicate.eq, kk,
                          arith.subi(kt, _idx(1)))
        branch = scf.IfOp(arith.andi(last, valid))
        with ir.InsertionPoint(branch.then_block):
            _epilogue(k, acc, mb, nb)
            scf.yield_([])


def _epilogue(k, acc, mb, nb):
    """Each thread's 128 fp32 (wgmma's m64n256 D fragment: for each
    8-column group j, rows r and r + 8, columns 8 j + 2 (lane % 4) + {0, 1})
    to bf16 pairs stored into C (row-major, n columns)."""
    i64 = ir.IntegerType.get_signless(64)
    bf16x2 = ir.VectorType.get([2], ir.BF16Type.get())
    f32x2 = ir.VectorType.get([2], ir.F32Type.get())
    if str(acc.type).startswith("!llvm.struct"):
        s, path = acc, (lambda i: [i])
    else:
        s, path = bridge.accumulator_struct(acc, 64, TILE_N), (lambda i: [0, i])
    tid = gpu.thread_id(gpu.Dimension.x)
    local = arith.subi(tid, _idx(128))
    wg = arith.divui(local, _idx(128))
    warp = arith.remui(arith.divui(local, _idx(32)), _idx(4))
    lane = arith.remui(local, _idx(32))
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
            v0 = llvm.extractvalue(ir.F32Type.get(), s,
                                   path(4 * j + 2 * half))
            v1 = llvm.extractvalue(ir.F32Type.get(), s,
                                   path(4 * j + 2 * half + 1))
            pair = llvm.insertelement(
                llvm.insertelement(llvm.mlir_poison(f32x2), v0, _i32(0)),
                v1, _i32(1))
            packed = arith.truncf(bf16x2, pair)
            elem = arith.addi(base, _idx(8 * j))
            if half:
                elem = arith.addi(elem, row8)
            byte = arith.index_cast(i64, arith.muli(elem, _idx(2)))
            ptr = llvm.inttoptr(llvm.PointerType.get(1),
                                arith.addi(c_addr, byte))
            llvm.store(packed, ptr, alignment=4)


def build(arch: str = ARCH, skip_validation: bool = False,
          b_layout: str = "t", diagnostic: str = "",
          k_sub: Optional[int] = None,
          num_stages: Optional[int] = None) -> TaskManager:
    """The TaskManager of the GEMM. ``b_layout``: ``"t"`` (B as N x K,
    K-major) or ``"n"`` (B as K x N, N-major). ``k_sub``: 64-wide K
    sub-slices per stage (``kt`` = K / (64 k_sub); default ``K_SUB`` for
    "t", 1 for "n", which supports only 1); ``num_stages``: default
    ``NUM_STAGES`` for "t", ``NUM_STAGES_NN`` for "n". Raises ValueError for
    a k_sub other than 1 with "n" or stages that overflow the 227 KiB of
    shared memory. ``diagnostic`` (timing
    experiments of bench/RESULTS.md, not correct kernels): ``"no_drain"``
    releases a stage with its MMAs still in flight, ``"no_epilogue"`` stores
    nothing; the kernel is named ``hopper_gemm_<diagnostic>``."""
    if diagnostic not in ("", "no_drain", "no_epilogue"):
        raise ValueError(f"unknown diagnostic {diagnostic!r}")
    if b_layout not in ("t", "n"):
        raise ValueError(f"b_layout must be 't' or 'n', got {b_layout!r}")
    if k_sub is None:
        k_sub = K_SUB if b_layout == "t" else 1
    if num_stages is None:
        num_stages = NUM_STAGES if b_layout == "t" else NUM_STAGES_NN
    if k_sub < 1 or (b_layout == "n" and k_sub != 1):
        raise ValueError(f"k_sub must be >= 1 (1 for b_layout 'n'), got "
                         f"{k_sub}")
    smem = num_stages * (k_sub * STAGE_DATA + 1024)
    if num_stages < 1 or smem > 227 * 1024:
        raise ValueError(
            f"{num_stages} stages of {k_sub} x {STAGE_DATA} bytes need {smem} "
            f"bytes of shared memory (at most {227 * 1024}); use fewer "
            f"stages or a smaller k_sub")
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
    )
    ab = SmemAB(name="ab", pipeline_config=ab_config,
                smem_bytes=smem,
                b_layout=b_layout, diagnostic=diagnostic, k_sub=k_sub)
    out = GmemC(name="c_out", diagnostic=diagnostic)

    def acc_init():
        if b_layout == "t":
            # Never read: the first MMA of each tile has scale-d zero.
            return llvm.mlir_undef(_acc_struct_type())
        return nvgpu.warpgroup_mma_init_accumulator(
            bridge.accumulator_type(64, TILE_N))

    acc = TaskLocalVariable(acc_init, name="acc")

    def iters(kernel):
        return kernel.prologue(lambda: _arg_index(kernel, "iters"))

    @schedule
    def tma_schedule(smem):
        with domain_loop(0, iters, 1):
            smem.acquire()
            smem.tma_load()
            smem.commit()
        smem.producer_tail()

    @schedule
    def mma_schedule(smem, gmem):
        with domain_loop(0, iters, 1):
            smem.wait()
            acc.set(smem.mma(acc=acc))
            smem.release()
            gmem.store(acc=acc)

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
        cluster=(CLUSTER_M, 1, 1),
        name=("hopper_gemm" if b_layout == "t" else "hopper_gemm_nn") +
        (f"_{diagnostic}" if diagnostic else ""),
        args=args, arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble
    return compile_and_assemble(build(), ARCH, argv)


if __name__ == "__main__":
    sys.exit(main())
