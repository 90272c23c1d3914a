// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for sm_100a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// TmaUmma (docs/Protocols.md, TmaUmma and tcgen05 commits): acquire waits on
// E[p] on every CTA, then one elected thread per producer warp of the MMA
// leader CTA (rank % V == 0) arms F[p] with num_bytes; commit emits nothing;
// release is one elected tcgen05.commit to E[c], multicast over the CTAs of
// this CTA's M row / N column (both CTAs of each pair) when T > 1, with
// cta_group::2 when V = 2. The masks come from %cluster_ctarank (B4).

// CHECK-LABEL: gpu.func @one_cta
// CHECK-DAG:     %[[CM3:.*]] = arith.constant -3 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 32768 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// E[0] lies 8 S = 32 bytes after F[0].
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// F with Pg = 1 (one producer warp), E with Cg = T = 1.
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         nvvm.barrier0
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK-NOT:       cluster.ctarank
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:           }
// CHECK-NOT:       nvvm.mbarrier.arrive
// The commit is no instruction, only the advance of p.
// CHECK-DAG:       %[[PN:.*]] = arith.addi %[[PIDX]], %[[C1]] : i32
// CHECK:           %[[PW:.*]] = arith.cmpi sge, %[[PN]], %[[C4]] : i32
// CHECK-DAG:       %[[PNIWR:.*]] = arith.addi %[[PIDX]], %[[CM3]] : i32
// CHECK-DAG:       %[[PNI:.*]] = arith.select %[[PW]], %[[PNIWR]], %[[PN]] : i32
// CHECK-DAG:       %[[PFL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PNP:.*]] = arith.select %[[PW]], %[[PFL]], %[[PPH]] : i32
// CHECK:           scf.yield %[[PNI]], %[[PNP]] : i32, i32
// Drain: 4 waits on the empty barriers, the first at the loop's final
// cursor.
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK-COUNT-3:   nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           %[[EL2:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL2]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
// CHECK:         gpu.return
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @one_cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 4, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(131072)
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

// Try forms: one non-blocking probe of the barrier the blocking wait uses,
// with the same parity; the blocking wait only when not ready.
// CHECK-LABEL: gpu.func @try_forms
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 16384 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           %[[R:.*]] = nvvm.mbarrier.try_wait %[[E]], %[[PPH]] : !llvm.ptr<3>, i32 -> i1
// CHECK-DAG:       %[[NR:.*]] = arith.xori %[[R]], %[[TRUE]]
// CHECK:           scf.if %[[NR]] {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]]
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           %[[CR:.*]] = nvvm.mbarrier.try_wait %[[F2]], %[[CPH]] : !llvm.ptr<3>, i32 -> i1
// CHECK-DAG:       %[[NCR:.*]] = arith.xori %[[CR]], %[[TRUE]]
// CHECK:           scf.if %[[NCR]] {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           %[[EL2:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL2]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @try_forms(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 2, num_bytes = 16384,
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

// Cluster [1, 2, 2, 1], multicast along M and N: every CTA arms (V = 1); the
// release mask is the M row (pattern 0b0101 shifted by m) or'ed with the N
// column (0b0011 shifted by 2n), computed from the rank; cta_group::1. E
// counts Cg = m + n - 1 = 3 commits (its row and column).
// CHECK-LABEL: gpu.func @cluster_multicast
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 16384 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C3]]
// CHECK:         nvvm.cluster.arrive.relaxed
// CHECK:         nvvm.cluster.wait
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK-NOT:       arith.remui %[[RANK]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync
// CHECK:           scf.if %[[EL]] {
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]]
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK-DAG:       %[[M:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK-DAG:       %[[L:.*]] = arith.divui %[[RANK]], %[[C4]] : i32
// CHECK-DAG:       %[[L4:.*]] = arith.muli %[[L]], %[[C4]] : i32
// CHECK-DAG:       %[[ROW0:.*]] = arith.addi %[[M]], %[[L4]] : i32
// CHECK-DAG:       %[[ROW:.*]] = arith.shli %[[C5]], %[[ROW0]] : i32
// CHECK-DAG:       %[[ROW16:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK-DAG:       %[[NL:.*]] = arith.divui %[[RANK]], %[[C2]] : i32
// CHECK-DAG:       %[[COL0:.*]] = arith.muli %[[NL]], %[[C2]] : i32
// CHECK-DAG:       %[[COL:.*]] = arith.shli %[[C3]], %[[COL0]] : i32
// CHECK-DAG:       %[[COL16:.*]] = arith.trunci %[[COL]] : i32 to i16
// CHECK-DAG:       %[[MASK:.*]] = arith.ori %[[ROW16]], %[[COL16]] : i16
// CHECK-DAG:       %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           %[[EL2:.*]] = nvvm.elect.sync
// CHECK:           scf.if %[[EL2]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[E2]], multicast_mask = %[[MASK]] : !llvm.ptr<3>, i16
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @cluster_multicast(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 2, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 3>,
          cta_layout_vmnk = [1, 2, 2, 1]>)
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

// mcast_mode_mn = [1, 0]: the M row only (Cg = n = 2).
// CHECK-LABEL: gpu.func @cluster_multicast_m
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C2]]
// CHECK:         scf.for
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK-DAG:       %[[M:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK-DAG:       %[[L:.*]] = arith.divui %[[RANK]], %[[C4]] : i32
// CHECK-DAG:       %[[L4:.*]] = arith.muli %[[L]], %[[C4]] : i32
// CHECK-DAG:       %[[ROW0:.*]] = arith.addi %[[M]], %[[L4]] : i32
// CHECK-DAG:       %[[ROW:.*]] = arith.shli %[[C5]], %[[ROW0]] : i32
// CHECK-DAG:       %[[MASK:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK-DAG:       %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK-NOT:       arith.ori
// CHECK:           nvvm.tcgen05.commit %[[E2]], multicast_mask = %[[MASK]] : !llvm.ptr<3>, i16
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @cluster_multicast_m(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 2, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [1, 2, 2, 1], mcast_mode_mn = [1, 0]>)
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

// 2-CTA pairs in a [2, 2, 2, 1] cluster: every CTA waits on its empty
// barrier, only the pair leader arms (32768 bytes, both CTAs); the leader's
// MMA warp (consumer cta_leader) commits with cta_group::2 to its M row
// (0x33 << 2 * (m + 4 l)) and N column (0xF << 4 * (n + 2 l)). E counts
// Cg = T / V = 3 pair leaders' commits (row and column pairs).
// CHECK-LABEL: gpu.func @pair
// CHECK-DAG:     %[[CM3:.*]] = arith.constant -3 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : i32
// CHECK-DAG:     %[[C51:.*]] = arith.constant 51 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 32768 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C3]]
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[EL:.*]] = nvvm.elect.sync
// CHECK:             scf.if %[[EL]] {
// CHECK:               %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:               nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]]
// The producer cursor advances on every CTA (no select on the gate).
// CHECK-NOT:       arith.select %[[LEAD]]
// CHECK:           scf.yield
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[V2:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD2:.*]] = arith.cmpi eq, %[[V2]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD2]] {
// CHECK:             %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           scf.if %[[LEAD2]] {
// CHECK-DAG:         %[[Q:.*]] = arith.divui %[[RANK]], %[[C2]] : i32
// CHECK-DAG:         %[[M:.*]] = arith.remui %[[Q]], %[[C2]] : i32
// CHECK-DAG:         %[[L:.*]] = arith.divui %[[Q]], %[[C4]] : i32
// CHECK-DAG:         %[[L4:.*]] = arith.muli %[[L]], %[[C4]] : i32
// CHECK-DAG:         %[[ML:.*]] = arith.addi %[[M]], %[[L4]] : i32
// CHECK-DAG:         %[[RS:.*]] = arith.muli %[[ML]], %[[C2]] : i32
// CHECK-DAG:         %[[ROW:.*]] = arith.shli %[[C51]], %[[RS]] : i32
// CHECK-DAG:         %[[ROW16:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK-DAG:         %[[NL:.*]] = arith.divui %[[Q]], %[[C2]] : i32
// CHECK-DAG:         %[[CS:.*]] = arith.muli %[[NL]], %[[C4]] : i32
// CHECK-DAG:         %[[COL:.*]] = arith.shli %[[C15]], %[[CS]] : i32
// CHECK-DAG:         %[[COL16:.*]] = arith.trunci %[[COL]] : i32 to i16
// CHECK-DAG:         %[[MASK:.*]] = arith.ori %[[ROW16]], %[[COL16]] : i16
// CHECK-DAG:         %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:             %[[EL2:.*]] = nvvm.elect.sync
// CHECK:             scf.if %[[EL2]] {
// CHECK-NEXT:          nvvm.tcgen05.commit %[[E2]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// The release advance is predicated on the leader gate (unit stride).
// CHECK-DAG:       %[[CN:.*]] = arith.addi %[[CIDX]], %[[C1]] : i32
// CHECK:           %[[CW:.*]] = arith.cmpi sge, %[[CN]], %[[C4]] : i32
// CHECK-DAG:       %[[CWR:.*]] = arith.addi %[[CIDX]], %[[CM3]] : i32
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
    tspipe.kernel warps(2) cluster([8, 1, 1]) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 4, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 3>,
          cta_layout_vmnk = [2, 2, 2, 1], consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 16384>)
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

