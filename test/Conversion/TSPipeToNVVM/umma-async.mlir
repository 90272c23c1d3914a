// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for sm_100a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// UmmaAsync (docs/Protocols.md, UmmaAsync and tcgen05 commits): acquire
// waits on E[p]; commit is one elected tcgen05.commit to F[p] (multicast to
// both CTAs of the pair when T > 1, mask 0b11 << (rank - rank % 2) from the
// rank, B4); wait is local on every CTA; release: every consumer thread
// arrives on E[c], on the pair leader's barrier through mapa when V = 2; the
// drain (pair leaders only) advances num_stages - 1 times and waits once.

// CHECK-LABEL: gpu.func @one_cta
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C128]]
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[F]] : !llvm.ptr<3>
// CHECK:           scf.yield
// Drain: advance once (num_stages - 1), then one wait on that stage.
// CHECK-DAG:     %[[DN:.*]] = arith.addi %[[PEND]]#0, %[[C1]] : i32
// CHECK:         %[[DW:.*]] = arith.cmpi sge, %[[DN]], %[[C2]] : i32
// CHECK-DAG:     %[[DWR:.*]] = arith.addi %[[PEND]]#0, %[[CM1]] : i32
// CHECK-DAG:     %[[IDX:.*]] = arith.select %[[DW]], %[[DWR]], %[[DN]] : i32
// CHECK-DAG:     %[[DFL:.*]] = arith.xori %[[PEND]]#1, %[[C1]] : i32
// CHECK-DAG:     %[[PH:.*]] = arith.select %[[DW]], %[[DFL]], %[[PEND]]#1 : i32
// CHECK:         %[[LAST:.*]] = llvm.getelementptr %[[EMPTY]][%[[IDX]]]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[LAST]], %[[PH]]
// CHECK-NOT:     nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @one_cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(5) {
      tspipe.pipeline @ring config(<umma_async, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 128>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 4) consumes [@ring] {
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
// CHECK:           nvvm.mbarrier.arrive %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @try_forms(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<umma_async, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 32>>)
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

// Two CTAs, V = 1: each commit multicasts to its own CTA only (1 << rank),
// cta_group::1; releases stay local.
// CHECK-LABEL: gpu.func @cluster
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK-DAG:       %[[M:.*]] = arith.shli %[[C1]], %[[RANK]] : i32
// CHECK-DAG:       %[[MASK:.*]] = arith.trunci %[[M]] : i32 to i16
// CHECK-DAG:       %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:           nvvm.tcgen05.commit %[[F]], multicast_mask = %[[MASK]] : !llvm.ptr<3>, i16
// With V = 1 every CTA drains its own ring (no gate).
// CHECK-NOT:     scf.if
// Drain: advance once (num_stages - 1), then one wait on that stage.
// CHECK-DAG:     %[[DN:.*]] = arith.addi %[[PEND]]#0, %[[C1]] : i32
// CHECK:         %[[DW:.*]] = arith.cmpi sge, %[[DN]], %[[C2]] : i32
// CHECK-DAG:     %[[DWR:.*]] = arith.addi %[[PEND]]#0, %[[CM1]] : i32
// CHECK-DAG:     %[[IDX:.*]] = arith.select %[[DW]], %[[DWR]], %[[DN]] : i32
// CHECK-DAG:     %[[DFL:.*]] = arith.xori %[[PEND]]#1, %[[C1]] : i32
// CHECK-DAG:     %[[PH:.*]] = arith.select %[[DW]], %[[DFL]], %[[PEND]]#1 : i32
// CHECK:         %[[LAST:.*]] = llvm.getelementptr %[[EMPTY]][%[[IDX]]]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[LAST]], %[[PH]]
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK-NOT:       nvvm.mapa
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.arrive %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @cluster(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<umma_async, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 32>,
          cta_layout_vmnk = [1, 2, 1, 1]>)
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

// Field bug B4: cta_group::2 in a 4-CTA cluster, 2 stages. The pair leader
// (producer cta_leader) commits with mask 0b11 << (rank - rank % 2), never a
// constant; the consumers of both CTAs arrive on the leader's E via mapa;
// only pair leaders drain.
// CHECK-LABEL: gpu.func @b4_pair_cluster4
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C64]]
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
// CHECK:             nvvm.elect.sync
// CHECK:             nvvm.tcgen05.commit %[[F]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-NOT:       multicast_mask = %c3_i16
// The commit's cursor moves on every CTA (no select on the gate).
// CHECK-NOT:       arith.select %[[LEAD]]
// CHECK:           scf.yield
// Drain on pair leaders only: advance S - 1 = 1 time, wait once.
// CHECK:         %[[V2:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:         %[[LEAD2:.*]] = arith.cmpi eq, %[[V2]], %[[C0]] : i32
// CHECK-DAG:     %[[DN:.*]] = arith.addi %[[PEND]]#0, %[[C1]] : i32
// CHECK:         %[[DW:.*]] = arith.cmpi sge, %[[DN]], %[[C2]] : i32
// CHECK-DAG:     %[[DWR:.*]] = arith.addi %[[PEND]]#0, %[[CM1]] : i32
// CHECK-DAG:     %[[IDX:.*]] = arith.select %[[DW]], %[[DWR]], %[[DN]] : i32
// CHECK-DAG:     %[[DFL:.*]] = arith.xori %[[PEND]]#1, %[[C1]] : i32
// CHECK-DAG:     %[[PH:.*]] = arith.select %[[DW]], %[[DFL]], %[[PEND]]#1 : i32
// CHECK:         scf.if %[[LEAD2]] {
// CHECK:           %[[LAST:.*]] = llvm.getelementptr %[[EMPTY]][%[[IDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[LAST]], %[[PH]]
// Every consumer thread of both CTAs arrives on the pair leader's E[c].
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK-DAG:       %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK-DAG:       %[[V3:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK-DAG:       %[[LEADER:.*]] = arith.subi %[[RANK]], %[[V3]] : i32
// CHECK:           %[[RE:.*]] = nvvm.mapa %[[E2]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:           nvvm.mbarrier.arrive %[[RE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @b4_pair_cluster4(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<umma_async, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 64>,
          cta_layout_vmnk = [2, 2, 1, 1], producer_signaling = cta_leader>)
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

// Interleaved consumer (stride 2, two warps): each warp starts at its lane.
// Each consumer warp drains n stages, so the producer runs 2n iterations.
// CHECK-LABEL: gpu.func @interleaved_consumer
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[CM2:.*]] = arith.constant -2 : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.if
// The consumer task starts at warp 1: its lane is warp - 1.
// CHECK:           %[[LANE:.*]] = arith.subi %[[WARP]], %[[C1]] : i32
// CHECK:           scf.for %{{.*}} iter_args(%[[IDX:.*]] = %[[LANE]], %[[CPH:.*]] = %[[C0]])
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[IDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[F]], %[[CPH]]
// CHECK:             %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[IDX]]]
// CHECK:             nvvm.mbarrier.arrive %[[E]] : !llvm.ptr<3>
// CHECK-DAG:         %[[N:.*]] = arith.addi %[[IDX]], %[[C2]] : i32
// CHECK:             %[[W:.*]] = arith.cmpi sge, %[[N]], %[[C4]] : i32
// CHECK-DAG:         %[[WR:.*]] = arith.addi %[[IDX]], %[[CM2]] : i32
// CHECK-DAG:         %[[NI:.*]] = arith.select %[[W]], %[[WR]], %[[N]] : i32
// CHECK-DAG:         %[[FL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:         %[[NP:.*]] = arith.select %[[W]], %[[FL]], %[[CPH]] : i32
// CHECK:             scf.yield %[[NI]], %[[NP]] : i32, i32
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @interleaved_consumer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n2 = arith.muli %n, %c2 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<umma_async, num_stages = 4,
          producer_group = <thread, 1>, consumer_group = <thread, 32>,
          interleave_stride = [1, 1, 2, 2]>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n2 step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 2) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}


// BIN-COUNT-5: gpu.binary @m
