// GEMM on one CTA (sm_100a): TMA tensor copies fill the A/B stages
// (TmaUmma), tcgen05.mma accumulates into tensor memory, a UmmaAsync stage
// hands the accumulator to a tcgen05.ld epilogue.
//
// C (M x N, f32, row-major) = A (M x K, bf16, row-major) x B^T, with B given
// as N x K bf16 (K contiguous: "B column-major"). CTA (x, y) computes the
// output tile of 128 x 128 at rows 128 x, columns 128 y, over `k_blocks`
// K-blocks of 64 (K = 64 k_blocks, N = 128 gridDim.y). docs/blackwell-gemm.md
// gives the descriptors bit by bit.
//
// * `tmap_a`, `tmap_b`: CUtensorMaps of A and B (bf16, 2-D, dims {K, rows},
//   box {64, 128}, CU_TENSOR_MAP_SWIZZLE_128B). Each box lands in shared
//   memory as 128 rows of 128 bytes in the 128-byte swizzle (16 KiB).
// * Stage layout (33 KiB each): the A box at the first 1024-byte aligned
//   address of the stage, the B box 16 KiB after it (the 128-byte swizzle
//   atom is 1024 bytes; the spare KiB pays for the alignment).
// * before the pipelines: warp 1 allocates 128 TMEM columns (tcgen05.alloc,
//   the accumulator: 128 lanes = rows, 128 f32 columns) and gives up the
//   allocation permit; every thread reads the TMEM address after a CTA
//   barrier (tcgen05 fences around it).
// * warp 0 (@load): per k-block, acquires a stage (the elected thread arms
//   the full barrier with 32768 bytes), then two tensor copies complete
//   16384 bytes each on it.
// * warp 1 (@mma): per k-block, waits for the stage; the elected thread
//   issues 4 tcgen05.mma.cta_group::1.kind::f16 of 128 x 128 x 16 (K steps
//   of 32 bytes inside the swizzle atom: the descriptors' start addresses
//   advance by 2), the first one of k-block 0 overwriting D; the release is
//   the same elected thread's tcgen05.commit to the stage's empty barrier
//   (elect.sync elects the same lane each time), which arrives once those
//   MMAs are done. On the first k-block it acquires the accumulator, on the
//   last it commits it (tcgen05.commit to the accumulator's full barrier).
// * warps 2-5 (@epilogue, 128 threads): wait for the accumulator; warp w
//   reads TMEM lanes 32 (w % 4) .. + 31 (the lanes a warp may access), so
//   thread (w, l) owns tile row 32 (w % 4) + l: 4 tcgen05.ld.32x32b.x32 of
//   32 columns, tcgen05.wait::ld, 128-byte row stores to C; release (every
//   thread arrives: consumer_group = 128).
// * after the pipelines: a CTA barrier, then warp 1 frees the columns
//   (tcgen05.dealloc).
//
// Launch: block 192 threads, grid (M / 128, N / 128), dynamic shared memory =
// the kernel's smem_bytes. Compile-only: tcgen05 needs sm_100a.
gpu.module @umma_gemm [#nvvm.target<chip = "sm_100a">] {
  // tcgen05.alloc writes the allocated TMEM address here.
  llvm.mlir.global internal @umma_gemm_tmem_base() {addr_space = 3 : i32,
      alignment = 16 : i64} : i32

  gpu.func @umma_gemm(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr,
                      %c: !llvm.ptr<1>, %k_blocks: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %true = arith.constant true
    %c2_i32 = arith.constant 2 : i32
    %c4_i32 = arith.constant 4 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %c1023_i32 = arith.constant 1023 : i32
    %c_align_mask = arith.constant -1024 : i32
    %c16384_i32 = arith.constant 16384 : i32
    %tmem_cols = arith.constant 128 : i32
    // Instruction descriptor, kind::f16 (docs/blackwell-gemm.md): D f32
    // (bits 4-5 = 1), A and B bf16 (bits 7-9 = 1, 10-12 = 1), both K-major
    // (bits 15, 16 = 0), N >> 3 = 16 (bits 17-22), M >> 4 = 8 (bits 24-28).
    %idesc = arith.constant 0x08200490 : i32
    // Shared-memory descriptor fields of a K-major operand in the 128-byte
    // swizzle: leading byte offset 16 (unused by swizzled K-major layouts,
    // encoded 1), stride byte offset 1024 (8 rows of 128 bytes, encoded 64),
    // base offset 0 (1024-byte aligned atoms), swizzle mode 2 (128 bytes).
    %lbo = arith.constant 1 : i32
    %sbo = arith.constant 64 : i32
    %base_off = arith.constant 0 : i8
    %lbo_mode = arith.constant false
    %swizzle = arith.constant 2 : i8
    %nk = arith.index_cast %k_blocks : i64 to index
    %tile_m = gpu.block_id x
    %tile_n = gpu.block_id y
    %n_tiles = gpu.grid_dim y
    %tid = gpu.thread_id x
    %tile_m_i32 = arith.index_cast %tile_m : index to i32
    %tile_n_i32 = arith.index_cast %tile_n : index to i32
    %m0 = arith.muli %tile_m_i32, %c128_i32 : i32
    %n0 = arith.muli %tile_n_i32, %c128_i32 : i32
    %ldc = arith.muli %n_tiles, %c128 : index
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %is_alloc_warp = arith.cmpi eq, %warp, %c1 : index

    // TMEM: warp 1 allocates the accumulator's columns for the CTA.
    %slot = llvm.mlir.addressof @umma_gemm_tmem_base : !llvm.ptr<3>
    scf.if %is_alloc_warp {
      nvvm.tcgen05.alloc %slot, %tmem_cols : !llvm.ptr<3>, i32
      nvvm.tcgen05.relinquish_alloc_permit
    }
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    gpu.barrier
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %tmem_i32 = llvm.load %slot : !llvm.ptr<3> -> i32

    tspipe.kernel warps(6) {
      tspipe.pipeline @ab config(<tma_umma, num_stages = 4, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(135168)
      tspipe.pipeline @acc config(<umma_async, num_stages = 1,
          producer_group = <thread, 1>, consumer_group = <thread, 128>>)

      tspipe.task @load warps(0, 1) produces [@ab] {
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.producer_acquire @ab
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %buf_i32 = llvm.ptrtoint %buf : !llvm.ptr<3> to i32
          %up = arith.addi %buf_i32, %c1023_i32 : i32
          %a_i32 = arith.andi %up, %c_align_mask : i32
          %b_i32 = arith.addi %a_i32, %c16384_i32 : i32
          %k32 = arith.index_cast %k : index to i32
          %kx = arith.muli %k32, %c64_i32 : i32
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %dst_a = llvm.inttoptr %a_i32 : i32 to !llvm.ptr<3>
            %dst_b = llvm.inttoptr %b_i32 : i32 to !llvm.ptr<3>
            %dst_a7 = llvm.addrspacecast %dst_a : !llvm.ptr<3> to !llvm.ptr<7>
            %dst_b7 = llvm.addrspacecast %dst_b : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.tensor.shared.cluster.global %dst_a7, %tmap_a, %full,
                box[%kx, %m0] : !llvm.ptr<7>, !llvm.ptr
            nvvm.cp.async.bulk.tensor.shared.cluster.global %dst_b7, %tmap_b, %full,
                box[%kx, %n0] : !llvm.ptr<7>, !llvm.ptr
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
          %b_i32 = arith.addi %a_i32, %c16384_i32 : i32
          %a_enc = arith.shrui %a_i32, %c4_i32 : i32
          %b_enc = arith.shrui %b_i32, %c4_i32 : i32
          %first_k = arith.cmpi eq, %k, %c0 : index
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            scf.for %kk = %c0 to %c4 step %c1 {
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
                   ctaGroup = #nvvm.cta_group<cta_1>}
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
          scf.for %j = %c0 to %c4 step %c1 {
            // Columns 32 j .. 32 j + 31 of this thread's row.
            %col = arith.muli %j, %c32 : index
            %col_i32 = arith.index_cast %col : index to i32
            %taddr_i32 = arith.addi %row_tmem, %col_i32 : i32
            %taddr = llvm.inttoptr %taddr_i32 : i32 to !llvm.ptr<6>
            %v = nvvm.tcgen05.ld %taddr
                {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}
                : vector<32xi32>
            nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
            %e = arith.addi %row_start, %col : index
            %e64 = arith.index_cast %e : index to i64
            %dst = llvm.getelementptr %c[%e64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %v, %dst {alignment = 16 : i64} : vector<32xi32>, !llvm.ptr<1>
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
