// RUN: tspipe-opt %s -verify-diagnostics | FileCheck %s

// The valid twin of each failing case of invalid-brackets.mlir,
// invalid-signaling.mlir, invalid-lanes.mlir, invalid-registers.mlir,
// invalid-copies.mlir and invalid-targets.mlir (same name): the one change
// that makes the kernel legal. -verify-diagnostics also asserts that none of
// them gets a warning.

// CHECK-LABEL: func.func @R32_access_before_wait
// CHECK:         tspipe.consumer_wait @p
// CHECK-NEXT:    tspipe.stage_index
func.func @R32_access_before_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %idx = tspipe.stage_index %s
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        %idx = tspipe.stage_index %s
        %cur = tspipe.current_stage @p consumer
        %cidx = tspipe.stage_index %cur
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// Counted brackets (advance_on_wait): the next stage is waited for before
// the previous one is released.
// CHECK-LABEL: func.func @R32_counted_release_first
func.func @R32_counted_release_first(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_wait = true>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      %h = tspipe.consumer_wait @p
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        %idx = tspipe.stage_index %s
        tspipe.consumer_release @p
      }
      tspipe.consumer_release @p
    }
  }
  return
}

// A split consumer: @sync waits on @p and hands over through @proxy; @mma
// works on @p's stage after its wait on @proxy (fed from @p) and releases
// both.
// CHECK-LABEL: func.func @R32_work_without_wait
func.func @R32_work_without_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_wait = true>)
    tspipe.pipeline @proxy config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @sync warps(1, 1) produces [@proxy] consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        %t = tspipe.producer_acquire @proxy
        tspipe.producer_commit @proxy
      }
    }
    tspipe.task @mma warps(2, 1) consumes [@p, @proxy] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %t = tspipe.consumer_wait @proxy
        %s = tspipe.current_stage @p consumer
        %idx = tspipe.stage_index %s
        tspipe.consumer_release @p
        tspipe.consumer_release @proxy
      }
    }
  }
  return
}

// A split producer with its own commit cursor.
// CHECK-LABEL: func.func @R33_split_producer_without_flag
// CHECK:         advance_on_acquire = true
func.func @R33_split_producer_without_flag(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_acquire = true>)
    tspipe.task @acq warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %idx = tspipe.stage_index %s
      }
    }
    tspipe.task @com warps(1, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(2, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R34_try_wait_without_wait
// CHECK:         %[[R:.*]] = tspipe.consumer_try_wait @p
// CHECK-NEXT:    tspipe.consumer_wait @p ready(%[[R]])
// CHECK:         %[[Q:.*]] = tspipe.producer_try_acquire @p
// CHECK-NEXT:    tspipe.producer_acquire @p ready(%[[Q]])
func.func @R34_try_wait_without_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %r = tspipe.consumer_try_wait @p
        %s = tspipe.consumer_wait @p ready(%r)
        tspipe.consumer_release @p
      }
    }
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %r = tspipe.producer_try_acquire @p
        %s = tspipe.producer_acquire @p ready(%r)
        tspipe.producer_commit @p
      }
    }
  }
  return
}

