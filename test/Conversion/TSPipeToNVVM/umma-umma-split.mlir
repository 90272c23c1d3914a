// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for sm_100a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// UmmaUmma with split cursors: the cell "UmmaUmma x split" of the lowering
// test matrix (README.md). TS's UmmaUmma factory offers neither flag
// (ts-semantics 2.6), but its manager turns advance_on_wait on for a split
// consumer (R66, here tspipe-normalize), and the config field
// advance_on_acquire is accepted for every type (docs/Protocols.md, Split
// cursors). The barrier operations are UmmaUmma's (elected tcgen05.commit on
// both sides); only the cursors differ.

// Split consumer, one CTA (ts-semantics 4.5): @waiter waits on @ring and
// hands the stage on through a proxy pipeline (@proxy, AsyncAsync);
// @releaser waits on @proxy, works on the @ring stage it did not wait for
// (current_stage) and releases @ring and @proxy. No advance flag is in the
// config: tspipe-normalize sets advance_on_wait on @ring because @waiter
// waits without releasing. The waiter waits on F[c] and advances c at once;
// the releaser keeps its own cursor cr (phase 0) and commits to E[cr]
// without waiting on @ring. Layout: @ring F +0, E +16; @proxy F +32, E +48.
// CHECK-LABEL: gpu.func @split_consumer
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[PROXY_F:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[PROXY_E:.*]] = llvm.getelementptr %[[BASE]][48] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[PROXY_F]], %[[C32]]
// CHECK:         nvvm.mbarrier.init %[[PROXY_E]], %[[C32]]
// CHECK:         nvvm.barrier0
// Producer (warp 0): as in umma-umma.mlir.
// CHECK:         scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]]) -> (i32, i32)
// CHECK:           %[[EP:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[EP]], %[[PPH]]
// CHECK:           %[[FP:.*]] = llvm.getelementptr %[[BASE]][%[[P]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[FP]] : !llvm.ptr<3>
// CHECK:           scf.yield
// CHECK-COUNT-2:   nvvm.mbarrier.try_wait.parity
// Waiter (warp 1): wait on F[c], advance c, no commit on @ring.
// CHECK:         scf.for %{{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C1]])
// CHECK:           %[[FC:.*]] = llvm.getelementptr %[[BASE]][%[[C]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[FC]], %[[CPH]]
// CHECK-NOT:       nvvm.tcgen05.commit
// CHECK-DAG:       %[[CN:.*]] = arith.addi %[[C]], %[[C1]] : i32
// CHECK:           %[[CW:.*]] = arith.cmpi sge, %[[CN]], %[[C2]] : i32
// CHECK-DAG:       %[[CWR:.*]] = arith.addi %[[C]], %[[CM1]] : i32
// CHECK-DAG:       %[[CNI:.*]] = arith.select %[[CW]], %[[CWR]], %[[CN]] : i32
// CHECK-DAG:       %[[CFL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CNP:.*]] = arith.select %[[CW]], %[[CFL]], %[[CPH]] : i32
// CHECK-NOT:       nvvm.tcgen05.commit
// CHECK:           scf.yield %[[CNI]], %[[CNP]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
// Releaser (warp 2): its own cursor cr on @ring; one elected commit to
// E[cr], then its @proxy release.
// CHECK:         scf.for %{{.*}} iter_args(%[[CR:.*]] = %[[C0]], %[[CRPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C0]]) -> (i32, i32, i32, i32)
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity %{{.*}}, %[[CRPH]]
// CHECK:           %[[ECR:.*]] = llvm.getelementptr %[[EMPTY]][%[[CR]]]
// CHECK:           %[[EL2:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL2]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[ECR]] : !llvm.ptr<3>
// CHECK-NEXT:      }
// CHECK-DAG:       %[[CRN:.*]] = arith.addi %[[CR]], %[[C1]] : i32
// CHECK:           %[[CRW:.*]] = arith.cmpi sge, %[[CRN]], %[[C2]] : i32
// CHECK-DAG:       %[[CRWR:.*]] = arith.addi %[[CR]], %[[CM1]] : i32
// CHECK-DAG:       %[[CRNI:.*]] = arith.select %[[CRW]], %[[CRWR]], %[[CRN]] : i32
// CHECK-DAG:       %[[CRFL:.*]] = arith.xori %[[CRPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CRNP:.*]] = arith.select %[[CRW]], %[[CRFL]], %[[CRPH]] : i32
// CHECK:           scf.yield %[[CRNI]], %[[CRNP]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
// CHECK:         gpu.return
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @split_consumer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<umma_umma, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
      tspipe.pipeline @proxy config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @waiter warps(1, 1) produces [@proxy] consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          %p = tspipe.producer_acquire @proxy
          tspipe.producer_commit @proxy
        }
      }
      tspipe.task @releaser warps(2, 1) consumes [@ring, @proxy] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.consumer_wait @proxy
          %s = tspipe.current_stage @ring consumer
          tspipe.consumer_release @ring
          tspipe.consumer_release @proxy
        }
      }
    }
    gpu.return
  }
}

// -----

