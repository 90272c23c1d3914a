// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The valid twins of invalid-work-queue.mlir: each kernel passes the rule
// its name gives (R19-R22, R35, X17).

// R19: the loop walks the kernel's queue, with one coordinate per grid
// extent. R20: only the end of the domain depends on the tile (a varlen
// domain: tile m runs m + 1 iterations). X17: no drain in the tile loop.
// CHECK-LABEL: func.func @R19_R20_X17_static
func.func @R19_R20_X17_static(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m, %n, %c1)
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index, %tn: index, %tl: index):
        %end = arith.addi %tm, %c1 : index
        tspipe.domain_loop %i = %c0 to %end step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
        tspipe.advance_work_tile @tiles
      }
    }
    tspipe.task @use warps(1, 1) consumes [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index, %tn: index, %tl: index):
        %end = arith.addi %tm, %c1 : index
        tspipe.domain_loop %i = %c0 to %end step %c1 {
          %w = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
        tspipe.advance_work_tile @tiles
      }
    }
  }
  return
}

// -----

// R21, R22: a pure skip predicate on the coordinates; the domain loop in
// skippable; the advance outside it.
// CHECK-LABEL: func.func @R21_R22_skip
func.func @R21_R22_skip(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m, %n)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      tspipe.work_tile_loop @tiles skip_if {
      ^bb0(%sm: index, %sn: index):
        %odd = arith.remui %sm, %c2 : index
        %skip = arith.cmpi eq, %odd, %c1 : index
        tspipe.skip_tile %skip
      } {
      ^bb0(%tm: index, %tn: index):
        tspipe.skippable {
          tspipe.domain_loop %i = %c0 to %n step %c1 {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
            %w = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
        tspipe.advance_work_tile @tiles
      }
    }
  }
  return
}

// -----

// R19, R35: a CLC queue: one scheduler task produces only the queue's
// pipeline, every task consumes it, each tile's tail in TS's order (the
// try forms are optional).
// CHECK-LABEL: func.func @R35_clc
func.func @R35_clc(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
        producer_group = <thread, 1>, consumer_group = <thread, 64>,
        producer_signaling = cta_leader>) smem_bytes(32)
    tspipe.work_queue @dyn clc(@clc)
    tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
        %t = tspipe.producer_try_acquire @clc
        %p = tspipe.producer_acquire @clc ready(%t)
        tspipe.fetch_work_tile @dyn stage(%p)
        tspipe.producer_commit @clc
        %tw = tspipe.consumer_try_wait @clc
        %s = tspipe.consumer_wait @clc ready(%tw)
        tspipe.advance_work_tile @dyn response(%s)
        tspipe.consumer_release @clc
      }
    }
    tspipe.task @work warps(1, 1) consumes [@clc] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
        %s = tspipe.consumer_wait @clc
        tspipe.advance_work_tile @dyn response(%s)
        tspipe.consumer_release @clc
      }
    }
  }
  return
}

// -----

// R22: the PDL points may surround the tile loop (TS runs its barrier
// resources once before and after the persistent loop).
// CHECK-LABEL: func.func @R22_pdl_around_tile_loop
func.func @R22_pdl_around_tile_loop(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @load warps(0, 1) produces [@ring] {
      // CHECK: tspipe.pdl_wait
      tspipe.pdl_wait
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
        tspipe.advance_work_tile @tiles
      }
      // CHECK: tspipe.pdl_launch_dependents
      tspipe.pdl_launch_dependents
    }
    tspipe.task @use warps(1, 1) consumes [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %w = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
        tspipe.advance_work_tile @tiles
      }
    }
  }
  return
}

// -----

// R22: PDL points may surround the tile loop: the wait before it (TS's
// pre-loop head) and the launch after it run once per CTA, as they would
// in the tile loop's first and last tile (crosscheck class of TS's
// `wait_griddep` / `launch_griddep` outside `work_tile_loop`).
// CHECK-LABEL: func.func @R22_pdl_beside_tile_loop
// CHECK: tspipe.pdl_wait
// CHECK-NEXT: tspipe.work_tile_loop @tiles
// CHECK: tspipe.pdl_launch_dependents
func.func @R22_pdl_beside_tile_loop(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.pdl_wait
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
        tspipe.advance_work_tile @tiles
      }
    }
    tspipe.task @use warps(1, 1) consumes [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %w = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
        tspipe.advance_work_tile @tiles
      }
      tspipe.pdl_launch_dependents
    }
  }
  return
}

// -----

// X8, R32: in a persistent task the steps of the tile around the domain
// loop are its head and tail, and a bracket under a loop guard inside the
// loop is a loop bracket: no X8 for a guarded close with a per-tile
// (unknown) trip count (it was reported as a head bracket closed on a
// guarded iteration: crosscheck class of every() in a work_tile_loop).
// CHECK-LABEL: func.func @X8_guarded_bracket_in_tile_loop
func.func @X8_guarded_bracket_in_tile_loop(%m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        %end = arith.addi %tm, %c1 : index
        tspipe.domain_loop %i = %c0 to %end step %c1 {
          tspipe.every period(2) start(0) {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
        }
        tspipe.advance_work_tile @tiles
      }
    }
    tspipe.task @use warps(1, 1) consumes [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        %end = arith.addi %tm, %c1 : index
        tspipe.domain_loop %i = %c0 to %end step %c1 {
          tspipe.every period(2) start(0) {
            %w = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
        tspipe.advance_work_tile @tiles
      }
    }
  }
  return
}