// Producer work only in the head (a prologue stage), none in the loop.
// CHECK-LABEL: func.func @R40_head_and_loop_work
func.func @R40_head_and_loop_work(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      %h = tspipe.producer_acquire @p
      %hi = tspipe.stage_index %h
      tspipe.producer_commit @p
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// A ping-pong buffer with a thread consumer.
// CHECK-LABEL: func.func @R65_ping_pong_tcgen05_consumer
// CHECK:         tspipe.pipeline @p config(<tma_async
func.func @R65_ping_pong_tcgen05_consumer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.task @pp warps(0, 1) produces [@p] consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
        %t = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// A domain that runs at least once (constant bounds): the last iteration
// always comes.
// CHECK-LABEL: func.func @X8_last_iter_commit_of_head_acquire
func.func @X8_last_iter_commit_of_head_acquire(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      %s = tspipe.producer_acquire @p
      tspipe.domain_loop %i = %c0 to %c4 step %c1 {
        tspipe.last_iter {
          tspipe.producer_commit @p
        }
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

//===----------------------------------------------------------------------===//
// Signaling and arrive counts.

// CHECK-LABEL: func.func @R11_all_thread_release_warp_group
// CHECK:         consumer_group = <thread, 128>
func.func @R11_all_thread_release_warp_group(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 128>>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 4) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R12_task_warp_leader_without_commit
// CHECK:         producer_signaling = task_warp_leader
func.func @R12_task_warp_leader_without_commit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = task_warp_leader>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R25_pinned_wait_without_cta_leader
// CHECK:         consumer_signaling = cta_leader
func.func @R25_pinned_wait_without_cta_leader(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = cta_leader>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] cta(0) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R45_task_warp_leader_async_producer
// CHECK:         config(<tma_async{{.*}}producer_signaling = task_warp_leader
// CHECK-LABEL: func.func @R46_task_warp_leader_consumer
// CHECK:         consumer_signaling = cta_leader
func.func @R45_task_warp_leader_async_producer() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = task_warp_leader>)
  }
  return
}
func.func @R46_task_warp_leader_consumer() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = cta_leader>)
  }
  return
}

// A split consumer (wait in @sync, release in @use) with its own wait
// signaling.
// CHECK-LABEL: func.func @R47_wait_signaling_without_split_consumer
// CHECK:         consumer_wait_signaling = all
func.func @R47_wait_signaling_without_split_consumer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = cta_leader, consumer_wait_signaling = all, advance_on_wait = true>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @sync warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
      }
    }
    tspipe.task @use warps(2, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R48_umma_producer_size
func.func @R48_umma_producer_size(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    tspipe.task @mma warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @epi warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R49_interleaved_tma_umma_consumer
func.func @R49_interleaved_tma_umma_consumer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2]>)
    tspipe.task @load warps(0, 2) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @mma warps(2, 2) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @X2_tma_umma_2d_multicast
// CHECK:         consumer_group = <thread, 3>
func.func @X2_tma_umma_2d_multicast(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([4, 1, 1]) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 3>, cta_layout_vmnk = [1, 2, 2, 1]>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @mma warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R50_clc_producer_size
// CHECK-LABEL: func.func @R51_clc_consumer_size
// CHECK:         consumer_group = <thread, 64>
func.func @R50_clc_producer_size(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<clc_fetch_async, num_stages = 2, num_bytes = 16, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    tspipe.task @sched warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}
func.func @R51_clc_consumer_size(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @p config(<clc_fetch_async, num_stages = 2, num_bytes = 16, producer_group = <thread, 1>, consumer_group = <thread, 64>, cta_layout_vmnk = [1, 2, 1, 1], producer_signaling = cta_leader>)
    tspipe.task @sched warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R56_bytes_per_warp_mismatch
// CHECK:         num_bytes_per_warp_per_cta = 2048
func.func @R56_bytes_per_warp_mismatch(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = task_warp_leader, num_bytes_per_warp_per_cta = 2048>)
    tspipe.task @load warps(0, 2) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(2, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @X3_pair_commit_from_both_ctas
// CHECK:         producer_signaling = cta_leader
func.func @X3_pair_commit_from_both_ctas(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @p config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 64>, cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader>)
    tspipe.task @mma warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @epi warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @X4_all_thread_release_on_cluster
// CHECK:         consumer_group = <thread, 2>
func.func @X4_all_thread_release_on_cluster(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, cta_layout_vmnk = [1, 2, 1, 1]>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// Interleaved lanes and layouts.

// The split-K shape: a cluster of 2 CTAs along z whose pipelines are all
// CTA-local (layout [1, 1, 1, 1]).
// CHECK-LABEL: func.func @R57_layout_smaller_than_cluster
// CHECK:         tspipe.kernel warps(2) cluster([1, 1, 2])
func.func @R57_layout_smaller_than_cluster(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([1, 1, 2]) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @q config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, cta_layout_vmnk = [1, 1, 1, 1]>)
    tspipe.task @load warps(0, 1) produces [@p, @q] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
        %t = tspipe.producer_acquire @q
        tspipe.producer_commit @q
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p, @q] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
        %t = tspipe.consumer_wait @q
        tspipe.consumer_release @q
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R57_two_layouts
func.func @R57_two_layouts(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @a config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, cta_layout_vmnk = [1, 2, 1, 1]>)
    tspipe.pipeline @b config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, cta_layout_vmnk = [1, 2, 1, 1]>)
    tspipe.pipeline @local config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @load warps(0, 1) produces [@a, @b, @local] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a
        tspipe.producer_commit @a
        %t = tspipe.producer_acquire @b
        tspipe.producer_commit @b
        %u = tspipe.producer_acquire @local
        tspipe.producer_commit @local
      }
    }
    tspipe.task @use warps(1, 1) consumes [@a, @b, @local] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @a
        tspipe.consumer_release @a
        %t = tspipe.consumer_wait @b
        tspipe.consumer_release @b
        %u = tspipe.consumer_wait @local
        tspipe.consumer_release @local
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R58_interleaved_umma_umma
// CHECK-LABEL: func.func @R59_interleaved_tma_async_cluster
// CHECK-LABEL: func.func @R60_umma_async_producer_stride
// CHECK:         interleave_stride = [1, 1, 2, 2]
// CHECK-LABEL: func.func @R60_async_umma_consumer_stride
// CHECK:         interleave_stride = [2, 2, 1, 1]
func.func @R58_interleaved_umma_umma() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2]>)
  }
  return
}
func.func @R59_interleaved_tma_async_cluster() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2]>)
  }
  return
}
func.func @R60_umma_async_producer_stride() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<umma_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 32>, interleave_stride = [1, 1, 2, 2]>)
  }
  return
}
func.func @R60_async_umma_consumer_stride() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_umma, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 1>, interleave_stride = [2, 2, 1, 1]>)
  }
  return
}

