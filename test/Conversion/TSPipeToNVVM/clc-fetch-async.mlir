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
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
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
// CHECK:         %[[PEND:.*]]:4 = scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]], %[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
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
// CHECK-DAG:       %[[PN:.*]] = arith.addi %[[PI]], %[[C1]] : i32
// CHECK:           %[[PW:.*]] = arith.cmpi sge, %[[PN]], %[[C2]] : i32
// CHECK-DAG:       %[[PWR:.*]] = arith.addi %[[PI]], %[[CM1]] : i32
// CHECK-DAG:       %[[PX:.*]] = arith.select %[[PW]], %[[PWR]], %[[PN]] : i32
// CHECK-DAG:       %[[PFL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PPX:.*]] = arith.select %[[PW]], %[[PFL]], %[[PPH]] : i32
// CHECK-DAG:       %[[NEXT_PI:.*]] = arith.select %[[RANK0]], %[[PX]], %[[PI]] : i32
// CHECK-DAG:       %[[NEXT_PPH:.*]] = arith.select %[[RANK0]], %[[PPX]], %[[PPH]] : i32
// CHECK-NOT:       scf.if
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[SMEM]][%[[CI]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// The response was read (generic proxy); the next try_cancel writes the
// slot through the async proxy (cudnn-frontend PR 894).
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      %[[CE:.*]] = llvm.getelementptr %[[EBASE]][%[[CI]]]
// CHECK-NEXT:      %[[CTA0_E:.*]] = nvvm.mapa %[[CE]], %[[C0]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[CTA0_E]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK:           scf.yield %[[NEXT_PI]], %[[NEXT_PPH]]
// CHECK:         }
// CHECK:         %[[TAIL_RANK0:.*]] = arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK:         scf.if %[[TAIL_RANK0]] {
// CHECK:           %[[D0:.*]] = llvm.getelementptr %[[EBASE]][%[[PEND]]#0]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK:         }
// CHECK-DAG:     %[[DN:.*]] = arith.addi %[[PEND]]#0, %[[C1]] : i32
// CHECK:         %[[DW:.*]] = arith.cmpi sge, %[[DN]], %[[C2]] : i32
// CHECK-DAG:     %[[DWR:.*]] = arith.addi %[[PEND]]#0, %[[CM1]] : i32
// CHECK-DAG:     %[[D1I:.*]] = arith.select %[[DW]], %[[DWR]], %[[DN]] : i32
// CHECK-DAG:     %[[DFL:.*]] = arith.xori %[[PEND]]#1, %[[C1]] : i32
// CHECK-DAG:     %[[D1P:.*]] = arith.select %[[DW]], %[[DFL]], %[[PEND]]#1 : i32
// CHECK:         scf.if %[[TAIL_RANK0]] {
// CHECK:           %[[D1:.*]] = llvm.getelementptr %[[EBASE]][%[[D1I]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D1]], %[[D1P]]
// CHECK:         }
// CHECK-NOT:     scf.if %[[TAIL_RANK0]]
// The worker task, in the else branch of the scheduler's warp test (the
// tasks dispatch as one if / else-if chain): wait on its own CTA's F,
// release to CTA 0.
// CHECK:         } else {
// CHECK:         scf.for %{{.*}} iter_args(%[[WI:.*]] = %[[C0]], %[[WPH:.*]] = %[[C0]])
// CHECK:           %[[WF:.*]] = llvm.getelementptr %[[SMEM]][%[[WI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[WF]], %[[WPH]]
// CHECK:           %[[WE:.*]] = llvm.getelementptr %[[EBASE]][%[[WI]]]
// CHECK:           %[[W_CTA0_E:.*]] = nvvm.mapa %[[WE]], %[[C0]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:           nvvm.mbarrier.arrive %[[W_CTA0_E]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
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
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NOT:     nvvm.mapa
// CHECK-NOT:     nvvm.read.ptx.sreg.cluster.ctarank
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C32]]
// CHECK:         nvvm.barrier0
// CHECK:         %[[PEND:.*]]:4 = scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]], %[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[PE:.*]] = llvm.getelementptr %[[EMPTY]][%[[PI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           %[[LANE0:.*]] = arith.cmpi ult, %[[LANE]], %[[C1]] : i32
// CHECK:           scf.if %[[LANE0]] {
// CHECK:             %[[PF:.*]] = llvm.getelementptr %[[BASE]][%[[PI]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[PF]], %[[C16]] : !llvm.ptr<3>, i32
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[BASE]][%[[CI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// CHECK:           %[[CE:.*]] = llvm.getelementptr %[[EMPTY]][%[[CI]]]
// CHECK:           nvvm.mbarrier.arrive %[[CE]] : !llvm.ptr<3>
// Drain: S = 2 waits on E, no rank gate (one CTA).
// CHECK-NOT:     scf.if
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK:         nvvm.mbarrier.try_wait.parity
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

// -----

// Try forms, one CTA: TS skips both probes of a ClcFetchAsync pipeline
// (ts-semantics 2, "ClcFetchAsync: try_acquire is a no-op", and 2.7
// "try_wait: no-op"), and its try token stays 0, so the acquire and the
// wait always block. tspipe: no probe (no non-blocking mbarrier.try_wait),
// the token is the constant false, and the blocking waits sit in no
// scf.if. Everything else is the one-CTA sequence: lane 0 arms the local
// F[p] with the 16 response bytes, every thread arrives on the local E[c].
// CHECK-LABEL: gpu.func @clc_try_forms
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK-NOT:     nvvm.mbarrier.try_wait %
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : i32
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C32]]
// CHECK:         nvvm.barrier0
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]], %[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK-NOT:       nvvm.mbarrier.try_wait %
// CHECK-NOT:       scf.if
// CHECK:           %[[PE:.*]] = llvm.getelementptr %[[EMPTY]][%[[PI]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           %[[ARMING:.*]] = arith.cmpi ult, %[[LANE]], %[[C1]] : i32
// CHECK:           scf.if %[[ARMING]] {
// CHECK:             %[[PF:.*]] = llvm.getelementptr %[[BASE]][%[[PI]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[PF]], %[[C16]] : !llvm.ptr<3>, i32
// CHECK:           }
// CHECK-NOT:       nvvm.mbarrier.try_wait %
// CHECK-NOT:       scf.if
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[BASE]][%[[CI]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// CHECK-NOT:       scf.if
// CHECK:           %[[CE:.*]] = llvm.getelementptr %[[EMPTY]][%[[CI]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[CE]] : !llvm.ptr<3>
// CHECK:           scf.yield
// CHECK-NOT:     nvvm.mbarrier.try_wait %
// CHECK:         gpu.return
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @clc_try_forms(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 32>,
          producer_signaling = cta_leader>)
          smem_bytes(32)
      tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %t = tspipe.producer_try_acquire @clc
          %p = tspipe.producer_acquire @clc ready(%t)
          tspipe.producer_commit @clc
          %tw = tspipe.consumer_try_wait @clc
          %s = tspipe.consumer_wait @clc ready(%tw)
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}
