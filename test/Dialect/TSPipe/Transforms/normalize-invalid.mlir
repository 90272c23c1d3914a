// RUN: tspipe-opt %s --split-input-file --verify-diagnostics

// A kernel marked `normalized` must carry the facts tspipe-normalize
// records; each failing case has a passing twin in normalize-valid.mlir.

gpu.module @m {
  gpu.func @r66_missing(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) normalized {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      // expected-error @below {{[R66] waits on '@ring' without releasing it (a split consumer), but its config has advance_on_wait = false; set advance_on_wait = true}}
      tspipe.task @mma warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
        }
      }
      tspipe.task @epi warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @release_form_missing(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) normalized {
      // expected-error @below {{[R54] is a tma_async pipeline of a normalized kernel but has no release form; add release(lane) or release(all_threads)}}
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ring] {
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

gpu.module @m {
  gpu.func @release_form_mismatch(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(5) {
      // expected-error @below {{[R54] consumer_group gives 4 arrivals per stage, but release(all_threads) by the consumer tasks @compute[4] makes 128; set consumer_group = <thread, 128>}}
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 4>>)
          release(all_threads)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @compute warps(1, 4) consumes [@ring] {
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

gpu.module @m {
  gpu.func @release_form_wrong_type(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) normalized {
      // expected-error @below {{has release(lane) but is a async_async pipeline; the release form applies to tma_async pipelines only, remove it}}
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
          release(lane)
    }
    gpu.return
  }
}
