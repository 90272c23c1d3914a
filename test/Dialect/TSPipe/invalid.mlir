// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Every tspipe diagnostic, one failing case per split and one function per
// case, named after the rule it breaks. The nearest valid variant of each
// config-time case is in valid.mlir (same function name).

// -----

// R1: 'all' cannot be combined with another signaling flag.
gpu.module @R1_producer_all_with_cta_leader {
  gpu.func @R1_producer_all_with_cta_leader() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R1] producer_signaling = all|cta_leader is an unsupported combination; supported values are all, cta_leader, task_warp_leader and cta_leader|task_warp_leader ('all' combines with nothing)}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = all|cta_leader>)
    }
    gpu.return
  }
}

// -----

// R1 on consumer_signaling.
gpu.module @R1_consumer_all_with_task_warp_leader {
  gpu.func @R1_consumer_all_with_task_warp_leader() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R1] consumer_signaling = all|task_warp_leader is an unsupported combination; supported values are all, cta_leader, task_warp_leader and cta_leader|task_warp_leader ('all' combines with nothing)}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = task_warp_leader|all>)
    }
    gpu.return
  }
}

// -----

// R1 on the optional consumer_wait_signaling.
gpu.module @R1_consumer_wait_all_with_both {
  gpu.func @R1_consumer_wait_all_with_both() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R1] consumer_wait_signaling = all|cta_leader|task_warp_leader is an unsupported combination; supported values are all, cta_leader, task_warp_leader and cta_leader|task_warp_leader ('all' combines with nothing)}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_wait_signaling = all|cta_leader|task_warp_leader>)
    }
    gpu.return
  }
}

// -----

// R1: a plain integer is not a SignalingThreads value (TS raises TypeError).
gpu.module @R1_consumer_plain_int {
  gpu.func @R1_consumer_plain_int() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R1] consumer_signaling must be a signaling threads value (all, cta_leader, task_warp_leader or cta_leader|task_warp_leader)}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = 2>)
    }
    gpu.return
  }
}

// -----

// R1: an unknown flag name.
gpu.module @R1_unknown_flag {
  gpu.func @R1_unknown_flag() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R1] unknown signaling threads 'warp_leader' in producer_signaling; expected all, cta_leader, task_warp_leader or cta_leader|task_warp_leader}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = cta_leader|warp_leader>)
    }
    gpu.return
  }
}

// -----

// R2: only async_async may change async_producer_op.
gpu.module @R2_async_load_on_tma_async {
  gpu.func @R2_async_load_on_tma_async() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R2] async_producer_op = async_load can only be changed for async_async pipelines, this one is tma_async; remove async_producer_op}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, async_producer_op = async_load>)
    }
    gpu.return
  }
}

// -----

// R3: only async_umma may change umma_consumer_producer_op.
gpu.module @R3_async_load_on_umma_umma {
  gpu.func @R3_async_load_on_umma_umma() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R3] umma_consumer_producer_op = async_load can only be changed for async_umma pipelines, this one is umma_umma; remove umma_consumer_producer_op}}
      tspipe.pipeline @p config(<umma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, umma_consumer_producer_op = async_load>)
    }
    gpu.return
  }
}

// -----

// R3: async_async may change async_producer_op, but not
// umma_consumer_producer_op.
gpu.module @R3_async_load_on_async_async {
  gpu.func @R3_async_load_on_async_async() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R3] umma_consumer_producer_op = async_load can only be changed for async_umma pipelines, this one is async_async; remove umma_consumer_producer_op}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, umma_consumer_producer_op = async_load>)
    }
    gpu.return
  }
}

// -----

// R4: interleave_stride is one int or a 4-tuple.
gpu.module @R4_two_strides {
  gpu.func @R4_two_strides() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R4] interleave_stride must be one int or 4 ints (producer_acquire, producer_commit, consumer_wait, consumer_release), got 2 values}}
      tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2, 2]>)
    }
    gpu.return
  }
}

// -----

// R4: an empty list has no stride at all.
gpu.module @R4_empty_list {
  gpu.func @R4_empty_list() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R4] interleave_stride must be one int or 4 ints (producer_acquire, producer_commit, consumer_wait, consumer_release), got 0 values}}
      tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = []>)
    }
    gpu.return
  }
}

// -----

// R4: strides are >= 1.
gpu.module @R4_zero_stride {
  gpu.func @R4_zero_stride() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R4] interleave_stride must be >= 1, got 0}}
      tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = 0>)
    }
    gpu.return
  }
}

// -----

// R4: each role of the 4-tuple is >= 1, and the role is named.
gpu.module @R4_negative_role_stride {
  gpu.func @R4_negative_role_stride() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R4] interleave_stride consumer_wait must be >= 1, got -2}}
      tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, 1, -2, 1], advance_on_wait = true>)
    }
    gpu.return
  }
}

// -----

// R4: a boolean is not a stride (MLIR's integer parser would read `true` as
// -1).
gpu.module @R4_boolean_stride {
  gpu.func @R4_boolean_stride() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R4] interleave_stride expects an integer or a list of 4 integers, got a boolean}}
      tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = true>)
    }
    gpu.return
  }
}

// -----

// R4: a boolean inside the 4-tuple.
gpu.module @R4_boolean_in_tuple {
  gpu.func @R4_boolean_in_tuple() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R4] interleave_stride expects an integer, got a boolean}}
      tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, false, 1, 1]>)
    }
    gpu.return
  }
}

// -----

// R5: every role stride divides num_stages.
gpu.module @R5_stride_does_not_divide_stages {
  gpu.func @R5_stride_does_not_divide_stages() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R5] producer_acquire interleave_stride=4 must evenly divide num_stages=6; use a stride that divides num_stages or a multiple of 4 stages}}
      tspipe.pipeline @p config(<async_async, num_stages = 6, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = 4>)
    }
    gpu.return
  }
}

// -----

// R5 on one role of the 4-tuple.
gpu.module @R5_release_stride_does_not_divide_stages {
  gpu.func @R5_release_stride_does_not_divide_stages() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R5] consumer_release interleave_stride=3 must evenly divide num_stages=4; use a stride that divides num_stages or a multiple of 3 stages}}
      tspipe.pipeline @p config(<tma_umma, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, 1, 1, 3], advance_on_wait = true>)
    }
    gpu.return
  }
}

// -----

// R6: acquire and commit strides differ, so the producer needs split cursors.
gpu.module @R6_asymmetric_producer_strides {
  gpu.func @R6_asymmetric_producer_strides() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R6] producer_acquire stride 2 differs from producer_commit stride 1; set advance_on_acquire = true so the acquire and commit roles use separate producer cursors}}
      tspipe.pipeline @p config(<async_async, num_stages = 8, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2, 1, 1, 1]>)
    }
    gpu.return
  }
}

// -----

