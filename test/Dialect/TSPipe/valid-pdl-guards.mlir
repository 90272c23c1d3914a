// RUN: tspipe-opt %s -split-input-file | FileCheck %s
// RUN: tspipe-opt %s -split-input-file | tspipe-opt -split-input-file | FileCheck %s

// The PDL points and the loop guards round-trip and pass every rule: each
// task that reads the previous grid's output (tspipe.pdl_input) waits
// first, whatever its role (X20); the producer of a pipeline listed in
// tspipe.pdl_pipelines waits before its first bracket on it (R37).

// CHECK-LABEL: func.func @pdl_every_role
// CHECK:         tspipe.kernel warps(2) attributes {tspipe.pdl_pipelines = [@ring]}
// CHECK:           tspipe.pdl_wait
// CHECK:           tspipe.pdl_launch_dependents
func.func @pdl_every_role(%x: !llvm.ptr<1> {tspipe.pdl_input}, %y: !llvm.ptr<1>,
                          %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) attributes {tspipe.pdl_pipelines = [@ring]} {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @producer warps(0, 1) produces [@ring] {
      tspipe.pdl_wait
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        %i64 = arith.index_cast %i : index to i64
        %p = llvm.getelementptr %x[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %v = llvm.load %p : !llvm.ptr<1> -> f32
        tspipe.producer_commit @ring
      }
    }
    // Consumes the ring and reads the previous grid's output as well (a
    // scale, say): it waits for the previous grid itself.
    tspipe.task @consumer warps(1, 1) consumes [@ring] {
      tspipe.pdl_wait
      %v = llvm.load %x : !llvm.ptr<1> -> f32
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        llvm.store %v, %y : f32, !llvm.ptr<1>
        tspipe.consumer_release @ring
      }
      tspipe.pdl_launch_dependents
    }
  }
  return
}

// -----

// A task that never touches the previous grid's output needs no wait; an
// address computed from it outside the tasks is no access.
// CHECK-LABEL: func.func @pdl_no_access
func.func @pdl_no_access(%x: !llvm.ptr<1> {tspipe.pdl_input}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : i64
  %q = llvm.getelementptr %x[%c4] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @producer warps(0, 1) produces [@ring] {
      tspipe.pdl_wait
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        %v = llvm.load %q : !llvm.ptr<1> -> f32
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
  return
}

// -----

// Loop guards: brackets under tspipe.every and when_true / when_false, each
// open bracket with its close under the same guard (R32, R33).
// CHECK-LABEL: func.func @guards
// CHECK:         tspipe.every period(2) start(1) {
// CHECK:         tspipe.when_true %{{.*}} {
// CHECK:         tspipe.when_false %{{.*}} {
func.func @guards(%n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @producer warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        tspipe.every period(2) start(1) {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
        tspipe.when_true %flag {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
    }
    tspipe.task @consumer warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        tspipe.every period(2) start(1) {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
        tspipe.when_false %flag {
        }
        tspipe.when_true %flag {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
  }
  return
}
