// RUN: tspipe-opt %s | FileCheck %s

// The nearest valid variant of each failing case in invalid.mlir (same
// function name): the one change that makes the config or op legal. Each
// CHECK pins the field the rule is about.
gpu.module @valid_configs {

// Valid: both non-'all' flags together are valid.
// CHECK-LABEL: gpu.func @R1_producer_all_with_cta_leader
// CHECK:         tspipe.pipeline @p config(<{{.*}}producer_signaling = cta_leader|task_warp_leader
gpu.func @R1_producer_all_with_cta_leader() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = cta_leader|task_warp_leader>)
  }
  gpu.return
}

// Valid: task_warp_leader alone.
// CHECK-LABEL: gpu.func @R1_consumer_all_with_task_warp_leader
// CHECK:         tspipe.pipeline @p config(<{{.*}}consumer_signaling = task_warp_leader
gpu.func @R1_consumer_all_with_task_warp_leader() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = task_warp_leader>)
  }
  gpu.return
}

// Valid: the two leader flags without 'all'.
// CHECK-LABEL: gpu.func @R1_consumer_wait_all_with_both
// CHECK:         tspipe.pipeline @p config(<{{.*}}consumer_wait_signaling = cta_leader|task_warp_leader
gpu.func @R1_consumer_wait_all_with_both() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_wait_signaling = cta_leader|task_warp_leader>)
  }
  gpu.return
}

// Valid: the keyword instead of its integer value.
// CHECK-LABEL: gpu.func @R1_consumer_plain_int
// CHECK:         tspipe.pipeline @p config(<{{.*}}consumer_signaling = cta_leader
gpu.func @R1_consumer_plain_int() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = cta_leader>)
  }
  gpu.return
}

// Valid: the flag's real name.
// CHECK-LABEL: gpu.func @R1_unknown_flag
// CHECK:         tspipe.pipeline @p config(<{{.*}}producer_signaling = cta_leader|task_warp_leader
gpu.func @R1_unknown_flag() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = cta_leader|task_warp_leader>)
  }
  gpu.return
}

// Valid: async_load on an async_async pipeline.
// CHECK-LABEL: gpu.func @R2_async_load_on_tma_async
// CHECK:         tspipe.pipeline @p config(<{{.*}}async_producer_op = async_load
gpu.func @R2_async_load_on_tma_async() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, async_producer_op = async_load>)
  }
  gpu.return
}

// Valid: async_load on an async_umma pipeline.
// CHECK-LABEL: gpu.func @R3_async_load_on_umma_umma
// CHECK:         tspipe.pipeline @p config(<{{.*}}umma_consumer_producer_op = async_load
gpu.func @R3_async_load_on_umma_umma() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, umma_consumer_producer_op = async_load>)
  }
  gpu.return
}

// Valid: async_async changes async_producer_op instead.
// CHECK-LABEL: gpu.func @R3_async_load_on_async_async
// CHECK:         tspipe.pipeline @p config(<{{.*}}async_producer_op = async_load
gpu.func @R3_async_load_on_async_async() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, async_producer_op = async_load>)
  }
  gpu.return
}

// Valid: the full 4-tuple.
// CHECK-LABEL: gpu.func @R4_two_strides
// CHECK:         tspipe.pipeline @p config(<{{.*}}interleave_stride = [2, 2, 2, 2]
gpu.func @R4_two_strides() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2, 2, 2, 2]>)
  }
  gpu.return
}

// Valid: a 4-tuple of unit strides (kept as written).
// CHECK-LABEL: gpu.func @R4_empty_list
// CHECK:         tspipe.pipeline @p config(<{{.*}}interleave_stride = [1, 1, 1, 1]
gpu.func @R4_empty_list() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, 1, 1, 1]>)
  }
  gpu.return
}

// Valid: the smallest stride, 1 (the default, not printed).
// CHECK-LABEL: gpu.func @R4_zero_stride
// CHECK:         tspipe.pipeline @p config(<{{.*}}consumer_group = <thread, 1>>)
gpu.func @R4_zero_stride() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = 1>)
  }
  gpu.return
}

