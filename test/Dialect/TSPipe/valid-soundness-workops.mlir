// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The passing twins of invalid-soundness-workops.mlir (X14; tspipe issue 17,
// item 8): powers of two up to 2^32, and 0 (no alignment).

// CHECK-LABEL: func.func @X14_load_alignment_3
func.func @X14_load_alignment_3(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        %z = arith.constant 0 : i32
        %v = llvm.load %b {alignment = 4 : i64} : !llvm.ptr<3> -> i32
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @X14_load_alignment_min_i64
func.func @X14_load_alignment_min_i64(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        %z = arith.constant 0 : i32
        %v = llvm.load %b {alignment = 0 : i64} : !llvm.ptr<3> -> i32
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @X14_store_alignment_2_pow_33
func.func @X14_store_alignment_2_pow_33(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        %z = arith.constant 0 : i32
        llvm.store %z, %b {alignment = 4294967296 : i64} : i32, !llvm.ptr<3>
        tspipe.consumer_release @ring
      }
    }
  }
  return
}
