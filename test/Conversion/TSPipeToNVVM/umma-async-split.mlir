// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s

// UmmaAsync with split consumer cursors (advance_on_wait), one CTA: the
// cell "UmmaAsync x split" of the lowering test matrix (README.md). The
// producer is as in umma-async.mlir (wait on E[p], one elected
// tcgen05.commit to F[p], the UmmaAsync drain); the waiter task waits on
// F[c] and advances c at once, without arriving; the releaser task keeps
// its own cursor cr and every thread arrives on E[cr]. As in TS's
// split-consumer pattern (ts-semantics 4.5) the waiter hands each stage to
// the releaser through a proxy pipeline (@proxy, AsyncAsync; F +32, E +48).

// CHECK-LABEL: gpu.func @split_consumer
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[SMEM_SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared-memory base, once at kernel entry (32-bit, from lane 0).
// CHECK:         %[[SMEM_SYM32:.*]] = llvm.ptrtoint %[[SMEM_SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[SMEM_B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SMEM_SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[SMEM:.*]] = llvm.inttoptr %[[SMEM_B32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[E:.*]] = llvm.getelementptr %[[SMEM]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Producer (warp 0).
// CHECK:         scf.if
// CHECK:           scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]]) -> (i32, i32)
// CHECK:             %[[EP:.*]] = llvm.getelementptr %[[E]][%[[P]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:             nvvm.mbarrier.try_wait.parity %[[EP]], %[[PPH]]
// CHECK:             %[[FP:.*]] = llvm.getelementptr %[[SMEM]][%[[P]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:             %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:             scf.if %[[EL]] {
// CHECK-NEXT:          nvvm.tcgen05.commit %[[FP]] : !llvm.ptr<3>
// CHECK:             scf.yield
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK-NOT:       nvvm.mbarrier
// CHECK:         }
// Waiter (warps 1-4): wait on F[c], advance c, no arrive on @ring; then
// its @proxy bracket (not the subject here).
// CHECK:         scf.if
// CHECK:           scf.for %{{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C1]]) -> (i32, i32, i32, i32)
// CHECK:             %[[FC:.*]] = llvm.getelementptr %[[SMEM]][%[[C]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:             nvvm.mbarrier.try_wait.parity %[[FC]], %[[CPH]]
// CHECK-DAG:         %[[CN:.*]] = arith.addi %[[C]], %[[C1]] : i32
// CHECK-DAG:         %[[CW:.*]] = arith.cmpi sge, %[[CN]], %[[C2]] : i32
// CHECK-DAG:         %[[CWR:.*]] = arith.addi %[[C]], %[[CM1]] : i32
// CHECK-DAG:         %[[CX:.*]] = arith.select %[[CW]], %[[CWR]], %[[CN]] : i32
// CHECK-DAG:         %[[CFL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:         %[[CPX:.*]] = arith.select %[[CW]], %[[CFL]], %[[CPH]] : i32
// CHECK:             scf.yield %[[CX]], %[[CPX]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
// CHECK:         }
// Releaser (warps 5-8): after its @proxy wait, every thread arrives on
// E[cr]; it never waits on @ring.
// CHECK:         scf.if
// CHECK:           scf.for %{{.*}} iter_args(%[[CR:.*]] = %[[C0]], %[[CRPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C0]]) -> (i32, i32, i32, i32)
// CHECK-NOT:         nvvm.mbarrier.try_wait.parity %{{.*}}, %[[CRPH]]
// CHECK:             %[[ECR:.*]] = llvm.getelementptr %[[E]][%[[CR]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK-NEXT:        nvvm.mbarrier.arrive %[[ECR]] : !llvm.ptr<3>
// CHECK-DAG:         %[[CRN:.*]] = arith.addi %[[CR]], %[[C1]] : i32
// CHECK-DAG:         %[[CRW:.*]] = arith.cmpi sge, %[[CRN]], %[[C2]] : i32
// CHECK-DAG:         %[[CRWR:.*]] = arith.addi %[[CR]], %[[CM1]] : i32
// CHECK-DAG:         %[[CRX:.*]] = arith.select %[[CRW]], %[[CRWR]], %[[CRN]] : i32
// CHECK-DAG:         %[[CRFL:.*]] = arith.xori %[[CRPH]], %[[C1]] : i32
// CHECK-DAG:         %[[CRPX:.*]] = arith.select %[[CRW]], %[[CRFL]], %[[CRPH]] : i32
// CHECK:             scf.yield %[[CRX]], %[[CRPX]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
// CHECK:         gpu.return
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @split_consumer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(9) {
      tspipe.pipeline @ring config(<umma_async, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 128>,
          advance_on_wait = true>)
      tspipe.pipeline @proxy config(<async_async, num_stages = 2,
          producer_group = <thread, 128>, consumer_group = <thread, 128>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @waiter warps(1, 4) produces [@proxy] consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          %p = tspipe.producer_acquire @proxy
          tspipe.producer_commit @proxy
        }
      }
      tspipe.task @releaser warps(5, 4) consumes [@ring, @proxy] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.consumer_wait @proxy
          %s = tspipe.current_stage @ring consumer
          tspipe.consumer_release @ring
          tspipe.consumer_release @proxy
        }
      }
    }
    gpu.return
  }
}
