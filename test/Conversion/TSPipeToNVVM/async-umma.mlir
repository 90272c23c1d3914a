// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for sm_100a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// AsyncUmma (docs/Protocols.md, AsyncUmma and tcgen05 commits): acquire
// waits on E[p]; commit: every producer thread arrives on F[p] (async_thread;
// on the pair leader's F through mapa when V = 2) or issues the local
// cp.async arrive .noinc (async_load); release: one elected tcgen05.commit
// to E[c], multicast to the pair (0b11 << (rank - rank % 2)) with
// cta_group::2 when V = 2.

// CHECK-LABEL: gpu.func @async_thread
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %c64_i32
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %c1_i32
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %c0_i32, %[[PPH:.*]] = %c1_i32)
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
// CHECK-COUNT-2:   nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %c0_i32, %[[CPH:.*]] = %c0_i32)
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @async_thread(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 64>, consumer_group = <thread, 1>>)
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

// CHECK-LABEL: gpu.func @async_load
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %c0_i32, %{{.*}} = %c1_i32)
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[F:.*]] = llvm.getelementptr %{{.*}}[%[[PIDX]]]
// CHECK-NEXT:      nvvm.cp.async.mbarrier.arrive %[[F]] {noinc = true} : !llvm.ptr<3>
// CHECK:         scf.for
// CHECK:           nvvm.tcgen05.commit
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @async_load(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>,
          umma_consumer_producer_op = async_load>)
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
// CHECK:         scf.for
// CHECK:           %[[R:.*]] = nvvm.mbarrier.try_wait %[[E:.*]], %[[PPH:.*]] : !llvm.ptr<3>, i32 -> i1
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           nvvm.mbarrier.arrive
// CHECK:         scf.for
// CHECK:           %[[CR:.*]] = nvvm.mbarrier.try_wait %[[F:.*]], %[[CPH:.*]] : !llvm.ptr<3>, i32 -> i1
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[F]], %[[CPH]]
// CHECK:           nvvm.tcgen05.commit
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @try_forms(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>>)
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

// V = 2 in a 4-CTA cluster: both CTAs' producer threads arrive on the pair
// leader's F (mapa to rank - rank % 2; producer_group = 32 x 1 warp x 2);
// the leader's MMA warp commits E to both CTAs of its pair.
// CHECK-LABEL: gpu.func @pair
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         nvvm.mbarrier.init %{{.*}}, %c64_i32
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %c0_i32, %{{.*}} = %c1_i32)
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           %[[F:.*]] = llvm.getelementptr %{{.*}}[%[[PIDX]]]
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK:           %[[LEADER:.*]] = arith.subi %[[RANK]], %[[V]] : i32
// CHECK:           %[[RF:.*]] = nvvm.mapa %[[F]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:           nvvm.mbarrier.arrive %[[RF]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK:         scf.for
// CHECK:           %[[V2:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V2]], %c0_i32 : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[PAIR:.*]] = arith.subi %[[RANK]], %[[V2]] : i32
// CHECK:             %[[M:.*]] = arith.shli %c3_i32, %[[PAIR]] : i32
// CHECK:             %[[MASK:.*]] = arith.trunci %[[M]] : i32 to i16
// CHECK:             nvvm.elect.sync
// CHECK:             nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @pair(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 64>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 2, 1, 1], consumer_signaling = cta_leader>)
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

// Interleaved producer (stride 2, two warps): lanes from the warp index,
// strided advance, num_stages / 2 drain waits.
// CHECK-LABEL: gpu.func @interleaved_producer
// CHECK:         %[[WARP_T:.*]] = arith.divui
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         scf.for %{{.*}} iter_args(%[[IDX:.*]] = %[[WARP]], %{{.*}} = %c1_i32)
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           arith.addi %[[IDX]], %c2_i32 : i32
// CHECK:           scf.yield
// CHECK-COUNT-2:   nvvm.mbarrier.try_wait.parity
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for
// CHECK:           nvvm.tcgen05.commit
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @interleaved_producer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 4,
          producer_group = <thread, 32>, consumer_group = <thread, 1>,
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

// advance_on_acquire (split producer cursors): acquire waits on E[p] and
// advances p; commit arrives on F[pc] and advances pc; the drain uses pc.
// CHECK-LABEL: gpu.func @advance_on_acquire
// CHECK:         scf.for %{{.*}} iter_args(%[[P:.*]] = %c0_i32, %[[PPH:.*]] = %c1_i32, %[[PC:.*]] = %c0_i32, %{{.*}} = %c1_i32)
// CHECK:           %[[E:.*]] = llvm.getelementptr %{{.*}}[%[[P]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           arith.addi %[[P]], %c1_i32
// CHECK:           %[[F:.*]] = llvm.getelementptr %{{.*}}[%[[PC]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
// CHECK:           arith.addi %[[PC]], %c1_i32
// CHECK:           scf.yield
// CHECK:         %[[E0:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}#2]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[E0]], %{{.*}}#3
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @advance_on_acquire(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>,
          advance_on_acquire = true>)
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
// the acquire waits on the leader CTA only, but the drain waits on every
// CTA: the release commit multicasts to both CTAs of the pair, and the non-leader CTA must
// not exit before its own empty barriers have seen it (field bug B17).
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
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader,
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

// BIN-COUNT-7: gpu.binary @m
