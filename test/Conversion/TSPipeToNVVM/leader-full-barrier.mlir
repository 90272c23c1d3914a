// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: %if ptxas %{ tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// tspipe.full_barrier {pair_leader} (rule X5; triton PRs 9460, 9510): with a CTA
// pair (V = 2) the copies of both CTAs complete on the pair leader's full
// barrier: the stage's full barrier address with the peer bit (bit 24 of
// the shared::cluster window) cleared, the address a cta_group::2 copy
// takes.

// CHECK-LABEL: gpu.func @leader_full_barrier
// CHECK-DAG:     %[[CLEAR:.*]] = arith.constant -16777217 : i32
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// CHECK:         %[[FULL:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK-NEXT:    %[[ADDR:.*]] = llvm.ptrtoint %[[FULL]] : !llvm.ptr<3> to i32
// CHECK-NEXT:    %[[LEAD:.*]] = arith.andi %[[ADDR]], %[[CLEAR]] : i32
// CHECK-NEXT:    %[[BAR:.*]] = llvm.inttoptr %[[LEAD]] : i32 to !llvm.ptr<3>
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[BAR]], box
// BIN: gpu.binary @leader_full_barrier
gpu.module @leader_full_barrier [#nvvm.target<chip = "sm_100a">] {
  gpu.func @leader_full_barrier(%tmap: !llvm.ptr, %n: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = arith.constant 0 : i32
    %nk = arith.index_cast %n : i64 to index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ab config(<tma_umma, num_stages = 2, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 16384>)
          smem_bytes(65536)
      tspipe.task @load warps(0, 1) produces [@ab] {
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.producer_acquire @ab
          %lead = tspipe.full_barrier %s {pair_leader} : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %e = nvvm.elect.sync -> i1
          scf.if %e {
            %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %lead,
                box[%x, %x] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
          }
          tspipe.producer_commit @ab
        }
      }
      tspipe.task @mma warps(1, 1) consumes [@ab] {
        tspipe.domain_loop %k = %c0 to %nk step %c1 {
          %s = tspipe.consumer_wait @ab
          tspipe.consumer_release @ab
        }
      }
    }
    gpu.return
  }
}
