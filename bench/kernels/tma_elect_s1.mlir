// TmaAsync elected arrive: one stage of 64 bytes. Each iteration the
// producer warp's elected thread arms the full barrier (expect_tx 64) and
// bulk-copies 64 bytes of x into the stage; the consumer warp waits for the
// copy to complete and releases (lane 0 arrives on the empty barrier).
// Launch: 1 CTA of 64 threads (2 warps), iters iterations.
gpu.module @tma_elect_s1 [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @tma_elect_s1(%x: !llvm.ptr<1>, %iters: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 64 : i32
    %n = arith.index_cast %iters : i64 to index
    tspipe.kernel warps(2) {
      tspipe.pipeline @tok config(<tma_async, num_stages = 1, num_bytes = 64,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(64)
      tspipe.task @load warps(0, 1) produces [@tok] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @tok
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %dc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dc, %x, %full, %bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
          }
          tspipe.producer_commit @tok
        }
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