// Valid: a positive wait stride.
// CHECK-LABEL: gpu.func @R4_negative_role_stride
// CHECK:         tspipe.pipeline @p config(<{{.*}}advance_on_wait = true, interleave_stride = [1, 1, 2, 1]
gpu.func @R4_negative_role_stride() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, 1, 2, 1], advance_on_wait = true>)
  }
  gpu.return
}

// Valid: an integer stride.
// CHECK-LABEL: gpu.func @R4_boolean_stride
// CHECK:         tspipe.pipeline @p config(<{{.*}}interleave_stride = 2>
gpu.func @R4_boolean_stride() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = 2>)
  }
  gpu.return
}

// Valid: integers only in the tuple.
// CHECK-LABEL: gpu.func @R4_boolean_in_tuple
// CHECK:         tspipe.pipeline @p config(<{{.*}}interleave_stride = [1, 1, 1, 1]
gpu.func @R4_boolean_in_tuple() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, 1, 1, 1]>)
  }
  gpu.return
}

// Valid: 8 stages, a multiple of the stride.
// CHECK-LABEL: gpu.func @R5_stride_does_not_divide_stages
// CHECK:         tspipe.pipeline @p config(<{{.*}}num_stages = 8, {{.*}}, interleave_stride = 4>
gpu.func @R5_stride_does_not_divide_stages() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 8, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = 4>)
  }
  gpu.return
}

// Valid: 6 stages, a multiple of the release stride.
// CHECK-LABEL: gpu.func @R5_release_stride_does_not_divide_stages
// CHECK:         tspipe.pipeline @p config(<{{.*}}num_stages = 6, {{.*}}, interleave_stride = [1, 1, 1, 3]>
gpu.func @R5_release_stride_does_not_divide_stages() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 6, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, 1, 1, 3], advance_on_wait = true>)
  }
  gpu.return
}

// Valid: split producer cursors.
// CHECK-LABEL: gpu.func @R6_asymmetric_producer_strides
// CHECK:         tspipe.pipeline @p config(<{{.*}}advance_on_acquire = true, interleave_stride = [2, 1, 1, 1]
gpu.func @R6_asymmetric_producer_strides() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 8, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2, 1, 1, 1], advance_on_acquire = true>)
  }
  gpu.return
}

// Valid: split consumer cursors.
// CHECK-LABEL: gpu.func @R7_asymmetric_consumer_strides
// CHECK:         tspipe.pipeline @p config(<{{.*}}advance_on_wait = true, interleave_stride = [1, 1, 4, 1]
gpu.func @R7_asymmetric_consumer_strides() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 8, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, 1, 4, 1], advance_on_wait = true>)
  }
  gpu.return
}

// Valid: one consumer thread.
// CHECK-LABEL: gpu.func @R8_zero_size_group
// CHECK:         tspipe.pipeline @p config(<{{.*}}consumer_group = <thread, 1>>)
gpu.func @R8_zero_size_group() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
  }
  gpu.return
}

// Valid: one producer warp.
// CHECK-LABEL: gpu.func @R8_negative_warp_group
// CHECK:         tspipe.pipeline @p config(<{{.*}}producer_group = <warp, 1>
gpu.func @R8_negative_warp_group() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <warp, 1>, consumer_group = <thread, 1>>)
  }
  gpu.return
}

// Valid: an integer size.
// CHECK-LABEL: gpu.func @R8_boolean_size
// CHECK:         tspipe.pipeline @p config(<{{.*}}producer_group = <thread, 1>
gpu.func @R8_boolean_size() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
  }
  gpu.return
}

// Valid: a CuTe agent.
// CHECK-LABEL: gpu.func @R8_unknown_agent
// CHECK:         tspipe.pipeline @p config(<{{.*}}producer_group = <warp, 1>
gpu.func @R8_unknown_agent() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <warp, 1>, consumer_group = <thread, 1>>)
  }
  gpu.return
}

// Valid: a single stage.
// CHECK-LABEL: gpu.func @R9_zero_stages
// CHECK:         tspipe.pipeline @p config(<{{.*}}num_stages = 1,
gpu.func @R9_zero_stages() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 1, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
  }
  gpu.return
}

