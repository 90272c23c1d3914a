// GEMM with an AsyncUmma operand pipeline (sm_100a): threads fill the A/B
// stages in the 128-byte swizzle, tcgen05.mma drains them into tensor
// memory; a UmmaAsync accumulator goes to a tcgen05.ld epilogue.
//
// Output tile t (blockIdx.x) of 128 x 128: C rows 128 t .. 128 t + 127 of a
// row-major f32 matrix of 128 columns, C_t = sum over k of A_tk x B_tk^T.
// K is split into `k_blocks` blocks of 64; the A and B blocks (128 rows x 64
// bf16, K contiguous, 16 KiB each; B as N x K) are pre-tiled at element
// (t * k_blocks + k) * 8192 of `a` and `b`. The descriptors are in
// docs/blackwell-gemm.md.
//
// * Stage layout (33 KiB each): A at the first 1024-byte aligned address of
//   the stage, B 16 KiB after it, both K-major in the 128-byte swizzle: row r
//   at 128 r, its 16-byte chunk j at chunk j ^ (r % 8).
// * before the pipelines: warp 2 allocates 128 TMEM columns (the
//   accumulator: 128 lanes = rows, 128 f32 columns) and gives up the
//   allocation permit; every thread reads the address after a CTA barrier.
// * warps 0-1 (@load, 64 threads): per k-block, acquire a stage, copy A and
//   B into it with 16-byte loads and swizzled 16-byte stores, commit (the
//   lowering fences the generic-proxy stores for the MMA's async-proxy
//   reads; every thread arrives on the full barrier: producer_group = 64).
// * warp 2 (@mma): per k-block, waits for the stage; the elected thread
//   issues 4 tcgen05.mma.cta_group::1.kind::f16 of 128 x 128 x 16 and the
//   release is its tcgen05.commit to the empty barrier (consumer_group = 1);
//   acquires the accumulator on the first k-block and commits it on the
//   last.
// * warps 3-6 (@epilogue, 128 threads): wait for the accumulator; warp w
//   reads TMEM lanes 32 (w % 4) .. + 31 with 4 tcgen05.ld.32x32b.x32, stores
//   its row of the tile, releases it.
// * after the pipelines: a CTA barrier, then warp 2 frees the columns.
//
// Launch: block 224 threads, grid = number of output tiles, dynamic shared
// memory = the kernel's smem_bytes. Compile-only: tcgen05 needs sm_100a.
gpu.module @async_umma_gemm [#nvvm.target<chip = "sm_100a">] {
  // tcgen05.alloc writes the allocated TMEM address here.
  llvm.mlir.global internal @async_umma_gemm_tmem_base() {addr_space = 3 : i32,
      alignment = 16 : i64} : i32

  gpu.func @async_umma_gemm(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>,
                            %c: !llvm.ptr<1>, %k_blocks: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c16 = arith.constant 16 : index
    %c8192 = arith.constant 8192 : index
    %c2_i32 = arith.constant 2 : i32
    %c4_i32 = arith.constant 4 : i32
    %c16_i32 = arith.constant 16 : i32
    %c1023_i32 = arith.constant 1023 : i32
    %c16384_i32 = arith.constant 16384 : i32
    %c_align_mask = arith.constant -1024 : i32
    %true = arith.constant true
    %tmem_cols = arith.constant 128 : i32
    // Instruction descriptor, kind::f16: D f32, A and B bf16, both K-major,
    // N >> 3 = 16, M >> 4 = 8 (128 x 128 x 16).
    %idesc = arith.constant 0x08200490 : i32
    // K-major, 128-byte swizzle: LBO unused (1), SBO 1024 bytes (64), base
    // offset 0, swizzle mode 2.
    %lbo = arith.constant 1 : i32
    %sbo = arith.constant 64 : i32
    %base_off = arith.constant 0 : i8
    %lbo_mode = arith.constant false
    %swizzle = arith.constant 2 : i8
    %nk = arith.index_cast %k_blocks : i64 to index
    %tile = gpu.block_id x
    %tid = gpu.thread_id x
    %tile_k0 = arith.muli %tile, %nk : index
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %is_alloc_warp = arith.cmpi eq, %warp, %c2 : index

    %slot = llvm.mlir.addressof @async_umma_gemm_tmem_base : !llvm.ptr<3>
    scf.if %is_alloc_warp {
      nvvm.tcgen05.alloc %slot, %tmem_cols : !llvm.ptr<3>, i32
      nvvm.tcgen05.relinquish_alloc_permit
    }
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    gpu.barrier
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %tmem_i32 = llvm.load %slot : !llvm.ptr<3> -> i32

    tspipe.kernel warps(7) {
      tspipe.pipeline @ab config(<async_umma, num_stages = 3,
          producer_group = <thread, 64>, consumer_group = <thread, 1>>)
          smem_bytes(101376)
      tspipe.pipeline @acc config(<umma_async, num_stages = 1,
          producer_group = <thread, 1>, consumer_group = <thread, 128>>)

      tspipe.task @load warps(0, 2) produces [@ab] {
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.producer_acquire @ab
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %buf_i32 = llvm.ptrtoint %buf : !llvm.ptr<3> to i32
          %up = arith.addi %buf_i32, %c1023_i32 : i32
          %a_i32 = arith.andi %up, %c_align_mask : i32
          %a_smem = llvm.inttoptr %a_i32 : i32 to !llvm.ptr<3>
          %blk = arith.addi %tile_k0, %k : index
          %first = arith.muli %blk, %c8192 : index
          // Each block is 1024 chunks of 16 bytes (8 bf16); thread t copies
          // chunks t, t + 64, ... of A, then of B (B 16 KiB after A). Chunk
          // c is chunk c % 8 of row c / 8; it lands at chunk
          // (c % 8) ^ (row % 8) of that row (128-byte swizzle).
          scf.for %chunk = %tid to %c1024 step %c64 {
            %e = arith.muli %chunk, %c8 : index
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %r = arith.divui %chunk, %c8 : index
            %j = arith.remui %chunk, %c8 : index
            %r8 = arith.remui %r, %c8 : index
            %js = arith.xori %j, %r8 : index
            %row_chunk0 = arith.muli %r, %c8 : index
            %dst_chunk = arith.addi %row_chunk0, %js : index
            %dst_byte = arith.muli %dst_chunk, %c16 : index
            %dst_a_off = arith.index_cast %dst_byte : index to i32
            %dst_b_off = arith.addi %dst_a_off, %c16384_i32 : i32
            %src_a = llvm.getelementptr %a[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
            %src_b = llvm.getelementptr %b[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
            %dst_a = llvm.getelementptr %a_smem[%dst_a_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %dst_b = llvm.getelementptr %a_smem[%dst_b_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %va = llvm.load %src_a {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
            %vb = llvm.load %src_b {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
            llvm.store %va, %dst_a {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
            llvm.store %vb, %dst_b {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
          }
          tspipe.producer_commit @ab
        }
      }

      tspipe.task @mma warps(2, 1) produces [@acc] consumes [@ab] {
        %tmem = llvm.inttoptr %tmem_i32 : i32 to !llvm.ptr<6>
        %acc = tspipe.producer_acquire @acc
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.consumer_wait @ab
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
          %buf_i32 = llvm.ptrtoint %buf : !llvm.ptr<3> to i32
          %up = arith.addi %buf_i32, %c1023_i32 : i32
          %a_i32 = arith.andi %up, %c_align_mask : i32
          %b_i32 = arith.addi %a_i32, %c16384_i32 : i32
          %a_enc = arith.shrui %a_i32, %c4_i32 : i32
          %b_enc = arith.shrui %b_i32, %c4_i32 : i32
          %first_k = arith.cmpi eq, %k, %c0 : index
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            scf.for %kk = %c0 to %c4 step %c1 {
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
                   ctaGroup = #nvvm.cta_group<cta_1>}
                  : (!llvm.ptr<6>, i64, i64, i32, i1)
            }
          }
          tspipe.consumer_release @ab
        }
        tspipe.producer_commit @acc
      }

      tspipe.task @epilogue warps(3, 4) consumes [@acc] {
        // The TMEM lanes this warp may read: 32 (warp % 4) .. + 31.
        %lane_group = arith.remui %warp, %c4 : index
        %lane_base = arith.muli %lane_group, %c32 : index
        %row = arith.addi %lane_base, %lane : index
        %lane_base_i32 = arith.index_cast %lane_base : index to i32
        %lane_field = arith.shli %lane_base_i32, %c16_i32 : i32
        %row_tmem = arith.addi %tmem_i32, %lane_field : i32
        %tile_row = arith.muli %tile, %c128 : index
        %out_row = arith.addi %tile_row, %row : index
        %row_start = arith.muli %out_row, %c128 : index
        tspipe.domain_loop %t = %c0 to %c1 step %c1 {
          %s = tspipe.consumer_wait @acc
          nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
          scf.for %jc = %c0 to %c4 step %c1 {
            %col = arith.muli %jc, %c32 : index
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

    // Every TMEM read is done once all threads pass this barrier.
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    gpu.barrier
    scf.if %is_alloc_warp {
      nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
      %tmem_done = llvm.inttoptr %tmem_i32 : i32 to !llvm.ptr<6>
      nvvm.tcgen05.dealloc %tmem_done, %tmem_cols : !llvm.ptr<6>, i32
    }
    gpu.return
  }
}
