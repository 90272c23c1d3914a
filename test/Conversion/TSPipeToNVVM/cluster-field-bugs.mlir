// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s

// Field bugs of remote barrier use (reference field-bugs B10, B14, B17, B2),
// each on the smallest kernel that shows the right sequence.

// B10: every barrier is initialized, the inits are fenced, and the whole
// cluster passes a relaxed arrive + wait before any task can signal a
// peer's barrier; no CTA-only bar.sync replaces the cluster barrier.

// CHECK-LABEL: gpu.func @B10_cluster_init_before_first_bracket
// CHECK:         scf.if
// CHECK:           nvvm.elect.sync
// CHECK:           nvvm.mbarrier.init
// CHECK:           nvvm.mbarrier.init
// CHECK:           nvvm.fence.mbarrier.init
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:  nvvm.cluster.wait {aligned}
// CHECK-NOT:   nvvm.barrier0
// CHECK:       nvvm.mbarrier.try_wait.parity
gpu.module @m {
  gpu.func @B10_cluster_init_before_first_bracket(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 1, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
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

// B14: the release in CTA 1 that must reach CTA 0's empty barrier maps the
// barrier with mapa and arrives with the shared::cluster form (an
// !llvm.ptr<7> operand); the local form never takes a mapped address.

// CHECK-LABEL: gpu.func @B14_remote_arrive_cluster_form
// CHECK:         %[[LANE:.*]] = arith.remui
// CHECK:         nvvm.bar.warp.sync
// CHECK:         %[[E:.*]] = llvm.getelementptr
// CHECK-NEXT:    %[[REMOTE:.*]] = nvvm.mapa %[[E]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:    nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-NOT:     nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
gpu.module @m {
  gpu.func @B14_remote_arrive_cluster_form(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>)
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

// B17: a producing task that does not drain itself still waits, before it
// ends, for every stage's empty barrier once more (num_stages = 3 waits,
// parity from the cursor after the loop), so its CTA cannot exit while
// peers may still arrive on its barriers or their copies land in it.

// CHECK-LABEL: gpu.func @B17_drain_before_exit
// CHECK-DAG:     %[[CM2:.*]] = arith.constant -2 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// E[0] lies 8 S = 24 bytes after F[0].
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][24] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[P:.*]]:2 = scf.for
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[E0:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]#0]
// CHECK-NEXT:    nvvm.mbarrier.try_wait.parity %[[E0]], %[[P]]#1
// CHECK-DAG:     %[[N1:.*]] = arith.addi %[[P]]#0, %[[C1]] : i32
// CHECK:         %[[W1:.*]] = arith.cmpi sge, %[[N1]], %[[C3]] : i32
// CHECK-DAG:     %[[WR1:.*]] = arith.addi %[[P]]#0, %[[CM2]] : i32
// CHECK-DAG:     %[[I1:.*]] = arith.select %[[W1]], %[[WR1]], %[[N1]] : i32
// CHECK-DAG:     %[[FL1:.*]] = arith.xori %[[P]]#1, %[[C1]] : i32
// CHECK-DAG:     %[[PH1:.*]] = arith.select %[[W1]], %[[FL1]], %[[P]]#1 : i32
// CHECK:         %[[E1:.*]] = llvm.getelementptr %[[EMPTY]][%[[I1]]]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[E1]], %[[PH1]]
// CHECK-DAG:     %[[N2:.*]] = arith.addi %[[I1]], %[[C1]] : i32
// CHECK:         %[[W2:.*]] = arith.cmpi sge, %[[N2]], %[[C3]] : i32
// CHECK-DAG:     %[[WR2:.*]] = arith.addi %[[I1]], %[[CM2]] : i32
// CHECK-DAG:     %[[I2:.*]] = arith.select %[[W2]], %[[WR2]], %[[N2]] : i32
// CHECK-DAG:     %[[FL2:.*]] = arith.xori %[[PH1]], %[[C1]] : i32
// CHECK-DAG:     %[[PH2:.*]] = arith.select %[[W2]], %[[FL2]], %[[PH1]] : i32
// CHECK:         %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[I2]]]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[E2]], %[[PH2]]
// CHECK-NOT:     nvvm.mbarrier.try_wait.parity
// CHECK:       }
gpu.module @m {
  gpu.func @B17_drain_before_exit(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 3, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
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

// B2: the multicast try_cancel completes 16 bytes on every CTA's full
// barrier, so every CTA's barrier gets its own arrive.expect_tx (lanes
// 0..3 of the rank-0 producer warp, one per CTA), and the consumer wait is
// not predicated on the rank.

// CHECK-LABEL: gpu.func @B2_clc_arms_every_cta
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[LANE:.*]] = arith.remui
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[RANK0:.*]] = arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK:           scf.if %[[RANK0]] {
// CHECK:             %[[PE:.*]] = llvm.getelementptr %[[EMPTY]][%[[PI]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           %[[ARMING:.*]] = arith.cmpi ult, %[[LANE]], %[[C4]] : i32
// CHECK:           %[[ARM:.*]] = arith.andi %[[RANK0]], %[[ARMING]] : i1
// CHECK:           scf.if %[[ARM]] {
// CHECK:             %[[PF:.*]] = llvm.getelementptr %[[BASE]][%[[PI]]]
// CHECK:             %[[PEER_F:.*]] = nvvm.mapa %[[PF]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[PEER_F]], %[[C16]] {scope = #nvvm.mem_scope<cluster>}
// CHECK:         scf.for %{{.*}} iter_args(%[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK-NOT:       scf.if
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[BASE]][%[[CI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @B2_clc_arms_every_cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([4, 1, 1]) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 1, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 128>,
          cta_layout_vmnk = [1, 4, 1, 1], producer_signaling = cta_leader>)
          smem_bytes(16)
      tspipe.task @sched warps(0, 1) produces [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.producer_acquire @clc
          tspipe.producer_commit @clc
        }
      }
      tspipe.task @use warps(1, 1) consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @clc
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}
