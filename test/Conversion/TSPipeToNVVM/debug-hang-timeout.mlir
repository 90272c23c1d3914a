// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm="debug-hang-timeout=1000" --canonicalize | FileCheck %s
// RUN: not tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm="debug-hang-timeout=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not tspipe-opt %s --tspipe-to-nvvm="debug-hang-timeout=-5" 2>&1 | FileCheck %s --check-prefix=NEGATIVE5

// A negative timeout is an error, not "off" (0 is off).
// NEGATIVE: error: convert-tspipe-to-nvvm: debug-hang-timeout = -1 must be >= 0 (0: blocking waits never give up; N > 0: trap after N failed polls)
// NEGATIVE5: error: convert-tspipe-to-nvvm: debug-hang-timeout = -5 must be >= 0

// With a hang timeout every blocking wait becomes a bounded polling loop that
// reports (lane 0 of each warp) the task, pipeline, barrier, stage and
// phase, then traps.

// CHECK-LABEL: gpu.func @bounded
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 1000 : i64
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// One stage: E[0] lies 8 bytes after F[0].
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:           scf.while (%[[POLLS:.*]] = %[[ZERO]]) : (i64) -> (i64, i1) {
// CHECK:           %[[DONE:.*]] = nvvm.mbarrier.try_wait %[[E]], %[[PPH]] : !llvm.ptr<3>, i32 -> i1
// CHECK:           arith.cmpi slt, %[[POLLS]], %[[LIMIT]]
// CHECK:           scf.condition
// CHECK:         scf.if
// CHECK:           scf.if
// CHECK:             gpu.printf "tspipe: hang in task @producer waiting on @ring empty barrier stage %d phase %d (cta %d, thread %d)\0A"
// CHECK:           llvm.intr.trap
// CHECK-NOT:     nvvm.mbarrier.try_wait.parity
// CHECK:         gpu.printf "tspipe: hang in task @consumer waiting on @ring full barrier
gpu.module @m {
  gpu.func @bounded(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 1,
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
