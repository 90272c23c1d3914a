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

// -----

// The passing twins of the memref-view and local-slot cases: every use of
// the view and of the reloaded pointer lies before the release; a value
// loaded through them is used after it.
// CHECK-LABEL: func.func @R32_view_and_slot_inside_bracket
func.func @R32_view_and_slot_inside_bracket(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      %slot = llvm.alloca %one x !llvm.ptr<3> : (i32) -> !llvm.ptr
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        %m = builtin.unrealized_conversion_cast %b : !llvm.ptr<3> to memref<64xi32, 3>
        %v = memref.subview %m[16] [16] [1] : memref<64xi32, 3> to memref<16xi32, strided<[1], offset: 16>, 3>
        %x = memref.load %v[%c0] : memref<16xi32, strided<[1], offset: 16>, 3>
        llvm.store %b, %slot : !llvm.ptr<3>, !llvm.ptr
        %r = llvm.load %slot : !llvm.ptr -> !llvm.ptr<3>
        %y = llvm.load %r : !llvm.ptr<3> -> i32
        tspipe.consumer_release @ring
        %z = arith.addi %x, %y : i32
      }
    }
  }
  return
}

// -----

// tspipe issue 17, item 4: a split producer over two tasks
// (advance_on_acquire): @acq acquires and fills the stage, then hands it to
// @fill through @hand, and @fill commits it. R33 accepts it (each task's
// brackets are counted; the acquire's uses lie in @acq).
// CHECK-LABEL: func.func @R33_split_producer_two_tasks
func.func @R33_split_producer_two_tasks(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_acquire = true>) smem_bytes(512)
    tspipe.pipeline @hand config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @acq warps(0, 1) produces [@ring, @hand] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        %v = arith.constant 7 : i32
        llvm.store %v, %b : i32, !llvm.ptr<3>
        %h = tspipe.producer_acquire @hand
        tspipe.producer_commit @hand
      }
    }
    tspipe.task @fill warps(1, 1) produces [@ring] consumes [@hand] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %h = tspipe.consumer_wait @hand
        tspipe.producer_commit @ring
        tspipe.consumer_release @hand
      }
    }
    tspipe.task @c warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        %x = llvm.load %b : !llvm.ptr<3> -> i32
        tspipe.consumer_release @ring
      }
    }
  }
  return
}
