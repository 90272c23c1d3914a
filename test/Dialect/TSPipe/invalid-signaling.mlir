// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Arrive counts and signaling computed from the tasks that use each
// pipeline: R11, R12, R25, R45-R51, R56 and tspipe's X2-X4. The valid twin
// of each case has the same name in valid-rules.mlir.

// -----

// R11: the all-thread TmaAsync release (consumer_group = 32 x consumer
// warps) with a warp-agent group.
func.func @R11_all_thread_release_warp_group(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(5) {
    // expected-error @+1 {{[R11] releases with every consumer thread (consumer_group = 128 = 32 x 4 warps), which needs thread-agent producer and consumer groups}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <warp, 4>>)
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

// -----

// R12: task_warp_leader with no task that commits (no leader warp exists).
func.func @R12_task_warp_leader_without_commit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[R12] producer_signaling has task_warp_leader, but no task commits on '@p'}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = task_warp_leader, advance_on_acquire = true>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
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

// -----

// R25: a task pinned to CTA 0 waits where every CTA waits.
func.func @R25_pinned_wait_without_cta_leader(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    // expected-error @+1 {{[R25] runs on CTA 0 only and waits on '@p', whose wait signaling has no cta_leader}}
    tspipe.task @use warps(1, 1) consumes [@p] cta(0) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R45: task_warp_leader on a producer that is not TMA.
func.func @R45_task_warp_leader_async_producer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[R45] producer_signaling has task_warp_leader, which only TMA producers (tma_async, tma_umma) support}}
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, producer_signaling = task_warp_leader>)
    tspipe.task @prod warps(0, 1) produces [@p] {
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

// -----

// R46: task_warp_leader on the consumer side.
func.func @R46_task_warp_leader_consumer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[R46] task_warp_leader is producer-side only, but the consumer_signaling has it}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = task_warp_leader>)
    tspipe.task @prod warps(0, 1) produces [@p] {
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

// -----

// R47: consumer_wait_signaling without a split consumer.
func.func @R47_wait_signaling_without_split_consumer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[R47] consumer_wait_signaling is set, but no task waits on '@p' without releasing it}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_wait_signaling = all>)
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

// -----

// R48: a tcgen05 producer side arrives once per stage.
func.func @R48_umma_producer_size(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[R48] producer_group gives 2 arrivals per stage, but each stage is filled by one tcgen05.commit; set producer_group = <thread, 1>}}
    tspipe.pipeline @p config(<umma_async, num_stages = 2, producer_group = <thread, 2>, consumer_group = <thread, 32>>)
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

// -----

// R49: an interleaved TmaUmma release commits once per stage.
func.func @R49_interleaved_tma_umma_consumer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    // expected-error @+1 {{[R49] consumer_group gives 2 arrivals per stage, but with consumer_release interleave_stride 2 one lane releases each stage with one commit}}
    tspipe.pipeline @p config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, interleave_stride = [2]>)
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

// -----

// R54: two warp-lane tasks release the stages of an interleaved TmaAsync
// ring: each stage gets one arrival from each, and consumer_group = 1 (TS's
// R54) lets the second arrival complete the next phase early.
func.func @R54_two_lane_releasers(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(6) {
    // expected-error @+1 {{[R54] consumer_group gives 1 arrivals per stage, but with consumer_release interleave_stride 2 the 2 warp-lane tasks @watch[2], @drop[2] each release every stage once; set consumer_group = <thread, 2> or release each stage from one task}}
    tspipe.pipeline @p config(<tma_async, num_stages = 8, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [2]>)
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
      tspipe.domain_loop %i = %c0 to %c0 step %c1 {
        tspipe.last_iter {
          tspipe.consumer_release @p
        }
      }
    }
  }
  return
}

// -----

