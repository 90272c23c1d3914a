// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress | FileCheck %s

// Loop guards in the progress checker: tspipe.every is stepped exactly;
// when_true / when_false conditions are unknown, so a kernel is proven only
// when both sides of each pipeline are guarded by the same condition (every
// value of it is then checked).

// Both sides on the even iterations: ceil(n / 2) stages each way.
// CHECK-LABEL: gpu.func @every_both_sides
gpu.module @every_both_sides {
  gpu.func @every_both_sides(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.every period(2) start(0) {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.every period(2) start(0) {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
      }
    }
    gpu.return
  }
}

// -----

// Both sides on iterations 1, 4, 7, ...: ceil((n - 1) / 3) stages each
// way, none for n <= 1.
// CHECK-LABEL: gpu.func @every_offset
gpu.module @every_offset {
  gpu.func @every_offset(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.every period(3) start(1) {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.every period(3) start(1) {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
      }
    }
    gpu.return
  }
}

// -----

// The same kernel argument guards both sides: proven for both its values.
// CHECK-LABEL: gpu.func @when_same_condition
gpu.module @when_same_condition {
  gpu.func @when_same_condition(%n: index, %flag: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.when_true %flag {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.when_false %flag {
          }
          tspipe.when_true %flag {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
      }
    }
    gpu.return
  }
}
