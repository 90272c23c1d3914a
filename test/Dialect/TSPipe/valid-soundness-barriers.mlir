// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The passing twins of invalid-soundness-barriers.mlir (X12, X13): the
// named barrier that replaces a CTA-wide one inside tasks.

// NVIDIA/Fuser PR 4187's fix: the consumers that must meet sync on a named
// barrier of their own.
// CHECK-LABEL: func.func @X12_gpu_barrier_in_task
func.func @X12_gpu_barrier_in_task(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.named_barrier @nb tasks [@c0, @c1]
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.named_barrier_sync @nb
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.named_barrier_sync @nb
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// triton PR 9456: a barrier with an explicit thread count is not CTA-wide.
// CHECK-LABEL: func.func @X12_barrier0_in_task
func.func @X12_barrier0_in_task(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %id = arith.constant 3 : i32
        %cnt = arith.constant 64 : i32
        nvvm.barrier id = %id number_of_threads = %cnt
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %id = arith.constant 3 : i32
        %cnt = arith.constant 64 : i32
        nvvm.barrier id = %id number_of_threads = %cnt
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// flashinfer PR 4732's fix: an arrive outside the loop (once), met by the
// other task's sync.
// CHECK-LABEL: func.func @X13_arrive_in_loop
func.func @X13_arrive_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.named_barrier @nb tasks [@c0, @c1]
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.named_barrier_arrive @nb
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.named_barrier_sync @nb
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// One task alone: its warps meet (a task-local sync).
// CHECK-LABEL: func.func @X13_listed_task_never_arrives
func.func @X13_listed_task_never_arrives(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.named_barrier @nb tasks [@c0]
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.named_barrier_sync @nb
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}