// Valid: zero transaction bytes (the default, not printed).
// CHECK-LABEL: gpu.func @R9_negative_num_bytes
// CHECK:         tspipe.pipeline @p config(<{{.*}}num_stages = 2, producer_group
gpu.func @R9_negative_num_bytes() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 0, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
  }
  gpu.return
}

// Valid: the largest transaction count an mbarrier phase holds (2^20 - 1),
// rounded down to the 16-byte multiple bulk copies move (X6).
// CHECK-LABEL: gpu.func @R9_tx_count_limit
// CHECK:         tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1048560,
gpu.func @R9_tx_count_limit() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1048560, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
  }
  gpu.return
}

// Valid: tasks on disjoint warp ranges, and tasks sharing warps on
// different CTAs.
// CHECK-LABEL: gpu.func @overlapping_tasks
// CHECK:         tspipe.task @compute warps(1, 3)
// CHECK:         tspipe.task @on_cta1 warps(0, 1) cta(1)
gpu.func @overlapping_tasks(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) cluster([2, 1, 1]) {
    tspipe.task @load warps(0, 1) cta(0) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @compute warps(1, 3) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @on_cta1 warps(0, 1) cta(1) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  gpu.return
}

// Valid counts (R52-R54): producer and consumer groups equal the arrivals
// of their tasks; TMA lane release (1 per consumer warp); interleaved TMA
// producer warps (R53: 1 arm per stage, R62: 2 warps for stride 2);
// task_warp_leader (1 arm per task); domain-lane consumer tasks (R62).
// CHECK-LABEL: gpu.func @R52_R54_counts
// CHECK:         tspipe.pipeline @aa config(<async_async, num_stages = 2, producer_group = <thread, 64>, consumer_group = <thread, 32>>)
// CHECK:         tspipe.pipeline @tma config(<tma_async, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2, 2, 1, 1]>)
// CHECK:         tspipe.pipeline @twl config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 128>, producer_signaling = task_warp_leader, num_bytes_per_warp_per_cta = 512>)
// CHECK:         tspipe.pipeline @lanes config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = [1, 1, 2, 2]>)
gpu.func @R52_R54_counts(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tspipe.kernel warps(16) {
    tspipe.pipeline @aa config(<async_async, num_stages = 2, producer_group = <thread, 64>, consumer_group = <thread, 32>>)
    tspipe.pipeline @tma config(<tma_async, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2, 2, 1, 1]>)
    tspipe.pipeline @twl config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 128>, producer_signaling = task_warp_leader, num_bytes_per_warp_per_cta = 512>)
    tspipe.pipeline @lanes config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = [1, 1, 2, 2]>)
    tspipe.task @aa_producer warps(0, 2) produces [@aa] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @aa
        tspipe.producer_commit @aa
      }
    }
    tspipe.task @aa_consumer warps(2, 1) consumes [@aa] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @aa
        tspipe.consumer_release @aa
      }
    }
    tspipe.task @tma_load warps(3, 2) produces [@tma] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @tma
        tspipe.producer_commit @tma
      }
    }
    tspipe.task @tma_use warps(5, 1) consumes [@tma] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @tma
        tspipe.consumer_release @tma
      }
    }
    tspipe.task @twl_load warps(6, 2) produces [@twl] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @twl
        tspipe.producer_commit @twl
      }
    }
    tspipe.task @twl_use warps(8, 4) consumes [@twl] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @twl
        tspipe.consumer_release @twl
      }
    }
    tspipe.task @lanes_load warps(12, 1) produces [@lanes] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @lanes
        tspipe.producer_commit @lanes
      }
    }
    tspipe.task @lane0 warps(13, 1) consumes [@lanes] {
      tspipe.domain_loop %i = %c0 to %n step %c2 {
        %s = tspipe.consumer_wait @lanes
        tspipe.consumer_release @lanes
      }
    }
    tspipe.task @lane1 warps(14, 1) consumes [@lanes] {
      tspipe.domain_loop %i = %c1 to %n step %c2 {
        %s = tspipe.consumer_wait @lanes
        tspipe.consumer_release @lanes
      }
    }
  }
  gpu.return
}

