// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress | FileCheck %s

// Named barriers in the progress checker (Analysis/NamedBarriers.cpp,
// docs/ProgressChecker.md, Named barriers): each barrier's phases complete
// when every listed task has arrived; named_barrier_arrive adds the task's
// threads and goes on, named_barrier_sync adds them and waits for that
// phase. An arrive-only side that can arrive for the next phase before the
// other side arrived for this one is rejected (X30); asymmetric schedules
// that cannot run ahead are accepted.

// vllm PR 26026: an arrive-only task in a loop, nothing throttles it: @c0
// arrives for iteration 1 before @c1 arrived for iteration 0.
gpu.module @arrive_in_loop {
  gpu.func @arrive_in_loop(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[X30] named barrier phase overrun with domain lengths @p = 2, @c0 = 2, @c1 = 2 (%arg0 = 2): @c0 can arrive at @nb named barrier for phase 1 before @c1 arrives for phase 0; the barrier counts threads, so that arrival counts toward phase 0, which completes without @c1, and a later sync waits for arrivals that were already spent (a hang: flashinfer PR 4732, vllm PR 26026)}}
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
          // expected-note @+1 {{@c0 arrives again here, in iteration 1, without waiting for @c1}}
          tspipe.named_barrier_arrive @nb
          tspipe.consumer_release @ring
        }
      }
      tspipe.task @c1 warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          // expected-note @+1 {{@c1 has not arrived yet, in iteration 0 (named_barrier_sync)}}
          tspipe.named_barrier_sync @nb
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// flashinfer PR 4732: the IO task loads tile i + 1 before it syncs for tile
// i, the math task only arrives; math can arrive for tile i + 1 before IO's
// sync for tile i.
gpu.module @flashinfer_4732 {
  gpu.func @flashinfer_4732(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[X30] named barrier phase overrun with domain lengths @io = 2, @math = 2 (%arg0 = 2): @math can arrive at @done named barrier for phase 1 before @io arrives for phase 0}}
    tspipe.kernel warps(3) {
      tspipe.pipeline @tiles config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
      tspipe.named_barrier @done tasks [@io, @math]
      tspipe.task @io warps(0, 1) produces [@tiles] {
        %s0 = tspipe.producer_acquire @tiles
        tspipe.producer_commit @tiles
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @tiles
          tspipe.producer_commit @tiles
          // expected-note @+1 {{@io has not arrived yet, in iteration 0 (named_barrier_sync)}}
          tspipe.named_barrier_sync @done
        }
      }
      tspipe.task @math warps(1, 2) consumes [@tiles] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @tiles
          tspipe.consumer_release @tiles
          // expected-note @+1 {{@math arrives again here, in iteration 1, without waiting for @io}}
          tspipe.named_barrier_arrive @done
        }
        %s1 = tspipe.consumer_wait @tiles
        tspipe.consumer_release @tiles
      }
    }
    gpu.return
  }
}

// -----

// flashinfer PR 4732's fix: the hand-off alternates between two barriers by
// tile parity. Math arrives on a barrier again only for tile i + 2, which it
// reaches after IO's commit of tile i + 2, i.e. after IO's sync for tile i.
// CHECK-LABEL: gpu.func @flashinfer_4732_alternating
gpu.module @flashinfer_4732_alternating {
  gpu.func @flashinfer_4732_alternating(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @tiles config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
      tspipe.named_barrier @even tasks [@io, @math]
      tspipe.named_barrier @odd tasks [@io, @math]
      tspipe.task @io warps(0, 1) produces [@tiles] {
        %s0 = tspipe.producer_acquire @tiles
        tspipe.producer_commit @tiles
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @tiles
          tspipe.producer_commit @tiles
          tspipe.every period(2) start(0) {
            tspipe.named_barrier_sync @even
          }
          tspipe.every period(2) start(1) {
            tspipe.named_barrier_sync @odd
          }
        }
      }
      tspipe.task @math warps(1, 2) consumes [@tiles] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @tiles
          tspipe.consumer_release @tiles
          tspipe.every period(2) start(0) {
            tspipe.named_barrier_arrive @even
          }
          tspipe.every period(2) start(1) {
            tspipe.named_barrier_arrive @odd
          }
        }
        %s1 = tspipe.consumer_wait @tiles
        tspipe.consumer_release @tiles
      }
    }
    gpu.return
  }
}

// -----

// An asymmetric hand-off that cannot run ahead: the producer arrives on
// @full and then syncs on @free, which the consumer arrives on only after
// its sync on @full.
// CHECK-LABEL: gpu.func @handoff
gpu.module @handoff {
  gpu.func @handoff(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.named_barrier @full tasks [@p, @c]
      tspipe.named_barrier @free tasks [@p, @c]
      tspipe.task @p warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.named_barrier_arrive @full
          tspipe.named_barrier_sync @free
        }
      }
      tspipe.task @c warps(1, 1) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.named_barrier_sync @full
          tspipe.named_barrier_arrive @free
        }
      }
    }
    gpu.return
  }
}

// -----

// A ping-pong of two math warp groups (FlashAttention-3's warp scheduler):
// each syncs on its own barrier before its turn and arrives on the other's
// after it; @wg1 goes first through @wg0's arrival in its head. The last
// arrival on @turn1 meets no sync: it blocks nobody, and is accepted.
// CHECK-LABEL: gpu.func @ping_pong
gpu.module @ping_pong {
  gpu.func @ping_pong(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(8) {
      tspipe.named_barrier @turn1 tasks [@wg0, @wg1]
      tspipe.named_barrier @turn0 tasks [@wg0, @wg1]
      tspipe.task @wg0 warps(0, 4) {
        tspipe.named_barrier_arrive @turn1
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.named_barrier_sync @turn0
          tspipe.named_barrier_arrive @turn1
        }
      }
      tspipe.task @wg1 warps(4, 4) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.named_barrier_sync @turn1
          tspipe.named_barrier_arrive @turn0
        }
      }
    }
    gpu.return
  }
}

// -----

// A task that syncs twice per iteration where the other syncs once: its
// second sync waits for an arrival that never comes.
gpu.module @sync_counts_differ {
  gpu.func @sync_counts_differ(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @a = 1, @b = 1 (%arg0 = 1)}}
    tspipe.kernel warps(2) {
      tspipe.named_barrier @nb tasks [@a, @b]
      // expected-note @+1 {{the arrival for phase 1 of @nb named barrier is missing from @a: it has arrived 1 time(s) and has finished}}
      tspipe.task @a warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.named_barrier_sync @nb
        }
      }
      tspipe.task @b warps(1, 1) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.named_barrier_sync @nb
          // expected-note @+1 {{@b blocks in iteration 0 in its named_barrier_sync on @nb named barrier, phase 1 (it needs completion 2, the barrier has 1)}}
          tspipe.named_barrier_sync @nb
        }
      }
    }
    gpu.return
  }
}
