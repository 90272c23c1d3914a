// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s

// TmaAsync on one CTA: acquire waits on the empty barrier, then one elected
// thread of the producer warp arms the full barrier with num_bytes; commit
// emits nothing; release is one arrive from lane 0 of each consumer warp,
// after a proxy fence (the next fill is an async-proxy write) and a warp
// sync, so that no lane still reads the stage.

// CHECK-LABEL: gpu.func @lane_release
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.barrier0
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[ELECT:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[ELECT]] {
// CHECK:             nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:           }
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK:           %[[IS_L0:.*]] = arith.cmpi eq, %[[LANE]], %[[C0]]
// CHECK:           scf.if %[[IS_L0]] {
// CHECK:             nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK:           }
gpu.module @m {
  gpu.func @lane_release(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(5) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>>)
          smem_bytes(32768)
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

// consumer_group = 32 x consumer warps selects the all-thread release: every
// consumer thread arrives, with no lane predicate.

// CHECK-LABEL: gpu.func @all_thread_release
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c128_i32
// CHECK:         nvvm.mbarrier.arrive.expect_tx
// Consumer loop (consumer cursor phase 0):
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %c0_i32, %{{.*}} = %c0_i32)
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      %[[E:.*]] = llvm.getelementptr
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[E]] : !llvm.ptr<3>
gpu.module @m {
  gpu.func @all_thread_release(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(5) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 4096,
          producer_group = <thread, 1>, consumer_group = <thread, 128>>)
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

// TaskWarpLeader: both producer warps wait on the empty barrier, only the
// task's first warp arms the full barrier.

// CHECK-LABEL: gpu.func @task_warp_leader
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui %[[TID]]
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[FIRST_WARP:.*]] = arith.cmpi eq, %[[WARP]], %[[C2]]
// CHECK:           scf.if %[[FIRST_WARP]] {
// CHECK:             nvvm.elect.sync
// CHECK:             nvvm.mbarrier.arrive.expect_tx
gpu.module @m {
  gpu.func @task_warp_leader(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 4096,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          producer_signaling = task_warp_leader,
          num_bytes_per_warp_per_cta = 2048>)
      tspipe.task @compute warps(0, 2) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
      tspipe.task @load warps(2, 2) produces [@ring] {
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

// Interleaved producer (warp lanes): each of the two producer warps starts
// its cursor at its lane and advances by the stride (2); the drain covers
// num_stages / stride stages per lane.

// CHECK-LABEL: gpu.func @interleaved
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui %[[TID]]
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         scf.if
// CHECK:           %[[LANE:.*]] = arith.subi %[[WARP]], %[[C2]] : i32
// CHECK:           %{{.*}}:2 = scf.for %{{.*}} iter_args(%[[IDX:.*]] = %[[LANE]], %{{.*}} = %c1_i32)
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:             nvvm.mbarrier.arrive.expect_tx
// CHECK:             %[[NEXT:.*]] = arith.addi %[[IDX]], %[[C2]] : i32
// CHECK:             arith.cmpi sge, %[[NEXT]], %[[C4]] : i32
// CHECK:           }
// The drain: num_stages / stride = 2 waits of the lane.
// CHECK-COUNT-2:   nvvm.mbarrier.try_wait.parity
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity
// CHECK:         }
gpu.module @m {
  gpu.func @interleaved(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 4096,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          interleave_stride = 2>)
      tspipe.task @compute warps(0, 2) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
      tspipe.task @load warps(2, 2) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
    }
    gpu.return
  }
}
