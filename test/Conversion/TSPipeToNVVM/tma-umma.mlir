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
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 32768 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         nvvm.barrier0
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %c0_i32, %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK-NOT:       cluster.ctarank
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:           }
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
// Drain: 4 waits on the empty barriers.
// CHECK-COUNT-4:   nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %c0_i32, %[[CPH:.*]] = %c0_i32)
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

// Try forms: one non-blocking probe; the blocking wait only when not ready.
// CHECK-LABEL: gpu.func @try_forms
// CHECK:         scf.for
// CHECK:           %[[R:.*]] = nvvm.mbarrier.try_wait %[[E:.*]], %[[PPH:.*]] : !llvm.ptr<3>, i32 -> i1
// CHECK:           %[[NR:.*]] = arith.xori %[[R]], %true
// CHECK:           scf.if %[[NR]] {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// CHECK:         scf.for
// CHECK:           %[[CR:.*]] = nvvm.mbarrier.try_wait %[[F:.*]], %[[CPH:.*]] : !llvm.ptr<3>, i32 -> i1
// CHECK:           %[[NCR:.*]] = arith.xori %[[CR]], %true
// CHECK:           scf.if %[[NCR]] {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[F]], %[[CPH]]
// CHECK:           nvvm.tcgen05.commit
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
// column (0b0011 shifted by 2n), computed from the rank; cta_group::1.
// CHECK-LABEL: gpu.func @cluster_multicast
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %[[C3]]
// CHECK:         nvvm.cluster.arrive.relaxed
// CHECK:         nvvm.cluster.wait
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK-NOT:       arith.remui %[[RANK]]
// CHECK:           nvvm.elect.sync
// CHECK:           nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[M:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[L:.*]] = arith.divui %[[RANK]], %c4_i32 : i32
// CHECK:           %[[L4:.*]] = arith.muli %[[L]], %c4_i32 : i32
// CHECK:           %[[ROW0:.*]] = arith.addi %[[M]], %[[L4]] : i32
// CHECK:           %[[ROW:.*]] = arith.shli %[[C5]], %[[ROW0]] : i32
// CHECK:           %[[ROW16:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK:           %[[NL:.*]] = arith.divui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[COL0:.*]] = arith.muli %[[NL]], %[[C2]] : i32
// CHECK:           %[[COL:.*]] = arith.shli %[[C3]], %[[COL0]] : i32
// CHECK:           %[[COL16:.*]] = arith.trunci %[[COL]] : i32 to i16
// CHECK:           %[[MASK:.*]] = arith.ori %[[ROW16]], %[[COL16]] : i16
// CHECK:           nvvm.elect.sync
// CHECK:           nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[MASK]] : !llvm.ptr<3>, i16
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

