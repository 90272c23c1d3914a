// RUN: tspipe-opt %s | tspipe-opt | FileCheck %s
// RUN: tspipe-opt %s --mlir-print-op-generic | tspipe-opt | FileCheck %s

// Round trip of the work queue ops: a static persistent queue with a
// skip_if and a per-tile domain, and a CLC queue with its scheduler task.

// CHECK-LABEL: gpu.func @static_queue
// CHECK:         tspipe.work_queue @tiles grid(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         tspipe.task @load warps(0, 1) produces [@ring] {
// CHECK-NEXT:      tspipe.work_tile_loop @tiles skip_if {
// CHECK-NEXT:      ^bb0(%[[SM:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK:             %[[SKIP:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        tspipe.skip_tile %[[SKIP]]
// CHECK-NEXT:      } {
// CHECK-NEXT:      ^bb0(%[[M:.*]]: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:        %[[END:.*]] = arith.addi %[[M]], %{{.*}} : index
// CHECK-NEXT:        tspipe.skippable {
// CHECK-NEXT:          tspipe.domain_loop %{{.*}} = %{{.*}} to %[[END]] step %{{.*}} {
// CHECK:             tspipe.advance_work_tile @tiles
// CHECK-NEXT:      }
gpu.module @ops {
gpu.func @static_queue(%m: index, %n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.work_queue @tiles grid(%m, %n, %c1)
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.work_tile_loop @tiles skip_if {
      ^bb0(%sm: index, %sn: index, %sl: index):
        %odd = arith.remui %sm, %c2 : index
        %skip = arith.cmpi eq, %odd, %c1 : index
        tspipe.skip_tile %skip
      } {
      ^bb0(%tm: index, %tn: index, %tl: index):
        %end = arith.addi %tm, %c1 : index
        tspipe.skippable {
          tspipe.domain_loop %i = %c0 to %end step %c1 {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
        }
        tspipe.advance_work_tile @tiles
      }
    }
    tspipe.task @use warps(1, 1) consumes [@ring] {
      tspipe.work_tile_loop @tiles skip_if {
      ^bb0(%sm: index, %sn: index, %sl: index):
        %odd = arith.remui %sm, %c2 : index
        %skip = arith.cmpi eq, %odd, %c1 : index
        tspipe.skip_tile %skip
      } {
      ^bb0(%tm: index, %tn: index, %tl: index):
        %end = arith.addi %tm, %c1 : index
        tspipe.skippable {
          tspipe.domain_loop %i = %c0 to %end step %c1 {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
        tspipe.advance_work_tile @tiles
      }
    }
  }
  gpu.return
}

// CHECK-LABEL: gpu.func @clc_queue
// CHECK:         tspipe.work_queue @dyn clc(@clc)
// CHECK:         tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
// CHECK-NEXT:      tspipe.work_tile_loop @dyn {
// CHECK:             %[[P:.*]] = tspipe.producer_acquire @clc
// CHECK-NEXT:        tspipe.fetch_work_tile @dyn stage(%[[P]])
// CHECK-NEXT:        tspipe.producer_commit @clc
// CHECK-NEXT:        %[[S:.*]] = tspipe.consumer_wait @clc
// CHECK-NEXT:        tspipe.advance_work_tile @dyn response(%[[S]])
// CHECK-NEXT:        tspipe.consumer_release @clc
gpu.func @clc_queue() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
        producer_group = <thread, 1>, consumer_group = <thread, 64>,
        producer_signaling = cta_leader>) smem_bytes(32)
    tspipe.work_queue @dyn clc(@clc)
    tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
        %p = tspipe.producer_acquire @clc
        tspipe.fetch_work_tile @dyn stage(%p)
        tspipe.producer_commit @clc
        %s = tspipe.consumer_wait @clc
        tspipe.advance_work_tile @dyn response(%s)
        tspipe.consumer_release @clc
      }
    }
    tspipe.task @work warps(1, 1) consumes [@clc] {
      tspipe.work_tile_loop @dyn {
      ^bb0(%x: index, %y: index, %z: index):
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
        %s = tspipe.consumer_wait @clc
        tspipe.advance_work_tile @dyn response(%s)
        tspipe.consumer_release @clc
      }
    }
  }
  gpu.return
}
}