// R7: wait and release strides differ, so the consumer needs split cursors
// (the later automatic advance_on_wait does not rescue a config).
gpu.module @R7_asymmetric_consumer_strides {
  gpu.func @R7_asymmetric_consumer_strides() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R7] consumer_wait stride 4 differs from consumer_release stride 1; set advance_on_wait = true so the wait and release roles use separate consumer cursors}}
      tspipe.pipeline @p config(<tma_umma, num_stages = 8, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, 1, 4, 1]>)
    }
    gpu.return
  }
}

// -----

// R8: a cooperative group has at least one member.
gpu.module @R8_zero_size_group {
  gpu.func @R8_zero_size_group() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R8] cooperative group size must be greater than 0, got 0; give the number of threads that arrive}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 0>>)
    }
    gpu.return
  }
}

// -----

// R8 with a warp agent.
gpu.module @R8_negative_warp_group {
  gpu.func @R8_negative_warp_group() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R8] cooperative group size must be greater than 0, got -1; give the number of warps that arrive}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <warp, -1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// R8: a group larger than an mbarrier's largest arrival count (2^20 - 1);
// 32 x (2^59 + 1) warps would otherwise wrap to 32 arrivals.
gpu.module @R8_group_overflows_count {
  gpu.func @R8_group_overflows_count() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R8] cooperative group of 576460752303423489 warps gives more than 1048575 arrivals, the largest count an mbarrier takes; give at most 32767 warps}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <warp, 576460752303423489>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// R8: a boolean is not a size.
gpu.module @R8_boolean_size {
  gpu.func @R8_boolean_size() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{group size expects an integer, got a boolean}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, true>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// R8: the agent is one of CuTe's four.
gpu.module @R8_unknown_agent {
  gpu.func @R8_unknown_agent() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{unknown agent 'lane'; expected one of thread, warp, thread_block or thread_block_cluster}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <lane, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// R9: a ring has at least one stage.
gpu.module @R9_zero_stages {
  gpu.func @R9_zero_stages() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R9] num_stages must be greater than 0, got 0}}
      tspipe.pipeline @p config(<tma_async, num_stages = 0, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// R9: the transaction byte count is not negative.
gpu.module @R9_negative_num_bytes {
  gpu.func @R9_negative_num_bytes() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R9] num_bytes must be >= 0, got -1 (transaction bytes one stage expects)}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = -1, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// R9: num_bytes_per_warp_per_cta, when given, is positive.
gpu.module @R9_zero_bytes_per_warp_per_cta {
  gpu.func @R9_zero_bytes_per_warp_per_cta() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R9] num_bytes_per_warp_per_cta must be greater than 0, got 0}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, num_bytes_per_warp_per_cta = 0>)
    }
    gpu.return
  }
}

// -----

// R9: a boolean is not a stage count.
gpu.module @R9_boolean_stages {
  gpu.func @R9_boolean_stages() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{num_stages expects an integer, got a boolean}}
      tspipe.pipeline @p config(<tma_async, num_stages = false, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// R10/X1: cta_layout_vmnk has exactly four extents.
gpu.module @R10_rank_3_layout {
  gpu.func @R10_rank_3_layout() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R10] cta_layout_vmnk must be rank 4 (V, M, N, L), got 3 extents; write e.g. [1, 1, 1, 1]}}
      tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 1, 1]>)
    }
    gpu.return
  }
}

// -----

// R10: extents are >= 1.
gpu.module @R10_zero_extent {
  gpu.func @R10_zero_extent() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R10] cta_layout_vmnk extent M must be >= 1, got 0}}
      tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [1, 0, 1, 1]>)
    }
    gpu.return
  }
}

// -----

// R10: V is the tcgen05 CTA group, 1 or 2.
gpu.module @R10_v_not_a_cta_group {
  gpu.func @R10_v_not_a_cta_group() kernel {
    tspipe.kernel warps(1) cluster([4, 1, 1]) {
      // expected-error @+1 {{[R10] cta_layout_vmnk V = 4 is not a tcgen05 CTA group size; V must be 1 or 2}}
      tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [4, 1, 1, 1]>)
    }
    gpu.return
  }
}

// -----

// R10: no extent can exceed the 16 CTAs of a cluster (this also keeps V*M*N*L
// from overflowing).
gpu.module @R10_extent_above_cluster_limit {
  gpu.func @R10_extent_above_cluster_limit() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R10] cta_layout_vmnk extent M = 4294967296 exceeds 16, the most CTAs a cluster may hold}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [1, 4294967296, 4294967296, 1]>)
    }
    gpu.return
  }
}

// -----

// R15: mcast_mode_mn [0, 0] selects no multicast direction.
gpu.module @R15_no_multicast_direction {
  gpu.func @R15_no_multicast_direction() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R15] invalid mcast_mode_mn [0, 0]; expected one of [1, 0], [0, 1] or [1, 1]}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, mcast_mode_mn = [0, 0]>)
    }
    gpu.return
  }
}

// -----

// R15: each mode is 0 or 1.
gpu.module @R15_not_a_flag {
  gpu.func @R15_not_a_flag() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R15] invalid mcast_mode_mn [2, 1]; expected one of [1, 0], [0, 1] or [1, 1]}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, mcast_mode_mn = [2, 1]>)
    }
    gpu.return
  }
}

// -----

// R15: two modes, M then N.
gpu.module @R15_one_mode {
  gpu.func @R15_one_mode() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R15] invalid mcast_mode_mn [1]; expected one of [1, 0], [0, 1] or [1, 1]}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, mcast_mode_mn = [1]>)
    }
    gpu.return
  }
}

// -----

// Unknown #tspipe.config field.
gpu.module @config_unknown_field {
  gpu.func @config_unknown_field() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{unknown field 'num_buffers'; expected one of num_stages, num_bytes, producer_group, consumer_group, cta_layout_vmnk, producer_signaling, consumer_signaling, consumer_wait_signaling, async_producer_op, umma_consumer_producer_op, advance_on_wait, advance_on_acquire, interleave_stride, num_bytes_per_warp_per_cta, mcast_mode_mn}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, num_buffers = 2>)
    }
    gpu.return
  }
}

// -----

// A field given twice.
gpu.module @config_duplicate_field {
  gpu.func @config_duplicate_field() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{duplicate field 'num_stages' in #tspipe.config; give each field once}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, num_stages = 3>)
    }
    gpu.return
  }
}

// -----

