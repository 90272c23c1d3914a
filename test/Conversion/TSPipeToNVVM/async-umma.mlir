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
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// F with Pg = 64 (two producer warps), E with Cg = 1 (one commit).
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C64]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
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
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Pg = 32: the .noinc arrives are counted in the init.
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C32]]
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK-NEXT:      nvvm.cp.async.mbarrier.arrive %[[F]] {noinc = true} : !llvm.ptr<3>
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
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
// CHECK:           nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
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
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C64]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK-DAG:       %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK-DAG:       %[[V:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK-DAG:       %[[LEADER:.*]] = arith.subi %[[RANK]], %[[V]] : i32
// CHECK:           %[[RF:.*]] = nvvm.mapa %[[F]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:           nvvm.mbarrier.arrive %[[RF]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[V2:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V2]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           scf.if %[[LEAD]] {
// CHECK-DAG:         %[[PAIR:.*]] = arith.subi %[[RANK]], %[[V2]] : i32
// CHECK-DAG:         %[[M:.*]] = arith.shli %[[C3]], %[[PAIR]] : i32
// CHECK-DAG:         %[[MASK:.*]] = arith.trunci %[[M]] : i32 to i16
// CHECK-DAG:         %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:             nvvm.elect.sync
// CHECK:             nvvm.tcgen05.commit %[[E2]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-DAG:       %[[CN:.*]] = arith.addi %[[CIDX]], %[[C1]] : i32
// CHECK:           %[[CW:.*]] = arith.cmpi sge, %[[CN]], %[[C2]] : i32
// CHECK-DAG:       %[[CWR:.*]] = arith.addi %[[CIDX]], %[[CM1]] : i32
// CHECK-DAG:       %[[CX:.*]] = arith.select %[[CW]], %[[CWR]], %[[CN]] : i32
// CHECK-DAG:       %[[CFL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CPX:.*]] = arith.select %[[CW]], %[[CFL]], %[[CPH]] : i32
// CHECK-DAG:       %[[CNI:.*]] = arith.select %[[LEAD]], %[[CX]], %[[CIDX]] : i32
// CHECK-DAG:       %[[CNP:.*]] = arith.select %[[LEAD]], %[[CPX]], %[[CPH]] : i32
// CHECK:           scf.yield %[[CNI]], %[[CNP]] : i32, i32
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
// strided advance, num_stages / 2 drain waits. Each producer warp fills n
// stages, so the consumer runs 2n iterations (every fill is released and
// the drain returns).
// CHECK-LABEL: gpu.func @interleaved_producer
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// One arriving warp per stage and phase: Pg = 32 (R52).
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C32]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[IDX:.*]] = %[[WARP]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[IDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[IDX]]]
// CHECK:           nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
// CHECK-DAG:       %[[N:.*]] = arith.addi %[[IDX]], %[[C2]] : i32
// CHECK:           arith.cmpi sge, %[[N]], %[[C4]] : i32
// CHECK:           scf.yield
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK:         arith.addi %[[PEND]]#0, %[[C2]] : i32
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NOT:     nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @interleaved_producer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n2 = arith.muli %n, %c2 : index
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

// advance_on_acquire (split producer cursors): acquire waits on E[p] and
// advances p; commit arrives on F[pc] and advances pc; the drain uses pc.
// CHECK-LABEL: gpu.func @advance_on_acquire
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[PEND:.*]]:4 = scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]], %[[PC:.*]] = %[[C0]], %[[PCPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK-DAG:       %[[PN:.*]] = arith.addi %[[P]], %[[C1]]
// CHECK:           %[[PW:.*]] = arith.cmpi sge, %[[PN]], %[[C2]] : i32
// CHECK-DAG:       %[[PNIWR:.*]] = arith.addi %[[P]], %[[CM1]] : i32
// CHECK-DAG:       %[[PNI:.*]] = arith.select %[[PW]], %[[PNIWR]], %[[PN]] : i32
// CHECK-DAG:       %[[PFL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PNP:.*]] = arith.select %[[PW]], %[[PFL]], %[[PPH]] : i32
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PC]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
// CHECK-DAG:       %[[PCN:.*]] = arith.addi %[[PC]], %[[C1]]
// CHECK:           %[[PCW:.*]] = arith.cmpi sge, %[[PCN]], %[[C2]] : i32
// CHECK-DAG:       %[[PCNIWR:.*]] = arith.addi %[[PC]], %[[CM1]] : i32
// CHECK-DAG:       %[[PCNI:.*]] = arith.select %[[PCW]], %[[PCNIWR]], %[[PCN]] : i32
// CHECK-DAG:       %[[PCFL:.*]] = arith.xori %[[PCPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PCNP:.*]] = arith.select %[[PCW]], %[[PCFL]], %[[PCPH]] : i32
// CHECK:           scf.yield %[[PNI]], %[[PNP]], %[[PCNI]], %[[PCNP]] : i32, i32, i32, i32
// CHECK:         %[[E0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#2]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[E0]], %[[PEND]]#3
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
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
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

// -----

// A cluster that is not a pair: [1, 2, 2, 1] on 4 CTAs, cta_leader on both
// sides. AsyncUmma has no multicast mode: its only mask is the pair mask of
// V = 2 (ts-semantics 2.5, "V == 1: no masks, cta_group 1"), so with V = 1
// each CTA's producer threads arrive on their own F[p] (no mapa; Pg = 32 x
// 1 warp) and the MMA warp commits to its own E[c] with the plain
// cta_group::1 form, as real TS's cluster2 row of docs/crosscheck-ptx.md.
// Every CTA is its own leader: no rank gate, nothing reads the rank.
// CHECK-LABEL: gpu.func @cluster
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 4, 1, 1>
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK-NOT:     nvvm.read.ptx.sreg.cluster.ctarank
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C32]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         %[[F1:.*]] = llvm.getelementptr %[[BASE]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[F1]], %[[C32]]
// CHECK:         %[[E1:.*]] = llvm.getelementptr %[[EMPTY]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:         nvvm.mbarrier.init %[[E1]], %[[C1]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.cluster.arrive.relaxed {aligned}
// CHECK:         nvvm.cluster.wait {aligned}
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK-NOT:       scf.if
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK-NOT:       nvvm.mapa
// CHECK:           nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
// CHECK-DAG:       %[[PN:.*]] = arith.addi %[[PIDX]], %[[C1]] : i32
// CHECK:           %[[PW:.*]] = arith.cmpi sge, %[[PN]], %[[C2]] : i32
// CHECK-DAG:       %[[PNIWR:.*]] = arith.addi %[[PIDX]], %[[CM1]] : i32
// CHECK-DAG:       %[[PNI:.*]] = arith.select %[[PW]], %[[PNIWR]], %[[PN]] : i32
// CHECK-DAG:       %[[PFL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:       %[[PNP:.*]] = arith.select %[[PW]], %[[PFL]], %[[PPH]] : i32
// CHECK:           scf.yield %[[PNI]], %[[PNP]] : i32, i32
// Drain: 2 waits on E on every CTA, from the loop's final cursor.
// CHECK-NOT:     scf.if
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK-NOT:     scf.if
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK-NOT:       scf.if
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
// CHECK-NEXT:      }
// CHECK-NOT:     nvvm.read.ptx.sreg.cluster.ctarank
// CHECK-NOT:     multicast_mask
// CHECK:         gpu.return
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @cluster(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [1, 2, 2, 1], producer_signaling = cta_leader,
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

// BIN-COUNT-8: gpu.binary @m
