// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The passing twin of invalid-soundness-copies.mlir: the copy under
// nvvm.elect.sync (one lane per warp) delivers 1024 bytes on every path.
// CHECK-LABEL: func.func @X6_lane_zero_guard
func.func @X6_lane_zero_guard(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// The passing twin of X6_tma_num_bytes_zero: num_bytes names the bytes.
// CHECK-LABEL: func.func @X6_tma_num_bytes_set
func.func @X6_tma_num_bytes_set(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R54 on a cluster with the lane count: accepted.
// CHECK-LABEL: func.func @R54_cluster_lane_count
func.func @R54_cluster_lane_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>, cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}