// Field bug B5: 2-CTA atom in a (2, 2, 1) cluster = [2, 1, 2, 1], A
// multicast along N, B along M, 4 stages. Two pair leaders commit to each
// empty barrier (its row holds both pairs; its column one), so the empty
// count is 2; the mask is the row (0xF: both pairs, from CTA 4 (q / 2)) or'ed
// with the column (0b11 << 2q), q = rank / 2 the pair index, from the rank.
// CHECK-LABEL: gpu.func @b5_pair_multicast
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C2]]
// CHECK:         %[[F1:.*]] = llvm.getelementptr %[[BASE]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[F1]], %[[C1]]
// CHECK:         %[[E1:.*]] = llvm.getelementptr %[[EMPTY]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[E1]], %[[C2]]
// CHECK:         %[[F2:.*]] = llvm.getelementptr %[[BASE]][2] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[F2]], %[[C1]]
// CHECK:         %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][2] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[E2]], %[[C2]]
// CHECK:         %[[F3:.*]] = llvm.getelementptr %[[BASE]][3] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[F3]], %[[C1]]
// CHECK:         %[[E3:.*]] = llvm.getelementptr %[[EMPTY]][3] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[E3]], %[[C2]]
// CHECK:         scf.for
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK-DAG:       %[[Q:.*]] = arith.divui %[[RANK]], %[[C2]] : i32
// CHECK-DAG:       %[[LQ:.*]] = arith.divui %[[Q]], %[[C2]] : i32
// CHECK-DAG:       %[[RS:.*]] = arith.muli %[[LQ]], %[[C4]] : i32
// CHECK-DAG:       %[[ROW:.*]] = arith.shli %[[C15]], %[[RS]] : i32
// CHECK-DAG:       %[[ROW16:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK-DAG:       %[[CS:.*]] = arith.muli %[[Q]], %[[C2]] : i32
// CHECK-DAG:       %[[COL:.*]] = arith.shli %[[C3]], %[[CS]] : i32
// CHECK-DAG:       %[[COL16:.*]] = arith.trunci %[[COL]] : i32 to i16
// CHECK-DAG:       %[[MASK:.*]] = arith.ori %[[ROW16]], %[[COL16]] : i16
// CHECK-DAG:       %[[EC:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           nvvm.tcgen05.commit %[[EC]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>}
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @b5_pair_multicast(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 4, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [2, 1, 2, 1], consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 16384>)
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