// num_stages is required.
gpu.module @config_missing_num_stages {
  gpu.func @config_missing_num_stages() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{#tspipe.config is missing the required field 'num_stages'; add it, e.g. num_stages = 2}}
      tspipe.pipeline @p config(<tma_async, num_bytes = 64, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// producer_group is required.
gpu.module @config_missing_producer_group {
  gpu.func @config_missing_producer_group() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{#tspipe.config is missing the required field 'producer_group'; add it, e.g. producer_group = <thread, 1>}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// consumer_group is required.
gpu.module @config_missing_consumer_group {
  gpu.func @config_missing_consumer_group() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{#tspipe.config is missing the required field 'consumer_group'; add it, e.g. consumer_group = <thread, 1>}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// The pipeline type is one of TS's seven.
gpu.module @config_unknown_pipeline_type {
  gpu.func @config_unknown_pipeline_type() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{unknown pipeline type 'tma_tma'; expected one of async_async, tma_async, tma_umma, umma_async, async_umma, umma_umma or clc_fetch_async}}
      tspipe.pipeline @p config(<tma_tma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// The pipeline type comes first.
gpu.module @config_missing_pipeline_type {
  gpu.func @config_missing_pipeline_type() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{unknown pipeline type 'num_stages'; expected one of async_async, tma_async, tma_umma, umma_async, async_umma, umma_umma or clc_fetch_async}}
      tspipe.pipeline @p config(<num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// async_producer_op is async_thread or async_load.
gpu.module @config_unknown_pipeline_op {
  gpu.func @config_unknown_pipeline_op() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{unknown pipeline op 'tma_load'; expected one of async_thread or async_load}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, async_producer_op = tma_load>)
    }
    gpu.return
  }
}

// -----

// advance_on_wait is a boolean keyword, not an integer.
gpu.module @config_integer_flag {
  gpu.func @config_integer_flag() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{advance_on_wait expects true or false}}
      tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, advance_on_wait = 1>)
    }
    gpu.return
  }
}

// -----

// num_stages is an integer.
gpu.module @config_string_stage_count {
  gpu.func @config_string_stage_count() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{num_stages expects an integer}}
      tspipe.pipeline @p config(<tma_async, num_stages = "two", producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// cta_layout_vmnk is a list.
gpu.module @config_scalar_layout {
  gpu.func @config_scalar_layout() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{cta_layout_vmnk expects a list of integers such as [1, 1]}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = 1>)
    }
    gpu.return
  }
}

// -----

// A group field holds a cooperative group.
gpu.module @config_group_not_a_group {
  gpu.func @config_group_not_a_group() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{producer_group expects a cooperative group such as <thread, 1>, got 1 : i64}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = 1, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// A trailing comma with no field after it.
gpu.module @config_trailing_comma {
  gpu.func @config_trailing_comma() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{expected a #tspipe.config field name}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>,>)
    }
    gpu.return
  }
}
// -----

// A config cut short: the closing '>' is missing.
gpu.module @config_truncated {
  gpu.func @config_truncated() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{expected '>'}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2)
    }
    gpu.return
  }
}

// -----

// R8 on a stand-alone #tspipe.group attribute.
// expected-error @+1 {{[R8] cooperative group size must be greater than 0, got 0; give the number of thread_blocks that arrive}}
func.func @R8_standalone_group() attributes {tspipe.grp = #tspipe.group<thread_block, 0>} {
  return
}

// -----

// R16: a task schedule without a domain loop.
gpu.module @R16_no_domain_loop {
  gpu.func @R16_no_domain_loop() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.task' op [R16] a task schedule needs exactly one tspipe.domain_loop, found 0; add one (its body may be empty)}}
      tspipe.task @t warps(0, 1) {
      }
    }
    gpu.return
  }
}

// -----

// R16: two domain loops in one task.
gpu.module @R16_two_domain_loops {
  gpu.func @R16_two_domain_loops() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.task' op [R16] a task schedule needs exactly one tspipe.domain_loop, found 2; merge the loops into one}}
      tspipe.task @t warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
        tspipe.domain_loop %j = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// R17: a constant zero step.
gpu.module @R17_zero_step {
  gpu.func @R17_zero_step() kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{'tspipe.domain_loop' op [R17] step must be non-zero; a zero step never advances the domain}}
        tspipe.domain_loop %i = %c0 to %c4 step %c0 {
        }
      }
    }
    gpu.return
  }
}

// -----

// R18: setmaxnreg counts are multiples of 8.
gpu.module @R18_registers_not_multiple_of_8 {
  gpu.func @R18_registers_not_multiple_of_8() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.task' op [R18] registers(230) must be in [24, 256] and divisible by 8 (setmaxnreg); round to a multiple of 8 in that range}}
      tspipe.task @t warps(0, 1) registers(230) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// R18: setmaxnreg takes at least 24 registers.
gpu.module @R18_registers_too_few {
  gpu.func @R18_registers_too_few() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.task' op [R18] registers(16) must be in [24, 256] and divisible by 8 (setmaxnreg); round to a multiple of 8 in that range}}
      tspipe.task @t warps(0, 1) registers(16) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// R18: setmaxnreg takes at most 256 registers.
gpu.module @R18_registers_too_many {
  gpu.func @R18_registers_too_many() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.task' op [R18] registers(264) must be in [24, 256] and divisible by 8 (setmaxnreg); round to a multiple of 8 in that range}}
      tspipe.task @t warps(0, 1) registers(264) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// R18: run_only_on_cta_id is a CTA rank, so not negative.
gpu.module @R18_negative_cta_id {
  gpu.func @R18_negative_cta_id() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.task' op [R18] run_only_on_cta_id must be >= 0, got -1; give the rank of a CTA in the cluster}}
      tspipe.task @t warps(0, 1) cta(-1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// R18: run_only_on_cta_id names a CTA of the kernel's cluster.
gpu.module @R18_cta_id_outside_cluster {
  gpu.func @R18_cta_id_outside_cluster() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) cluster([2, 1, 1]) {
      // expected-error @+1 {{'tspipe.task' op [R18] run_only_on_cta_id = 2 is not a CTA rank of the 2-CTA cluster; use a rank in [0, 2)}}
      tspipe.task @t warps(0, 1) cta(2) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// R27: a producer bracket on a pipeline the task only consumes.
gpu.module @R27_acquire_on_consumed_pipeline {
  gpu.func @R27_acquire_on_consumed_pipeline() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) consumes [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.producer_acquire' op [R27] task '@t' uses a producer stage on '@p' but does not list it in 'produces'; add @p to the task's produces list}}
          %s = tspipe.producer_acquire @p
        }
      }
    }
    gpu.return
  }
}

// -----

// R27: a consumer bracket on a pipeline the task only produces.
gpu.module @R27_release_on_produced_pipeline {
  gpu.func @R27_release_on_produced_pipeline() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) produces [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.consumer_release' op [R27] task '@t' uses a consumer stage on '@p' but does not list it in 'consumes'; add @p to the task's consumes list}}
          tspipe.consumer_release @p
        }
      }
    }
    gpu.return
  }
}

// -----

// R27: a try op on a pipeline listed in neither list.
gpu.module @R27_try_wait_on_unlisted_pipeline {
  gpu.func @R27_try_wait_on_unlisted_pipeline() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.consumer_try_wait' op [R27] task '@t' uses a consumer stage on '@p' but does not list it in 'consumes'; add @p to the task's consumes list}}
          %r = tspipe.consumer_try_wait @p
        }
      }
    }
    gpu.return
  }
}

