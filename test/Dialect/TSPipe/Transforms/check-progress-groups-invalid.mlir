// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress

// Pipeline groups out of balance: a member of a merge group whose producer
// commits fewer stages than the consumer waits for, and a member of a fork
// group whose consumer never releases. The corrected twins are in
// check-progress-groups.mlir. A merge group's release and a fork group's
// commit give one credit to every member (docs/ProgressChecker.md, Pipeline
// groups).

// A merge member out of balance: @load_a fills one stage fewer than @use
// waits for on @a. The one release on the group that would free @b's stage
// never comes, because @use blocks on @a first.
gpu.module @merge_member_short {
  gpu.func @merge_member_short(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = arith.addi %n, %c1 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @load_a = 0, @load_b = 1, @use = 1}}
    tspipe.kernel warps(3) {
      tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline_group @ab merge [@a, @b]
      // expected-note @+1 {{the credit for completion 1 of @a full barrier, stage 0 is held by @load_a: it has committed that stage 0 time(s) and has finished}}
      tspipe.task @load_a warps(0, 1) produces [@a] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @a group(@ab)
          tspipe.producer_commit @a group(@ab)
        }
      }
      // expected-note @+1 {{@load_b blocks in the tail on @b empty barrier, stage 0, phase 0 (producer_tail needs completion 1, the barrier has 0)}}
      tspipe.task @load_b warps(1, 1) produces [@b] {
        tspipe.domain_loop %i = %c0 to %m step %c1 {
          %s = tspipe.producer_acquire @b group(@ab)
          tspipe.producer_commit @b group(@ab)
        }
      }
      tspipe.task @use warps(2, 1) consumes [@a, @b] {
        tspipe.domain_loop %i = %c0 to %m step %c1 {
          // expected-note @+2 {{@use blocks in iteration 0 on @a full barrier, stage 0, phase 0 (consumer_wait needs completion 1, the barrier has 0)}}
          // expected-note @+1 {{the credit for completion 1 of @b empty barrier, stage 0 is held by @use: it has released that stage 0 time(s) and is blocked here, in iteration 0 on @a full barrier, stage 0}}
          %s = tspipe.consumer_wait @a group(@ab)
          %t = tspipe.consumer_wait @b group(@ab)
          tspipe.consumer_release @ab
        }
      }
    }
    gpu.return
  }
}

// -----

// A fork member out of balance: @use_y waits on @y and never releases it,
// so the producer, which acquires every member, waits on @y's empty barrier
// (here in its drain) forever.
gpu.module @fork_member_unreleased {
  gpu.func @fork_member_unreleased(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @load = 1, @use_x = 1, @use_y = 1}}
    tspipe.kernel warps(3) {
      tspipe.pipeline @x config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{no task runs consumer_release on @y; add it to the schedule of the task that waits on the stages}}
      tspipe.pipeline @y config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline_group @xy fork [@x, @y]
      // expected-note @+1 {{@load blocks in the tail on @y empty barrier, stage 0, phase 0 (producer_tail needs completion 1, the barrier has 0)}}
      tspipe.task @load warps(0, 1) produces [@x, @y] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @x group(@xy)
          %t = tspipe.producer_acquire @y group(@xy)
          tspipe.producer_commit @xy
        }
      }
      tspipe.task @use_x warps(1, 1) consumes [@x] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @x group(@xy)
          tspipe.consumer_release @x group(@xy)
        }
      }
      tspipe.task @use_y warps(2, 1) consumes [@y] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @y group(@xy)
        }
      }
    }
    gpu.return
  }
}
