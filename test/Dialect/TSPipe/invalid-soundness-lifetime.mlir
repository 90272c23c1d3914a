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