// -----

// R27: current_stage follows its role: a producer stage needs 'produces'.
gpu.module @R27_current_producer_stage_on_consumed_pipeline {
  gpu.func @R27_current_producer_stage_on_consumed_pipeline() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) consumes [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.current_stage' op [R27] task '@t' uses a producer stage on '@p' but does not list it in 'produces'; add @p to the task's produces list}}
          %s = tspipe.current_stage @p producer
        }
      }
    }
    gpu.return
  }
}

// -----

// R27: producer_tail drains a pipeline the task produces.
gpu.module @R27_tail_on_consumed_pipeline {
  gpu.func @R27_tail_on_consumed_pipeline() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) consumes [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
        // expected-error @+1 {{'tspipe.producer_tail' op [R27] task '@t' uses a producer stage on '@p' but does not list it in 'produces'; add @p to the task's produces list}}
        tspipe.producer_tail @p
      }
    }
    gpu.return
  }
}

// -----

// R57: the layout describes 2 CTAs, the kernel launches clusters of 4.
gpu.module @R57_layout_cluster_mismatch {
  gpu.func @R57_layout_cluster_mismatch() kernel {
    tspipe.kernel warps(1) cluster([2, 2, 1]) {
      // expected-error @+1 {{'tspipe.pipeline' op [R57] cta_layout_vmnk has 2 CTAs but the kernel's cluster has 4; a pipeline that spans CTAs must cover the whole cluster (make V*M*N*L equal the cluster size), or be CTA-local with cta_layout_vmnk = [1, 1, 1, 1]}}
      tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 1, 1, 1]>)
    }
    gpu.return
  }
}

// -----

// Only pipelines and tasks live in a kernel body.
gpu.module @kernel_body_foreign_op {
  gpu.func @kernel_body_foreign_op() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'arith.constant' op [X9] is not allowed in a tspipe.kernel body; only tspipe.pipeline, tspipe.pipeline_group, tspipe.named_barrier, tspipe.buffer, tspipe.alias_group and tspipe.task may appear there}}
      %c0 = arith.constant 0 : index
    }
    gpu.return
  }
}

// -----

// A kernel cannot hold another kernel.
gpu.module @kernel_body_nested_kernel {
  gpu.func @kernel_body_nested_kernel() kernel {
    tspipe.kernel warps(2) {
      // expected-error @+1 {{'tspipe.kernel' op [X9] is not allowed in a tspipe.kernel body; only tspipe.pipeline, tspipe.pipeline_group, tspipe.named_barrier, tspipe.buffer, tspipe.alias_group and tspipe.task may appear there}}
      tspipe.kernel warps(1) {
      }
    }
    gpu.return
  }
}

// -----

// A CTA has at most 32 warps.
gpu.module @kernel_too_many_warps {
  gpu.func @kernel_too_many_warps() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [R18] warps(33) must be in [1, 32]: a CTA has at most 32 warps (1024 threads)}}
    tspipe.kernel warps(33) {
    }
    gpu.return
  }
}

// -----

// A warp count so large that 32 * num_warps wraps around to 32 (it used to
// pass the 1024-thread check).
gpu.module @kernel_warp_count_overflow {
  gpu.func @kernel_warp_count_overflow() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [R18] warps(576460752303423489) must be in [1, 32]}}
    tspipe.kernel warps(576460752303423489) {
    }
    gpu.return
  }
}

// -----

// A kernel has at least one warp.
gpu.module @kernel_zero_warps {
  gpu.func @kernel_zero_warps() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [R18] warps(0) must be in [1, 32]: a CTA has at most 32 warps (1024 threads); give the CTA's warp count}}
    tspipe.kernel warps(0) {
    }
    gpu.return
  }
}

// -----

// The cluster shape is (x, y, z).
gpu.module @kernel_cluster_rank {
  gpu.func @kernel_cluster_rank() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [X9] cluster shape must have 3 extents (x, y, z), got 2}}
    tspipe.kernel warps(1) cluster([2, 1]) {
    }
    gpu.return
  }
}

// -----

// Cluster extents are at least 1.
gpu.module @kernel_cluster_zero_extent {
  gpu.func @kernel_cluster_zero_extent() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [X9] cluster extents must be in [1, 16], got 0}}
    tspipe.kernel warps(1) cluster([1, 0, 1]) {
    }
    gpu.return
  }
}

// -----

// Extents whose product wraps around to 0 in 64 bits (it used to pass).
gpu.module @kernel_cluster_extent_overflow {
  gpu.func @kernel_cluster_extent_overflow() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [X9] cluster extents must be in [1, 16], got 4294967296}}
    tspipe.kernel warps(1) cluster([4294967296, 4294967296, 1]) {
    }
    gpu.return
  }
}

// -----

// A cluster holds at most 16 CTAs.
gpu.module @kernel_cluster_too_large {
  gpu.func @kernel_cluster_too_large() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [X9] cluster of 32 CTAs exceeds the 16 CTAs a cluster may hold}}
    tspipe.kernel warps(1) cluster([4, 4, 2]) {
    }
    gpu.return
  }
}

// -----

