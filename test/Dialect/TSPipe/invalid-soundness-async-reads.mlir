// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X25: a warpgroup MMA reads its shared-memory operands asynchronously,
// until a wgmma.wait_group retires its group; a consumer_release of the
// stage before that hands the producer a stage still being read. The
// passing twins are in valid-soundness-async-reads.mlir.

// B16 (triton PR 2868): the stage is released with its MMA group still in
// flight; wait_group 1 leaves the newest group (this stage's) pending.
func.func @X25_nested_release_with_group_in_flight(%n: index, %acc0: !llvm.struct<(f32, f32, f32, f32)>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.maxui %n, %c1 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 128>>) smem_bytes(4096)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %m step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @mma warps(1, 4) consumes [@ring] {
      %h = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      %r = tspipe.domain_loop %i = %c0 to %m step %c1 iter_args(%acc = %h) -> (!llvm.struct<(f32, f32, f32, f32)>) {
        %s = tspipe.consumer_wait @ring
        %bs = tspipe.stage_buffer %s : !llvm.ptr<3>
        %as = llvm.ptrtoint %bs : !llvm.ptr<3> to i64
        nvvm.wgmma.fence.aligned
        // expected-note@+1 {{the warpgroup MMA that reads the stage}}
        %d = nvvm.wgmma.mma_async %as, %as, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 1
        // expected-error@+1 {{[X25] releases a stage of @ring that a warpgroup MMA may still read: its group is still in flight (no wgmma.wait_group of at most 0}}
        tspipe.consumer_release @ring
        tspipe.yield %d : !llvm.struct<(f32, f32, f32, f32)>
      }
    }
  }
  return
}

// -----

// The MMA is never committed: wait_group does not cover it.
func.func @X25_uncommitted_before_release(%n: index, %acc0: !llvm.struct<(f32, f32, f32, f32)>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.maxui %n, %c1 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 128>>) smem_bytes(4096)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %m step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @mma warps(1, 4) consumes [@ring] {
      %h = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      %r = tspipe.domain_loop %i = %c0 to %m step %c1 iter_args(%acc = %h) -> (!llvm.struct<(f32, f32, f32, f32)>) {
        %s = tspipe.consumer_wait @ring
        %bs = tspipe.stage_buffer %s : !llvm.ptr<3>
        %as = llvm.ptrtoint %bs : !llvm.ptr<3> to i64
        nvvm.wgmma.fence.aligned
        // expected-note@+1 {{the warpgroup MMA that reads the stage}}
        %d = nvvm.wgmma.mma_async %as, %as, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.wait.group.sync.aligned 0
        // expected-error@+1 {{[X25] releases a stage of @ring that a warpgroup MMA may still read: the MMA's group is not committed}}
        tspipe.consumer_release @ring
        tspipe.yield %d : !llvm.struct<(f32, f32, f32, f32)>
      }
    }
  }
  return
}

// -----

// The deferred release with too loose a wait: wait_group 2 leaves the
// previous stage's group (the one the loop's release frees) pending.
func.func @X25_deferred_wait_too_loose(%n: index, %acc0: !llvm.struct<(f32, f32, f32, f32)>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.maxui %n, %c1 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 128>, advance_on_wait = true>) smem_bytes(4096)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %m step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @mma warps(1, 4) consumes [@ring] {
      %s0 = tspipe.consumer_wait @ring
      %bs0 = tspipe.stage_buffer %s0 : !llvm.ptr<3>
      %as0 = llvm.ptrtoint %bs0 : !llvm.ptr<3> to i64
      nvvm.wgmma.fence.aligned
      // expected-note@+1 {{the warpgroup MMA that reads the stage}}
      %h = nvvm.wgmma.mma_async %as0, %as0, %acc0, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      %r = tspipe.domain_loop %i = %c1 to %m step %c1 iter_args(%acc = %h) -> (!llvm.struct<(f32, f32, f32, f32)>) {
        %s = tspipe.consumer_wait @ring
        %bs = tspipe.stage_buffer %s : !llvm.ptr<3>
        %as = llvm.ptrtoint %bs : !llvm.ptr<3> to i64
        nvvm.wgmma.fence.aligned
        %d = nvvm.wgmma.mma_async %as, %as, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 2
        // expected-error@+1 {{[X25] releases a stage of @ring that a warpgroup MMA may still read: its group is still in flight (no wgmma.wait_group of at most 1}}
        tspipe.consumer_release @ring
        tspipe.yield %d : !llvm.struct<(f32, f32, f32, f32)>
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      tspipe.consumer_release @ring
    }
  }
  return
}

// -----

