// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s

// The drain of a split producer's acquire half (docs/Protocols.md, Producer
// drain): @acq acquires @ring (advance_on_acquire) without committing it, so
// it drains with its acquire cursor p, which the domain loop carries out;
// its pc never moves, and waits on it (stage 0 and 1 at phase 1) blocked
// once @c had released a stage once. @ring: F at smem + 0, E at smem + 16.
// CHECK-LABEL: gpu.func @split_drain
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK:         %[[SMEM:.*]] = llvm.inttoptr
// CHECK:         %[[E:.*]] = llvm.getelementptr %[[SMEM]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.barrier0
// @acq: the loop carries p of @ring (index, phase) and p of @hand.
// CHECK:         scf.if
// CHECK:           %[[P:.*]]:4 = scf.for %{{.*}} iter_args(%[[IDX:.*]] = %{{.*}}, %[[PH:.*]] = %[[C1]], %{{.*}} = %{{.*}}, %{{.*}} = %[[C1]]) -> (i32, i32, i32, i32)
// CHECK:             %[[EI:.*]] = llvm.getelementptr %[[E]][%[[IDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[EI]], %[[PH]]
// CHECK:             scf.yield
// The drain of @ring: two waits from p as the loop leaves it.
// CHECK:           %[[D0:.*]] = llvm.getelementptr %[[E]][%[[P]]#0]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D0]], %[[P]]#1
// CHECK:           %[[D1:.*]] = llvm.getelementptr %[[E]][%{{.*}}]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D1]], %{{.*}}
gpu.module @split_drain {
gpu.func @split_drain(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_acquire = true>) smem_bytes(512)
    tspipe.pipeline @hand config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @acq warps(0, 1) produces [@ring, @hand] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        %h = tspipe.producer_acquire @hand
        tspipe.producer_commit @hand
      }
    }
    tspipe.task @fill warps(1, 1) produces [@ring] consumes [@hand] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %h = tspipe.consumer_wait @hand
        tspipe.producer_commit @ring
        tspipe.consumer_release @hand
      }
    }
    tspipe.task @c warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  gpu.return
}
}
