// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The passing twins of invalid-soundness-async-reads.mlir (X25): every
// release comes after the wgmma.wait_group that retires the reads of the
// stage it frees.

// B16's fix: wait_group 0 before the release.
// CHECK-LABEL: func.func @X25_nested_release_after_wait
func.func @X25_nested_release_after_wait(%n: index, %acc0: !llvm.struct<(f32, f32, f32, f32)>) {
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
        %d = nvvm.wgmma.mma_async %as, %as, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
        nvvm.wgmma.commit.group.sync.aligned
        nvvm.wgmma.wait.group.sync.aligned 0
        tspipe.consumer_release @ring
        tspipe.yield %d : !llvm.struct<(f32, f32, f32, f32)>
      }
    }
  }
  return
}

// -----

// The deferred release: stage 0 in the head, each iteration frees the
// previous stage once its group retired (wait_group 1), the tail frees the
// last after wait_group 0.
// CHECK-LABEL: func.func @X25_deferred_release_one_behind
func.func @X25_deferred_release_one_behind(%n: index, %acc0: !llvm.struct<(f32, f32, f32, f32)>) {
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
      nvvm.wgmma.wait.group.sync.aligned 0
      tspipe.consumer_release @ring
    }
  }
  return
}

// -----

// The deferred release with a full drain on some iterations (an epilogue
// that reads the accumulator): both branches retire the previous group.
// CHECK-LABEL: func.func @X25_deferred_release_with_drain_branch
func.func @X25_deferred_release_with_drain_branch(%n: index, %acc0: !llvm.struct<(f32, f32, f32, f32)>, %flag: i1) {
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
        scf.if %flag {
          nvvm.wgmma.wait.group.sync.aligned 0
        } else {
          nvvm.wgmma.wait.group.sync.aligned 1
        }
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

// nvgpu.warpgroup.mma with waitGroup = 0 retires its group before the
// release.
// CHECK-LABEL: func.func @X25_nvgpu_mma_drained
func.func @X25_nvgpu_mma_drained(%n: index, %acc0: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %map: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>) {
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
        %d = nvgpu.warpgroup.mma %da, %db, %acc {waitGroup = 0 : i64} : <tensor = memref<64x16xf16, 3>>, <tensor = memref<16x128xf16, 3>>, <fragmented = vector<64x128xf32>> -> <fragmented = vector<64x128xf32>>
        tspipe.consumer_release @ring
        tspipe.yield %d : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
      }
    }
  }
  return
}
