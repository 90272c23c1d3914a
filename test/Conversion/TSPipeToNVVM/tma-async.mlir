// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s

// TmaAsync on one CTA: acquire waits on the empty barrier, then one elected
// thread of the producer warp arms the full barrier with num_bytes; commit
// emits nothing; release is one arrive from lane 0 of each consumer warp,
// after a proxy fence (the next fill is an async-proxy write) and a warp
// sync, so that no lane still reads the stage.

// CHECK-LABEL: gpu.func @lane_release
// CHECK-DAG:     %[[CM3:.*]] = arith.constant -3 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]]
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// F: Pg = 1 producer warp; E: Cg = 4 consumer warps (one lane each).
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C4]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.barrier0
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[ELECT:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[ELECT]] {
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[P]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:           }
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK-DAG:       %[[PN:.*]] = arith.addi %[[P]], %[[C1]] : i32
// CHECK:           %[[PW:.*]] = arith.cmpi sge, %[[PN]], %[[C4]] : i32
// CHECK-DAG:       %[[PWR:.*]] = arith.addi %[[P]], %[[CM3]] : i32
// CHECK-DAG:       %[[PX:.*]] = arith.select %[[PW]], %[[PWR]], %[[PN]] : i32
// CHECK-DAG:       %[[PFL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PPX:.*]] = arith.select %[[PW]], %[[PFL]], %[[PPH]] : i32
// CHECK:           scf.yield %[[PX]], %[[PPX]] : i32, i32
// Drain: S = 4 waits on E, the first at the loop's final cursor.
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK-COUNT-3:   nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[FC:.*]] = llvm.getelementptr %[[BASE]][%[[C]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[FC]], %[[CPH]]
// CHECK:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK:           %[[IS_L0:.*]] = arith.cmpi eq, %[[LANE]], %[[C0]]
// CHECK:           scf.if %[[IS_L0]] {
// CHECK:             %[[EC:.*]] = llvm.getelementptr %[[EMPTY]][%[[C]]]
// CHECK:             nvvm.mbarrier.arrive %[[EC]] : !llvm.ptr<3>
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
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 4096 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// E: Cg = 128, every thread of the 4 consumer warps.
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C128]]
// CHECK:         scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[P]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]]
// No lane predicate and no warp sync: every consumer thread arrives.
// CHECK:         scf.for %{{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[FC:.*]] = llvm.getelementptr %[[BASE]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[FC]], %[[CPH]]
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      %[[EC:.*]] = llvm.getelementptr %[[EMPTY]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[EC]] : !llvm.ptr<3>
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
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 4096 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui %[[TID]]
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// F: Pg = 1 (one producer task arms), E: Cg = 2 consumer warps.
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C2]]
// The consumer task (warps 0-1) comes first.
// CHECK:         scf.for
// The producer task (warps 2-3): both warps wait on E[p]; warp 2 arms F[p].
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[FIRST_WARP:.*]] = arith.cmpi eq, %[[WARP]], %[[C2]]
// CHECK:           scf.if %[[FIRST_WARP]] {
// CHECK:             %[[EL:.*]] = nvvm.elect.sync
// CHECK:             scf.if %[[EL]] {
// CHECK:               %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[P]]]
// CHECK:               nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]]
// Both warps drain.
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
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
// CHECK-DAG:     %[[CM2:.*]] = arith.constant -2 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 4096 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui %[[TID]]
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// One arrival per stage and phase on both sides (one lane owns a stage).
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         scf.if
// CHECK:           scf.for
// CHECK:         scf.if
// CHECK:           %[[LANE:.*]] = arith.subi %[[WARP]], %[[C2]] : i32
// CHECK:           %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[IDX:.*]] = %[[LANE]], %[[PPH:.*]] = %[[C1]])
// CHECK:             %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[IDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:               %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[IDX]]]
// CHECK:               nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]]
// CHECK-DAG:         %[[NEXT:.*]] = arith.addi %[[IDX]], %[[C2]] : i32
// CHECK:             %[[W:.*]] = arith.cmpi sge, %[[NEXT]], %[[C4]] : i32
// CHECK-DAG:         %[[WR:.*]] = arith.addi %[[IDX]], %[[CM2]] : i32
// CHECK-DAG:         %[[NI:.*]] = arith.select %[[W]], %[[WR]], %[[NEXT]] : i32
// CHECK-DAG:         %[[FL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:         %[[NP:.*]] = arith.select %[[W]], %[[FL]], %[[PPH]] : i32
// CHECK:             scf.yield %[[NI]], %[[NP]] : i32, i32
// CHECK:           }
// Drain: S / stride = 2 waits, from the loop's final cursor, step 2.
// CHECK:           %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK-DAG:       %[[DN:.*]] = arith.addi %[[PEND]]#0, %[[C2]] : i32
// CHECK:           %[[DW:.*]] = arith.cmpi sge, %[[DN]], %[[C4]] : i32
// CHECK-DAG:       %[[DWR:.*]] = arith.addi %[[PEND]]#0, %[[CM2]] : i32
// CHECK-DAG:       %[[D1I:.*]] = arith.select %[[DW]], %[[DWR]], %[[DN]] : i32
// CHECK-DAG:       %[[DFL:.*]] = arith.xori %[[PEND]]#1, %[[C1]] : i32
// CHECK-DAG:       %[[D1P:.*]] = arith.select %[[DW]], %[[DFL]], %[[PEND]]#1 : i32
// CHECK:           %[[D1:.*]] = llvm.getelementptr %[[EMPTY]][%[[D1I]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D1]], %[[D1P]]
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
