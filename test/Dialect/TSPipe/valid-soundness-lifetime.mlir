// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The passing twins of invalid-soundness-lifetime.mlir: the value loaded
// before the release (tilelang PR 2420's fix) is used after it.

// CHECK-LABEL: func.func @R32_clc_response_after_release
func.func @R32_clc_response_after_release(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        %x = llvm.load %b : !llvm.ptr<3> -> i32
        tspipe.consumer_release @ring
        %y = arith.addi %x, %x : i32
      }
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @R33_write_after_commit
func.func @R33_write_after_commit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        %v = arith.constant 7 : i32
        %q = llvm.getelementptr %b[4] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i32
        llvm.store %v, %q : i32, !llvm.ptr<3>
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}
