// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm="debug-hang-timeout=1000" --canonicalize | FileCheck %s

// Task and pipeline names are pasted into the hang report's printf format: a
// `%` in a (quoted) symbol name is doubled, so that printf prints it instead
// of reading a conversion with no argument (tspipe issue 17, item 9).
// CHECK-LABEL: gpu.func @names
// CHECK:         gpu.printf "tspipe: hang in task @p%%s waiting on @r%%d empty barrier stage %d phase %d (cta %d, thread %d)\0A"
// CHECK:         gpu.printf "tspipe: hang in task @c%%n waiting on @r%%d full barrier stage %d phase %d (cta %d, thread %d)\0A"
gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @names(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @"r%d" config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @"p%s" warps(0, 1) produces [@"r%d"] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @"r%d"
          tspipe.producer_commit @"r%d"
        }
      }
      tspipe.task @"c%n" warps(1, 1) consumes [@"r%d"] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @"r%d"
          tspipe.consumer_release @"r%d"
        }
      }
    }
    gpu.return
  }
}
