// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress | FileCheck %s

// Persistent tile loops in the progress model (docs/ProgressChecker.md,
// Persistent tile loops): the cursors carry from tile to tile, every task
// sees the same tiles, and tasks that skip different tiles on a shared
// pipeline hang.

// Both tasks skip the same tiles (equivalent skip_if): no hang, the
// phases of one tile carry into the next.
// CHECK-LABEL: gpu.func @same_skips
// CHECK:         tspipe.work_tile_loop @tiles skip_if
gpu.module @same_skips {
  gpu.func @same_skips(%m: index, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.work_queue @tiles grid(%m)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.work_tile_loop @tiles skip_if {
        ^bb0(%sm: index):
          %odd = arith.remui %sm, %c2 : index
          %skip = arith.cmpi eq, %odd, %c1 : index
          tspipe.skip_tile %skip
        } {
        ^bb0(%tm: index):
          tspipe.skippable {
            tspipe.domain_loop %i = %c0 to %n step %c1 {
              %s = tspipe.producer_acquire @ring
              tspipe.producer_commit @ring
            }
          }
          tspipe.advance_work_tile @tiles
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.work_tile_loop @tiles skip_if {
        ^bb0(%sm: index):
          %odd = arith.remui %sm, %c2 : index
          %skip = arith.cmpi eq, %odd, %c1 : index
          tspipe.skip_tile %skip
        } {
        ^bb0(%tm: index):
          tspipe.skippable {
            tspipe.domain_loop %i = %c0 to %n step %c1 {
              %s = tspipe.consumer_wait @ring
              tspipe.consumer_release @ring
            }
          }
          tspipe.advance_work_tile @tiles
        }
      }
    }
    gpu.return
  }
}

// -----

// A per-tile head wait and tail release around the domain loop: balanced
// on every tile, the cursors carried.
// CHECK-LABEL: gpu.func @per_tile_head_tail
gpu.module @per_tile_head_tail {
  gpu.func @per_tile_head_tail(%m: index, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @acc config(<async_async, num_stages = 1, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.work_queue @tiles grid(%m)
      tspipe.task @producer warps(0, 1) produces [@acc] {
        tspipe.work_tile_loop @tiles {
        ^bb0(%tm: index):
          %s = tspipe.producer_acquire @acc
          tspipe.domain_loop %i = %c0 to %n step %c1 {
          }
          tspipe.producer_commit @acc
          tspipe.advance_work_tile @tiles
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@acc] {
        tspipe.work_tile_loop @tiles {
        ^bb0(%tm: index):
          %s = tspipe.consumer_wait @acc
          tspipe.domain_loop %i = %c0 to %n step %c1 {
          }
          tspipe.consumer_release @acc
          tspipe.advance_work_tile @tiles
        }
      }
    }
    gpu.return
  }
}

// -----

// The producer skips odd tiles, the consumer runs every tile: on a
// skipped tile (the model's tile 1) the consumer waits for a stage nobody
// fills.
gpu.module @different_skips {
  gpu.func @different_skips(%m: index, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 1, @consumer = 1}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.work_queue @tiles grid(%m)
      // expected-note @+1 {{the credit for completion 1 of @ring full barrier, stage 1 is held by @producer: it has committed that stage 0 time(s) and has finished}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.work_tile_loop @tiles skip_if {
        ^bb0(%sm: index):
          %odd = arith.remui %sm, %c2 : index
          %skip = arith.cmpi eq, %odd, %c1 : index
          tspipe.skip_tile %skip
        } {
        ^bb0(%tm: index):
          tspipe.skippable {
            tspipe.domain_loop %i = %c0 to %n step %c1 {
              %s = tspipe.producer_acquire @ring
              tspipe.producer_commit @ring
            }
          }
          tspipe.advance_work_tile @tiles
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.work_tile_loop @tiles {
        ^bb0(%tm: index):
          tspipe.domain_loop %i = %c0 to %n step %c1 {
            // expected-note @+1 {{@consumer blocks in iteration 0 on @ring full barrier, stage 1, phase 0 (consumer_wait needs completion 1, the barrier has 0)}}
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
          tspipe.advance_work_tile @tiles
        }
      }
    }
    gpu.return
  }
}