// The deferred release without the tail's wait: the last stage's group is
// still pending when the tail frees it.
func.func @X25_deferred_tail_without_wait(%n: index, %acc0: !llvm.struct<(f32, f32, f32, f32)>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.maxui %n, %c1 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 128>, advance_on_wait = true>) smem_bytes(4096)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %m step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @mma warps(1, 4) consumes [@ring] {
      %s0 = tspipe.consumer_wait @ring
      %bs0 = tspipe.stage_buffer %s0 : !llvm.ptr<3>
      %as0 = llvm.ptrtoint %bs0 : !llvm.ptr<3> to i64
      nvvm.wgmma.fence.aligned
      // expected-note@+1 {{the warpgroup MMA that reads the stage}}
      %h = nvvm.wgmma.mma_async %as0, %as0, %acc0, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      %r = tspipe.domain_loop %i = %c1 to %m step %c1 iter_args(%acc = %h) -> (!llvm.struct<(f32, f32, f32, f32)>) {
        %s = tspipe.consumer_wait @ring
        %bs = tspipe.stage_buffer %s : !llvm.ptr<3>
        %as = llvm.ptrtoint %bs : !llvm.ptr<3> to i64
        nvvm.wgmma.fence.aligned
        %d = nvvm.wgmma.mma_async %as, %as, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 1
        tspipe.consumer_release @ring
        tspipe.yield %d : !llvm.struct<(f32, f32, f32, f32)>
      }
      // expected-error@+1 {{[X25] releases a stage of @ring that a warpgroup MMA may still read: its group is still in flight (no wgmma.wait_group of at most 0}}
      tspipe.consumer_release @ring
    }
  }
  return
}

// -----

// Waited on one branch only: on the other the group is still pending.
func.func @X25_wait_on_one_branch(%n: index, %acc0: !llvm.struct<(f32, f32, f32, f32)>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.maxui %n, %c1 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 128>>) smem_bytes(4096)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %m step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @mma warps(1, 4) consumes [@ring] {
      %h = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
      %r = tspipe.domain_loop %i = %c0 to %m step %c1 iter_args(%acc = %h) -> (!llvm.struct<(f32, f32, f32, f32)>) {
        %s = tspipe.consumer_wait @ring
        %bs = tspipe.stage_buffer %s : !llvm.ptr<3>
        %as = llvm.ptrtoint %bs : !llvm.ptr<3> to i64
        nvvm.wgmma.fence.aligned
        // expected-note@+1 {{the warpgroup MMA that reads the stage}}
        %d = nvvm.wgmma.mma_async %as, %as, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        scf.if %flag {
          nvvm.wgmma.wait.group.sync.aligned 0
        }
        // expected-error@+1 {{[X25] releases a stage of @ring that a warpgroup MMA may still read}}
        tspipe.consumer_release @ring
        tspipe.yield %d : !llvm.struct<(f32, f32, f32, f32)>
      }
    }
  }
  return
}

// -----

// nvgpu.warpgroup.mma commits its MMAs as one group and then waits for
// `waitGroup`: with 1, this stage's group is still pending at the release.
func.func @X25_nvgpu_mma_wait_group(%n: index, %acc0: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %map: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.maxui %n, %c1 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 128>>) smem_bytes(65536)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %m step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @mma warps(1, 4) consumes [@ring] {
      %r = tspipe.domain_loop %i = %c0 to %m step %c1 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>) {
        %s = tspipe.consumer_wait @ring
        %b = tspipe.stage_buffer %s : !llvm.ptr<3>
        %ma = builtin.unrealized_conversion_cast %b : !llvm.ptr<3> to memref<64x16xf16, 3>
        %mb = builtin.unrealized_conversion_cast %b : !llvm.ptr<3> to memref<16x128xf16, 3>
        %da = nvgpu.warpgroup.generate.descriptor %ma, %map : memref<64x16xf16, 3>, <tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> <tensor = memref<64x16xf16, 3>>
        %db = nvgpu.warpgroup.generate.descriptor %mb, %map : memref<16x128xf16, 3>, <tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> <tensor = memref<16x128xf16, 3>>
        // expected-note@+1 {{the warpgroup MMA that reads the stage}}
        %d = nvgpu.warpgroup.mma %da, %db, %acc {waitGroup = 1 : i64} : <tensor = memref<64x16xf16, 3>>, <tensor = memref<16x128xf16, 3>>, <fragmented = vector<64x128xf32>> -> <fragmented = vector<64x128xf32>>
        // expected-error@+1 {{[X25] releases a stage of @ring that a warpgroup MMA may still read: its group is still in flight (no wgmma.wait_group of at most 0}}
        tspipe.consumer_release @ring
        tspipe.yield %d : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
      }
    }
  }
  return
}
