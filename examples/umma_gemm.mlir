// GEMM skeleton on one CTA (sm_100a): TmaUmma for the A/B stages, UmmaAsync
// for the TMEM accumulator handed to an epilogue.
//
// Output tile (blockIdx.x) of 128 x 128, K split into `k_blocks` blocks of
// 64. Operands are pre-tiled in global memory: the A block (128 x 64 bf16,
// 16 KiB) and the B block (128 x 64 bf16, 16 KiB) of output tile t and
// k-block k start at element (t * k_blocks + k) * 8192 of `a` and `b`.
//
// * warp 0 (@load): per k-block, acquires an A/B stage (the elected thread
//   arms the full barrier with 32768 bytes), then bulk-copies both blocks;
//   each copy completes its 16384 bytes on the stage's full barrier.
// * warp 1 (@mma): per k-block, waits for the stage, issues the MMAs of the
//   block (the tcgen05.mma instructions are left out of this skeleton),
//   releases the stage with tcgen05.commit to its empty barrier; on the
//   first k-block it acquires the accumulator, on the last it commits it
//   (tcgen05.commit to the accumulator's full barrier).
// * warps 2-5 (@epilogue, 128 threads): wait for the accumulator, write the
//   tile (TMEM loads left out; each thread stores its row), release it
//   (every thread arrives: consumer_group = 128).
//
// Launch: block 192 threads, grid = number of output tiles, dynamic shared
// memory = the kernel's smem_bytes. Compile-only: tcgen05 needs sm_100a.
gpu.module @umma_gemm [#nvvm.target<chip = "sm_100a">] {
  gpu.func @umma_gemm(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %c: !llvm.ptr<1>,
                      %k_blocks: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c8192 = arith.constant 8192 : index
    %block_bytes = arith.constant 16384 : i32
    %zero = arith.constant 0.0 : f32
    %nk = arith.index_cast %k_blocks : i64 to index
    %tile = gpu.block_id x
    %tid = gpu.thread_id x
    %tile_k0 = arith.muli %tile, %nk : index
    tspipe.kernel warps(6) {
      tspipe.pipeline @ab config(<tma_umma, num_stages = 4, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(131072)
      tspipe.pipeline @acc config(<umma_async, num_stages = 1,
          producer_group = <thread, 1>, consumer_group = <thread, 128>>)

      tspipe.task @load warps(0, 1) produces [@ab] {
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.producer_acquire @ab
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %blk = arith.addi %tile_k0, %k : index
          %first = arith.muli %blk, %c8192 : index
          %first64 = arith.index_cast %first : index to i64
          %src_a = llvm.getelementptr %a[%first64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
          %src_b = llvm.getelementptr %b[%first64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
          %dst_b = llvm.getelementptr %buf[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %dst_a7 = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
            %dst_b7 = llvm.addrspacecast %dst_b : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dst_a7, %src_a, %full, %block_bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
            nvvm.cp.async.bulk.shared.cluster.global %dst_b7, %src_b, %full, %block_bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
          }
          tspipe.producer_commit @ab
        }
      }

      tspipe.task @mma warps(1, 1) produces [@acc] consumes [@ab] {
        %acc = tspipe.producer_acquire @acc
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.consumer_wait @ab
          tspipe.consumer_release @ab
        }
        tspipe.producer_commit @acc
      }

      tspipe.task @epilogue warps(2, 4) consumes [@acc] {
        %row = arith.subi %tid, %c64 : index
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
