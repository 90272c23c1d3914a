// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s

// The drain of an interleaved producer lane (docs/Protocols.md, Producer
// drain): a lane of stride k owns num_stages / k stages and waits once on
// the empty barrier of each, at the cursor the loop leaves it with. TS's
// non-persistent path waits num_stages / k - 1 times, which lets the lane
// exit before the consumers released its last fill of one of its stages;
// tspipe waits num_stages / k times (here 4 / 2 = 2), as for k = 1 (S).

// AsyncAsync, 4 stages, producer stride 2 over warps 1 and 2 (warp lanes
// 0 and 1), one consumer warp that takes the 2n fills of both lanes.
// Barriers: F at smem + 0, E at smem + 32.
// CHECK-LABEL: gpu.func @lanes
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[CM2:.*]] = arith.constant -2 : i32
// CHECK-DAG:     %[[SMEM_SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx
// The shared-memory base, once at kernel entry (32-bit, from lane 0).
// CHECK:         %[[SMEM_SYM32:.*]] = llvm.ptrtoint %[[SMEM_SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[SMEM_B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SMEM_SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[SMEM:.*]] = llvm.inttoptr %[[SMEM_B32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[E:.*]] = llvm.getelementptr %[[SMEM]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Producer warps 1 and 2: the lane is warp - 1; the cursor starts there at
// phase 1 and steps by 2, wrapping at 4 with a phase flip.
// CHECK:         scf.if
// CHECK:           %[[LANE:.*]] = arith.subi %[[WARP]], %[[C1]] : i32
// CHECK:           %[[OUT:.*]]:2 = scf.for %{{.*}} iter_args(%[[IDX:.*]] = %[[LANE]], %[[PH:.*]] = %[[C1]]) -> (i32, i32)
// CHECK:             %[[EI:.*]] = llvm.getelementptr %[[E]][%[[IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:             nvvm.mbarrier.try_wait.parity %[[EI]], %[[PH]]
// CHECK:             %[[FI:.*]] = llvm.getelementptr %[[SMEM]][%[[IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:             nvvm.mbarrier.arrive %[[FI]] : !llvm.ptr<3>
// CHECK:             %[[NEXT:.*]] = arith.addi %[[IDX]], %[[C2]] : i32
// CHECK:             %[[WRAPS:.*]] = arith.cmpi sge, %[[NEXT]], %[[C4]] : i32
// CHECK:             %[[BACK:.*]] = arith.addi %[[IDX]], %[[CM2]] : i32
// CHECK:             %[[NIDX:.*]] = arith.select %[[WRAPS]], %[[BACK]], %[[NEXT]] : i32
// CHECK:             %[[FLIP:.*]] = arith.xori %[[PH]], %[[C1]] : i32
// CHECK:             %[[NPH:.*]] = arith.select %[[WRAPS]], %[[FLIP]], %[[PH]] : i32
// CHECK:             scf.yield %[[NIDX]], %[[NPH]] : i32, i32
// Drain wait 1: the lane's next stage, at the phase its next acquire waits
// for.
// CHECK:           %[[D0:.*]] = llvm.getelementptr %[[E]][%[[OUT]]#0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D0]], %[[OUT]]#1
// Drain wait 2: the lane's other stage (index + 2, wrapping at 4 with a
// phase flip).
// CHECK:           %[[DN:.*]] = arith.addi %[[OUT]]#0, %[[C2]] : i32
// CHECK:           %[[DW:.*]] = arith.cmpi sge, %[[DN]], %[[C4]] : i32
// CHECK:           %[[DB:.*]] = arith.addi %[[OUT]]#0, %[[CM2]] : i32
// CHECK:           %[[D1IDX:.*]] = arith.select %[[DW]], %[[DB]], %[[DN]] : i32
// CHECK:           %[[DF:.*]] = arith.xori %[[OUT]]#1, %[[C1]] : i32
// CHECK:           %[[D1PH:.*]] = arith.select %[[DW]], %[[DF]], %[[OUT]]#1 : i32
// CHECK:           %[[D1:.*]] = llvm.getelementptr %[[E]][%[[D1IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D1]], %[[D1PH]]
// No third wait: the lane owns two stages.
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity
// CHECK:         }
// The consumer (warp 0) does not drain.
// CHECK:         scf.if
// CHECK:           scf.for
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:             nvvm.mbarrier.arrive
// CHECK:           }
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity
// CHECK:         gpu.return
gpu.module @m {
  gpu.func @lanes(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n2 = arith.muli %n, %c2 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 4,
          producer_group = <thread, 32>, consumer_group = <thread, 32>,
          interleave_stride = [2, 2, 1, 1]>)
      tspipe.task @load warps(1, 2) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(0, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n2 step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