// mcast_mode_mn = [1, 0]: the M row only.
// CHECK-LABEL: gpu.func @cluster_multicast_m
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK:           %[[M:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK:           %[[ROW:.*]] = arith.shli %c5_i32, %{{.*}} : i32
// CHECK:           %[[MASK:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK-NOT:       arith.ori
// CHECK:           nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[MASK]] : !llvm.ptr<3>, i16
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
// (0x33 << 2 * (m + 4 l)) and N column (0xF << 4 * (n + 2 l)).
// CHECK-LABEL: gpu.func @pair
// CHECK-DAG:     %[[C51:.*]] = arith.constant 51 : i32
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 32768 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c3_i32
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %c0_i32 : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             nvvm.elect.sync
// CHECK:             nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]]
// CHECK:         scf.for
// CHECK:           %[[V2:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD2:.*]] = arith.cmpi eq, %[[V2]], %c0_i32 : i32
// CHECK:           scf.if %[[LEAD2]] {
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:           scf.if %[[LEAD2]] {
// CHECK:             %[[Q:.*]] = arith.divui %[[RANK]], %[[C2]] : i32
// CHECK:             %[[M:.*]] = arith.remui %[[Q]], %[[C2]] : i32
// CHECK:             %[[L:.*]] = arith.divui %[[Q]], %[[C4]] : i32
// CHECK:             %[[L4:.*]] = arith.muli %[[L]], %[[C4]] : i32
// CHECK:             %[[ML:.*]] = arith.addi %[[M]], %[[L4]] : i32
// CHECK:             %[[RS:.*]] = arith.muli %[[ML]], %[[C2]] : i32
// CHECK:             %[[ROW:.*]] = arith.shli %[[C51]], %[[RS]] : i32
// CHECK:             %[[ROW16:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK:             %[[NL:.*]] = arith.divui %[[Q]], %[[C2]] : i32
// CHECK:             %[[CS:.*]] = arith.muli %[[NL]], %[[C4]] : i32
// CHECK:             %[[COL:.*]] = arith.shli %[[C15]], %[[CS]] : i32
// CHECK:             %[[COL16:.*]] = arith.trunci %[[COL]] : i32 to i16
// CHECK:             %[[MASK:.*]] = arith.ori %[[ROW16]], %[[COL16]] : i16
// CHECK:             nvvm.elect.sync
// CHECK:             nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// The release advance is predicated on the leader gate (unit stride).
// CHECK:           arith.select %[[LEAD2]]
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
// count is 2; the mask is the row (0xF: both pairs) or'ed with the column
// (0b11 << 2n), over pair leaders' pairs, from the rank.
// CHECK-LABEL: gpu.func @b5_pair_multicast
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK:           %[[ROW:.*]] = arith.shli %c15_i32, %{{.*}} : i32
// CHECK:           %[[ROW16:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK:           %[[COL:.*]] = arith.shli %c3_i32, %{{.*}} : i32
// CHECK:           %[[COL16:.*]] = arith.trunci %[[COL]] : i32 to i16
// CHECK:           %[[MASK:.*]] = arith.ori %[[ROW16]], %[[COL16]] : i16
// CHECK:           nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>}
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
// warp (warp 1) of the leader CTA arms.
// CHECK-LABEL: gpu.func @pair_task_warp_leader
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %c0_i32 : i32
// CHECK:           %[[W1:.*]] = arith.cmpi eq, %[[WARP]], %c1_i32 : i32
// CHECK:           %[[ARM:.*]] = arith.andi %[[LEAD]], %[[W1]] : i1
// CHECK:           scf.if %[[ARM]] {
// CHECK:             nvvm.elect.sync
// CHECK:             nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
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
// its lane and advances by 2; the drain waits num_stages / 2 times.
// CHECK-LABEL: gpu.func @interleaved
// CHECK:         %[[WARP_T:.*]] = arith.divui
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         scf.if
// CHECK:           scf.for %{{.*}} iter_args(%[[IDX:.*]] = %[[WARP]], %{{.*}} = %c1_i32)
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:             nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// CHECK:             arith.addi %[[IDX]], %c2_i32 : i32
// CHECK:             scf.yield
// CHECK-COUNT-2:   nvvm.mbarrier.try_wait.parity
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for
// CHECK:           nvvm.tcgen05.commit
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @interleaved(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
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

// advance_on_wait (split consumer cursors): the wait uses and advances c,
// the commit to the empty barrier uses and advances cr.
// CHECK-LABEL: gpu.func @advance_on_wait
// CHECK:         scf.for
// CHECK:         scf.for %{{.*}} iter_args(%[[C:.*]] = %c0_i32, %[[CPH:.*]] = %c0_i32, %[[CR:.*]] = %c0_i32, %{{.*}} = %c0_i32)
// CHECK:           %[[F:.*]] = llvm.getelementptr %{{.*}}[%[[C]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F]], %[[CPH]]
// CHECK:           arith.addi %[[C]], %c1_i32
// CHECK:           %[[E:.*]] = llvm.getelementptr %{{.*}}[%[[CR]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[E]] : !llvm.ptr<3>
// CHECK:           arith.addi %[[CR]], %c1_i32
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
// CHECK:         scf.for
// CHECK:           scf.yield
// CHECK-NOT:     scf.if
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NOT:     scf.if
// CHECK:         nvvm.mbarrier.try_wait.parity
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
