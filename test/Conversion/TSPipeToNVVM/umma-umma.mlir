// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for sm_100a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// UmmaUmma (docs/Protocols.md, UmmaUmma and tcgen05 commits): acquire waits
// on E[p], commit is an elected tcgen05.commit to F[p], wait waits on F[c],
// release an elected tcgen05.commit to E[c]; with V = 2 both commits
// multicast to the pair (0b11 << (rank - rank % 2)) with cta_group::2.
// UmmaUmma never interleaves (R58); its split-cursor forms are in
// umma-umma-split.mlir.

// CHECK-LABEL: gpu.func @one_cta
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[F]] : !llvm.ptr<3>
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           %[[EL2:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL2]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @one_cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<umma_umma, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
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

// -----

// CHECK-LABEL: gpu.func @try_forms
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           %[[R:.*]] = nvvm.mbarrier.try_wait %[[E]], %[[PPH]] : !llvm.ptr<3>, i32 -> i1
// CHECK-DAG:       %[[NR:.*]] = arith.xori %[[R]], %[[TRUE]]
// CHECK:           scf.if %[[NR]] {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:           nvvm.tcgen05.commit %[[F]] : !llvm.ptr<3>
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           %[[CR:.*]] = nvvm.mbarrier.try_wait %[[F2]], %[[CPH]] : !llvm.ptr<3>, i32 -> i1
// CHECK-DAG:       %[[NCR:.*]] = arith.xori %[[CR]], %[[TRUE]]
// CHECK:           scf.if %[[NCR]] {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @try_forms(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<umma_umma, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %r = tspipe.producer_try_acquire @ring
          %s = tspipe.producer_acquire @ring ready(%r)
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %r = tspipe.consumer_try_wait @ring
          %s = tspipe.consumer_wait @ring ready(%r)
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// V = 2, both sides cta_leader (X3): only pair leaders wait and commit;
// each commit reaches both CTAs of the pair.
// CHECK-LABEL: gpu.func @pair
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           scf.if %[[LEAD]] {
// CHECK-DAG:         %[[PAIR:.*]] = arith.subi %[[RANK]], %[[V]] : i32
// CHECK-DAG:         %[[M:.*]] = arith.shli %[[C3]], %[[PAIR]] : i32
// CHECK-DAG:         %[[MASK:.*]] = arith.trunci %[[M]] : i32 to i16
// CHECK-DAG:         %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:             nvvm.tcgen05.commit %[[F]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// The commit's advance runs on every CTA (no select on the gate).
// CHECK-NOT:       arith.select %[[LEAD]]
// CHECK:           scf.yield
// The drain runs on every CTA, the non-leader too: the release commits
// reach both CTAs' empty barriers (field bug B17), so no gate opens
// between the loop and its two waits.
// CHECK-NOT:     scf.if
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK-NOT:     scf.if
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[V2:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD2:.*]] = arith.cmpi eq, %[[V2]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD2]] {
// CHECK:             %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           scf.if %[[LEAD2]] {
// CHECK-DAG:         %[[PAIR2:.*]] = arith.subi %[[RANK]], %[[V2]] : i32
// CHECK-DAG:         %[[M2:.*]] = arith.shli %[[C3]], %[[PAIR2]] : i32
// CHECK-DAG:         %[[MASK2:.*]] = arith.trunci %[[M2]] : i32 to i16
// CHECK-DAG:         %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:             nvvm.tcgen05.commit %[[E2]], multicast_mask = %[[MASK2]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// The release advance is gated (unit stride).
// CHECK-DAG:       %[[CN:.*]] = arith.addi %[[CIDX]], %[[C1]] : i32
// CHECK:           %[[CW:.*]] = arith.cmpi sge, %[[CN]], %[[C2]] : i32
// CHECK-DAG:       %[[CWR:.*]] = arith.addi %[[CIDX]], %[[CM1]] : i32
// CHECK-DAG:       %[[CX:.*]] = arith.select %[[CW]], %[[CWR]], %[[CN]] : i32
// CHECK-DAG:       %[[CFL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CPX:.*]] = arith.select %[[CW]], %[[CFL]], %[[CPH]] : i32
// CHECK-DAG:       %[[CNI:.*]] = arith.select %[[LEAD2]], %[[CX]], %[[CIDX]] : i32
// CHECK-DAG:       %[[CNP:.*]] = arith.select %[[LEAD2]], %[[CPX]], %[[CPH]] : i32
// CHECK:           scf.yield %[[CNI]], %[[CNP]] : i32, i32
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @pair(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<umma_umma, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 2, 1, 1], producer_signaling = cta_leader,
          consumer_signaling = cta_leader>)
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

// -----

// A cluster that is not a pair: [1, 2, 1, 1] on 2 CTAs, cta_leader on both
// sides. With V = 1 every CTA is its own leader (no rank gate) and TS builds
// no mask (ts-semantics 2.6: "V == 1 -> none, cta_group 1"): each CTA's
// tcgen05 work signals its own barriers with the plain cta_group::1 commit,
// as real TS's cluster2 row of docs/crosscheck-ptx.md. Nothing reads the
// CTA rank; init is cluster-wide (B10).
// CHECK-LABEL: gpu.func @cluster
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK-NOT:     nvvm.read.ptx.sreg.cluster.ctarank
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Pg = Cg = 1 (R48): one tcgen05 commit per phase on each side.
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         %[[F1:.*]] = llvm.getelementptr %[[BASE]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[F1]], %[[C1]]
// CHECK:         %[[E1:.*]] = llvm.getelementptr %[[EMPTY]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[E1]], %[[C1]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.cluster.arrive.relaxed {aligned}
// CHECK:         nvvm.cluster.wait {aligned}
// CHECK-NOT:     nvvm.barrier0
// Producer: no gate; wait E[p] with the producer phase, commit F[p].
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK-NOT:       scf.if
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[F]] : !llvm.ptr<3>
// CHECK-NEXT:      }
// CHECK-DAG:       %[[PN:.*]] = arith.addi %[[PIDX]], %[[C1]] : i32
// CHECK:           %[[PW:.*]] = arith.cmpi sge, %[[PN]], %[[C2]] : i32
// CHECK-DAG:       %[[PNIWR:.*]] = arith.addi %[[PIDX]], %[[CM1]] : i32
// CHECK-DAG:       %[[PNI:.*]] = arith.select %[[PW]], %[[PNIWR]], %[[PN]] : i32
// CHECK-DAG:       %[[PFL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PNP:.*]] = arith.select %[[PW]], %[[PFL]], %[[PPH]] : i32
// CHECK:           scf.yield %[[PNI]], %[[PNP]] : i32, i32
// Drain: S = 2 waits on E from the loop's final cursor, on every CTA.
// CHECK-NOT:     scf.if
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK-NOT:     scf.if
// CHECK:         nvvm.mbarrier.try_wait.parity
// Consumer: no gate; wait F[c] with the consumer phase, commit E[c].
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK-NOT:       scf.if
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           %[[EL2:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL2]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
// CHECK-NEXT:      }
// CHECK-NOT:     nvvm.read.ptx.sreg.cluster.ctarank
// CHECK-NOT:     multicast_mask
// CHECK:         gpu.return
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @cluster(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<umma_umma, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [1, 2, 1, 1], producer_signaling = cta_leader,
          consumer_signaling = cta_leader>)
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


// BIN-COUNT-4: gpu.binary @m
