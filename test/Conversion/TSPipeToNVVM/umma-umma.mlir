// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for sm_100a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// UmmaUmma (docs/Protocols.md, UmmaUmma and tcgen05 commits): acquire waits
// on E[p], commit is an elected tcgen05.commit to F[p], wait waits on F[c],
// release an elected tcgen05.commit to E[c]; with V = 2 both commits
// multicast to the pair (0b11 << (rank - rank % 2)) with cta_group::2.
// UmmaUmma has no interleaved or split-cursor form (R4, R6, R7).

// CHECK-LABEL: gpu.func @one_cta
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %c1_i32
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %c1_i32
// CHECK:         scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %c0_i32, %[[PPH:.*]] = %c1_i32)
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[F]] : !llvm.ptr<3>
// CHECK-COUNT-2:   nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %c0_i32, %[[CPH:.*]] = %c0_i32)
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
// CHECK:         scf.for
// CHECK:           %[[R:.*]] = nvvm.mbarrier.try_wait %[[E:.*]], %[[PPH:.*]] : !llvm.ptr<3>, i32 -> i1
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           nvvm.tcgen05.commit
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
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         scf.for
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %c0_i32 : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[PAIR:.*]] = arith.subi %[[RANK]], %[[V]] : i32
// CHECK:             %[[M:.*]] = arith.shli %c3_i32, %[[PAIR]] : i32
// CHECK:             %[[MASK:.*]] = arith.trunci %[[M]] : i32 to i16
// CHECK:             nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// The drain runs on every CTA, the non-leader too: the release commits
// reach both CTAs' empty barriers (field bug B17), so no gate opens
// between the loop and its two waits.
// CHECK-NOT:     scf.if
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NOT:     scf.if
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for
// CHECK:           %[[V2:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK:           %[[LEAD2:.*]] = arith.cmpi eq, %[[V2]], %c0_i32 : i32
// CHECK:           scf.if %[[LEAD2]] {
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:           scf.if %[[LEAD2]] {
// CHECK:             %[[PAIR2:.*]] = arith.subi %[[RANK]], %[[V2]] : i32
// CHECK:             %[[M2:.*]] = arith.shli %c3_i32, %[[PAIR2]] : i32
// CHECK:             %[[MASK2:.*]] = arith.trunci %[[M2]] : i32 to i16
// CHECK:             nvvm.tcgen05.commit %{{.*}}, multicast_mask = %[[MASK2]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
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


// BIN-COUNT-3: gpu.binary @m
