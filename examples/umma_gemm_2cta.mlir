// 2-CTA (V = 2) cluster GEMM skeleton with multicast (sm_100a).
//
// A cluster of 4 CTAs, cta_layout_vmnk = [2, 2, 1, 1]: two CTA pairs
// (ranks 0-1 and 2-3) along M. Each pair computes a 256 x 128 output tile
// with 2-CTA MMAs issued by its leader CTA (rank % 2 == 0); both pairs share
// the B tile, so B is multicast to the CTAs with the same v in both pairs.
//
// * warp 0 (@load, every CTA): per k-block, acquires an A/B stage (every CTA
//   waits on its empty barrier; only the pair leader arms its full barrier
//   with 32768 bytes, both CTAs' data: num_bytes_per_warp_per_cta = 16384),
//   then loads with cta_group::2 tensor copies that complete on the pair
//   leader's full barrier (the shared address with the peer bit, bit 24,
//   cleared): its own 8 KiB A block, and its half (4 KiB) of the B block of
//   its v, multicast to the same v in both pairs (mask 0b0101 << v, from
//   the CTA rank).
// * warp 1 (@mma): on the pair leader (consumer_signaling = cta_leader)
//   waits for the stage and releases it with a cta_group::2 tcgen05.commit
//   multicast to every CTA whose empty barrier its MMAs free: its pair and
//   the other pair, which loaded half of B (X2: consumer_group = 2 pairs);
//   acquires the accumulator on the first k-block and commits it on the
//   last, multicast to both CTAs of its pair.
// * warps 2-5 (@epilogue, both CTAs): wait for the accumulator on their own
//   CTA, store the tile, release it on the pair leader's empty barrier
//   (mapa + remote arrive: consumer_group = 4 warps x 32 x 2 CTAs).
//
// Launch: cluster (4, 1, 1), block 192 threads, dynamic shared memory = the
// kernel's smem_bytes; `tmap_a`, `tmap_b` are CUtensorMap descriptors
// (__grid_constant__). Compile-only: tcgen05 needs sm_100a.
gpu.module @umma_gemm_2cta [#nvvm.target<chip = "sm_100a">] {
  gpu.func @umma_gemm_2cta(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr,
                           %c: !llvm.ptr<1>, %k_blocks: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c2_i32 = arith.constant 2 : i32
    %c5_i32 = arith.constant 5 : i32
    %c64_i32 = arith.constant 64 : i32
    %zero = arith.constant 0.0 : f32
    %nk = arith.index_cast %k_blocks : i64 to index
    %bid = gpu.block_id x
    %bid_i32 = arith.index_cast %bid : index to i32
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %v = arith.remui %rank, %c2_i32 : i32
    %b_mask32 = arith.shli %c5_i32, %v : i32
    %b_mask = arith.trunci %b_mask32 : i32 to i16
    %tid = gpu.thread_id x
    tspipe.kernel warps(6) cluster([4, 1, 1]) {
      tspipe.pipeline @ab config(<tma_umma, num_stages = 4, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [2, 2, 1, 1], consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 16384>)
          smem_bytes(65536)
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
          %kx = arith.muli %k32, %c64_i32 : i32
          %ay = arith.muli %bid_i32, %c64_i32 : i32
          %by = arith.muli %v, %c64_i32 : i32
          %dst_b = llvm.getelementptr %buf[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %dst_a7 = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
            %dst_b7 = llvm.addrspacecast %dst_b : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.tensor.shared.cluster.global %dst_a7, %tmap_a, %lead_full,
                box[%kx, %ay] {group = #nvvm.cta_group<cta_2>}
                : !llvm.ptr<7>, !llvm.ptr
            nvvm.cp.async.bulk.tensor.shared.cluster.global %dst_b7, %tmap_b, %lead_full,
                box[%kx, %by] multicast_mask = %b_mask {group = #nvvm.cta_group<cta_2>}
                : !llvm.ptr<7>, !llvm.ptr
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
          %out_row = arith.muli %bid, %c128 : index
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
