// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Interleaved pipelines (R58-R60, R62-R64) and CTA layouts (R57). The valid
// twin of each case has the same name in valid-rules.mlir.

// -----

// R57: a pipeline spanning 2 CTAs in a cluster of 4.
func.func @R57_layout_smaller_than_cluster() {
  tspipe.kernel warps(1) cluster([4, 1, 1]) {
    // expected-error @+1 {{[R57] cta_layout_vmnk has 2 CTAs but the kernel's cluster has 4; a pipeline that spans CTAs must cover the whole cluster (make V*M*N*L equal the cluster size), or be CTA-local with cta_layout_vmnk = [1, 1, 1, 1]}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [1, 2, 1, 1]>)
  }
  return
}

// -----

// R57: two pipelines spanning the cluster with different layouts.
func.func @R57_two_layouts(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @a config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, cta_layout_vmnk = [1, 2, 1, 1]>)
    // expected-error @+1 {{[R57] cta_layout_vmnk [1, 1, 2, 1] differs from [1, 2, 1, 1] of '@a'; the pipelines that span CTAs must use one layout}}
    tspipe.pipeline @b config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, cta_layout_vmnk = [1, 1, 2, 1]>)
    tspipe.task @load warps(0, 1) produces [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a
        tspipe.producer_commit @a
        %t = tspipe.producer_acquire @b
        tspipe.producer_commit @b
      }
    }
    tspipe.task @use warps(1, 1) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @a
        tspipe.consumer_release @a
        %t = tspipe.consumer_wait @b
        tspipe.consumer_release @b
      }
    }
  }
  return
}

// -----

// R58: UmmaUmma stages cannot be interleaved.
func.func @R58_interleaved_umma_umma() {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{[R58] umma_umma pipelines cannot be interleaved}}
    tspipe.pipeline @p config(<umma_umma, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2]>)
  }
  return
}

// -----

// R58: nor ClcFetchAsync stages.
func.func @R58_interleaved_clc() {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{[R58] clc_fetch_async pipelines cannot be interleaved}}
    tspipe.pipeline @p config(<clc_fetch_async, num_stages = 4, num_bytes = 16, producer_group = <thread, 1>, consumer_group = <thread, 32>, interleave_stride = [2]>)
  }
  return
}

// -----

// R59: an interleaved TmaAsync pipeline spanning 2 CTAs.
func.func @R59_interleaved_tma_async_cluster() {
  tspipe.kernel warps(1) cluster([2, 1, 1]) {
    // expected-error @+1 {{[R59] an interleaved tma_async pipeline must run on one CTA, but cta_layout_vmnk has 2 CTAs}}
    tspipe.pipeline @p config(<tma_async, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [1, 2, 1, 1], interleave_stride = [2]>)
  }
  return
}

// -----

// R60: UmmaAsync interleaves its consumer side only.
func.func @R60_umma_async_producer_stride() {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{[R60] umma_async interleaves its consumer side only (one tcgen05 commit fills a stage), but the producer strides are 2, 2}}
    tspipe.pipeline @p config(<umma_async, num_stages = 4, producer_group = <thread, 1>, consumer_group = <thread, 32>, interleave_stride = [2, 2, 1, 1]>)
  }
  return
}

// -----

// R60: AsyncUmma interleaves its producer side only.
func.func @R60_async_umma_consumer_stride() {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{[R60] async_umma interleaves its producer side only (one tcgen05 commit releases a stage), but the consumer strides are 2, 2}}
    tspipe.pipeline @p config(<async_umma, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 1>, interleave_stride = [1, 1, 2, 2]>)
  }
  return
}

// -----

// R62: a domain-lane task whose lane start lies outside [0, stride).
func.func @R62_domain_lane_start_out_of_range(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
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
    // expected-error @+1 {{[R62] drives lane 3 of the consumer_wait role of '@p' (its domain loop starts at 3), but interleave_stride 2 has lanes 0 to 1; start the domain loop at the lane, in [0, 2)}}
    tspipe.task @lane1 warps(2, 1) consumes [@p] {
      tspipe.domain_loop %i = %c3 to %n step %c2 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R63: domain lanes on a side whose opening and closing strides differ.
func.func @R63_domain_lanes_asymmetric_strides(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, advance_on_wait = true, interleave_stride = [1, 1, 2, 1]>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    // expected-error @+1 {{[R63] drives the consumer_wait role of '@p' in domain-lane mode, but its strides differ (consumer_wait 2, consumer_release 1)}}
    tspipe.task @wait0 warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c2 {
        %s = tspipe.consumer_wait @p
      }
    }
    // expected-error @+1 {{[R63] drives the consumer_wait role of '@p' in domain-lane mode}}
    tspipe.task @wait1 warps(2, 1) consumes [@p] {
      tspipe.domain_loop %i = %c1 to %n step %c2 {
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

// -----

// R64: one task both waits (stride 2) and releases (stride 1).
func.func @R64_one_task_both_roles(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, advance_on_wait = true, interleave_stride = [1, 1, 2, 1]>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    // expected-error @+1 {{[R64] plays both the consumer_wait (stride 2) and the consumer_release (stride 1) roles of '@p'; split the two roles into separate tasks}}
    tspipe.task @mma warps(1, 2) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}