// CHECK-LABEL: func.func @R62_domain_lane_start_out_of_range
func.func @R62_domain_lane_start_out_of_range(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = [1, 1, 2, 2]>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @lane0 warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c2 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
    tspipe.task @lane1 warps(2, 1) consumes [@p] {
      tspipe.domain_loop %i = %c1 to %n step %c2 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// Warp lanes (2 warps for stride 2) where the strides differ.
// CHECK-LABEL: func.func @R63_domain_lanes_asymmetric_strides
func.func @R63_domain_lanes_asymmetric_strides(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, advance_on_wait = true, interleave_stride = [1, 1, 2, 1]>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @wait warps(1, 2) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
      }
    }
    tspipe.task @rel warps(3, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// The wait role (stride 2) and the release role (stride 1) in separate
// tasks.
// CHECK-LABEL: func.func @R64_one_task_both_roles
func.func @R64_one_task_both_roles(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, advance_on_wait = true, interleave_stride = [1, 1, 2, 1]>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @mma warps(1, 2) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        %idx = tspipe.stage_index %s
      }
    }
    tspipe.task @rel warps(3, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// Budgets.

// CHECK-LABEL: func.func @R41_warpgroup_disagrees
// CHECK:         registers(40)
// CHECK:         registers(40)
// CHECK-LABEL: func.func @R42_register_file_exceeded
func.func @R41_warpgroup_disagrees(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.task @producer warps(0, 1) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @consumer warps(1, 3) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}
func.func @R42_register_file_exceeded(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(16) {
    tspipe.task @a warps(0, 4) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @b warps(4, 12) registers(152) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R44_tmem_columns_exceeded
// CHECK:         tmem_columns(256)
// CHECK:         tmem_columns(256)
func.func @R44_tmem_columns_exceeded() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @acc config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>>) tmem_columns(256)
    tspipe.pipeline @aux config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>>) tmem_columns(256)
  }
  return
}