// Valid: a positive byte count.
// CHECK-LABEL: gpu.func @R9_zero_bytes_per_warp_per_cta
// CHECK:         tspipe.pipeline @p config(<{{.*}}num_bytes_per_warp_per_cta = 256
gpu.func @R9_zero_bytes_per_warp_per_cta() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, num_bytes_per_warp_per_cta = 256>)
  }
  gpu.return
}

// Valid: an integer stage count.
// CHECK-LABEL: gpu.func @R9_boolean_stages
// CHECK:         tspipe.pipeline @p config(<{{.*}}num_stages = 1,
gpu.func @R9_boolean_stages() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 1, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
  }
  gpu.return
}

// Valid: four extents.
// CHECK-LABEL: gpu.func @R10_rank_3_layout
// CHECK:         tspipe.pipeline @p config(<{{.*}}cta_layout_vmnk = [2, 1, 1, 1]
gpu.func @R10_rank_3_layout() kernel {
  tspipe.kernel warps(1) cluster([2, 1, 1]) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 1, 1, 1]>)
  }
  gpu.return
}

// Valid: extent M = 1.
// CHECK-LABEL: gpu.func @R10_zero_extent
// CHECK:         tspipe.pipeline @p config(<{{.*}}consumer_group = <thread, 1>>)
gpu.func @R10_zero_extent() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [1, 1, 1, 1]>)
  }
  gpu.return
}

// Valid: V = 2, the M extent takes the other CTAs.
// CHECK-LABEL: gpu.func @R10_v_not_a_cta_group
// CHECK:         tspipe.pipeline @p config(<{{.*}}cta_layout_vmnk = [2, 2, 1, 1]
gpu.func @R10_v_not_a_cta_group() kernel {
  tspipe.kernel warps(1) cluster([4, 1, 1]) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 2, 1, 1]>)
  }
  gpu.return
}

// Valid: the largest cluster, 16 CTAs.
// CHECK-LABEL: gpu.func @R10_extent_above_cluster_limit
// CHECK:         tspipe.pipeline @p config(<{{.*}}cta_layout_vmnk = [1, 4, 4, 1]
gpu.func @R10_extent_above_cluster_limit() kernel {
  tspipe.kernel warps(1) cluster([4, 4, 1]) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [1, 4, 4, 1]>)
  }
  gpu.return
}

// Valid: multicast along M only.
// CHECK-LABEL: gpu.func @R15_no_multicast_direction
// CHECK:         tspipe.pipeline @p config(<{{.*}}mcast_mode_mn = [1, 0]
gpu.func @R15_no_multicast_direction() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, mcast_mode_mn = [1, 0]>)
  }
  gpu.return
}

// Valid: multicast along N only.
// CHECK-LABEL: gpu.func @R15_not_a_flag
// CHECK:         tspipe.pipeline @p config(<{{.*}}mcast_mode_mn = [0, 1]
gpu.func @R15_not_a_flag() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, mcast_mode_mn = [0, 1]>)
  }
  gpu.return
}

// Valid: both modes (the default, not printed).
// CHECK-LABEL: gpu.func @R15_one_mode
// CHECK:         tspipe.pipeline @p config(<{{.*}}consumer_group = <thread, 1>>)
gpu.func @R15_one_mode() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, mcast_mode_mn = [1, 1]>)
  }
  gpu.return
}

}
//===----------------------------------------------------------------------===//
// Op rules.
//===----------------------------------------------------------------------===//

gpu.module @valid_ops {

// Valid: exactly one domain loop, even with an empty body, between a head and
// a tail.
// CHECK-LABEL: gpu.func @R16_no_domain_loop
// CHECK:         tspipe.task @t warps(0, 1) produces [@p] {
// CHECK-NEXT:      %{{.*}} = tspipe.producer_acquire @p
// CHECK-NEXT:      tspipe.producer_commit @p
// CHECK-NEXT:      tspipe.domain_loop
// CHECK-NEXT:      }
// CHECK-NEXT:      tspipe.producer_tail @p
gpu.func @R16_no_domain_loop() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @t warps(0, 1) produces [@p] {
      %s = tspipe.producer_acquire @p
      tspipe.producer_commit @p
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
      tspipe.producer_tail @p
    }
    tspipe.task @u warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  gpu.return
}

