// RUN: tspipe-opt %s --tspipe-normalize --split-input-file | FileCheck %s
// RUN: tspipe-opt %s --tspipe-normalize --tspipe-normalize --split-input-file | FileCheck %s

// tspipe-normalize records R66 (advance_on_wait for split consumers) and the
// TmaAsync release form in the IR, then marks the kernel `normalized`.
// Running it twice gives the same IR (second RUN line).

// A task that waits without releasing (@mma) next to one that releases
// (@epi): a split consumer, so advance_on_wait becomes true. @whole has
// wait and release in one task and keeps its config.
// CHECK-LABEL: gpu.func @split_consumer
// CHECK:         tspipe.kernel warps(3) normalized {
// CHECK-NEXT:      tspipe.pipeline @split config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_wait = true>){{$}}
// CHECK-NEXT:      tspipe.pipeline @whole config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>){{$}}
gpu.module @m {
  gpu.func @split_consumer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @split config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline @whole config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @load warps(0, 1) produces [@split, @whole] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @split
          tspipe.producer_commit @split
          %t = tspipe.producer_acquire @whole
          tspipe.producer_commit @whole
        }
      }
      tspipe.task @mma warps(1, 1) consumes [@split, @whole] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @split
          %t = tspipe.consumer_wait @whole
          tspipe.consumer_release @whole
        }
      }
      tspipe.task @epi warps(2, 1) consumes [@split] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.consumer_release @split
        }
      }
    }
    gpu.return
  }
}

// -----

// TmaAsync release forms: consumer_group = 4 arrivals for 4 releasing warps
// is the lane form; 128 = 32 x 4 threads the all-thread form. An AsyncAsync
// pipeline gets no release form.
// CHECK-LABEL: gpu.func @release_forms
// CHECK:         tspipe.kernel warps(9) normalized {
// CHECK-NEXT:      tspipe.pipeline @lane config({{.*}}consumer_group = <thread, 4>{{.*}}) release(lane){{$}}
// CHECK-NEXT:      tspipe.pipeline @all config({{.*}}consumer_group = <thread, 128>{{.*}}) release(all_threads){{$}}
// CHECK-NEXT:      tspipe.pipeline @plain config(<async_async{{.*}}>){{$}}
gpu.module @m {
  gpu.func @release_forms(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(9) {
      tspipe.pipeline @lane config(<tma_async, num_stages = 2, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 4>>)
      tspipe.pipeline @all config(<tma_async, num_stages = 2, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 128>>)
      tspipe.pipeline @plain config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 128>>)
      tspipe.task @load warps(0, 1) produces [@lane, @all, @plain] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %a = tspipe.producer_acquire @lane
          tspipe.producer_commit @lane
          %b = tspipe.producer_acquire @all
          tspipe.producer_commit @all
          %c = tspipe.producer_acquire @plain
          tspipe.producer_commit @plain
        }
      }
      tspipe.task @compute warps(1, 4) consumes [@lane, @all, @plain] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %a = tspipe.consumer_wait @lane
          tspipe.consumer_release @lane
          %b = tspipe.consumer_wait @all
          tspipe.consumer_release @all
          %c = tspipe.consumer_wait @plain
          tspipe.consumer_release @plain
        }
      }
    }
    gpu.return
  }
}

// -----

// One releasing warp: 1 arrival is the lane count, and 32 would be the
// all-thread count; with 1 the lane form is chosen.
// CHECK-LABEL: gpu.func @one_warp_lane
// CHECK:         tspipe.pipeline @ring config({{.*}}) release(lane){{$}}
gpu.module @m {
  gpu.func @one_warp_lane(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @compute warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
