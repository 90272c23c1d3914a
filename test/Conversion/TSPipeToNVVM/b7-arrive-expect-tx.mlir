// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for sm_100a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// Field bug B7: with one stage, a single elected arming thread and a full
// barrier initialized with count 1, the acquire must arrive *and* expect the
// bytes (mbarrier.arrive.expect_tx), never a bare expect_tx: the phase needs
// both the arrival and the bytes. Same sequence for TmaAsync and TmaUmma.

// CHECK-LABEL: gpu.func @b7_tma_async_one_stage
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 4096 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// One stage: E[0] lies 8 bytes after F[0].
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK-NEXT:        nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK-NOT:       nvvm.mbarrier.expect_tx
// The drain: S = 1 wait on E from the loop's final cursor.
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.arrive %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @b7_tma_async_one_stage(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 1, num_bytes = 4096,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(4096)
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

// CHECK-LABEL: gpu.func @b7_tma_umma_one_stage
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 4096 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// One stage: E[0] lies 8 bytes after F[0].
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C1]]
// CHECK:         %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]]
// CHECK-NEXT:        nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK-NOT:       nvvm.mbarrier.expect_tx
// The drain: S = 1 wait on E from the loop's final cursor.
// CHECK:         %[[D0:.*]] = llvm.getelementptr %[[EMPTY]][%[[PEND]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK:         scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:           nvvm.tcgen05.commit %[[E2]] : !llvm.ptr<3>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @b7_tma_umma_one_stage(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 1, num_bytes = 4096,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(4096)
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
