// RUN: tspipe-opt %s --tspipe-allocate-smem --convert-tspipe-to-nvvm --verify-diagnostics

// convert-tspipe-to-nvvm reads the facts tspipe-normalize records; a kernel
// that was not normalized is rejected (the tspipe-to-nvvm pipeline runs
// tspipe-normalize first).

gpu.module @m {
  gpu.func @not_normalized(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @below {{is not normalized (advance_on_wait of split consumers, release forms); run tspipe-normalize first}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
