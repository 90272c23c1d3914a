// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// R32 / R33 on the uses of a stage pointer, not only where its accessor
// sits: every use lies inside the bracket.

// tilelang PR 2420: the CLC response read after the release that frees
// the slot for the next try_cancel.
func.func @R32_clc_response_after_release(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
        producer_group = <thread, 1>, consumer_group = <thread, 32>>)
        smem_bytes(32)
    tspipe.task @sched warps(0, 1) produces [@clc] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %p = tspipe.producer_acquire @clc
        tspipe.producer_commit @clc
      }
    }
    tspipe.task @work warps(1, 1) consumes [@clc] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @clc
        %r = tspipe.stage_buffer %s : !llvm.ptr<3>
        tspipe.consumer_release @clc
        // expected-error @+1 {{[R32] uses a pointer into the consumer stage of @clc}}
        %v = llvm.load %r : !llvm.ptr<3> -> i128
      }
    }
  }
  return
}

// -----

// Bytes rewritten after the commit that handed the stage over (tspipe issue
// 17, item 2: multicast bytes rewritten after release); through a GEP.
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
        tspipe.producer_commit @ring
        %q = llvm.getelementptr %b[4] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i32
        // expected-error @+1 {{[R33] uses a pointer into the producer stage of @ring}}
        llvm.store %v, %q : i32, !llvm.ptr<3>
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

// The chain followed through ptrtoint, integer arithmetic and inttoptr.
func.func @R32_through_ptrtoint(%n: index) {
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
        %a = llvm.ptrtoint %b : !llvm.ptr<3> to i32
        %c16 = arith.constant 16 : i32
        %a2 = arith.addi %a, %c16 : i32
        tspipe.consumer_release @ring
        %p2 = llvm.inttoptr %a2 : i32 to !llvm.ptr<3>
        // expected-error @+1 {{[R32] uses a pointer into the consumer stage of @ring}}
        %x = llvm.load %p2 : !llvm.ptr<3> -> i32
      }
    }
  }
  return
}

// -----

// tspipe issue 17, item 2: the stage pointer seen through a memref view
// (an unrealized cast to a memref, then memref.subview) and read after the
// release (tilelang PR 2420's read, through a view).
func.func @R32_read_through_memref_view_after_release(%n: index) {
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
        %m = builtin.unrealized_conversion_cast %b : !llvm.ptr<3> to memref<64xi32, 3>
        %v = memref.subview %m[16] [16] [1] : memref<64xi32, 3> to memref<16xi32, strided<[1], offset: 16>, 3>
        tspipe.consumer_release @ring
        // expected-error @+1 {{[R32] uses a pointer into the consumer stage of @ring}}
        %x = memref.load %v[%c0] : memref<16xi32, strided<[1], offset: 16>, 3>
      }
    }
  }
  return
}

// -----

// The stage pointer kept in a local slot (llvm.alloca) and reloaded after
// the release: the reload is followed.
func.func @R32_pointer_reloaded_from_alloca_after_release(%n: index) {
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
        llvm.store %b, %slot : !llvm.ptr<3>, !llvm.ptr
        tspipe.consumer_release @ring
        %r = llvm.load %slot : !llvm.ptr -> !llvm.ptr<3>
        // expected-error @+1 {{[R32] uses a pointer into the consumer stage of @ring}}
        %x = llvm.load %r : !llvm.ptr<3> -> i32
      }
    }
  }
  return
}

// -----

// The stage pointer stored to memory the check cannot follow (shared
// memory of a stage of another pipeline): rejected.
func.func @R33_pointer_escapes_to_memory(%n: index, %g: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        // expected-error @+1 {{[R33] stores a pointer into the producer stage of @ring}}
        llvm.store %b, %g : !llvm.ptr<3>, !llvm.ptr<1>
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

// Across blocks: the bracket opened in the task head and closed in a loop
// guard (tspipe.last_iter); a write after the guard runs after the commit
// on the last iteration.
func.func @R33_write_after_commit_in_guard() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant 7 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      %s = tspipe.producer_acquire @ring
      %b = tspipe.stage_buffer %s : !llvm.ptr<3>
      tspipe.domain_loop %i = %c0 to %c4 step %c1 {
        tspipe.last_iter {
          tspipe.producer_commit @ring
        }
        // expected-error @+1 {{[R33] uses a pointer into the producer stage of @ring}}
        llvm.store %v, %b : i32, !llvm.ptr<3>
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      %s = tspipe.consumer_wait @ring
      tspipe.domain_loop %i = %c0 to %c4 step %c1 {
      }
      tspipe.consumer_release @ring
    }
  }
  return
}
