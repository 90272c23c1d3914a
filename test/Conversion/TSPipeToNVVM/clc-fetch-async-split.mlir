// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s
// The kernel assembles for sm_100a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// ClcFetchAsync with split cursors on a 2-CTA cluster: the cell
// "ClcFetchAsync x split" of the lowering test matrix (README.md).
// advance_on_acquire is set in the config (TS's factory does not offer it,
// the config field is accepted for every type); advance_on_wait is set by
// tspipe-normalize because @waiter waits without releasing (R66, as TS's
// manager does). As in TS's split-consumer pattern (ts-semantics 4.5),
// @waiter hands each stage on through a proxy pipeline (@proxy,
// AsyncAsync), on which @releaser waits before it releases @clc. The
// barrier operations are ClcFetchAsync's
// (docs/Protocols.md, ClcFetchAsync); the producer cursor lives on rank 0
// (TS advances the CLC producer state on the signaling CTA only), so both
// producer cursors advance under the rank-0 gate P.
//
// * acquire (rank 0): wait on E[p] with phase 1, lanes 0 and 1 arm the F[p]
//   of CTA 0 and CTA 1 with the 16 response bytes (mapa + shared::cluster
//   arrive.expect_tx), then p advances; the stage the work sees (F and the
//   response record of the try_cancel) is p before the advance.
// * commit: no instruction; pc advances under P.
// * drain: S = 2 waits on E[pc] under P.
// * wait (@waiter, every CTA): its own F[c], then c advances (no gate).
// * release (@releaser, every CTA): arrive on CTA 0's E[cr], cr advances.
// Layout: @clc F +0, E +16; @proxy F +32, E +48; responses +128.

