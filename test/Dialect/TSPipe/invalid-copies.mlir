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
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          nvvm.cp.async.bulk.shared.cluster.global %dstc, %src, %full, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
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
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          // expected-error @+1 {{[X6] copies 100 bytes, not a multiple of 16}}
          nvvm.cp.async.bulk.shared.cluster.global %dstc, %src, %full, %b100 : !llvm.ptr<7>, !llvm.ptr<1>
          // expected-error @+1 {{[X6] copies 12 bytes, not a multiple of 16}}
          nvvm.cp.async.bulk.shared.cluster.global %dstc, %src, %full, %b12 : !llvm.ptr<7>, !llvm.ptr<1>
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

// -----

// X6: a copy in a static loop of 3 trips delivers 3 x 512 bytes.
func.func @X6_copy_loop_trips(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  %c3 = arith.constant 3 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[X6] the 1 copies completing on the full barrier of this stage of '@p' deliver 1536 bytes, but the stage is armed for 1024 (num_bytes), so its phase overflows its byte count}}
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          scf.for %q = %c0 to %c3 step %c1 {
            nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b512 : !llvm.ptr<7>, !llvm.ptr<1>
          }
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

// X6: one arm of an scf.if delivers nothing.
func.func @X6_copy_if_else_arms(%n: index, %src: !llvm.ptr<1>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[X6] the copies completing on the full barrier of this stage of '@p' deliver between 0 and 1024 bytes, depending on the scf.if arm, but the stage is armed for 1024 (num_bytes), so its phase never completes}}
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          scf.if %flag {
            nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 : !llvm.ptr<7>, !llvm.ptr<1>
          }
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

// X6: a stage armed for bytes whose full barrier no copy signals never
// completes (the consumers hang).
func.func @X6_no_copy_zero_bytes(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-warning @+1 {{[X6] no copy completes on the full barrier of this stage of '@p', but the stage is armed for 1024 (num_bytes) bytes, so its phase never completes and the consumers wait forever}}
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
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

// X6: a copy issued by all 32 lanes delivers 32 times its bytes.
func.func @X6_copy_elected(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        // expected-error @+1 {{[X6] is issued by every thread of the task (no nvvm.elect.sync branch guards it), so each of the 32 lanes of a warp delivers its bytes}}
        nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 : !llvm.ptr<7>, !llvm.ptr<1>
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

// X5: a multicast copy on a CTA-local pipeline: the peers' releases do
// not gate this producer.
func.func @X5_multicast_cta_local(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b512 = arith.constant 512 : i32
  %b1024 = arith.constant 1024 : i32
  %mask = arith.constant 3 : i16
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          // expected-remark @+2 {{[X6] bytes of this stage of '@p' not counted against 1024 (num_bytes): it multicasts: each destination CTA's barrier receives its bytes}}
          // expected-error @+1 {{[X5] multicasts into the stages of '@p', but its cta_layout_vmnk is one CTA}}
          nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr<1>
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
