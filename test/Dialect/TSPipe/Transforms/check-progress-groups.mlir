// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress | FileCheck %s

// The corrected twins of check-progress-groups-invalid.mlir: each group
// member is committed as often as it is waited for and released as often as
// it is acquired, so the checker reports nothing.

// Both producers of the merge group fill as many stages as the consumer
// waits for; the one release on the group frees the stage of both.
// CHECK-LABEL: gpu.func @merge_member_short
// CHECK:         tspipe.consumer_release @ab
gpu.module @merge_member_short {
  gpu.func @merge_member_short(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline_group @ab merge [@a, @b]
      tspipe.task @load_a warps(0, 1) produces [@a] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @a group(@ab)
          tspipe.producer_commit @a group(@ab)
        }
      }
      tspipe.task @load_b warps(1, 1) produces [@b] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @b group(@ab)
          tspipe.producer_commit @b group(@ab)
        }
      }
      tspipe.task @use warps(2, 1) consumes [@a, @b] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
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

// Every consumer of the fork group releases what it waited for; the one
// commit on the group fills the stage of both.
// CHECK-LABEL: gpu.func @fork_member_unreleased
// CHECK:         tspipe.producer_commit @xy
gpu.module @fork_member_unreleased {
  gpu.func @fork_member_unreleased(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @x config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline @y config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline_group @xy fork [@x, @y]
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
          tspipe.consumer_release @y group(@xy)
        }
      }
    }
    gpu.return
  }
}