// A task's warps lie inside the kernel's warps.
gpu.module @task_warps_outside_kernel {
  gpu.func @task_warps_outside_kernel() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      // expected-error @+1 {{'tspipe.task' op [X9] warps(2, 3) do not fit in the kernel's 4 warps; warp_idx + num_warps must be <= 4}}
      tspipe.task @t warps(2, 3) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// warp_idx + num_warps overflows int64 (the message used to print a wrapped
// sum).
gpu.module @task_warp_range_overflow {
  gpu.func @task_warp_range_overflow() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      // expected-error @+1 {{'tspipe.task' op [X9] warps(9223372036854775807, 1) do not fit in the kernel's 4 warps; warp_idx + num_warps must be <= 4}}
      tspipe.task @t warps(9223372036854775807, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// A task has at least one warp.
gpu.module @task_zero_warps {
  gpu.func @task_zero_warps() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      // expected-error @+1 {{'tspipe.task' op [R18] warps(0, 0) must name warps [first, first + count) with first >= 0 and count >= 1; give the task's first warp and its warp count}}
      tspipe.task @t warps(0, 0) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// produces names a symbol that is not a pipeline of the kernel.
gpu.module @task_produces_unknown_pipeline {
  gpu.func @task_produces_unknown_pipeline() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.task' op [X9] produces names '@nowhere', which is not a tspipe.pipeline of the enclosing tspipe.kernel}}
      tspipe.task @t warps(0, 1) produces [@nowhere] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// consumes names a task, not a pipeline.
gpu.module @task_consumes_a_task {
  gpu.func @task_consumes_a_task() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.task @other warps(1, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
      // expected-error @+1 {{'tspipe.task' op [X9] consumes names '@other', which is not a tspipe.pipeline of the enclosing tspipe.kernel}}
      tspipe.task @t warps(0, 1) consumes [@other] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// A pipeline listed twice.
gpu.module @task_produces_twice {
  gpu.func @task_produces_twice() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-error @+1 {{'tspipe.task' op [X9] produces lists '@p' twice}}
      tspipe.task @t warps(0, 1) produces [@p, @p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// Two pipelines with one name.
gpu.module @pipeline_duplicate_symbol {
  gpu.func @pipeline_duplicate_symbol() kernel {
    tspipe.kernel warps(1) {
      // expected-note @+1 {{see existing symbol definition here}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-error @+1 {{redefinition of symbol named 'p'}}
      tspipe.pipeline @p config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    }
    gpu.return
  }
}

// -----

// A pipeline lives in a kernel.
gpu.module @pipeline_outside_kernel {
  gpu.func @pipeline_outside_kernel() kernel {
    // expected-error @+1 {{'tspipe.pipeline' op expects parent op 'tspipe.kernel'}}
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    gpu.return
  }
}

// -----

// smem_bytes is split evenly over the stages.
gpu.module @smem_bytes_not_divisible {
  gpu.func @smem_bytes_not_divisible() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.pipeline' op [X9] smem_bytes = 1000 does not split evenly over num_stages = 3; use a multiple of num_stages}}
      tspipe.pipeline @p config(<async_async, num_stages = 3, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1000)
    }
    gpu.return
  }
}

// -----

// Each stage's slice is 16-byte aligned.
gpu.module @smem_bytes_unaligned_stage {
  gpu.func @smem_bytes_unaligned_stage() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.pipeline' op [X9] stage size 24 bytes (smem_bytes / num_stages) is not a multiple of 16 (TMA and cp.async need 16-byte aligned stages); round the stage size up to a multiple of 16}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(48)
    }
    gpu.return
  }
}

// -----

// smem_bytes is positive.
gpu.module @smem_bytes_zero {
  gpu.func @smem_bytes_zero() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.pipeline' op [R43] smem_bytes(0) must be positive (bytes of the pipeline's data buffer, all stages); drop smem_bytes for a pipeline without a buffer}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(0)
    }
    gpu.return
  }
}

// -----

// tmem_columns is a tcgen05.alloc column count.
gpu.module @tmem_columns_negative {
  gpu.func @tmem_columns_negative() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.pipeline' op [R44] tmem_columns(-32) must be a power of two in [32, 512] (tcgen05.alloc column counts); use 32, 64, 128, 256 or 512}}
      tspipe.pipeline @p config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>>) tmem_columns(-32)
    }
    gpu.return
  }
}

// -----

// stage_buffer needs a pipeline that owns a data buffer.
gpu.module @stage_buffer_without_smem_bytes {
  gpu.func @stage_buffer_without_smem_bytes() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) consumes [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          %s = tspipe.consumer_wait @p
          // expected-error @+1 {{'tspipe.stage_buffer' op [X9] pipeline '@p' declares no data buffer; add smem_bytes(N) to the tspipe.pipeline}}
          %b = tspipe.stage_buffer %s : !llvm.ptr<3>
          tspipe.consumer_release @p
        }
      }
    }
    gpu.return
  }
}

// -----

// A stage handle that arrives as a block argument cannot be mapped to a
// cursor by the lowering.
gpu.module @stage_from_block_argument {
  gpu.func @stage_from_block_argument(%s: !tspipe.stage) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(256)
      tspipe.task @t warps(0, 1) consumes [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.stage_buffer' op [R22] stage operand must be the result of tspipe.producer_acquire, tspipe.consumer_wait or tspipe.current_stage, got a block argument; use the stage handle of the bracket directly}}
          %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        }
      }
    }
    gpu.return
  }
}

// -----

// A stage handle picked by a select: the lowering could not tell which
// cursor it stands for.
gpu.module @stage_from_select {
  gpu.func @stage_from_select(%c: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) consumes [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.consumer_wait' op [R22] stage handle is used by 'arith.select' (operand 1), but only tspipe.stage_index, tspipe.full_barrier, tspipe.empty_barrier and tspipe.stage_buffer may read a stage}}
          %a = tspipe.consumer_wait @p
          %b = tspipe.current_stage @p consumer
          // expected-note @+1 {{the other user}}
          %s = arith.select %c, %a, %b : !tspipe.stage
          %k = tspipe.stage_index %s
          tspipe.consumer_release @p
        }
      }
    }
    gpu.return
  }
}

// -----

// The same check on full_barrier and empty_barrier.
gpu.module @barrier_of_block_argument {
  gpu.func @barrier_of_block_argument(%s: !tspipe.stage) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.full_barrier' op [R22] stage operand must be the result of tspipe.producer_acquire, tspipe.consumer_wait or tspipe.current_stage, got a block argument; use the stage handle of the bracket directly}}
          %f = tspipe.full_barrier %s : !llvm.ptr<3>
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @empty_barrier_of_block_argument {
  gpu.func @empty_barrier_of_block_argument(%s: !tspipe.stage) kernel {
    // expected-error @+1 {{'tspipe.empty_barrier' op [R22] stage operand must be the result of tspipe.producer_acquire, tspipe.consumer_wait or tspipe.current_stage, got a block argument; use the stage handle of the bracket directly}}
    %e = tspipe.empty_barrier %s : !llvm.ptr<3>
    gpu.return
  }
}

// -----

// Barrier addresses are shared-memory pointers.
gpu.module @full_barrier_generic_pointer {
  gpu.func @full_barrier_generic_pointer() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) produces [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          %s = tspipe.producer_acquire @p
          // expected-error @+1 {{'tspipe.full_barrier' op result #0 must be LLVM pointer in address space 3, but got '!llvm.ptr'}}
          %f = tspipe.full_barrier %s : !llvm.ptr
          tspipe.producer_commit @p
        }
      }
    }
    gpu.return
  }
}

// -----

// A ready token must come from the matching try op, not from an arbitrary i1
// (a constant true would skip the wait without probing the barrier).
gpu.module @ready_from_constant {
  gpu.func @ready_from_constant() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) produces [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.producer_acquire' op [R34] ready operand must be the result of tspipe.producer_try_acquire @p, got a result of 'arith.constant'; pass the try token or drop ready(...)}}
          %s = tspipe.producer_acquire @p ready(%true)
          tspipe.producer_commit @p
        }
      }
    }
    gpu.return
  }
}

// -----

