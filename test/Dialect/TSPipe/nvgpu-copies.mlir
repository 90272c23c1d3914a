// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X5 and X6 on upstream nvgpu TMA loads in work steps: the stage's full
// barrier reaches nvgpu.tma.async.load through the conversion bridge
// (llvm.insertvalue into a memref descriptor, unrealized_conversion_cast to
// !nvgpu.mbarrier.group; tspipe.ts.nvgpu_bridge) and each load delivers the
// bytes of its tensor-map box.

!desc1 = !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
!desc2 = !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)>
!group = !nvgpu.mbarrier.group<memorySpace = 3>
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// Two 8 KiB boxes on a 16 KiB stage: accepted.
gpu.module @X6_nvgpu_boxes_add_up {
  gpu.func @X6_nvgpu_boxes_add_up(%map: !map, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    tspipe.kernel warps(2) {
      tspipe.pipeline @ab config(<tma_async, num_stages = 2, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(32768)
      tspipe.task @load warps(0, 1) produces [@ab] {
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
          %m = builtin.unrealized_conversion_cast %buf : !llvm.ptr<3> to memref<64x64xbf16, 3>
          %e = nvvm.elect.sync -> i1
          scf.if %e {
            nvgpu.tma.async.load %map[%c0, %c0], %g[%c0] to %m : !map, !group -> memref<64x64xbf16, 3>
            nvgpu.tma.async.load %map[%c0, %c64], %g[%c0] to %m : !map, !group -> memref<64x64xbf16, 3>
          }
          tspipe.producer_commit @ab
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ab] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ab
          tspipe.consumer_release @ab
        }
      }
    }
    gpu.return
  }
}

// -----

!desc1 = !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
!group = !nvgpu.mbarrier.group<memorySpace = 3>
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// One 8 KiB box on a stage armed for 16 KiB: the phase never completes.
gpu.module @X6_nvgpu_box_short {
  gpu.func @X6_nvgpu_box_short(%map: !map, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ab config(<tma_async, num_stages = 2, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(32768)
      tspipe.task @load warps(0, 1) produces [@ab] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-error @+1 {{[X6] the 1 copies completing on the full barrier of this stage of '@ab' deliver 8192 bytes, but the stage is armed for 16384 (num_bytes)}}
          %s = tspipe.producer_acquire @ab
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %u = llvm.mlir.poison : !desc1
          %d0 = llvm.insertvalue %full, %u[0] : !desc1
          %d1 = llvm.insertvalue %full, %d0[1] : !desc1
          %g = builtin.unrealized_conversion_cast %d1 : !desc1 to !group
          %m = builtin.unrealized_conversion_cast %buf : !llvm.ptr<3> to memref<64x64xbf16, 3>
          %e = nvvm.elect.sync -> i1
          scf.if %e {
            nvgpu.tma.async.load %map[%c0, %c0], %g[%c0] to %m : !map, !group -> memref<64x64xbf16, 3>
          }
          tspipe.producer_commit @ab
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ab] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ab
          tspipe.consumer_release @ab
        }
      }
    }
    gpu.return
  }
}

// -----

!desc1 = !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
!group = !nvgpu.mbarrier.group<memorySpace = 3>
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// An nvgpu TMA load completing on the empty barrier: X5.
gpu.module @X5_nvgpu_load_on_empty {
  gpu.func @X5_nvgpu_load_on_empty(%map: !map, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ab config(<tma_async, num_stages = 2, num_bytes = 0,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(32768)
      tspipe.task @load warps(0, 1) produces [@ab] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ab
          %empty = tspipe.empty_barrier %s : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %u = llvm.mlir.poison : !desc1
          %d0 = llvm.insertvalue %empty, %u[0] : !desc1
          %d1 = llvm.insertvalue %empty, %d0[1] : !desc1
          %g = builtin.unrealized_conversion_cast %d1 : !desc1 to !group
          %m = builtin.unrealized_conversion_cast %buf : !llvm.ptr<3> to memref<64x64xbf16, 3>
          %e = nvvm.elect.sync -> i1
          scf.if %e {
            // expected-error @+1 {{[X5] completes its bytes on the empty barrier of '@ab', a tma_async pipeline, but only the full barrier of a TMA pipeline (tma_async, tma_umma) counts transaction bytes}}
            nvgpu.tma.async.load %map[%c0, %c0], %g[%c0] to %m : !map, !group -> memref<64x64xbf16, 3>
          }
          tspipe.producer_commit @ab
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ab] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ab
          tspipe.consumer_release @ab
        }
      }
    }
    gpu.return
  }
}
