// RUN: tspipe-opt %s --tspipe-to-nvvm="debug-hang-timeout=1000" | FileCheck %s
// RUN: tspipe-opt %s --tspipe-to-nvvm | FileCheck %s --check-prefix=SILENT
//
// CHECK-DAG: "tspipe: hang in task @producer waiting on @ring empty barrier stage %d phase %d (cta %d, thread %d)\0A\00"
// CHECK-DAG: "tspipe: hang in task @consumer waiting on @ring full barrier stage %d phase %d (cta %d, thread %d)\0A\00"
// CHECK-DAG: llvm.intr.trap
// SILENT-NOT: vprintf
// SILENT-NOT: llvm.intr.trap

// A deliberately wrong kernel for the debug hang timeout: the consumer group
// says 64 threads arrive on each empty barrier, but the consumer task has one
// warp (32 threads), so no empty barrier ever completes and the producer's
// acquire of the third stage waits forever. Lowered with
// `tspipe-to-nvvm{debug-hang-timeout=N}`, the wait gives up after N polls,
// prints which task, pipeline, barrier, stage and phase it hung on, and traps.
// Without the option the kernel hangs silently.
gpu.module @hang [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @hang_arrive_count(%y: !llvm.ptr<1>, %n: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %iters = arith.index_cast %n : i64 to index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 64>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %iters step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %iters step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