// TaskWarpLeader in a pair: both producer warps wait; only the task's first
// warp (warp 1) of the leader CTA arms, with both CTAs' bytes. The release
// mask is the pair's M row and N column, which coincide here (both
// 0b11 << 2 (rank / 2); the union is or'ed before CSE merges the two).
// CHECK-LABEL: gpu.func @pair_task_warp_leader
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 32768 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %[[C0]] : i32
// CHECK:           %[[W1:.*]] = arith.cmpi eq, %[[WARP]], %[[C1]] : i32
// CHECK:           %[[ARM:.*]] = arith.andi %[[LEAD]], %[[W1]] : i1
// CHECK:           scf.if %[[ARM]] {
// CHECK:             %[[EL:.*]] = nvvm.elect.sync
// CHECK:             scf.if %[[EL]] {
// CHECK:               %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:               nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]]
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[V2:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD2:.*]] = arith.cmpi eq, %[[V2]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD2]] {
// CHECK:             %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           scf.if %[[LEAD2]] {
// CHECK-DAG:         %[[Q:.*]] = arith.divui %[[RANK]], %[[C2]] : i32
// CHECK-DAG:         %[[S:.*]] = arith.muli %[[Q]], %[[C2]] : i32
// CHECK-DAG:         %[[ROW:.*]] = arith.shli %[[C3]], %[[S]] : i32
// CHECK-DAG:         %[[ROW16:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK-DAG:         %[[MASK:.*]] = arith.ori %[[ROW16]], %[[ROW16]] : i16
// CHECK-DAG:         %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:             nvvm.tcgen05.commit %[[E2]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>}
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @pair_task_warp_leader(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 2, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling = cta_leader,
          producer_signaling = task_warp_leader,
          num_bytes_per_warp_per_cta = 8192>)
      tspipe.task @producer warps(1, 2) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(0, 1) consumes [@ring] {
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

// Interleaved producer (stride 2, two warps): each warp's cursor starts at
// its lane (warp - 0) and advances by 2 over 4 stages; the drain waits
// num_stages / 2 times, from the loop's final cursor, advancing by 2. Each
// producer warp fills n stages, so the consumer runs 2n iterations.
// CHECK-LABEL: gpu.func @interleaved
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 16384 : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.if
// CHECK:           %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[IDX:.*]] = %[[WARP]], %[[PPH:.*]] = %[[C1]])
// CHECK:             %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[IDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[IDX]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]]
// CHECK-DAG:         %[[N:.*]] = arith.addi %[[IDX]], %[[C2]] : i32
// CHECK:             arith.cmpi sge, %[[N]], %[[C4]] : i32
// CHECK:             scf.yield
// CHECK:           %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK-DAG:       %[[DN:.*]] = arith.addi %[[PEND]]#0, %[[C2]] : i32
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @interleaved(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n2 = arith.muli %n, %c2 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 4, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          interleave_stride = [2, 2, 1, 1]>)
      tspipe.task @producer warps(0, 2) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n2 step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// advance_on_wait (split consumer cursors): the wait uses and advances c,
// the commit to the empty barrier uses and advances cr.
// CHECK-LABEL: gpu.func @advance_on_wait
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for
// CHECK:         scf.for %{{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]], %[[CR:.*]] = %[[C0]], %[[CRPH:.*]] = %[[C0]])
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[C]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F]], %[[CPH]]
// CHECK-DAG:       %[[CN:.*]] = arith.addi %[[C]], %[[C1]]
// CHECK:           %[[CW:.*]] = arith.cmpi sge, %[[CN]], %[[C2]] : i32
// CHECK-DAG:       %[[CNIWR:.*]] = arith.addi %[[C]], %[[CM1]] : i32
// CHECK-DAG:       %[[CNI:.*]] = arith.select %[[CW]], %[[CNIWR]], %[[CN]] : i32
// CHECK-DAG:       %[[CFL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CNP:.*]] = arith.select %[[CW]], %[[CFL]], %[[CPH]] : i32
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[CR]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[E]] : !llvm.ptr<3>
// CHECK-DAG:       %[[CRN:.*]] = arith.addi %[[CR]], %[[C1]]
// CHECK:           %[[CRW:.*]] = arith.cmpi sge, %[[CRN]], %[[C2]] : i32
// CHECK-DAG:       %[[CRNIWR:.*]] = arith.addi %[[CR]], %[[CM1]] : i32
// CHECK-DAG:       %[[CRNI:.*]] = arith.select %[[CRW]], %[[CRNIWR]], %[[CRN]] : i32
// CHECK-DAG:       %[[CRFL:.*]] = arith.xori %[[CRPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CRNP:.*]] = arith.select %[[CRW]], %[[CRFL]], %[[CRPH]] : i32
// CHECK:           scf.yield %[[CNI]], %[[CNP]], %[[CRNI]], %[[CRNP]] : i32, i32, i32, i32
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @advance_on_wait(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 2, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          advance_on_wait = true>)
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

