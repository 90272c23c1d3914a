// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Work queues and persistent tile loops: R19-R22, R35 and X17. The valid
// twin of each case has the same name in valid-work-queue.mlir.

// R19: the tile loop names a pipeline, not a work queue.
func.func @R19_not_a_queue(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      // expected-error @+1 {{[R19] names '@ring', which is not a tspipe.work_queue of the enclosing tspipe.kernel}}
      tspipe.work_tile_loop @ring {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
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

// R19: the body takes two coordinates, the queue's grid has three extents.
func.func @R19_coordinates(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m, %n, %c1)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      // expected-error @+1 {{[R19] the body has 2 tile coordinates, but work queue '@tiles' hands out 3 per tile; give the body 3 index arguments}}
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index, %tn: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
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

// R19: a task of a CLC-scheduled kernel that does not consume the queue's
// pipeline (TS: the WorkQueue is missing from its src_resources).
func.func @R19_clc_not_consumed(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
        producer_group = <thread, 1>, consumer_group = <thread, 32>,
        producer_signaling = cta_leader>) smem_bytes(32)
    tspipe.work_queue @dyn clc(@clc)
    tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
        %p = tspipe.producer_acquire @clc
        tspipe.fetch_work_tile @dyn stage(%p)
        tspipe.producer_commit @clc
        %s = tspipe.consumer_wait @clc
        tspipe.advance_work_tile @dyn response(%s)
        tspipe.consumer_release @clc
      }
    }
    tspipe.task @work warps(1, 1) {
      // expected-error @+1 {{[R19] task '@work' walks the CLC work queue '@dyn' but does not consume its pipeline '@clc'; every task of a CLC-scheduled kernel reads the tile responses: add @clc to its consumes list}}
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
        tspipe.advance_work_tile @dyn
      }
    }
  }
  return
}

// -----

// R20: the start of the per-tile domain depends on the tile.
func.func @R20_dynamic_start(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        // expected-error @+1 {{[R20] the lower bound of a per-tile domain is computed inside the work_tile_loop; only the upper bound may depend on the tile: compute the lower bound before the tile loop}}
        tspipe.domain_loop %i = %tm to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
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

// R21: skip_if reads memory (TS: skip_if must be a method of the queue on
// the tile coordinates).
func.func @R21_skip_if_effects(%m: index, %n: index, %flags: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      tspipe.work_tile_loop @tiles skip_if {
      ^bb0(%sm: index):
        // expected-error @+1 {{[R21] skip_if may only compute from the tile coordinates (side-effect-free operations, no tspipe operation)}}
        %f = llvm.load %flags : !llvm.ptr<1> -> i1
        tspipe.skip_tile %f
      } {
      ^bb0(%tm: index):
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

// R21: skip_if takes fewer coordinates than the queue hands out.
func.func @R21_skip_if_arity(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m, %n)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      // expected-error @+1 {{[R21] skip_if takes 1 tile coordinates, but the queue hands out 2; give it the body's 2 index arguments}}
      tspipe.work_tile_loop @tiles skip_if {
      ^bb0(%sm: index):
        tspipe.skip_tile %false
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

// R22: skippable in a tile loop without skip_if.
func.func @R22_skippable_without_skip_if(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        // expected-error @+1 {{[R22] tspipe.skippable needs a work_tile_loop with skip_if}}
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

// R22: with skip_if, the domain loop outside skippable.
func.func @R22_domain_outside_skippable(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      tspipe.work_tile_loop @tiles skip_if {
      ^bb0(%sm: index):
        tspipe.skip_tile %false
      } {
      ^bb0(%tm: index):
        // expected-error @+1 {{[R22] with skip_if the domain loop must sit inside tspipe.skippable (a skipped tile runs no iteration); wrap it in tspipe.skippable { ... }}}
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
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

// R22: a bracket outside the task's tile loop (it would run once, not per
// tile).
func.func @R22_step_outside_tile_loop(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      // expected-error @+1 {{[R22] only auxiliary work may surround the work_tile_loop of task '@t' (this runs once, outside every tile); move it into the tile loop's body}}
      %s = tspipe.producer_acquire @ring
      tspipe.producer_commit @ring
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

// R35: a task of a persistent kernel without a tile loop.
func.func @R35_mixed_tasks(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
        tspipe.advance_work_tile @tiles
      }
    }
    // expected-error @+1 {{[R35] every task of a persistent kernel walks the tiles, but task '@use' has no work_tile_loop (tasks @load[1] have one); wrap its schedule in tspipe.work_tile_loop @tiles}}
    tspipe.task @use warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %w = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// R35: two work queues in one kernel.
func.func @R35_two_queues(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    // expected-error @+1 {{[R35] a kernel has one work queue, but '@tiles' is declared already; let every task walk '@tiles'}}
    tspipe.work_queue @more grid(%n)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
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

// R35: a queue no task walks.
func.func @R35_unused_queue(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    // expected-error @+1 {{[R35] no task walks work queue '@tiles'; give every task a tspipe.work_tile_loop @tiles or drop the queue}}
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
        %w = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// R35: a static queue without a grid.
func.func @R35_static_no_grid() {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{[R35] a static persistent work queue needs a tile grid of 1 to 3 extents (m, n, l), got 0}}
    tspipe.work_queue @tiles
  }
  return
}

// -----

// R35: a CLC queue given a grid.
func.func @R35_clc_grid(%m: index) {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{[R35] a CLC work queue takes its tiles from the launch grid (one cluster per tile), but grid() gives 1 extents}}
    tspipe.work_queue @dyn grid(%m) clc(@clc)
  }
  return
}

// -----

// R35: the CLC queue names a pipeline of another type.
func.func @R35_clc_type(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    // expected-error @+1 {{[R35] clc(@ring) must name a clc_fetch_async pipeline of the kernel (the try_cancel responses); declare one with num_bytes = 16}}
    tspipe.work_queue @dyn clc(@ring)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
        %p = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
        %s = tspipe.consumer_wait @ring
        tspipe.advance_work_tile @dyn response(%s)
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// R35: the scheduler task produces another pipeline too.
func.func @R35_scheduler_produces_more(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
        producer_group = <thread, 1>, consumer_group = <thread, 64>,
        producer_signaling = cta_leader>) smem_bytes(32)
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @dyn clc(@clc)
    // expected-error @+1 {{[R35] the scheduler task of CLC work queue '@dyn' produces only '@clc' (TS: its dst_resources are the WorkQueue alone); move the other produced pipelines to another task}}
    tspipe.task @sched warps(0, 1) produces [@clc, @ring] consumes [@clc] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %r = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
        %p = tspipe.producer_acquire @clc
        tspipe.fetch_work_tile @dyn stage(%p)
        tspipe.producer_commit @clc
        %s = tspipe.consumer_wait @clc
        tspipe.advance_work_tile @dyn response(%s)
        tspipe.consumer_release @clc
      }
    }
    tspipe.task @work warps(1, 1) consumes [@clc, @ring] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %w = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
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

// R35: a data task releases the response before reading it.
func.func @R35_tail_order(%n: index) {
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
        %p = tspipe.producer_acquire @clc
        tspipe.fetch_work_tile @dyn stage(%p)
        tspipe.producer_commit @clc
        %s = tspipe.consumer_wait @clc
        tspipe.advance_work_tile @dyn response(%s)
        tspipe.consumer_release @clc
      }
    }
    tspipe.task @work warps(1, 1) consumes [@clc] {
      // expected-error @+1 {{[R35] the tail of task '@work' ends each tile with consumer_wait, consumer_release, advance_work_tile on work queue '@dyn'; expected [consumer_try_wait] consumer_wait, advance_work_tile, consumer_release on @clc}}
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
        %s = tspipe.consumer_wait @clc
        tspipe.consumer_release @clc
        tspipe.advance_work_tile @dyn response(%s)
      }
    }
  }
  return
}