// advance_on_acquire in a CTA pair (V = 2, cta_leader on both sides). The
// acquire waits on E[p] on the pair leader and advances p there only (the
// advance of a CtaLeader-gated split acquire is gated, docs/Protocols.md,
// Cursors); the commit issues the leader's pair-multicast commit to F[pc]
// (mask 0b11 << (rank - rank % 2), cta_group::2) and advances pc on every
// CTA; the drain waits on E[pc] on every CTA (B17).
// CHECK-LABEL: gpu.func @advance_on_acquire
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         nvvm.cluster.arrive.relaxed {aligned}
// CHECK:         nvvm.cluster.wait {aligned}
// CHECK:         %[[PEND:.*]]:4 = scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]], %[[PC:.*]] = %[[C0]], %[[PCPH:.*]] = %[[C1]])
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[EP:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[EP]], %[[PPH]]
// CHECK:           }
// CHECK-DAG:       %[[PN:.*]] = arith.addi %[[P]], %[[C1]] : i32
// CHECK:           %[[PW:.*]] = arith.cmpi sge, %[[PN]], %[[C2]] : i32
// CHECK-DAG:       %[[PNIWR:.*]] = arith.addi %[[P]], %[[CM1]] : i32
// CHECK-DAG:       %[[PNI:.*]] = arith.select %[[PW]], %[[PNIWR]], %[[PN]] : i32
// CHECK-DAG:       %[[PFL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PNP:.*]] = arith.select %[[PW]], %[[PFL]], %[[PPH]] : i32
// CHECK-DAG:       %[[PGI:.*]] = arith.select %[[LEAD]], %[[PNI]], %[[P]] : i32
// CHECK-DAG:       %[[PGP:.*]] = arith.select %[[LEAD]], %[[PNP]], %[[PPH]] : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK-DAG:         %[[PAIR:.*]] = arith.subi %[[RANK]], %[[V]] : i32
// CHECK-DAG:         %[[M:.*]] = arith.shli %[[C3]], %[[PAIR]] : i32
// CHECK-DAG:         %[[MASK:.*]] = arith.trunci %[[M]] : i32 to i16
// CHECK-DAG:         %[[FPC:.*]] = llvm.getelementptr %[[BASE]][%[[PC]]]
// CHECK:             %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:             scf.if %[[EL]] {
// CHECK-NEXT:          nvvm.tcgen05.commit %[[FPC]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-DAG:       %[[PCN:.*]] = arith.addi %[[PC]], %[[C1]] : i32
// CHECK:           %[[PCW:.*]] = arith.cmpi sge, %[[PCN]], %[[C2]] : i32
// CHECK-DAG:       %[[PCNIWR:.*]] = arith.addi %[[PC]], %[[CM1]] : i32
// CHECK-DAG:       %[[PCNI:.*]] = arith.select %[[PCW]], %[[PCNIWR]], %[[PCN]] : i32
// CHECK-DAG:       %[[PCFL:.*]] = arith.xori %[[PCPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PCNP:.*]] = arith.select %[[PCW]], %[[PCFL]], %[[PCPH]] : i32
// The commit cursor moves on every CTA: no select on the gate.
// CHECK:           scf.yield %[[PGI]], %[[PGP]], %[[PCNI]], %[[PCNP]] : i32, i32, i32, i32
// The drain follows pc, on every CTA.
// CHECK-NOT:     scf.if
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#2]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#3
// CHECK-NOT:     scf.if
// CHECK:         nvvm.mbarrier.try_wait.parity
// Consumer: the leader waits on F[c] and commits E[c] to the pair.
// CHECK:         scf.for %{{.*}} iter_args(%[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[V2:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD2:.*]] = arith.cmpi eq, %[[V2]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD2]] {
// CHECK:             %[[FC:.*]] = llvm.getelementptr %[[BASE]][%[[CI]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[FC]], %[[CPH]]
// CHECK:           scf.if %[[LEAD2]] {
// CHECK-DAG:         %[[PAIR2:.*]] = arith.subi %[[RANK]], %[[V2]] : i32
// CHECK-DAG:         %[[M2:.*]] = arith.shli %[[C3]], %[[PAIR2]] : i32
// CHECK-DAG:         %[[MASK2:.*]] = arith.trunci %[[M2]] : i32 to i16
// CHECK-DAG:         %[[EC:.*]] = llvm.getelementptr %[[EMPTY]][%[[CI]]]
// CHECK:             %[[EL2:.*]] = nvvm.elect.sync -> i1
// CHECK:             scf.if %[[EL2]] {
// CHECK-NEXT:          nvvm.tcgen05.commit %[[EC]], multicast_mask = %[[MASK2]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-DAG:       %[[CCN:.*]] = arith.addi %[[CI]], %[[C1]] : i32
// CHECK:           %[[CCW:.*]] = arith.cmpi sge, %[[CCN]], %[[C2]] : i32
// CHECK-DAG:       %[[CCWR:.*]] = arith.addi %[[CI]], %[[CM1]] : i32
// CHECK-DAG:       %[[CCX:.*]] = arith.select %[[CCW]], %[[CCWR]], %[[CCN]] : i32
// CHECK-DAG:       %[[CCFL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CCPX:.*]] = arith.select %[[CCW]], %[[CCFL]], %[[CPH]] : i32
// CHECK-DAG:       %[[CCNI:.*]] = arith.select %[[LEAD2]], %[[CCX]], %[[CI]] : i32
// CHECK-DAG:       %[[CCNP:.*]] = arith.select %[[LEAD2]], %[[CCPX]], %[[CPH]] : i32
// CHECK:           scf.yield %[[CCNI]], %[[CCNP]] : i32, i32
// CHECK:         gpu.return
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @advance_on_acquire(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<umma_umma, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader,
          consumer_signaling = cta_leader, advance_on_acquire = true>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// BIN-COUNT-2: gpu.binary @m
