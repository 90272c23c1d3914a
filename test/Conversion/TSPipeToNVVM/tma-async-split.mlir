// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s

// TmaAsync with split consumer cursors (advance_on_wait) and both try
// forms, on one CTA: the cells "TmaAsync x split" and "TmaAsync x try
// forms" of the lowering test matrix (README.md).
//
// 2 stages, num_bytes = 4096; F at smem + 0, E at smem + 16.
// * producer (warp 0): one probe of E[p] with p's phase; the blocking wait
//   only when the probe failed; one elected thread arms F[p] with 4096
//   bytes; p advances on commit (no split producer).
// * waiter (warp 1): one probe of F[c], the blocking wait only when it
//   failed, then c advances at once (advance_on_wait); no arrive.
// * releaser (warp 2): its own cursor cr; fence, warp sync, lane 0 arrives
//   on E[cr]; cr advances.
// As in TS's split-consumer pattern (ts-semantics 4.5) the waiter hands each
// stage to the releaser through a proxy pipeline (@proxy, AsyncAsync, F at
// smem + 32, E at smem + 48), whose brackets are not the subject here.

// CHECK-LABEL: gpu.func @split_try
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 4096 : i32
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[SMEM_SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : i32
// The shared-memory base, once at kernel entry (32-bit, from lane 0).
// CHECK:         %[[SMEM_SYM32:.*]] = llvm.ptrtoint %[[SMEM_SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[SMEM_B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SMEM_SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[SMEM:.*]] = llvm.inttoptr %[[SMEM_B32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[E:.*]] = llvm.getelementptr %[[SMEM]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Producer.
// CHECK:         scf.if
// CHECK:           %[[PEND:.*]]:2 = scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]]) -> (i32, i32)
// CHECK:             %[[EP:.*]] = llvm.getelementptr %[[E]][%[[P]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:             %[[PREADY:.*]] = nvvm.mbarrier.try_wait %[[EP]], %[[PPH]] : !llvm.ptr<3>, i32 -> i1
// CHECK-DAG:         %[[PNOT:.*]] = arith.xori %[[PREADY]], %[[TRUE]] : i1
// CHECK:             scf.if %[[PNOT]] {
// CHECK-NEXT:          nvvm.mbarrier.try_wait.parity %[[EP]], %[[PPH]]
// CHECK-NEXT:        }
// CHECK:             %[[ELECT:.*]] = nvvm.elect.sync -> i1
// CHECK:             scf.if %[[ELECT]] {
// CHECK:               %[[FP:.*]] = llvm.getelementptr %[[SMEM]][%[[P]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:               nvvm.mbarrier.arrive.expect_tx %[[FP]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:             }
// CHECK:             arith.addi %[[P]], %[[C1]] : i32
// CHECK:             scf.yield
// The drain: 2 waits on E, the first at the loop's final cursor.
// CHECK:           %[[D0:.*]] = llvm.getelementptr %[[E]][%[[PEND]]#0]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#1
// CHECK-DAG:       %[[DN:.*]] = arith.addi %[[PEND]]#0, %[[C1]] : i32
// CHECK:           %[[DW:.*]] = arith.cmpi sge, %[[DN]], %[[C2]] : i32
// CHECK-DAG:       %[[DWR:.*]] = arith.addi %[[PEND]]#0, %[[CM1]] : i32
// CHECK-DAG:       %[[D1I:.*]] = arith.select %[[DW]], %[[DWR]], %[[DN]] : i32
// CHECK-DAG:       %[[DFL:.*]] = arith.xori %[[PEND]]#1, %[[C1]] : i32
// CHECK-DAG:       %[[D1P:.*]] = arith.select %[[DW]], %[[DFL]], %[[PEND]]#1 : i32
// CHECK:           %[[D1:.*]] = llvm.getelementptr %[[E]][%[[D1I]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[D1]], %[[D1P]]
// CHECK-NOT:       nvvm.mbarrier
// CHECK:         }
// Waiter: probe and conditional wait on F[c], c advances right after.
// CHECK:         scf.if
// CHECK:           scf.for %{{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C1]]) -> (i32, i32, i32, i32)
// CHECK:             %[[FC:.*]] = llvm.getelementptr %[[SMEM]][%[[C]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:             %[[CREADY:.*]] = nvvm.mbarrier.try_wait %[[FC]], %[[CPH]] : !llvm.ptr<3>, i32 -> i1
// CHECK-DAG:         %[[CNOT:.*]] = arith.xori %[[CREADY]], %[[TRUE]] : i1
// CHECK:             scf.if %[[CNOT]] {
// CHECK-NEXT:          nvvm.mbarrier.try_wait.parity %[[FC]], %[[CPH]]
// CHECK-NEXT:        }
// CHECK-NOT:         nvvm.mbarrier.arrive
// CHECK-DAG:         %[[CN:.*]] = arith.addi %[[C]], %[[C1]] : i32
// CHECK:             %[[CW:.*]] = arith.cmpi sge, %[[CN]], %[[C2]] : i32
// CHECK-DAG:         %[[CWR:.*]] = arith.addi %[[C]], %[[CM1]] : i32
// CHECK-DAG:         %[[CX:.*]] = arith.select %[[CW]], %[[CWR]], %[[CN]] : i32
// CHECK-DAG:         %[[CFL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:         %[[CPX:.*]] = arith.select %[[CW]], %[[CFL]], %[[CPH]] : i32
// CHECK:             scf.yield %[[CX]], %[[CPX]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
// CHECK-NOT:       nvvm.mbarrier
// CHECK:         }
// Releaser: lane 0 of the warp arrives on E[cr] after the fence and the
// warp sync; no wait.
// CHECK:         scf.if
// CHECK:           scf.for %{{.*}} iter_args(%[[CR:.*]] = %[[C0]], %[[CRPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C0]]) -> (i32, i32, i32, i32)
// CHECK-NOT:         nvvm.mbarrier.try_wait.parity %{{.*}}, %[[CRPH]]
// CHECK:             nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:             nvvm.bar.warp.sync
// CHECK:             %[[L0:.*]] = arith.cmpi eq, %[[LANE]], %[[C0]] : i32
// CHECK:             scf.if %[[L0]] {
// CHECK:               %[[ECR:.*]] = llvm.getelementptr %[[E]][%[[CR]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:               nvvm.mbarrier.arrive %[[ECR]] : !llvm.ptr<3>
// CHECK:             }
// CHECK-DAG:         %[[CRN:.*]] = arith.addi %[[CR]], %[[C1]] : i32
// CHECK:             %[[CRW:.*]] = arith.cmpi sge, %[[CRN]], %[[C2]] : i32
// CHECK-DAG:         %[[CRWR:.*]] = arith.addi %[[CR]], %[[CM1]] : i32
// CHECK-DAG:         %[[CRX:.*]] = arith.select %[[CRW]], %[[CRWR]], %[[CRN]] : i32
// CHECK-DAG:         %[[CRFL:.*]] = arith.xori %[[CRPH]], %[[C1]] : i32
// CHECK-DAG:         %[[CRPX:.*]] = arith.select %[[CRW]], %[[CRFL]], %[[CRPH]] : i32
// CHECK:             scf.yield %[[CRX]], %[[CRPX]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
// CHECK:         gpu.return
gpu.module @m {
  gpu.func @split_try(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 4096,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          advance_on_wait = true>)
      tspipe.pipeline @proxy config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %r = tspipe.producer_try_acquire @ring
          %s = tspipe.producer_acquire @ring ready(%r)
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @waiter warps(1, 1) produces [@proxy] consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %r = tspipe.consumer_try_wait @ring
          %s = tspipe.consumer_wait @ring ready(%r)
          %p = tspipe.producer_acquire @proxy
          tspipe.producer_commit @proxy
        }
      }
      tspipe.task @releaser warps(2, 1) consumes [@ring, @proxy] {
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
