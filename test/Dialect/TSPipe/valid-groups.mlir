// RUN: tspipe-opt %s -verify-diagnostics | FileCheck %s

// The valid twin of each failing case of invalid-groups.mlir (same name):
// the one change that makes the kernel legal.

// A merge group of two async_async producers and one consumer, which lists
// both members (also the twin of R27_group_release_unlisted).
// CHECK-LABEL: func.func @R24_bare_member
// CHECK:         tspipe.consumer_wait @a group(@ab)
// CHECK:         tspipe.consumer_release @ab
func.func @R24_bare_member(%n: index) {
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
  return
}

// The release of R24_merge_member_release, on the group; the wait of
// R24_merge_group_wait, on a member.
// CHECK-LABEL: func.func @R24_merge_group_wait
// CHECK:         tspipe.consumer_wait @a group(@ab)
func.func @R24_merge_group_wait(%n: index) {
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
  return
}

// A fork group: one producer task, one commit on the group, two consumers.
// Also the twin of R24_not_a_member (the group names its own member).
// CHECK-LABEL: func.func @R24_fork_member_commit
// CHECK:         tspipe.producer_acquire @y group(@xy)
// CHECK-NEXT:    tspipe.producer_commit @xy
func.func @R24_fork_member_commit(%n: index) {
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
  return
}

// CHECK-LABEL: func.func @R67_num_stages
// CHECK:         tspipe.pipeline_group @ab merge [@a, @b]
func.func @R67_num_stages() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @b config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline_group @ab merge [@a, @b]
  }
  return
}

// CHECK-LABEL: func.func @R67_clc_member
func.func @R67_clc_member() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<tma_async, num_stages = 1, num_bytes = 16, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @g merge [@a]
  }
  return
}

// Mixed producers (TMA and async threads) feeding async consumers: a merge
// group. The collapsed-side sizes compare the non-TMA members only.
// CHECK-LABEL: func.func @R67_both_sides_differ
func.func @R67_both_sides_differ() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
  }
  return
}

// CHECK-LABEL: func.func @R67_derived_mode
func.func @R67_derived_mode() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
  }
  return
}

// CHECK-LABEL: func.func @R67_collapsed_group_size
func.func @R67_collapsed_group_size() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 64>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
  }
  return
}

// CHECK-LABEL: func.func @R67_fork_bytes
func.func @R67_fork_bytes() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>>)
    tspipe.pipeline_group @xy fork [@x, @y]
  }
  return
}

// CHECK-LABEL: func.func @R9_fork_bytes_sum
// The sum of the members' bytes, 2 x 524272 = 1048544, fits the tx-count.
func.func @R9_fork_bytes_sum() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 524272, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 524272, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline_group @xy fork [@x, @y]
  }
  return
}

// CHECK-LABEL: func.func @R67_two_groups
func.func @R67_two_groups() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @c config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
    tspipe.pipeline_group @c_only merge [@c]
  }
  return
}

// The twin of R67_duplicate_member, R67_no_members and R67_unknown_member.
// CHECK-LABEL: func.func @R67_duplicate_member
func.func @R67_duplicate_member() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @aa merge [@a]
  }
  return
}

// Explicit fork config: num_bytes is the members' sum (the shared full
// barrier expects every member's bytes), the producer group is the shared
// one.
// CHECK-LABEL: func.func @R68_bytes_not_summed
// CHECK:         config(<tma_async, num_stages = 2, num_bytes = 2048,
func.func @R68_bytes_not_summed() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline_group @xy fork [@x, @y] config(<tma_async, num_stages = 2, num_bytes = 2048, producer_group = <thread, 1>, consumer_group = <thread, 2>>)
  }
  return
}

// The twin of R68_num_stages and R68_shared_group.
// CHECK-LABEL: func.func @R68_num_stages
func.func @R68_num_stages() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b] config(<async_async, num_stages = 2, producer_group = <thread, 64>, consumer_group = <thread, 32>>)
  }
  return
}

// CHECK-LABEL: func.func @R69_member_type
func.func @R69_member_type() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b] config(<async_async, num_stages = 2, producer_group = <thread, 33>, consumer_group = <thread, 32>>)
  }
  return
}

// CHECK-LABEL: func.func @R14_umma_producer_op
// CHECK:         umma_consumer_producer_op = async_load
func.func @R14_umma_producer_op() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_umma, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 1>, umma_consumer_producer_op = async_load>)
  }
  return
}

// CHECK-LABEL: func.func @R24_fused_member_wait
func.func @R24_fused_member_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline_group @ab fused_merge [@a, @b]
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
        %s = tspipe.consumer_wait @ab
        %sa = tspipe.current_stage @a consumer group(@ab)
        %ba = tspipe.stage_buffer %sa : !llvm.ptr<3>
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R24_fused_group_commit
func.func @R24_fused_group_commit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline_group @ab fused_merge [@a, @b]
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
        %s = tspipe.consumer_wait @ab
        %sa = tspipe.current_stage @a consumer group(@ab)
        %ba = tspipe.stage_buffer %sa : !llvm.ptr<3>
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R24_fused_group_stage_buffer
// CHECK: tspipe.pipeline_group @ab fused_merge [@a, @b]
// CHECK: tspipe.consumer_wait @ab
// CHECK: tspipe.current_stage @a consumer group(@ab)
func.func @R24_fused_group_stage_buffer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline_group @ab fused_merge [@a, @b]
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
        %s = tspipe.consumer_wait @ab
        %sa = tspipe.current_stage @a consumer group(@ab)
        %ba = tspipe.stage_buffer %sa : !llvm.ptr<3>
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @R67_fused_interleave
func.func @R67_fused_interleave() {
  tspipe.kernel warps(4) {
    tspipe.pipeline @a config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = 2>)
    tspipe.pipeline @b config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = 2>)
    tspipe.pipeline_group @ab merge [@a, @b]
  }
  return
}

// X18: both members of the merge release at CTA scope (the failing twin is
// invalid-group-arrivals.mlir, X18_merge_scopes).
// CHECK-LABEL: func.func @X18_merge_same_scope
// CHECK:         remote_arrive_scope(cta)
// CHECK:         remote_arrive_scope(cta)
func.func @X18_merge_same_scope(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) cluster([2, 1, 1]) {
    tspipe.pipeline @x config(<tma_async, num_stages = 4, num_bytes = 8192, producer_group = <thread, 1>, consumer_group = <thread, 4>, cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>) smem_bytes(32768) remote_arrive_scope(cta)
    tspipe.pipeline @y config(<tma_async, num_stages = 4, num_bytes = 8192, producer_group = <thread, 1>, consumer_group = <thread, 4>, cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>) smem_bytes(32768) remote_arrive_scope(cta)
    tspipe.pipeline_group @xy merge [@x, @y]
    tspipe.task @load_x warps(0, 1) produces [@x] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @x group(@xy)
        tspipe.producer_commit @x group(@xy)
      }
    }
    tspipe.task @load_y warps(1, 1) produces [@y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @y group(@xy)
        tspipe.producer_commit @y group(@xy)
      }
    }
    tspipe.task @use warps(2, 2) consumes [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @x group(@xy)
        %t = tspipe.consumer_wait @y group(@xy)
        tspipe.consumer_release @xy
      }
    }
  }
  return
}
