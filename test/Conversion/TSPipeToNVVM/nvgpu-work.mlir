// RUN: tspipe-opt %s --tspipe-to-nvvm | FileCheck %s

// tspipe-to-nvvm lowers upstream nvgpu ops in work steps with
// convert-nvgpu-to-nvvm: a TMA tensor load on the stage's full barrier
// (bridged, tspipe.ts.nvgpu_bridge) and a warpgroup MMA on the stage whose
// accumulator the domain loop carries. The bridge's casts cancel.

// The tensor map is a 128-byte __grid_constant__ parameter.
// CHECK-LABEL: llvm.func @nvgpu_work(
// CHECK-SAME:    %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK-NOT:     tspipe.grid_constants
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK:         wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT:     unrealized_conversion_cast
// CHECK-NOT:     nvgpu.

!desc1 = !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
!desc2 = !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)>
!gdesc2 = !llvm.struct<(ptr<1>, ptr<1>, i64, array<2 x i64>, array<2 x i64>)>
!group = !nvgpu.mbarrier.group<memorySpace = 3>
!amap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>

gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @nvgpu_work(%mapp: !llvm.ptr, %out: !llvm.ptr<1>, %n: index) kernel attributes {tspipe.grid_constants = array<i64: 0>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %c64i = arith.constant 64 : i64
    %map = builtin.unrealized_conversion_cast %mapp : !llvm.ptr to !amap
    tspipe.kernel warps(8) {
      tspipe.pipeline @ab config(<tma_async, num_stages = 2, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 4>>)
          smem_bytes(32768)
      tspipe.task @load warps(0, 1) produces [@ab] registers(40) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ab
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %u = llvm.mlir.poison : !desc1
          %d0 = llvm.insertvalue %full, %u[0] : !desc1
          %d1 = llvm.insertvalue %full, %d0[1] : !desc1
          %d2 = llvm.insertvalue %z, %d1[2] : !desc1
          %d3 = llvm.insertvalue %one, %d2[3, 0] : !desc1
          %d4 = llvm.insertvalue %one, %d3[4, 0] : !desc1
          %g = builtin.unrealized_conversion_cast %d4 : !desc1 to !group
          %v = llvm.mlir.poison : !desc2
          %v0 = llvm.insertvalue %buf, %v[0] : !desc2
          %v1 = llvm.insertvalue %buf, %v0[1] : !desc2
          %v2 = llvm.insertvalue %z, %v1[2] : !desc2
          %v3 = llvm.insertvalue %c64i, %v2[3, 0] : !desc2
          %v4 = llvm.insertvalue %c64i, %v3[3, 1] : !desc2
          %v5 = llvm.insertvalue %c64i, %v4[4, 0] : !desc2
          %v6 = llvm.insertvalue %one, %v5[4, 1] : !desc2
          %m = builtin.unrealized_conversion_cast %v6 : !desc2 to memref<64x64xbf16, 3>
          %e = nvvm.elect.sync -> i1
          scf.if %e {
            nvgpu.tma.async.load %map[%c0, %c0], %g[%c0] to %m : !amap, !group -> memref<64x64xbf16, 3>
            nvgpu.tma.async.load %map[%c0, %c64], %g[%c0] to %m : !amap, !group -> memref<64x64xbf16, 3>
          }
          tspipe.producer_commit @ab
        }
      }
      tspipe.task @pad warps(1, 3) registers(40) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
      tspipe.task @mma warps(4, 4) consumes [@ab] registers(232) {
        %init = nvgpu.warpgroup.mma.init.accumulator -> !acc
        %r = tspipe.domain_loop %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!acc) {
          %s = tspipe.consumer_wait @ab
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %v = llvm.mlir.poison : !desc2
          %v0 = llvm.insertvalue %buf, %v[0] : !desc2
          %v1 = llvm.insertvalue %buf, %v0[1] : !desc2
          %v2 = llvm.insertvalue %z, %v1[2] : !desc2
          %v3 = llvm.insertvalue %c64i, %v2[3, 0] : !desc2
          %v4 = llvm.insertvalue %c64i, %v3[3, 1] : !desc2
          %v5 = llvm.insertvalue %c64i, %v4[4, 0] : !desc2
          %v6 = llvm.insertvalue %one, %v5[4, 1] : !desc2
          %ma = builtin.unrealized_conversion_cast %v6 : !desc2 to memref<64x64xbf16, 3>
          %da = nvgpu.warpgroup.generate.descriptor %ma, %map : memref<64x64xbf16, 3>, !amap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x16xbf16, 3>>
          %db = nvgpu.warpgroup.generate.descriptor %ma, %map : memref<64x64xbf16, 3>, !amap -> !nvgpu.warpgroup.descriptor<tensor = memref<16x64xbf16, 3>>
          %next = nvgpu.warpgroup.mma %da, %db, %acc {waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<64x16xbf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<16x64xbf16, 3>>, !acc -> !acc
          tspipe.consumer_release @ab
          tspipe.yield %next : !acc
        }
        %w = llvm.mlir.poison : !gdesc2
        %w0 = llvm.insertvalue %out, %w[0] : !gdesc2
        %w1 = llvm.insertvalue %out, %w0[1] : !gdesc2
        %w2 = llvm.insertvalue %z, %w1[2] : !gdesc2
        %w3 = llvm.insertvalue %c64i, %w2[3, 0] : !gdesc2
        %w4 = llvm.insertvalue %c64i, %w3[3, 1] : !gdesc2
        %w5 = llvm.insertvalue %c64i, %w4[4, 0] : !gdesc2
        %w6 = llvm.insertvalue %one, %w5[4, 1] : !gdesc2
        %sm = builtin.unrealized_conversion_cast %w6 : !gdesc2 to memref<64x64xf32, 1>
        nvgpu.warpgroup.mma.store %r, %sm : !acc to memref<64x64xf32, 1>
      }
    }
    gpu.return
  }
}