// X2: on a 2x2 multicast cluster each CTA's empty barrier receives the
// commits of the 3 CTAs in its row or column, not T = 4 (TS's R49).
func.func @X2_tma_umma_2d_multicast(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([4, 1, 1]) {
    // expected-error @+1 {{[X2] consumer_group gives 4 arrivals per stage, but 3 tcgen05 commits reach each CTA's empty barrier (3 CTA pair(s) share its multicast row/column, every CTA of a pair commits); set consumer_group = <thread, 3>}}
    tspipe.pipeline @p config(<tma_umma, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 4>, cta_layout_vmnk = [1, 2, 2, 1]>)
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

// -----

// R50: one CLC producer arms every stage.
func.func @R50_clc_producer_size(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[R50] producer_group gives 2 arrivals per stage, but one CLC producer arms each stage of every CTA}}
    tspipe.pipeline @p config(<clc_fetch_async, num_stages = 2, num_bytes = 16, producer_group = <thread, 2>, consumer_group = <thread, 32>>)
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

// -----

// R51: every consumer thread of every CTA arrives on CTA 0.
func.func @R51_clc_consumer_size(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    // expected-error @+1 {{[R51] consumer_group gives 32 arrivals per stage, but the consumer threads of @use[1] arrive on CTA 0 64 times}}
    tspipe.pipeline @p config(<clc_fetch_async, num_stages = 2, num_bytes = 16, producer_group = <thread, 1>, consumer_group = <thread, 32>, cta_layout_vmnk = [1, 2, 1, 1], producer_signaling = cta_leader>)
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

// -----

// R56: one task_warp_leader arms the bytes of a 2-warp task, so the bytes
// per warp must be declared.
func.func @R56_task_warp_leader_needs_bytes_per_warp(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    // expected-error @+1 {{[R56] must declare num_bytes_per_warp_per_cta because one task_warp_leader warp arms the bytes of all warps of its task}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = task_warp_leader>)
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

// -----

// R56: the declared bytes per warp do not add up to num_bytes.
func.func @R56_bytes_per_warp_mismatch(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    // expected-error @+1 {{[R56] num_bytes = 4096, but num_bytes_per_warp_per_cta 1024 x 1 CTA x 2 producer warps of @load[2] is 2048; set num_bytes = 2048}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = task_warp_leader, num_bytes_per_warp_per_cta = 1024>)
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

// -----

// X3: both CTAs of a pair commit the tcgen05 producer side.
func.func @X3_pair_commit_from_both_ctas(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    // expected-error @+1 {{[X3] the producer side commits with tcgen05 on a CTA pair (V = 2), but producer_signaling = all makes both CTAs of the pair commit; set producer_signaling = cta_leader}}
    tspipe.pipeline @p config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 64>, cta_layout_vmnk = [2, 1, 1, 1]>)
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

// -----

// X4: the all-thread TmaAsync release on a 2-CTA cluster.
func.func @X4_all_thread_release_on_cluster(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    // expected-error @+1 {{[X4] releases with every consumer thread (consumer_group = 32 = 32 x 1 warps) on a cluster of 2 CTAs, but those arrives are local and never reach the multicast peers' empty barriers; use the lane release (consumer_group = <thread, 2>)}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 32>, cta_layout_vmnk = [1, 2, 1, 1]>)
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

// -----

// X4 on the release form a normalized kernel records: release(all_threads)
// written on a 2-CTA cluster although consumer_group has the lane count
// (which R54 reports too: the recorded form and the count disagree).
func.func @X4_recorded_all_thread_release_on_cluster(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) normalized {
    // expected-error @+2 {{[X4] release(all_threads) across a 2-CTA cluster: every consumer thread would arrive on its own CTA's empty barrier only, so the CTAs whose multicast copies also wrote the stage are never told it is free; give consumer_group the lane-release count (one arrive per consumer warp and CTA of the multicast set, 2 per warp) so that each warp's lanes signal the peers}}
    // expected-error @+1 {{[R54] consumer_group gives 2 arrivals per stage, but release(all_threads) by the consumer tasks @use[1] makes 32}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, cta_layout_vmnk = [1, 2, 1, 1]>) release(all_threads)
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

// -----

// A declared byte count that could overflow the R56 product is out of
// range already: one warp's bytes are bounded by the mbarrier transaction
// count (R9).
func.func @R56_bytes_per_warp_overflow(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    // expected-error @+1 {{[R9] num_bytes_per_warp_per_cta = 9223372036854775807 exceeds the mbarrier transaction count limit of 1048575 bytes per phase}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = task_warp_leader, num_bytes_per_warp_per_cta = 9223372036854775807>)
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
