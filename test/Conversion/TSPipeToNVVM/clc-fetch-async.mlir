// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// RUN: tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// The PTX lines in the order LLVM lays the task blocks out (the worker's
// release before the scheduler's arm and try_cancel).
// PTX: gpu.binary @m
// PTX-SAME: .target sm_100a
// PTX-SAME: .explicitcluster
// PTX-SAME: .reqnctapercluster 2, 1, 1
// PTX-SAME: barrier.cluster.arrive.relaxed.aligned;
// PTX-SAME: mapa.shared::cluster
// PTX-SAME: mbarrier.arrive.release.cluster.shared::cluster.b64
// PTX-SAME: mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64
// PTX-SAME: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// BIN: gpu.binary @m
// BIN: gpu.binary @m

// ClcFetchAsync on a 2-CTA cluster (docs/Protocols.md, ClcFetchAsync). The
// producer (scheduler task, cta_leader) runs on rank 0 only: it waits on
// E[p], then lanes 0 and 1 of its warp each arm the full barrier of CTA 0
// and CTA 1 with the 16 response bytes through mapa and the shared::cluster
// arrive.expect_tx (field bug B2: every CTA that the multicast try_cancel
// completes on is armed, not only CTA 0). try_acquire and try_wait emit no
// probe. Commit advances the producer cursor on rank 0 only. The wait runs
// on every CTA on its own F[c] (never gated on the rank). Every consumer
// thread releases to CTA 0's E[c]. The drain waits S times on rank 0.

// CHECK-LABEL: gpu.func @clc_cluster
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG:     %[[CG:.*]] = arith.constant 192 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]]
// CHECK:         %[[EBASE:.*]] = llvm.getelementptr %[[SMEM:.*]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[RESP:.*]] = llvm.getelementptr %[[SMEM]][128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[SMEM]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EBASE]], %[[CG]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]], %[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK-NOT:       nvvm.mbarrier.try_wait %
// CHECK:           %[[RANK0:.*]] = arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK:           scf.if %[[RANK0]] {
// CHECK:             %[[PE:.*]] = llvm.getelementptr %[[EBASE]][%[[PI]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           }
// CHECK:           %[[ARMING_LANE:.*]] = arith.cmpi ult, %[[LANE]], %[[C2]] : i32
// CHECK:           %[[ARM:.*]] = arith.andi %[[RANK0]], %[[ARMING_LANE]] : i1
// CHECK:           scf.if %[[ARM]] {
// CHECK:             %[[PF:.*]] = llvm.getelementptr %[[SMEM]][%[[PI]]]
// CHECK:             %[[PEER_F:.*]] = nvvm.mapa %[[PF]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[PEER_F]], %[[C16]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32
// CHECK:           }
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[SMEM]][%[[PI]]]
// CHECK:           %[[OFF:.*]] = arith.muli %[[PI]], %[[C16]]
// CHECK:           %[[REC:.*]] = llvm.getelementptr %[[RESP]][%[[OFF]]]
// CHECK:           nvvm.clusterlaunchcontrol.try.cancel multicast, %[[REC]], %[[F]]
// CHECK:           %[[NEXT_PI:.*]] = arith.select %[[RANK0]], %{{.*}}, %[[PI]] : i32
// CHECK:           %[[NEXT_PPH:.*]] = arith.select %[[RANK0]], %{{.*}}, %[[PPH]] : i32
// CHECK-NOT:       scf.if
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[SMEM]][%[[CI]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// CHECK-NEXT:      %[[CE:.*]] = llvm.getelementptr %[[EBASE]][%[[CI]]]
// CHECK-NEXT:      %[[CTA0_E:.*]] = nvvm.mapa %[[CE]], %[[C0]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[CTA0_E]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK:           scf.yield %[[NEXT_PI]], %[[NEXT_PPH]]
// CHECK:         }
// CHECK:         %[[TAIL_RANK0:.*]] = arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK:         scf.if %[[TAIL_RANK0]] {
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:         scf.if %[[TAIL_RANK0]] {
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:         }
// CHECK-NOT:     nvvm.mbarrier.try_wait.parity
// The worker task, in the else branch of the scheduler's warp test (the
// tasks dispatch as one if / else-if chain): wait on its own CTA's F,
// release to CTA 0.
// CHECK:         } else {
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.mapa %{{.*}}, %[[C0]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:           nvvm.mbarrier.arrive %{{.*}} {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @clc_cluster(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 192>,
          cta_layout_vmnk = [1, 2, 1, 1], producer_signaling = cta_leader>)
          smem_bytes(32)
      tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %t = tspipe.producer_try_acquire @clc
          %p = tspipe.producer_acquire @clc ready(%t)
          %full = tspipe.full_barrier %p : !llvm.ptr<3>
          %resp = tspipe.stage_buffer %p : !llvm.ptr<3>
          %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
          %c0_i32 = arith.constant 0 : i32
          %is0 = arith.cmpi eq, %rank, %c0_i32 : i32
          scf.if %is0 {
            %e = nvvm.elect.sync -> i1
            scf.if %e {
              nvvm.clusterlaunchcontrol.try.cancel multicast, %resp, %full
            }
          }
          tspipe.producer_commit @clc
          %tw = tspipe.consumer_try_wait @clc
          %s = tspipe.consumer_wait @clc ready(%tw)
          tspipe.consumer_release @clc
        }
        tspipe.producer_tail @clc
      }
      tspipe.task @work warps(1, 2) consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @clc
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}

// -----

// One CTA: lane 0 arms the local F with the response bytes, the release is
// the local arrive, no rank gate, no mapa.

// CHECK-LABEL: gpu.func @clc_one_cta
// CHECK-NOT:     nvvm.mapa
// CHECK-NOT:     nvvm.read.ptx.sreg.cluster.ctarank
// CHECK:         nvvm.barrier0
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[LANE0:.*]] = arith.cmpi ult, %{{.*}}, %c1_i32 : i32
// CHECK:           scf.if %[[LANE0]] {
// CHECK:             nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16_i32 : !llvm.ptr<3>, i32
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK-NOT:     nvvm.mapa
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @clc_one_cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 32>,
          producer_signaling = cta_leader>)
          smem_bytes(32)
      tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.producer_acquire @clc
          tspipe.producer_commit @clc
          %s = tspipe.consumer_wait @clc
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}
