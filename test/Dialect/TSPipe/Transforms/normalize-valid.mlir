// RUN: tspipe-opt %s --split-input-file | tspipe-opt --split-input-file | FileCheck %s

// Passing twins of normalize-invalid.mlir: normalized kernels with the
// recorded facts verify and round-trip.

// CHECK-LABEL: gpu.func @r66_present
// CHECK:         tspipe.kernel warps(3) normalized {
// CHECK:           advance_on_wait = true
gpu.module @m {
  gpu.func @r66_present(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) normalized {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>,
          advance_on_wait = true>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
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

// CHECK-LABEL: gpu.func @release_form_matches
// CHECK:         tspipe.pipeline @ring config({{.*}}consumer_group = <thread, 128>{{.*}}) release(all_threads){{$}}
gpu.module @m {
  gpu.func @release_form_matches(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(5) normalized {
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 128>>)
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