// A consumer probe cannot stand in for a producer probe.
gpu.module @ready_from_consumer_probe {
  gpu.func @ready_from_consumer_probe() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) produces [@p] consumes [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          %r = tspipe.consumer_try_wait @p
          // expected-error @+1 {{'tspipe.producer_acquire' op [R34] ready operand must be the result of tspipe.producer_try_acquire @p, got a result of 'tspipe.consumer_try_wait'; pass the try token or drop ready(...)}}
          %s = tspipe.producer_acquire @p ready(%r)
          tspipe.producer_commit @p
        }
      }
    }
    gpu.return
  }
}

// -----

// A probe of one pipeline cannot stand in for another pipeline's wait.
gpu.module @ready_from_other_pipeline {
  gpu.func @ready_from_other_pipeline() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline @q config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) consumes [@p, @q] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          %r = tspipe.consumer_try_wait @q
          // expected-error @+1 {{'tspipe.consumer_wait' op [R34] ready operand probes pipeline @q but this op waits on @p; probe @p with tspipe.consumer_try_wait}}
          %s = tspipe.consumer_wait @p ready(%r)
          tspipe.consumer_release @p
        }
      }
    }
    gpu.return
  }
}

// -----

// A ready token passed in from outside the kernel.
gpu.module @ready_from_block_argument {
  gpu.func @ready_from_block_argument(%r: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) consumes [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.consumer_wait' op [R34] ready operand must be the result of tspipe.consumer_try_wait @p, got a block argument; pass the try token or drop ready(...)}}
          %s = tspipe.consumer_wait @p ready(%r)
          tspipe.consumer_release @p
        }
      }
    }
    gpu.return
  }
}

// -----

// A bracket names a pipeline of its own kernel.
gpu.module @bracket_unknown_pipeline {
  gpu.func @bracket_unknown_pipeline() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.producer_commit' op [R27] '@nowhere' does not name a tspipe.pipeline of the enclosing tspipe.kernel}}
          tspipe.producer_commit @nowhere
        }
      }
    }
    gpu.return
  }
}

// -----

// A bracket naming a task symbol.
gpu.module @bracket_names_a_task {
  gpu.func @bracket_names_a_task() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'tspipe.consumer_wait' op [R27] '@t' does not name a tspipe.pipeline of the enclosing tspipe.kernel}}
          %s = tspipe.consumer_wait @t
        }
      }
    }
    gpu.return
  }
}

// -----

// A bracket outside any task (directly in the gpu.func).
gpu.module @bracket_outside_task {
  gpu.func @bracket_outside_task() kernel {
    // expected-error @+1 {{'tspipe.producer_acquire' op [R22] must be nested in a tspipe.task}}
    %s = tspipe.producer_acquire @p
    gpu.return
  }
}

// -----

// A bracket in the kernel body, next to the pipeline it names.
gpu.module @bracket_in_kernel_body {
  gpu.func @bracket_in_kernel_body() kernel {
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-error @+1 {{'tspipe.producer_commit' op [R22] must be nested in a tspipe.task}}
      tspipe.producer_commit @p
    }
    gpu.return
  }
}

// -----

// The domain loop belongs to a task.
gpu.module @domain_loop_outside_task {
  gpu.func @domain_loop_outside_task() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'tspipe.domain_loop' op expects parent op to be one of 'tspipe.task, tspipe.work_tile_loop, tspipe.skippable'}}
    tspipe.domain_loop %i = %c0 to %c1 step %c1 {
    }
    gpu.return
  }
}

// -----

// Loop guards sit directly in the domain loop (not in the task head).
gpu.module @first_iter_outside_domain_loop {
  gpu.func @first_iter_outside_domain_loop() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{'tspipe.first_iter' op expects parent op 'tspipe.domain_loop'}}
        tspipe.first_iter {
        }
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// Guards do not nest.
gpu.module @last_iter_in_first_iter {
  gpu.func @last_iter_in_first_iter() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          tspipe.first_iter {
            // expected-error @+1 {{'tspipe.last_iter' op expects parent op 'tspipe.domain_loop'}}
            tspipe.last_iter {
            }
          }
        }
      }
    }
    gpu.return
  }
}

// -----

// A task lives in a kernel.
gpu.module @task_outside_kernel {
  gpu.func @task_outside_kernel() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'tspipe.task' op expects parent op 'tspipe.kernel'}}
    tspipe.task @t warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
    }
    gpu.return
  }
}

// -----

// The generic form can build a domain loop body without the iteration
// argument.
gpu.module @domain_loop_without_iteration_argument {
  gpu.func @domain_loop_without_iteration_argument() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{'tspipe.domain_loop' op [X9] body must have one index argument (the iteration)}}
        "tspipe.domain_loop"(%c0, %c1, %c1) ({
        ^bb0:
        }) : (index, index, index) -> ()
      }
    }
    gpu.return
  }
}

// -----

// The generic form can leave a task without a body block.
gpu.module @task_without_body_block {
  gpu.func @task_without_body_block() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.task' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
      "tspipe.task"() <{sym_name = "t", warp_idx = 0 : i64, num_warps = 1 : i64}> ({}) : () -> ()
    }
    gpu.return
  }
}

// -----

// Domain bounds are index values.
gpu.module @domain_loop_i32_bound {
  // expected-note @+1 {{prior use here}}
  gpu.func @domain_loop_i32_bound(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{use of value '%n' expects different type than prior uses: 'index' vs 'i32'}}
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// current_stage takes a role keyword.
gpu.module @current_stage_unknown_role {
  gpu.func @current_stage_unknown_role() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) consumes [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'role' [producer, consumer]}}
          %s = tspipe.current_stage @p reader
        }
      }
    }
    gpu.return
  }
}

// -----

// Generic form: the config property holds something other than a
// #tspipe.config.
gpu.module @generic_config_not_a_config {
  gpu.func @generic_config_not_a_config() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{invalid properties {config = #tspipe.group<thread, 1>, sym_name = "p"} for op tspipe.pipeline: Invalid attribute `config` in property conversion: #tspipe.group<thread, 1>}}
      "tspipe.pipeline"() <{sym_name = "p", config = #tspipe.group<thread, 1>}> : () -> ()
    }
    gpu.return
  }
}

// -----

// Generic form: a bracket names its pipeline with a string, not a symbol.
gpu.module @generic_bracket_string_pipeline {
  gpu.func @generic_bracket_string_pipeline() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{invalid properties {pipeline = "p"} for op tspipe.producer_acquire: Invalid attribute `pipeline` in property conversion: "p"}}
          %s = "tspipe.producer_acquire"() <{pipeline = "p"}> : () -> !tspipe.stage
        }
      }
    }
    gpu.return
  }
}

// -----

// Generic form: produces lists integers.
gpu.module @generic_produces_integers {
  gpu.func @generic_produces_integers() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.task' op attribute 'produces' failed to satisfy constraint: flat symbol ref array attribute}}
      "tspipe.task"() <{sym_name = "t", warp_idx = 0 : i64, num_warps = 1 : i64, produces = [1, 2]}> ({}) : () -> ()
    }
    gpu.return
  }
}