// A pair whose producer signals from the leader CTA only (cta_leader):
// the acquire waits on every CTA (TS never gates a TmaUmma acquire), and
// so does the drain: the release commit multicasts to both CTAs of the
// pair, and the non-leader CTA must not exit before its own empty barriers
// have seen it (field bug B17).
// CHECK-LABEL: gpu.func @pair_drain_every_cta
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK-NOT:       scf.if
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           scf.yield
// CHECK-NOT:     scf.if
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK-DAG:     %[[DN:.*]] = arith.addi %[[PEND]]#0, %[[C1]] : i32
// CHECK:         %[[DW:.*]] = arith.cmpi sge, %[[DN]], %[[C2]] : i32
// CHECK-DAG:         %[[D1IWR:.*]] = arith.addi %[[PEND]]#0, %[[CM1]] : i32
// CHECK-DAG:     %[[D1I:.*]] = arith.select %[[DW]], %[[D1IWR]], %[[DN]] : i32
// CHECK-DAG:     %[[DFL:.*]] = arith.xori %[[PEND]]#1, %[[C1]] : i32
// CHECK-DAG:     %[[D1P:.*]] = arith.select %[[DW]], %[[DFL]], %[[PEND]]#1 : i32
// CHECK-NOT:     scf.if
// CHECK:         %[[D1:.*]] = llvm.getelementptr %[[EMPTY]][%[[D1I]]]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D1]], %[[D1P]]
// CHECK:         scf.for
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @pair_drain_every_cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 2, num_bytes = 4096,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader,
          consumer_signaling = cta_leader, num_bytes_per_warp_per_cta = 2048>)
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

// BIN-COUNT-10: gpu.binary @m
