// 2-CTA (V = 2) cluster GEMM with multicast (sm_100a): cta_group::2
// tcgen05.mma issued by each pair's leader CTA, accumulator in both CTAs'
// tensor memory, tcgen05.ld epilogue.
//
// C (M x N, f32, row-major) = A (M x K, bf16, row-major) x B^T, B given as
// N x K bf16 (K contiguous). A cluster of 4 CTAs, cta_layout_vmnk =
// [2, 2, 1, 1]: two CTA pairs (ranks 0-1 and 2-3) along M. Pair p of cluster
// (x / 4, y) computes the 256 x 256 output tile at rows 512 (x / 4) + 256 p,
// columns 256 y; CTA v (= rank % 2) of the pair holds its A rows
// 128 v .. 128 v + 127 and its B rows (N) 128 v .. 128 v + 127, and gets
// those 128 accumulator rows in its tensor memory. K runs in `k_blocks`
// blocks of 32 (K = 32 k_blocks, N = 256 gridDim.y). The descriptors are
// in docs/blackwell-gemm.md.
//
// * `tmap_a`: A, dims {K, M}, box {32, 128}; `tmap_b`: B, dims {K, N}, box
//   {32, 64}; bf16, CU_TENSOR_MAP_SWIZZLE_64B (rows of 64 bytes, swizzle
//   atoms of 8 rows = 512 bytes).
// * Stage layout per CTA (17 KiB): the A box (8 KiB) at the first 1024-byte
//   aligned address of the stage, the B rows of its v (8 KiB) after it;
//   every CTA uses the same offsets, as cta_group::2 MMAs read both CTAs'
//   shared memory at the leader's descriptor addresses.
// * before the pipelines: warp 1 of both CTAs of a pair allocates 256 TMEM
//   columns together (tcgen05.alloc.cta_group::2) and gives up the permit.
// * warp 0 (@load, every CTA): per k-block, acquires an A/B stage (every CTA
//   waits on its empty barrier; only the pair leader arms its full barrier
//   with 32768 bytes, both CTAs' data: num_bytes_per_warp_per_cta = 16384),
//   then loads with cta_group::2 tensor copies that complete on the pair
//   leader's full barrier (the shared address with the peer bit, bit 24,
//   cleared): its own 8 KiB A box, and its half (64 rows, 4 KiB) of the B
//   rows of its v, multicast to the same v in both pairs (mask 0b0101 << v,
//   from the CTA rank), at offset 4 KiB x pair in the B area.
// * warp 1 (@mma): on the pair leader (consumer_signaling = cta_leader)
//   waits for the stage; its elected thread issues 2
//   tcgen05.mma.cta_group::2.kind::f16 of 256 x 256 x 16 (A and B from both
//   CTAs, D in both CTAs' TMEM) and releases the stage with a cta_group::2
//   tcgen05.commit multicast to every CTA whose empty barrier its MMAs free:
//   its pair and the other pair, which loaded half of B (X2: consumer_group
//   = 2 pairs); acquires the accumulator on the first k-block and commits
//   it on the last, multicast to both CTAs of its pair.
// * warps 2-5 (@epilogue, both CTAs): wait for the accumulator on their own
//   CTA; warp w reads TMEM lanes 32 (w % 4) .. + 31 with 8
//   tcgen05.ld.32x32b.x32 (256 columns), stores its row of C, releases the
//   accumulator on the pair leader's empty barrier (mapa + remote arrive:
//   consumer_group = 4 warps x 32 x 2 CTAs).
// * after the pipelines: a cluster barrier (no CTA of the pair touches TMEM
//   any more, and no CTA exits while its peers still write its shared
//   memory), then warp 1 of both CTAs frees the columns together.
//
// Launch: cluster (4, 1, 1), grid (M / 128, N / 256), block 192 threads,
// dynamic shared memory = the kernel's smem_bytes; `tmap_a`, `tmap_b` are
// CUtensorMap descriptors (__grid_constant__). Compile-only: tcgen05 needs
// sm_100a.
gpu.module @umma_gemm_2cta [#nvvm.target<chip = "sm_100a">] {
  // tcgen05.alloc writes the allocated TMEM address here.
  llvm.mlir.global internal @umma_gemm_2cta_tmem_base() {addr_space = 3 : i32,
      alignment = 16 : i64} : i32

  gpu.func @umma_gemm_2cta(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr,
                           %c: !llvm.ptr<1>, %k_blocks: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %c4_i32 = arith.constant 4 : i32
    %c5_i32 = arith.constant 5 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %c256_i32 = arith.constant 256 : i32
    %c1023_i32 = arith.constant 1023 : i32
    %c4096_i32 = arith.constant 4096 : i32
    %c8192_i32 = arith.constant 8192 : i32
    %c_align_mask = arith.constant -1024 : i32
    %true = arith.constant true
    %tmem_cols = arith.constant 256 : i32
    // Instruction descriptor, kind::f16 (docs/blackwell-gemm.md): D f32
    // (bits 4-5 = 1), A and B bf16 (bits 7-9 = 1, 10-12 = 1), both K-major
    // (bits 15, 16 = 0), N >> 3 = 32 (bits 17-22), M >> 4 = 16 (bits 24-28):
    // the pair's 256 x 256 x 16 MMA.
    %idesc = arith.constant 0x10400490 : i32
    // Shared-memory descriptor fields of a K-major operand in the 64-byte
    // swizzle: leading byte offset unused (encoded 1), stride byte offset
    // 512 (8 rows of 64 bytes, encoded 32), base offset 0, swizzle mode 4
    // (64 bytes).
    %lbo = arith.constant 1 : i32
    %sbo = arith.constant 32 : i32
    %base_off = arith.constant 0 : i8
    %lbo_mode = arith.constant false
    %swizzle = arith.constant 4 : i8
    %nk = arith.index_cast %k_blocks : i64 to index
    %bid = gpu.block_id x
    %bid_i32 = arith.index_cast %bid : index to i32
    %tile_n = gpu.block_id y
    %tile_n_i32 = arith.index_cast %tile_n : index to i32
    %n_tiles = gpu.grid_dim y
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %v = arith.remui %rank, %c2_i32 : i32
    %pair = arith.divui %rank, %c2_i32 : i32
    %is_lead = arith.cmpi eq, %v, %c0_i32 : i32
    %b_mask32 = arith.shli %c5_i32, %v : i32
    %b_mask = arith.trunci %b_mask32 : i32 to i16
    %tid = gpu.thread_id x
    %m0 = arith.muli %bid_i32, %c128_i32 : i32
    %n0 = arith.muli %tile_n_i32, %c256_i32 : i32
    %ldc = arith.muli %n_tiles, %c256 : index
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %is_alloc_warp = arith.cmpi eq, %warp, %c1 : index

    // TMEM: warp 1 of both CTAs of the pair allocates the accumulator's
    // columns together.
    %slot = llvm.mlir.addressof @umma_gemm_2cta_tmem_base : !llvm.ptr<3>
    scf.if %is_alloc_warp {
      nvvm.tcgen05.alloc %slot, %tmem_cols {group = #nvvm.cta_group<cta_2>}
          : !llvm.ptr<3>, i32
      nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
    }
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    gpu.barrier
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %tmem_i32 = llvm.load %slot : !llvm.ptr<3> -> i32

    tspipe.kernel warps(6) cluster([4, 1, 1]) {
      tspipe.pipeline @ab config(<tma_umma, num_stages = 4, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [2, 2, 1, 1], consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 16384>)
          smem_bytes(69632)
      tspipe.pipeline @acc config(<umma_async, num_stages = 1,
          producer_group = <thread, 1>, consumer_group = <thread, 256>,
          cta_layout_vmnk = [2, 2, 1, 1], producer_signaling = cta_leader>)

      tspipe.task @load warps(0, 1) produces [@ab] {
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.producer_acquire @ab
          // The pair leader's full barrier (its address with the peer bit
          // cleared), which the copies of both CTAs complete on.
          %lead_full = tspipe.full_barrier %s {pair_leader} : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %k32 = arith.index_cast %k : index to i32
          %kx = arith.muli %k32, %c32_i32 : i32
          // B rows n0 + 128 v + 64 pair .. + 63, to B-area offset 4 KiB pair.
          %bv = arith.muli %v, %c128_i32 : i32
          %bp = arith.muli %pair, %c64_i32 : i32
          %by0 = arith.addi %n0, %bv : i32
          %by = arith.addi %by0, %bp : i32
          %buf_i32 = llvm.ptrtoint %buf : !llvm.ptr<3> to i32
          %up = arith.addi %buf_i32, %c1023_i32 : i32
          %a_i32 = arith.andi %up, %c_align_mask : i32
          %b_area = arith.addi %a_i32, %c8192_i32 : i32
          %b_half = arith.muli %pair, %c4096_i32 : i32
          %b_i32 = arith.addi %b_area, %b_half : i32
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %dst_a = llvm.inttoptr %a_i32 : i32 to !llvm.ptr<3>
            %dst_b = llvm.inttoptr %b_i32 : i32 to !llvm.ptr<3>
            %dst_a7 = llvm.addrspacecast %dst_a : !llvm.ptr<3> to !llvm.ptr<7>
            %dst_b7 = llvm.addrspacecast %dst_b : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.tensor.shared.cluster.global %dst_a7, %tmap_a, %lead_full,
                box[%kx, %m0] {group = #nvvm.cta_group<cta_2>}
                : !llvm.ptr<7>, !llvm.ptr
            nvvm.cp.async.bulk.tensor.shared.cluster.global %dst_b7, %tmap_b, %lead_full,
                box[%kx, %by] multicast_mask = %b_mask {group = #nvvm.cta_group<cta_2>}
                : !llvm.ptr<7>, !llvm.ptr
          }
          tspipe.producer_commit @ab
        }
      }

      tspipe.task @mma warps(1, 1) produces [@acc] consumes [@ab] {
        %tmem = llvm.inttoptr %tmem_i32 : i32 to !llvm.ptr<6>
        %acc = tspipe.producer_acquire @acc
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.consumer_wait @ab
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
          %buf_i32 = llvm.ptrtoint %buf : !llvm.ptr<3> to i32
          %up = arith.addi %buf_i32, %c1023_i32 : i32
          %a_i32 = arith.andi %up, %c_align_mask : i32
          %b_i32 = arith.addi %a_i32, %c8192_i32 : i32
          %a_enc = arith.shrui %a_i32, %c4_i32 : i32
          %b_enc = arith.shrui %b_i32, %c4_i32 : i32
          %first_k = arith.cmpi eq, %k, %c0 : index
          // Only the pair leader issues the pair's MMAs.
          %elected = nvvm.elect.sync -> i1
          %issue = arith.andi %elected, %is_lead : i1
          scf.if %issue {
            scf.for %kk = %c0 to %c2 step %c1 {
              // K step kk: 16 bf16 = 32 bytes further along each row.
              %kk32 = arith.index_cast %kk : index to i32
              %step = arith.muli %kk32, %c2_i32 : i32
              %a_start = arith.addi %a_enc, %step : i32
              %b_start = arith.addi %b_enc, %step : i32
              %desc_a = nvvm.tcgen05.mma_smem_desc (%a_start, %lbo, %sbo,
                  %base_off, %lbo_mode, %swizzle)
                  : (i32, i32, i32, i8, i1, i8) -> i64
              %desc_b = nvvm.tcgen05.mma_smem_desc (%b_start, %lbo, %sbo,
                  %base_off, %lbo_mode, %swizzle)
                  : (i32, i32, i32, i8, i1, i8) -> i64
              %first_kk = arith.cmpi eq, %kk, %c0 : index
              %overwrite = arith.andi %first_k, %first_kk : i1
              %accumulate = arith.xori %overwrite, %true : i1
              nvvm.tcgen05.mma %tmem, %desc_a, %desc_b, %idesc, %accumulate
                  {kind = #nvvm.tcgen05_mma_kind<f16>,
                   ctaGroup = #nvvm.cta_group<cta_2>}
                  : (!llvm.ptr<6>, i64, i64, i32, i1)
            }
          }
          tspipe.consumer_release @ab
        }
        tspipe.producer_commit @acc
      }

      tspipe.task @epilogue warps(2, 4) consumes [@acc] {
        // The TMEM lanes this warp may read: 32 (warp % 4) .. + 31.
        %lane_group = arith.remui %warp, %c4 : index
        %lane_base = arith.muli %lane_group, %c32 : index
        %row = arith.addi %lane_base, %lane : index
        %lane_base_i32 = arith.index_cast %lane_base : index to i32
        %lane_field = arith.shli %lane_base_i32, %c16_i32 : i32
        %row_tmem = arith.addi %tmem_i32, %lane_field : i32
        %m0_idx = arith.index_cast %m0 : i32 to index
        %n0_idx = arith.index_cast %n0 : i32 to index
        %out_row = arith.addi %m0_idx, %row : index
        %row_first = arith.muli %out_row, %ldc : index
        %row_start = arith.addi %row_first, %n0_idx : index
        tspipe.domain_loop %t = %c0 to %c1 step %c1 {
          %s = tspipe.consumer_wait @acc
          nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
          scf.for %j = %c0 to %c8 step %c1 {
            // Columns 32 j .. 32 j + 31 of this thread's row.
            %col = arith.muli %j, %c32 : index
            %col_i32 = arith.index_cast %col : index to i32
            %taddr_i32 = arith.addi %row_tmem, %col_i32 : i32
            %taddr = llvm.inttoptr %taddr_i32 : i32 to !llvm.ptr<6>
            %vals = nvvm.tcgen05.ld %taddr
                {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}
                : vector<32xi32>
            nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
            %e = arith.addi %row_start, %col : index
            %e64 = arith.index_cast %e : index to i64
            %dst = llvm.getelementptr %c[%e64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %vals, %dst {alignment = 16 : i64} : vector<32xi32>, !llvm.ptr<1>
          }
          nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
          tspipe.consumer_release @acc
        }
      }
    }

    // No CTA of the pair touches its TMEM any more once the cluster has
    // passed this barrier (PTX ISA, tcgen05 issue granularity).
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    nvvm.cluster.arrive {aligned}
    nvvm.cluster.wait {aligned}
    scf.if %is_alloc_warp {
      nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
      %tmem_done = llvm.inttoptr %tmem_i32 : i32 to !llvm.ptr<6>
      nvvm.tcgen05.dealloc %tmem_done, %tmem_cols {group = #nvvm.cta_group<cta_2>}
          : !llvm.ptr<6>, i32
    }
    gpu.return
  }
}
