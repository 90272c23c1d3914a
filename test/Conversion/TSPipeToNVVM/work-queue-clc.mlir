// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// The CLC-driven work queue on a 2-CTA cluster (docs/Protocols.md, Work
// queues): the scheduler task's tile tail is ClcFetchAsync's acquire (rank
// 0 waits on E[p], lanes 0 and 1 arm both CTAs' F[p]), the multicast
// try_cancel by one elected thread of rank 0, the commit (cursor advanced
// on rank 0), the wait on the CTA's own F[c], the decode of the response
// and the release to CTA 0. Every other task waits, decodes and releases.
// The loop leaves when the response cancelled nothing; the first tile is
// the cluster's own (%clusterid).

// PTX: gpu.binary @m
// PTX-SAME: .target sm_100a
// The worker's decode (LLVM lays it out first), then the scheduler's.
// PTX-SAME: ld.shared.v2.b64
// PTX-SAME: clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// PTX-SAME: clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// PTX-SAME: fence.proxy.async.shared::cta
// PTX-SAME: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// BIN: gpu.binary @m

// CHECK-LABEL: gpu.func @clc_tiles
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// The scheduler: state (valid, producer cursor, consumer cursor).
// CHECK:         scf.while (%[[V:.*]] = %[[TRUE:.*]], %[[PI:.*]] = %[[C0:.*]], %[[PPH:.*]] = %[[C1:.*]], %[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]]) : (i1, i32, i32, i32, i32)
// CHECK-NEXT:      scf.condition(%[[V]])
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%[[PI2:.*]]: i32, %[[PPH2:.*]]: i32, %[[CI2:.*]]: i32, %[[CPH2:.*]]: i32):
// CHECK-NEXT:      %[[R0:.*]] = arith.cmpi eq, %[[RANK]], %[[C0]] : i32
// CHECK-NEXT:      scf.if %[[R0]] {
// CHECK:             nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PPH2]]
// CHECK:           nvvm.mbarrier.arrive.expect_tx
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK-NEXT:      %[[GO:.*]] = arith.andi %[[R0]], %[[EL]] : i1
// CHECK-NEXT:      scf.if %[[GO]] {
// CHECK-NEXT:        %[[F:.*]] = llvm.getelementptr %{{.*}}[%[[PI2]]]
// CHECK-NEXT:        %[[OFF:.*]] = arith.muli %[[PI2]], %{{.*}} : i32
// CHECK-NEXT:        %[[REC:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
// CHECK-NEXT:        nvvm.clusterlaunchcontrol.try.cancel multicast, %[[REC]], %[[F]]
// CHECK-NEXT:      }
// CHECK:           nvvm.mbarrier.try_wait.parity %{{.*}}, %[[CPH2]]
// CHECK-NEXT:      %[[COFF:.*]] = arith.muli %[[CI2]], %{{.*}} : i32
// CHECK-NEXT:      %[[CREC:.*]] = llvm.getelementptr %{{.*}}[%[[COFF]]]
// CHECK-NEXT:      %[[RESP:.*]] = llvm.load %[[CREC]] {alignment = 16 : i64} : !llvm.ptr<3> -> i128
// CHECK:           %[[CANCELED:.*]] = nvvm.clusterlaunchcontrol.query.cancel query =  is_canceled, %[[RESP]] : i1
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:           nvvm.mapa %{{.*}}, %[[C0]]
// CHECK-NEXT:      nvvm.mbarrier.arrive
// CHECK:           scf.yield %[[CANCELED]],
// CHECK:         }
// The scheduler drains the queue's pipeline once, on rank 0.
// CHECK:         scf.if
// CHECK-NEXT:      llvm.getelementptr
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity
// The worker: its first tile is its cluster's, the next one the cancelled
// cluster's first ctaid / 2.
// CHECK:         } else {
// CHECK:           %[[CX:.*]] = nvvm.read.ptx.sreg.clusterid.x : i32
// CHECK:           scf.while (%{{.*}} = %[[CX]], %{{.*}} = %[[TRUE]], %{{.*}} = %[[C0]], %{{.*}} = %[[C0]]) : (i32, i1, i32, i32)
// CHECK:           } do {
// CHECK:             llvm.store
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:             %[[WR:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> i128
// CHECK-NEXT:        %[[FX:.*]] = nvvm.clusterlaunchcontrol.query.cancel query =  get_first_cta_id_x, %[[WR]] : i32
// CHECK-DAG:         %[[WC:.*]] = nvvm.clusterlaunchcontrol.query.cancel query =  is_canceled, %[[WR]] : i1
// CHECK-DAG:         %[[NX:.*]] = arith.divui %[[FX]], %{{.*}} : i32
// CHECK:             scf.yield %[[NX]], %[[WC]],
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @clc_tiles(%k: index, %out: !llvm.ptr<1>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 192>,
          cta_layout_vmnk = [1, 2, 1, 1], producer_signaling = cta_leader>)
          smem_bytes(32)
      tspipe.work_queue @dyn clc(@clc)
      tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
        tspipe.work_tile_loop @dyn {
        ^bb0(%x: index, %y: index, %z: index):
          tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          }
          %p = tspipe.producer_acquire @clc
          tspipe.fetch_work_tile @dyn stage(%p)
          tspipe.producer_commit @clc
          %s = tspipe.consumer_wait @clc
          tspipe.advance_work_tile @dyn response(%s)
          tspipe.consumer_release @clc
        }
      }
      tspipe.task @work warps(1, 2) consumes [@clc] {
        tspipe.work_tile_loop @dyn {
        ^bb0(%x: index, %y: index, %z: index):
          tspipe.domain_loop %i = %c0 to %c1 step %c1 {
            %x64 = arith.index_cast %x : index to i64
            %p = llvm.getelementptr %out[%x64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i64
            llvm.store %x64, %p : i64, !llvm.ptr<1>
          }
          %s = tspipe.consumer_wait @clc
          tspipe.advance_work_tile @dyn response(%s)
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}