// Valid twins of the per-pipeline R44 checks (invalid.mlir): every
// tcgen05.alloc count from 32 to 512 on each tcgen05 type.
// CHECK-LABEL: func.func @R44_tmem_columns_counts
// CHECK:         tmem_columns(32)
// CHECK:         tmem_columns(64)
// CHECK:         tmem_columns(128)
// CHECK:         tmem_columns(256)
func.func @R44_tmem_columns_counts() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>>) tmem_columns(32)
    tspipe.pipeline @b config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, num_bytes = 1024>) tmem_columns(64)
    tspipe.pipeline @c config(<async_umma, num_stages = 2, producer_group = <thread, 128>, consumer_group = <thread, 1>>) tmem_columns(128)
    tspipe.pipeline @d config(<umma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>) tmem_columns(256)
  }
  return
}

// R9: num_bytes_per_warp_per_cta at the transaction count limit.
// CHECK-LABEL: func.func @R9_bytes_per_warp_at_limit
// CHECK:         num_bytes_per_warp_per_cta = 1048560
func.func @R9_bytes_per_warp_at_limit() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, num_bytes = 1048560, num_bytes_per_warp_per_cta = 1048560>)
  }
  return
}

// X11: static bounds that fit the i32 trip counter, the last index + step
// included.
// CHECK-LABEL: func.func @X9_bounds_fit
// CHECK:         tspipe.domain_loop
func.func @X9_bounds_fit() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ub = arith.constant 2147483646 : index
  tspipe.kernel warps(1) {
    tspipe.task @t warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %ub step %c1 {
      }
    }
  }
  return
}

// Copies.

