// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s

// A domain loop's carried values ride in the scf.for the lowering builds,
// after the pipeline cursors it advances; the loop's results are the
// scf.for's trailing results, used in the task's tail.

// CHECK-LABEL: gpu.func @accumulate
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// The consumer's loop: cursor index and phase, then the accumulator.
// CHECK:         %[[R:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[ACC:.*]] = %[[ZERO]]) -> (i32, i32, f32) : i32 {
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[NEXT:.*]] = arith.addf %[[ACC]], %[[ONE]] : f32
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           scf.yield %{{.*}}, %{{.*}}, %[[NEXT]] : i32, i32, f32
// CHECK:         }
// CHECK:         llvm.store %[[R]]#2, %{{.*}} : f32, !llvm.ptr<1>
gpu.module @m {
  gpu.func @accumulate(%out: !llvm.ptr<1>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
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
        %zero = arith.constant 0.0 : f32
        %one = arith.constant 1.0 : f32
        %r = tspipe.domain_loop %i = %c0 to %n step %c1
            iter_args(%acc = %zero) -> (f32) {
          %s = tspipe.consumer_wait @ring
          %a = arith.addf %acc, %one : f32
          tspipe.consumer_release @ring
          tspipe.yield %a : f32
        }
        llvm.store %r, %out : f32, !llvm.ptr<1>
      }
    }
    gpu.return
  }
}