// -----

// Generic form: an empty cluster shape.
gpu.module @generic_empty_cluster_shape {
  gpu.func @generic_empty_cluster_shape() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [X9] cluster shape must have 3 extents (x, y, z), got 0}}
    "tspipe.kernel"() <{num_warps = 1 : i64, cluster_shape = array<i64>}> ({
    ^bb0:
    }) : () -> ()
    gpu.return
  }
}

// -----

// Generic form: a domain loop body of two blocks.
gpu.module @generic_domain_loop_two_blocks {
  gpu.func @generic_domain_loop_two_blocks() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{'tspipe.domain_loop' op expects region #0 to have 0 or 1 blocks}}
        "tspipe.domain_loop"(%c0, %c1, %c1) ({
        ^bb0(%x: index):
          cf.br ^bb1
        ^bb1:
        }) : (index, index, index) -> ()
      }
    }
    gpu.return
  }
}

// -----

// Generic form: the iteration argument is not an index.
gpu.module @generic_domain_loop_i32_iteration {
  gpu.func @generic_domain_loop_i32_iteration() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{'tspipe.domain_loop' op [X9] body must have one index argument (the iteration)}}
        "tspipe.domain_loop"(%c0, %c1, %c1) ({
        ^bb0(%x: i32):
        }) : (index, index, index) -> ()
      }
    }
    gpu.return
  }
}

// -----

// Generic form: a stage accessor with two stages.
gpu.module @generic_stage_index_two_operands {
  gpu.func @generic_stage_index_two_operands() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) produces [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          %s = tspipe.producer_acquire @p
          // expected-error @+1 {{'tspipe.stage_index' op requires a single operand}}
          %k = "tspipe.stage_index"(%s, %s) : (!tspipe.stage, !tspipe.stage) -> index
          tspipe.producer_commit @p
        }
      }
    }
    gpu.return
  }
}

// -----

// A bracket without its pipeline symbol.
gpu.module @bracket_missing_symbol {
  gpu.func @bracket_missing_symbol() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @t warps(0, 1) produces [@p] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{expected attribute value}}
          %s = tspipe.producer_acquire
        }
      }
    }
    gpu.return
  }
}

// -----

// A stage count beyond int64.
gpu.module @config_stage_count_too_large {
  gpu.func @config_stage_count_too_large() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{integer value too large}}
      tspipe.pipeline @p config(<async_async, num_stages = 99999999999999999999, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    }
    gpu.return
  }
}

// -----

// config(...) holds the config's body in angle brackets, not a bare type.
gpu.module @config_without_angle_brackets {
  gpu.func @config_without_angle_brackets() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{expected '<'}}
      tspipe.pipeline @p config(async_async)
    }
    gpu.return
  }
}

// -----

// A #tspipe.group where the config belongs.
gpu.module @config_is_a_group {
  gpu.func @config_is_a_group() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{invalid kind of attribute specified}}
      tspipe.pipeline @p config(#tspipe.group<thread, 1>)
    }
    gpu.return
  }
}

// -----

// A 5-tuple stride.
gpu.module @R4_five_strides {
  gpu.func @R4_five_strides() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R4] interleave_stride must be one int or 4 ints (producer_acquire, producer_commit, consumer_wait, consumer_release), got 5 values}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = [1, 1, 1, 1, 1]>)
    }
    gpu.return
  }
}

// -----

// The pipeline type is a keyword, not a number.
gpu.module @config_numeric_pipeline_type {
  gpu.func @config_numeric_pipeline_type() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{expected a pipeline type, one of async_async, tma_async, tma_umma, umma_async, async_umma, umma_umma or clc_fetch_async}}
      tspipe.pipeline @p config(<1, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    }
    gpu.return
  }
}

// -----