// CHECK-LABEL: func.func @X6_copy_bytes_short
// CHECK-COUNT-2: nvvm.cp.async.bulk.shared.cluster.global
func.func @X6_copy_bytes_short(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 16384 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 32768, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(65536)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dstc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          nvvm.cp.async.bulk.shared.cluster.global %dstc, %src, %full, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
          nvvm.cp.async.bulk.shared.cluster.global %dstc, %src, %full, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @X5_tcgen05_commit_on_thread_side
// CHECK:         nvvm.tcgen05.commit
func.func @X5_tcgen05_commit_on_thread_side(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @mma warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        %empty = tspipe.empty_barrier %s : !llvm.ptr<3>
        nvvm.tcgen05.commit %empty : !llvm.ptr<3>
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @X4_recorded_all_thread_release_on_cluster
// CHECK:         release(lane)
func.func @X4_recorded_all_thread_release_on_cluster(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) normalized {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, cta_layout_vmnk = [1, 2, 1, 1]>) release(lane)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// Targets.

// CHECK-LABEL: gpu.module @X7_sm_101a
// CHECK-SAME:    chip = "sm_110a", features = "+ptx90"
gpu.module @X7_sm_101a [#nvvm.target<chip = "sm_110a", features = "+ptx90">] {
  gpu.func @X7_sm_101a() kernel {
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @X7_tcgen05_on_hopper
// CHECK-SAME:    chip = "sm_100a", features = "+ptx86"
gpu.module @X7_tcgen05_on_hopper [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  gpu.func @X7_tcgen05_on_hopper() kernel {
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<tma_umma, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// X19: a work step's nvgpu warpgroup MMA on sm_90a (the failing twin, on
// sm_100a, is in invalid-targets.mlir).
// CHECK-LABEL: gpu.module @X19_wgmma_on_blackwell
// CHECK:         nvgpu.warpgroup.mma
gpu.module @X19_wgmma_on_blackwell [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @X19_wgmma_on_blackwell(%da: !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>, %db: !nvgpu.warpgroup.descriptor<tensor = memref<16x128xf16, 3>>, %acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      tspipe.task @mma warps(0, 4) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          %d = nvgpu.warpgroup.mma %da, %db, %acc : !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<16x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
        }
      }
    }
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @X7_pre_hopper_target
// CHECK-SAME:    chip = "sm_90a"
gpu.module @X7_pre_hopper_target [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @X7_pre_hopper_target(%n: index) kernel {
    tspipe.kernel warps(1) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    }
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @X7_setmaxnreg_needs_arch_specific
// CHECK:         registers(232)
gpu.module @X7_setmaxnreg_needs_arch_specific [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @X7_setmaxnreg_needs_arch_specific(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      tspipe.task @heavy warps(0, 4) registers(232) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
    }
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @X7_clc_needs_sm100
// CHECK:         tspipe.pipeline @clc
gpu.module @X7_clc_needs_sm100 [#nvvm.target<chip = "sm_100a">] {
  gpu.func @X7_clc_needs_sm100(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 1, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 64>,
          cta_layout_vmnk = [1, 2, 1, 1], producer_signaling = cta_leader>)
          smem_bytes(16)
      tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.producer_acquire @clc
          tspipe.producer_commit @clc
          %s = tspipe.consumer_wait @clc
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}

// X7 features: one +ptxNN (an empty entry, which LLVM drops, is fine).
// CHECK-LABEL: gpu.module @X7_feature_without_plus
gpu.module @X7_feature_without_plus [#nvvm.target<chip = "sm_90a", features = "+ptx80,">] {
  gpu.func @X7_feature_without_plus() kernel {
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// Without a +ptxNN feature LLVM's NVPTX backend emits the least PTX ISA
// version the chip accepts, so X7 has nothing to check there.
// CHECK-LABEL: gpu.module @X7_no_ptx_feature
// CHECK-SAME:    chip = "sm_100a"
gpu.module @X7_no_ptx_feature [#nvvm.target<chip = "sm_100a">] {
  gpu.func @X7_no_ptx_feature() kernel {
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// A gpu.module without targets is target-agnostic: the compile API attaches
// one.
// CHECK-LABEL: gpu.module @X7_no_nvvm_target
gpu.module @X7_no_nvvm_target {
  gpu.func @X7_no_nvvm_target() kernel {
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// Two warp-lane tasks both consume every stage of the interleaved ring:
// consumer_group counts their two arrivals per stage.
// CHECK-LABEL: func.func @R54_two_lane_releasers
func.func @R54_two_lane_releasers(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(6) {
    tspipe.pipeline @p config(<tma_async, num_stages = 8, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, interleave_stride = [2]>)
    tspipe.task @load warps(0, 2) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @watch warps(2, 2) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
    tspipe.task @drop warps(4, 2) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// X10: PTX identifiers as kernel names: letters, digits, _ and $, or a
// leading _ / $ with one more character (a leading %, which PTX allows, is
// rejected: LLVM cannot print it).
// CHECK-LABEL: gpu.module @X10_entry_name
// CHECK:         gpu.func @tile_loader$v2
// CHECK:         gpu.func @_k
gpu.module @X10_entry_name [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @tile_loader$v2() kernel {
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
  gpu.func @_k() kernel {
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// X6: a copy in a static loop counts once per trip (2 x 512 bytes).
// CHECK-LABEL: func.func @X6_copy_loop_trips
func.func @X6_copy_loop_trips(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          scf.for %q = %c0 to %c2 step %c1 {
            nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b512 : !llvm.ptr<7>, !llvm.ptr<1>
          }
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// X6: the arms of an scf.if are alternatives; each delivers 1024 bytes.
// CHECK-LABEL: func.func @X6_copy_if_else_arms
func.func @X6_copy_if_else_arms(%n: index, %src: !llvm.ptr<1>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          scf.if %flag {
            nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 : !llvm.ptr<7>, !llvm.ptr<1>
          } else {
            nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 : !llvm.ptr<7>, !llvm.ptr<1>
          }
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// X6: a dynamic trip count is not decided: a remark, no error.
// CHECK-LABEL: func.func @X6_copy_loop_dynamic
func.func @X6_copy_loop_dynamic(%n: index, %src: !llvm.ptr<1>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-remark @+1 {{[X6] bytes of this stage of '@p' not checked: a copy in a loop with a dynamic trip count ('scf.for' at}}
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          scf.for %q = %c0 to %m step %c1 {
            nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b512 : !llvm.ptr<7>, !llvm.ptr<1>
          }
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// X6: a stage armed for 0 bytes needs no copy.
// CHECK-LABEL: func.func @X6_no_copy_zero_bytes
func.func @X6_no_copy_zero_bytes(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 0, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// X6: a copy under an elected branch is one copy per warp.
// CHECK-LABEL: func.func @X6_copy_elected
func.func @X6_copy_elected(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}
