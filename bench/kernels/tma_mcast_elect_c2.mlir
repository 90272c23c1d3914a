// TmaAsync across a 2-CTA cluster, one stage of 64 bytes, each CTA's
// elected thread arming its full barrier (expect_tx 64) and multicasting
// its 32-byte half to both CTAs. The consumer warp's release is lane 0 on
// CTA 0's empty barrier and lane 1 on CTA 1's: one of the two arrivals is a
// cluster peer's remote arrive (mapa + shared::cluster arrive).
// Launch: grid 2, cluster (2, 1, 1), 64 threads, iters iterations.
gpu.module @tma_mcast_elect_c2 [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @tma_mcast_elect_c2(%x: !llvm.ptr<1>, %iters: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %half = arith.constant 32 : i32
    %mask = arith.constant 3 : i16
    %n = arith.index_cast %iters : i64 to index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %off = arith.muli %rank, %c8 : index
    %off64 = arith.index_cast %off : index to i64
    %src = llvm.getelementptr %x[%off64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @tok config(<tma_async, num_stages = 1, num_bytes = 64,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>)
          smem_bytes(64)
      tspipe.task @load warps(0, 1) produces [@tok] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @tok
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %dst = llvm.getelementptr %buf[%off64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %dc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dc, %src, %full, %half
                multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr<1>
          }
          tspipe.producer_commit @tok
        }
        tspipe.producer_tail @tok
      }
      tspipe.task @use warps(1, 1) consumes [@tok] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @tok
          tspipe.consumer_release @tok
        }
      }
    }
    gpu.return
  }
}