// Two kernels in one GPU function would share warps and shared memory.
gpu.module @two_kernels {
  gpu.func @two_kernels() kernel {
    // expected-error @+1 {{[X9] shares its block with another tspipe.kernel; a GPU function holds at most one (both would own the CTA's warps and dynamic shared memory)}}
    tspipe.kernel warps(1) {
    }
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// A probe made in the task head cannot license waits in the loop: each
// iteration waits on another stage.
gpu.module @stale_token_head {
  gpu.func @stale_token_head(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        %r = tspipe.producer_try_acquire @ring
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-error @+1 {{[R34] ready operand comes from a probe in another block (an earlier iteration, the task head or another guard) and is stale here; call tspipe.producer_try_acquire @ring right before this op}}
          %s = tspipe.producer_acquire @ring ready(%r)
          tspipe.producer_commit @ring
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @token_used_twice {
  gpu.func @token_used_twice(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %r = tspipe.producer_try_acquire @ring
          // expected-error @+1 {{[R34] ready operand is used by more than one op; each blocking op needs its own probe of @ring}}
          %s = tspipe.producer_acquire @ring ready(%r)
          tspipe.producer_commit @ring
          %t = tspipe.producer_acquire @ring ready(%r)
          tspipe.producer_commit @ring
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @token_stale_after_release {
  gpu.func @token_stale_after_release(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @consumer warps(0, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %r = tspipe.consumer_try_wait @ring
          tspipe.first_iter {
            tspipe.consumer_release @ring
          }
          // expected-error @+1 {{[R34] ready operand is stale: 'tspipe.consumer_release @ring' between the probe and this op moves the pipeline cursor; probe again after it}}
          %s = tspipe.consumer_wait @ring ready(%r)
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @overlapping_tasks {
  gpu.func @overlapping_tasks(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 128>>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
      // expected-error @+1 {{[X9] warps [0, 4) overlap the warps [0, 1) of task '@load'; give each task its own warp range (or run them on different CTAs with cta(...))}}
      tspipe.task @compute warps(0, 4) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @R9_tx_count_limit {
  gpu.func @R9_tx_count_limit() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R9] num_bytes = 1048576 exceeds the mbarrier transaction count limit of 1048575 bytes per phase; split the stage into smaller ones}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1048576, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// R52: an AsyncAsync consumer group larger than the consumer task's threads
// (the empty barrier never completes: the producer hangs).
gpu.module @R52_consumer_count {
  gpu.func @R52_consumer_count(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      // expected-error @+1 {{[R52] consumer_group gives 64 arrivals per stage, but the consumer tasks @consumer[1] arrive with 32 threads (32 x 1 warps); set consumer_group = <thread, 32>}}
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
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

// R52 on the producer side: two producer tasks of one warp each.
gpu.module @R52_producer_count {
  gpu.func @R52_producer_count(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      // expected-error @+1 {{[R52] producer_group gives 32 arrivals per stage, but the producer tasks @p0[1], @p1[1] arrive with 64 threads (32 x 2 warps); set producer_group = <thread, 64>}}
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @p0 warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @p1 warps(1, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(2, 1) consumes [@ring] {
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

// R53: a 2-warp TMA producer without interleave or task_warp_leader arms
// every stage twice.
gpu.module @R53_multi_warp_producer {
  gpu.func @R53_multi_warp_producer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 2>, consumer_group = <thread, 1>>)
      // expected-error @+1 {{[R53] is a 2-warp TMA producer of '@ring': each warp would arm the full barrier; use interleave_stride > 1 (one stage per warp) or producer_signaling = task_warp_leader (one arm per task)}}
      tspipe.task @load warps(0, 2) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(2, 1) consumes [@ring] {
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

// R53: task_warp_leader arms once per producer task.
gpu.module @R53_twl_count {
  gpu.func @R53_twl_count(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      // expected-error @+1 {{[R53] producer_group gives 2 arrivals per stage, but the TMA producer tasks @load[2] arm each stage 1 time(s) (one per task); set producer_group = <thread, 1>}}
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 2>, consumer_group = <thread, 1>, producer_signaling = task_warp_leader, num_bytes_per_warp_per_cta = 512>)
      tspipe.task @load warps(0, 2) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(2, 1) consumes [@ring] {
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

// R54: 4 consumer warps release with 4 (lane) or 128 (all-thread) arrivals.
gpu.module @R54_consumer_count {
  gpu.func @R54_consumer_count(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(5) {
      // expected-error @+1 {{[R54] consumer_group gives 64 arrivals per stage, but the consumer tasks @compute[4] release with 4 arrivals (1 per warp, lane release) or 128 (every thread, all-thread release); set consumer_group to one of them}}
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 64>>)
      tspipe.task @compute warps(1, 4) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
      tspipe.task @prod warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// R62: a 3-warp producer cannot own the lanes of stride 2.
gpu.module @R62_lane_ownership {
  gpu.func @R62_lane_ownership(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2, 2, 1, 1]>)
      // expected-error @+1 {{[R62] uses the producer_acquire role of '@ring' with interleave_stride 2 but has 3 warps; give the task exactly 2 warps (one per lane) or step its domain loop by 2 from a constant start (one lane per task)}}
      tspipe.task @load warps(0, 3) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(3, 1) consumes [@ring] {
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

// R52 per domain lane: each stage is released by the 32 threads of one lane
// task, not by both lanes.
gpu.module @R52_domain_lane_count {
  gpu.func @R52_domain_lane_count(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    tspipe.kernel warps(3) {
      // expected-error @+1 {{[R52] consumer_group gives 64 arrivals per stage, but the consumer tasks of lane 0 @lane0[1] arrive with 32 threads; set consumer_group = <thread, 32>}}
      tspipe.pipeline @ring config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 64>, interleave_stride = [1, 1, 2, 2]>)
      tspipe.task @lane0 warps(0, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c2 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
      tspipe.task @lane1 warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c1 to %n step %c2 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
      tspipe.task @prod warps(2, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// A task's first warp is not negative.
gpu.module @task_negative_warp {
  gpu.func @task_negative_warp() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      // expected-error @+1 {{'tspipe.task' op [R18] warps(-1, 1) must name warps [first, first + count) with first >= 0 and count >= 1}}
      tspipe.task @t warps(-1, 1) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// R44: 48 columns is no tcgen05.alloc count (a power of two in [32, 512]).
gpu.module @tmem_columns_not_pow2 {
  gpu.func @tmem_columns_not_pow2() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.pipeline' op [R44] tmem_columns(48) must be a power of two in [32, 512] (tcgen05.alloc column counts)}}
      tspipe.pipeline @p config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>>) tmem_columns(48)
    }
    gpu.return
  }
}

// -----

// R44: one pipeline cannot reserve more than the 512 columns of an SM.
gpu.module @tmem_columns_too_many {
  gpu.func @tmem_columns_too_many() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.pipeline' op [R44] tmem_columns(1024) must be a power of two in [32, 512]}}
      tspipe.pipeline @p config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>>) tmem_columns(1024)
    }
    gpu.return
  }
}

// -----

// R44: below the 32-column minimum of tcgen05.alloc.
gpu.module @tmem_columns_too_few {
  gpu.func @tmem_columns_too_few() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.pipeline' op [R44] tmem_columns(16) must be a power of two in [32, 512]}}
      tspipe.pipeline @p config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, num_bytes = 1024>) tmem_columns(16)
    }
    gpu.return
  }
}

// -----

// R44: tensor-memory columns on a type whose stages are not in tensor
// memory would be dropped without a word; they are rejected.
gpu.module @tmem_columns_wrong_type {
  gpu.func @tmem_columns_wrong_type() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{'tspipe.pipeline' op [R44] tmem_columns(128) on a async_async pipeline, whose stages do not live in tensor memory; only tma_umma, umma_async, async_umma and umma_umma pipelines reserve columns: drop tmem_columns}}
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) tmem_columns(128)
    }
    gpu.return
  }
}

// -----

// R9: one warp's bytes land on a full barrier, whose transaction count
// holds at most 2^20 - 1.
gpu.module @bytes_per_warp_too_many {
  gpu.func @bytes_per_warp_too_many() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[R9] num_bytes_per_warp_per_cta = 1048576 exceeds the mbarrier transaction count limit of 1048575 bytes per phase; split the stage into smaller ones}}
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, num_bytes = 1024, num_bytes_per_warp_per_cta = 1048576>)
    }
    gpu.return
  }
}

// -----

// X11: the lowered loop counts with an i32; a static bound beyond it wraps.
gpu.module @X9_bound_too_large {
  gpu.func @X9_bound_too_large() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 4294967296 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{'tspipe.domain_loop' op [X11] the upper bound 4294967296 does not fit the i32 trip counter of the lowered loop (range [-2147483648, 2147483647]); split the domain or count in larger steps}}
        tspipe.domain_loop %i = %c0 to %big step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

// X11: the index after the last iteration (bound + step) must fit as well.
gpu.module @X9_bound_plus_step {
  gpu.func @X9_bound_plus_step() kernel {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %max = arith.constant 2147483647 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{'tspipe.domain_loop' op [X11] upper bound 2147483647 + step 2 exceeds 2147483647: the i32 trip counter of the lowered loop would wrap before it reaches the bound; keep upper bound + step <= 2147483647}}
        tspipe.domain_loop %i = %c0 to %max step %c2 {
        }
      }
    }
    gpu.return
  }
}

// -----

// X11: a negative constant step (TS's range() counts down; the lowered loop
// only counts up).
gpu.module @X11_negative_step {
  gpu.func @X11_negative_step(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %cm1 = arith.constant -1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{'tspipe.domain_loop' op [X11] step -1 is negative, but the lowered domain loop counts up from its lower bound; step up with a positive step and derive the index from the iteration (e.g. upper - 1 - i)}}
        tspipe.domain_loop %i = %n to %c0 step %cm1 {
        }
      }
    }
    gpu.return
  }
}