// CHECK-LABEL: gpu.func @split
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : i32
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[RESP:.*]] = llvm.getelementptr %[[BASE]][128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Pg = 1 (one arming warp), Cg = 64 (one releasing warp on each of 2 CTAs).
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C64]]
// CHECK:         nvvm.cluster.arrive.relaxed {aligned}
// CHECK:         nvvm.cluster.wait {aligned}
// CHECK:         %[[PEND:.*]]:4 = scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]], %[[PC:.*]] = %[[C0]], %[[PCPH:.*]] = %[[C1]])
// CHECK:           %[[RANK0:.*]] = arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK:           scf.if %[[RANK0]] {
// CHECK:             %[[EP:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[EP]], %[[PPH]]
// CHECK:           }
// CHECK:           %[[ARMING_LANE:.*]] = arith.cmpi ult, %[[LANE]], %[[C2]] : i32
// CHECK:           %[[ARM:.*]] = arith.andi %[[RANK0]], %[[ARMING_LANE]] : i1
// CHECK:           scf.if %[[ARM]] {
// CHECK:             %[[FP:.*]] = llvm.getelementptr %[[BASE]][%[[P]]]
// CHECK:             %[[PEER_F:.*]] = nvvm.mapa %[[FP]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[PEER_F]], %[[C16]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32
// CHECK:           }
// CHECK-DAG:       %[[PN:.*]] = arith.addi %[[P]], %[[C1]] : i32
// CHECK:           %[[PW:.*]] = arith.cmpi sge, %[[PN]], %[[C2]] : i32
// CHECK-DAG:       %[[PNIWR:.*]] = arith.addi %[[P]], %[[CM1]] : i32
// CHECK-DAG:       %[[PNI:.*]] = arith.select %[[PW]], %[[PNIWR]], %[[PN]] : i32
// CHECK-DAG:       %[[PFL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PNP:.*]] = arith.select %[[PW]], %[[PFL]], %[[PPH]] : i32
// CHECK-DAG:       %[[PGI:.*]] = arith.select %[[RANK0]], %[[PNI]], %[[P]] : i32
// CHECK-DAG:       %[[PGP:.*]] = arith.select %[[RANK0]], %[[PNP]], %[[PPH]] : i32
// The work's stage is p before the advance: F[p] and response record p.
// CHECK-DAG:       %[[WF:.*]] = llvm.getelementptr %[[BASE]][%[[P]]]
// CHECK-DAG:       %[[ROFF:.*]] = arith.muli %[[P]], %[[C16]] : i32
// CHECK-DAG:       %[[REC:.*]] = llvm.getelementptr %[[RESP]][%[[ROFF]]]
// CHECK:           nvvm.clusterlaunchcontrol.try.cancel multicast, %[[REC]], %[[WF]]
// CHECK-NOT:       nvvm.mbarrier
// CHECK-DAG:       %[[PCN:.*]] = arith.addi %[[PC]], %[[C1]] : i32
// CHECK:           %[[PCW:.*]] = arith.cmpi sge, %[[PCN]], %[[C2]] : i32
// CHECK-DAG:       %[[PCNIWR:.*]] = arith.addi %[[PC]], %[[CM1]] : i32
// CHECK-DAG:       %[[PCNI:.*]] = arith.select %[[PCW]], %[[PCNIWR]], %[[PCN]] : i32
// CHECK-DAG:       %[[PCFL:.*]] = arith.xori %[[PCPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PCNP:.*]] = arith.select %[[PCW]], %[[PCFL]], %[[PCPH]] : i32
// CHECK-DAG:       %[[PCGI:.*]] = arith.select %[[RANK0]], %[[PCNI]], %[[PC]] : i32
// CHECK-DAG:       %[[PCGP:.*]] = arith.select %[[RANK0]], %[[PCNP]], %[[PCPH]] : i32
// CHECK:           scf.yield %[[PGI]], %[[PGP]], %[[PCGI]], %[[PCGP]] : i32, i32, i32, i32
// Drain on rank 0, from the commit cursor pc.
// CHECK:         %[[TAIL_RANK0:.*]] = arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK:         scf.if %[[TAIL_RANK0]] {
// CHECK:           %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#2]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#3
// CHECK:         }
// CHECK:         scf.if %[[TAIL_RANK0]] {
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:         }
// Waiter: own F[c], phase 0, c advances on every CTA; no arrive on @clc.
// CHECK:         scf.for %{{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C1]]) -> (i32, i32, i32, i32)
// CHECK-NOT:       scf.if
// CHECK:           %[[FC:.*]] = llvm.getelementptr %[[BASE]][%[[C]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[FC]], %[[CPH]]
// CHECK-NOT:       nvvm.mapa
// CHECK-DAG:       %[[CN:.*]] = arith.addi %[[C]], %[[C1]] : i32
// CHECK:           %[[CW:.*]] = arith.cmpi sge, %[[CN]], %[[C2]] : i32
// CHECK-DAG:       %[[CNIWR:.*]] = arith.addi %[[C]], %[[CM1]] : i32
// CHECK-DAG:       %[[CNI:.*]] = arith.select %[[CW]], %[[CNIWR]], %[[CN]] : i32
// CHECK-DAG:       %[[CFL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CNP:.*]] = arith.select %[[CW]], %[[CFL]], %[[CPH]] : i32
// CHECK-NOT:       nvvm.mapa
// CHECK:           scf.yield %[[CNI]], %[[CNP]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
// Releaser: after its @proxy wait, CTA 0's E[cr] through mapa, cluster
// scope; it never waits on @clc.
// CHECK:         scf.for %{{.*}} iter_args(%[[CR:.*]] = %[[C0]], %[[CRPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C0]]) -> (i32, i32, i32, i32)
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity %{{.*}}, %[[CRPH]]
// CHECK:           %[[ECR:.*]] = llvm.getelementptr %[[EMPTY]][%[[CR]]]
// CHECK:           %[[CTA0_E:.*]] = nvvm.mapa %[[ECR]], %[[C0]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:           nvvm.mbarrier.arrive %[[CTA0_E]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-DAG:       %[[CRN:.*]] = arith.addi %[[CR]], %[[C1]] : i32
// CHECK:           %[[CRW:.*]] = arith.cmpi sge, %[[CRN]], %[[C2]] : i32
// CHECK-DAG:       %[[CRNIWR:.*]] = arith.addi %[[CR]], %[[CM1]] : i32
// CHECK-DAG:       %[[CRNI:.*]] = arith.select %[[CRW]], %[[CRNIWR]], %[[CRN]] : i32
// CHECK-DAG:       %[[CRFL:.*]] = arith.xori %[[CRPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CRNP:.*]] = arith.select %[[CRW]], %[[CRFL]], %[[CRPH]] : i32
// CHECK:           scf.yield %[[CRNI]], %[[CRNP]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
// CHECK:         gpu.return
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @split(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 64>,
          cta_layout_vmnk = [1, 2, 1, 1], producer_signaling = cta_leader,
          advance_on_acquire = true>)
          smem_bytes(32)
      tspipe.pipeline @proxy config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @sched warps(0, 1) produces [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.producer_acquire @clc
          %full = tspipe.full_barrier %p : !llvm.ptr<3>
          %resp = tspipe.stage_buffer %p : !llvm.ptr<3>
          %e = nvvm.elect.sync -> i1
          scf.if %e {
            nvvm.clusterlaunchcontrol.try.cancel multicast, %resp, %full
          }
          tspipe.producer_commit @clc
        }
      }
      tspipe.task @waiter warps(1, 1) produces [@proxy] consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @clc
          %p = tspipe.producer_acquire @proxy
          tspipe.producer_commit @proxy
        }
      }
      tspipe.task @releaser warps(2, 1) consumes [@clc, @proxy] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.consumer_wait @proxy
          %s = tspipe.current_stage @clc consumer
          tspipe.consumer_release @clc
          tspipe.consumer_release @proxy
        }
      }
    }
    gpu.return
  }
}


// BIN: gpu.binary @m