// -----

// R35: the queue's steps inside the domain loop.
func.func @R35_step_in_loop(%n: index) {
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
        %p = tspipe.producer_acquire @clc
        tspipe.fetch_work_tile @dyn stage(%p)
        tspipe.producer_commit @clc
        %s = tspipe.consumer_wait @clc
        tspipe.advance_work_tile @dyn response(%s)
        tspipe.consumer_release @clc
      }
    }
    tspipe.task @work warps(1, 1) consumes [@clc] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-error @+1 {{[R35] the work queue's steps belong to the tile's tail, after the domain loop and outside tspipe.skippable (every tile is fetched and released, skipped or not); move it there}}
          %w = tspipe.consumer_wait @clc
          tspipe.consumer_release @clc
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

// R35: a fetch on a static queue.
func.func @R35_fetch_static(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @t warps(0, 1) produces [@ring] consumes [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %w = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
        %s = tspipe.producer_acquire @ring
        // expected-error @+1 {{[R35] fetch_work_tile needs a CLC work queue, but '@tiles' is not one; a static queue computes its tiles (drop the fetch)}}
        tspipe.fetch_work_tile @tiles stage(%s)
        tspipe.producer_commit @ring
        tspipe.advance_work_tile @tiles
      }
    }
  }
  return
}

// -----

// X17: a producer drain inside the tile loop.
func.func @X17_drain_per_tile(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m)
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
        // expected-error @+1 {{[X17] producer_tail inside a work_tile_loop drains the pipeline on every tile; drop it (the lowering drains every produced pipeline once, after the last tile)}}
        tspipe.producer_tail @ring
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
    }
  }
  return
}

// -----

// R35: the CLC queue's pipeline has no room for the responses.
func.func @R35_clc_response_buffer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[R35] the pipeline of CLC work queue '@dyn' holds one 16-byte try_cancel response per stage: it needs smem_bytes(32), got none; write smem_bytes(32)}}
    tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
        producer_group = <thread, 1>, consumer_group = <thread, 64>,
        producer_signaling = cta_leader>)
    tspipe.work_queue @dyn clc(@clc)
    tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
        %p = tspipe.producer_acquire @clc
        tspipe.fetch_work_tile @dyn stage(%p)
        tspipe.producer_commit @clc
        %s = tspipe.consumer_wait @clc
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
