// RUN: tspipe-opt %s --tspipe-to-nvvm="debug-hang-timeout=1000 check-progress=0" | FileCheck %s
// RUN: tspipe-opt %s --tspipe-to-nvvm="check-progress=0" | FileCheck %s --check-prefix=SILENT
// RUN: not tspipe-opt %s --tspipe-to-nvvm 2>&1 | FileCheck %s --check-prefix=CHECKER
//
// CHECK-DAG: "tspipe: hang in task @consumer waiting on @ring full barrier stage %d phase %d (cta %d, thread %d)\0A\00"
// CHECK-DAG: llvm.intr.trap
// CHECKER: error: [R70] tasks deadlock with domain lengths @producer = 0, @consumer = 1
// CHECKER: note: @consumer blocks in iteration 0 on @ring full barrier, stage 0, phase 0
// SILENT-NOT: vprintf
// SILENT-NOT: llvm.intr.trap

// A deliberately wrong kernel for the debug hang timeout. Its arrive counts
// are right (R52 passes), but the consumer's domain has one iteration more
// than the producer's: the consumer's last wait is for a stage nobody fills.
// tspipe-to-nvvm rejects it (tspipe-check-progress, R70); lowered with
// `tspipe-to-nvvm{debug-hang-timeout=N check-progress=0}`, that wait gives up
// after N polls, prints the task, pipeline, barrier, stage and phase it hung
// on, and traps. Without the option the kernel hangs silently.
gpu.module @hang [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @hang_domain_mismatch(%y: !llvm.ptr<1>, %n: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %iters = arith.index_cast %n : i64 to index
    %one_more = arith.addi %iters, %c1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %iters step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %one_more step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
