// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress | FileCheck %s

// Split producers (advance_on_acquire) whose acquire and commit run in
// different tasks: the drain (producer_tail) of the task that only acquires
// waits with its acquire cursor p, which has moved past every stage it
// acquired; its commit cursor pc never moves (docs/Protocols.md, Producer
// drain). Read with pc, the drain waited for the phases of the ring's first
// visit and the checker reported a phase overrun that the lowering really
// had (a drain wait on a stage the consumer had released once blocked).

// The correct two-task split producer of valid-soundness-lifetime.mlir
// (R33_split_producer_two_tasks): @acq acquires and hands the stage to
// @fill through @hand, @fill commits it.
// CHECK-LABEL: gpu.func @split_producer_two_tasks
gpu.module @split_producer_two_tasks {
  gpu.func @split_producer_two_tasks(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_acquire = true>) smem_bytes(512)
      tspipe.pipeline @hand config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @acq warps(0, 1) produces [@ring, @hand] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
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
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The same with four stages, a head acquire and an explicit drain in the
// acquiring task.
// CHECK-LABEL: gpu.func @split_producer_explicit_tail
gpu.module @split_producer_explicit_tail {
  gpu.func @split_producer_explicit_tail(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_acquire = true>) smem_bytes(1024)
      tspipe.pipeline @hand config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @acq warps(0, 1) produces [@ring, @hand] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          %h = tspipe.producer_acquire @hand
          tspipe.producer_commit @hand
        }
        tspipe.producer_tail @ring
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
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// A split producer that really overruns: @fill commits without waiting for
// @acq's acquire (no hand-off), so the consumer can take and release stage
// 0 before @acq acquires it; @acq's acquire then waits for a phase the
// empty barrier has already passed.
gpu.module @split_producer_no_handoff {
  gpu.func @split_producer_no_handoff(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R71] phase overrun with domain lengths @acq = 1, @fill = 1, @c = 1 (%arg0 = 1): @ring empty barrier, stage 0 can reach completion 1 before @acq passes its producer_acquire for completion 0}}
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_acquire = true>) smem_bytes(512)
      tspipe.task @acq warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-note @+1 {{@acq waits here in iteration 0 for phase parity 1 of @ring empty barrier, stage 0}}
          %s = tspipe.producer_acquire @ring
        }
      }
      tspipe.task @fill warps(1, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @c warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          // expected-note @+1 {{@c arrives for the next phase here, in iteration 0, without waiting for @acq}}
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The acquire half of a split producer runs one iteration more than the
// commit half: with n = 0 it acquires stage 0, which nobody commits, and its
// drain waits for a release of that stage which never comes.
gpu.module @split_producer_extra_acquire {
  gpu.func @split_producer_extra_acquire(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = arith.addi %n, %c1 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @acq = 1, @fill = 0, @c = 0 (%arg0 = 0)}}
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_acquire = true>) smem_bytes(512)
      tspipe.pipeline @hand config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{@acq blocks in the tail on @ring empty barrier, stage 0, phase 0 (producer_tail needs completion 1, the barrier has 0)}}
      tspipe.task @acq warps(0, 1) produces [@ring, @hand] {
        tspipe.domain_loop %i = %c0 to %m step %c1 {
          %s = tspipe.producer_acquire @ring
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
      // expected-note @+1 {{the credit for completion 1 of @ring empty barrier, stage 0 is held by @c: it has released that stage 0 time(s) and has finished}}
      tspipe.task @c warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
