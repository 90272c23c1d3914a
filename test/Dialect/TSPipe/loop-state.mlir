// RUN: tspipe-opt %s -split-input-file | tspipe-opt -split-input-file | FileCheck %s
// RUN: tspipe-opt %s -split-input-file -mlir-print-op-generic | tspipe-opt -split-input-file | FileCheck %s

// Values carried by a domain loop (iter_args, tspipe.yield, results) print
// and parse back unchanged, in the custom and the generic form.

// CHECK-LABEL: gpu.func @accumulate
// CHECK:         %[[R:.*]]:2 = tspipe.domain_loop %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[CNT:.*]] = %{{.*}}) -> (f32, i32) {
// CHECK:           %[[S:.*]] = tspipe.consumer_wait @ring
// CHECK:           %[[A:.*]] = arith.addf %[[ACC]], %{{.*}} : f32
// CHECK:           %[[C:.*]] = arith.addi %[[CNT]], %{{.*}} : i32
// CHECK:           tspipe.yield %[[A]], %[[C]] : f32, i32
// CHECK:         }
// CHECK:         llvm.store %[[R]]#0
// CHECK:         llvm.store %[[R]]#1
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
        %i0 = arith.constant 0 : i32
        %i1 = arith.constant 1 : i32
        %r:2 = tspipe.domain_loop %i = %c0 to %n step %c1
            iter_args(%acc = %zero, %cnt = %i0) -> (f32, i32) {
          %s = tspipe.consumer_wait @ring
          %a = arith.addf %acc, %one : f32
          tspipe.consumer_release @ring
          %c = arith.addi %cnt, %i1 : i32
          tspipe.yield %a, %c : f32, i32
        }
        llvm.store %r#0, %out : f32, !llvm.ptr<1>
        llvm.store %r#1, %out : i32, !llvm.ptr<1>
      }
    }
    gpu.return
  }
}

// -----

// A loop carrying nothing may end with an empty yield.
// CHECK-LABEL: gpu.func @empty_yield
// CHECK:         tspipe.domain_loop
// CHECK-NOT:     iter_args
gpu.module @m {
  gpu.func @empty_yield(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.yield
        }
      }
    }
    gpu.return
  }
}
