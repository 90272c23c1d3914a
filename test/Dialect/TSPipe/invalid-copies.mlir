// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// The operations that fill and drain stages must fit the pipeline (X5) and
// the bytes they move must add up (X6: B18, B19). The valid twin of each
// case has the same name in valid-rules.mlir.

// -----

// X6 (B18): one 16 KiB copy on a stage armed for 32 KiB never completes it.
func.func @X6_copy_bytes_short(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 16384 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 32768, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(65536)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[X6] the 1 copies completing on the full barrier of this stage of '@p' deliver 16384 bytes, but the stage is armed for 32768 (num_bytes), so its phase never completes}}
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dstc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        nvvm.cp.async.bulk.shared.cluster.global %dstc, %src, %full, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
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

// X6 (B19): a TMA stage byte count that no bulk copy can complete.
func.func @X6_num_bytes_not_16_multiple() {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{[X6] num_bytes = 100 is not a multiple of 16, but the bulk copies that fill a tma_async stage move multiples of 16 bytes}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 100, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
  }
  return
}

// -----

// X6 (B19): a bulk copy of 100 bytes.
func.func @X6_copy_not_16_multiple(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b100 = arith.constant 100 : i32
  %b12 = arith.constant 12 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 112, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(512)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dstc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        // expected-error @+1 {{[X6] copies 100 bytes, not a multiple of 16}}
        nvvm.cp.async.bulk.shared.cluster.global %dstc, %src, %full, %b100 : !llvm.ptr<7>, !llvm.ptr<1>
        // expected-error @+1 {{[X6] copies 12 bytes, not a multiple of 16}}
        nvvm.cp.async.bulk.shared.cluster.global %dstc, %src, %full, %b12 : !llvm.ptr<7>, !llvm.ptr<1>
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

// X5: a bulk copy completing on the full barrier of an AsyncAsync stage,
// which counts thread arrivals, not bytes.
func.func @X5_bulk_copy_on_async_pipeline(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(2048)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dstc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        // expected-error @+1 {{[X5] completes its bytes on the full barrier of '@p', a async_async pipeline, but only the full barrier of a TMA pipeline (tma_async, tma_umma) counts transaction bytes}}
        nvvm.cp.async.bulk.shared.cluster.global %dstc, %src, %full, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
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

// X5: a tcgen05 commit on the empty barrier of a TmaAsync stage, whose
// consumer threads release it.
func.func @X5_tcgen05_commit_on_thread_side(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        %empty = tspipe.empty_barrier %s : !llvm.ptr<3>
        // expected-error @+1 {{[X5] arrives with tcgen05 on the empty barrier of '@p', but the consumer side of a tma_async pipeline is signalled by threads or TMA}}
        nvvm.tcgen05.commit %empty : !llvm.ptr<3>
        tspipe.consumer_release @p
      }
    }
  }
  return
}
