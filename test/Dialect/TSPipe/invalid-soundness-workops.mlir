// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X14: alignments LLVM's translation asserts on (an llvm::Align is a power
// of two of at most 2^32). Report: tspipe issue 17, item 8: a work step's
// llvm.load with alignment = 3 passed build() and to_ptx() aborted the
// Python process; alignment = -2^63 hit another assertion.

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
        // expected-error @+1 {{'llvm.load' op [X14] has alignment = 3, but an alignment is a power of two of at most 2^32 bytes (or 0 for none); LLVM cannot translate any other value: use 1, 2, 4, 8, 16, ...}}
        %v = llvm.load %b {alignment = 3 : i64} : !llvm.ptr<3> -> i32
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

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
        // expected-error @+1 {{'llvm.load' op [X14] has alignment = -9223372036854775808, but an alignment is a power of two of at most 2^32 bytes (or 0 for none); LLVM cannot translate any other value: use 1, 2, 4, 8, 16, ...}}
        %v = llvm.load %b {alignment = -9223372036854775808 : i64} : !llvm.ptr<3> -> i32
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

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
        // expected-error @+1 {{'llvm.store' op [X14] has alignment = 8589934592, but an alignment is a power of two of at most 2^32 bytes (or 0 for none); LLVM cannot translate any other value: use 1, 2, 4, 8, 16, ...}}
        llvm.store %z, %b {alignment = 8589934592 : i64} : i32, !llvm.ptr<3>
        tspipe.consumer_release @ring
      }
    }
  }
  return
}
