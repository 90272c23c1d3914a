// GEMM skeleton with an AsyncUmma operand pipeline (sm_100a): threads fill
// the A/B stages, tcgen05 MMAs drain them; a UmmaAsync accumulator goes to
// an epilogue.
//
// Output tile (blockIdx.x) of 128 x 128, K split into `k_blocks` blocks of
// 64; the A and B blocks (16 KiB each, pre-tiled, at element
// (t * k_blocks + k) * 8192 of `a` and `b`) are copied by two producer
// warps with 16-byte loads and stores.
//
// * warps 0-1 (@load, 64 threads): per k-block, acquire a stage, copy A and
//   B into it, commit (every thread arrives on the full barrier:
//   producer_group = 64).
// * warp 2 (@mma): per k-block, waits for the stage, issues the block's
//   MMAs (left out of this skeleton), releases it with tcgen05.commit to
//   the empty barrier (consumer_group = 1); acquires the accumulator on the
//   first k-block and commits it on the last.
// * warps 3-6 (@epilogue, 128 threads): wait for the accumulator, store the
//   tile, release it.
//
// Launch: block 224 threads, grid = number of output tiles, dynamic shared
// memory = the kernel's smem_bytes. Compile-only: tcgen05 needs sm_100a.
gpu.module @async_umma_gemm [#nvvm.target<chip = "sm_100a">] {
  gpu.func @async_umma_gemm(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>,
                            %c: !llvm.ptr<1>, %k_blocks: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c8192 = arith.constant 8192 : index
    %c8192_i64 = arith.constant 8192 : i64
    %zero = arith.constant 0.0 : f32
    %nk = arith.index_cast %k_blocks : i64 to index
    %tile = gpu.block_id x
    %tid = gpu.thread_id x
    %tile_k0 = arith.muli %tile, %nk : index
    tspipe.kernel warps(7) {
      tspipe.pipeline @ab config(<async_umma, num_stages = 3,
          producer_group = <thread, 64>, consumer_group = <thread, 1>>)
          smem_bytes(98304)
      tspipe.pipeline @acc config(<umma_async, num_stages = 1,
          producer_group = <thread, 1>, consumer_group = <thread, 128>>)

      tspipe.task @load warps(0, 2) produces [@ab] {
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.producer_acquire @ab
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %blk = arith.addi %tile_k0, %k : index
          %first = arith.muli %blk, %c8192 : index
          // Each block is 1024 chunks of 16 bytes (8 bf16); thread t copies
          // chunks t, t + 64, ... of A, then of B (B follows A in the stage).
          scf.for %chunk = %tid to %c1024 step %c64 {
            %e = arith.muli %chunk, %c8 : index
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %e64 = arith.index_cast %e : index to i64
            %eb64 = arith.addi %e64, %c8192_i64 : i64
            %src_a = llvm.getelementptr %a[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
            %src_b = llvm.getelementptr %b[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
            %dst_a = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
            %dst_b = llvm.getelementptr %buf[%eb64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
            %va = llvm.load %src_a {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
            %vb = llvm.load %src_b {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
            llvm.store %va, %dst_a {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
            llvm.store %vb, %dst_b {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
          }
          tspipe.producer_commit @ab
        }
      }

      tspipe.task @mma warps(2, 1) produces [@acc] consumes [@ab] {
        %acc = tspipe.producer_acquire @acc
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.consumer_wait @ab
          tspipe.consumer_release @ab
        }
        tspipe.producer_commit @acc
      }

      tspipe.task @epilogue warps(3, 4) consumes [@acc] {
        %row = arith.subi %tid, %c96 : index
        tspipe.domain_loop %t = %c0 to %c1 step %c1 {
          %s = tspipe.consumer_wait @acc
          %out_row = arith.muli %tile, %c128 : index
          %r = arith.addi %out_row, %row : index
          %e = arith.muli %r, %c128 : index
          %e64 = arith.index_cast %e : index to i64
          %dst = llvm.getelementptr %c[%e64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          llvm.store %zero, %dst : f32, !llvm.ptr<1>
          tspipe.consumer_release @acc
        }
      }
    }
    gpu.return
  }
}