// Valid: a step that is not a constant is accepted (R17 only rejects a
// constant zero), and so is a positive constant other than 1 (a negative
// one is X11).
// CHECK-LABEL: gpu.func @R17_zero_step
// CHECK-SAME:    (%[[STEP:.*]]: index)
// CHECK:         tspipe.domain_loop %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP]]
// CHECK:         tspipe.domain_loop %{{.*}} = %{{.*}} to %{{.*}} step %[[MINUS:.*]] {
gpu.func @R17_zero_step(%step: index) kernel {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c2 = arith.constant 2 : index
  tspipe.kernel warps(2) {
    tspipe.task @t warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %c4 step %step {
      }
    }
    tspipe.task @u warps(1, 1) {
      tspipe.domain_loop %i = %c0 to %c4 step %c2 {
      }
    }
  }
  gpu.return
}

// Valid: the edges of setmaxnreg's range and CTA ranks of a 2-CTA cluster.
// CHECK-LABEL: gpu.func @R18_registers_not_multiple_of_8
// (Whole warpgroups, R41; CTA 0 and CTA 1 each fit the register file, R42.)
// CHECK:         tspipe.task @lo warps(0, 4) cta(0) registers(24)
// CHECK:         tspipe.task @hi warps(0, 4) cta(1) registers(256)
// CHECK:         tspipe.task @mid warps(4, 4) registers(232)
gpu.func @R18_registers_not_multiple_of_8() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(8) cluster([1, 2, 1]) {
    tspipe.task @lo warps(0, 4) cta(0) registers(24) {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
    }
    tspipe.task @hi warps(0, 4) cta(1) registers(256) {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
    }
    tspipe.task @mid warps(4, 4) registers(232) {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
    }
  }
  gpu.return
}

// Valid: each side's brackets on a pipeline listed on that side; one task may
// list a pipeline on both sides.
// CHECK-LABEL: gpu.func @R27_acquire_on_consumed_pipeline
// CHECK:         tspipe.task @t warps(0, 1) produces [@p] consumes [@p]
// CHECK:           tspipe.producer_acquire @p
// CHECK:           tspipe.current_stage @p producer
// CHECK:           tspipe.consumer_try_wait @p
// CHECK:           tspipe.consumer_release @p
// CHECK:         tspipe.producer_tail @p
gpu.func @R27_acquire_on_consumed_pipeline() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @t warps(0, 1) produces [@p] consumes [@p] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        %s = tspipe.producer_acquire @p
        %cur = tspipe.current_stage @p producer
        tspipe.producer_commit @p
        %r = tspipe.consumer_try_wait @p
        %w = tspipe.consumer_wait @p ready(%r)
        tspipe.consumer_release @p
      }
      tspipe.producer_tail @p
    }
  }
  gpu.return
}

// Valid: the layout covers the whole 2x2 cluster.
// CHECK-LABEL: gpu.func @R57_layout_cluster_mismatch
// CHECK:         tspipe.kernel warps(1) cluster([2, 2, 1])
// CHECK-NEXT:      cta_layout_vmnk = [2, 2, 1, 1]
gpu.func @R57_layout_cluster_mismatch() kernel {
  tspipe.kernel warps(1) cluster([2, 2, 1]) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 2, 1, 1]>)
  }
  gpu.return
}

// Valid: a stage slice of 16 bytes, and a task using every warp of the
// kernel.
// CHECK-LABEL: gpu.func @smem_bytes_unaligned_stage
// CHECK:         smem_bytes(48)
// CHECK:         tspipe.task @t warps(0, 32)
gpu.func @smem_bytes_unaligned_stage() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(32) {
    tspipe.pipeline @p config(<async_async, num_stages = 3, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(48)
    tspipe.task @t warps(0, 32) {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
    }
  }
  gpu.return
}

}

// Valid: a group size given as an attribute of its own.
// CHECK-LABEL: func.func @R8_standalone_group
// CHECK-SAME:    tspipe.grp = #tspipe.group<thread_block, 1>

func.func @R8_standalone_group() attributes {tspipe.grp = #tspipe.group<thread_block, 1>} {
  return
}
