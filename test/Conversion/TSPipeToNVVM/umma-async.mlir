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
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %c1_i32
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %c128_i32
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %c0_i32, %[[PPH:.*]] = %c1_i32)
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[F]] : !llvm.ptr<3>
// CHECK:           scf.yield
// Drain: advance once (num_stages - 1), then one wait on that stage.
// CHECK:         %[[NEXT:.*]] = arith.addi %{{.*}}#0, %c1_i32
// CHECK:         %[[IDX:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NEXT]]
// CHECK:         %[[PH:.*]] = arith.select
// CHECK:         %[[LAST:.*]] = llvm.getelementptr %[[EMPTY]][%[[IDX]]]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[LAST]], %[[PH]]
// CHECK-NOT:     nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %c0_i32, %[[CPH:.*]] = %c0_i32)
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
// CHECK:         scf.for
// CHECK:           %[[R:.*]] = nvvm.mbarrier.try_wait %[[E:.*]], %[[PPH:.*]] : !llvm.ptr<3>, i32 -> i1
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           nvvm.tcgen05.commit
// CHECK:         scf.for
// CHECK:           %[[CR:.*]] = nvvm.mbarrier.try_wait %[[F:.*]], %[[CPH:.*]] : !llvm.ptr<3>, i32 -> i1
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[F]], %[[CPH]]
// CHECK:           nvvm.mbarrier.arrive
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
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         scf.for
// CHECK:           %[[M:.*]] = arith.shli %c1_i32, %[[RANK]] : i32
// CHECK:           %[[MASK:.*]] = arith.trunci %[[M]] : i32 to i16
// CHECK:           nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[MASK]] : !llvm.ptr<3>, i16
// CHECK:         scf.for
// CHECK-NOT:       nvvm.mapa
// CHECK:           nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
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
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c64_i32
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %c0_i32, %[[PPH:.*]] = %c1_i32)
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %c0_i32 : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[PAIR:.*]] = arith.subi %[[RANK]], %[[V]] : i32
// CHECK:             %[[M:.*]] = arith.shli %c3_i32, %[[PAIR]] : i32
// CHECK:             %[[MASK:.*]] = arith.trunci %[[M]] : i32 to i16
// CHECK:             %[[F:.*]] = llvm.getelementptr %{{.*}}[%[[PIDX]]]
// CHECK:             nvvm.elect.sync
// CHECK:             nvvm.tcgen05.commit %[[F]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-NOT:       multicast_mask = %c3_i16
// Drain on pair leaders only.
// CHECK:         %[[V2:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK:         %[[LEAD2:.*]] = arith.cmpi eq, %[[V2]], %c0_i32 : i32
// CHECK:         scf.if %[[LEAD2]] {
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[E:.*]] = llvm.getelementptr
// CHECK:           %[[V3:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK:           %[[LEADER:.*]] = arith.subi %[[RANK]], %[[V3]] : i32
// CHECK:           %[[RE:.*]] = nvvm.mapa %[[E]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
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
// CHECK-LABEL: gpu.func @interleaved_consumer
// CHECK:         %[[WARP_T:.*]] = arith.divui
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         scf.if
// CHECK:           %[[LANE:.*]] = arith.subi %[[WARP]], %c1_i32 : i32
// CHECK:           scf.for %{{.*}} iter_args(%[[IDX:.*]] = %[[LANE]], %{{.*}} = %c0_i32)
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:             nvvm.mbarrier.arrive
// CHECK:             arith.addi %[[IDX]], %c2_i32 : i32
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @interleaved_consumer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<umma_async, num_stages = 4,
          producer_group = <thread, 1>, consumer_group = <thread, 32>,
          interleave_stride = [1, 1, 2, 2]>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
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
