// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/../../Examples/extract_ptx.py > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// A persistent task with its PDL points around the tile loop (the load task
// of CUTLASS's TS tutorial 4, gemm_cluster_2sm): the wait for the previous
// grid runs once, before the first tile; the launch of the dependent grid
// once, after the last tile, then the producer's drain, as TS orders them
// (griddepcontrol.wait in the next grid still waits for this whole grid).
// R22 lets the PDL points surround the loop, as TS does for its barrier
// resources.

// CHECK-LABEL: gpu.func @persistent_pdl
// CHECK:         nvvm.griddepcontrol wait
// CHECK-NOT:     nvvm.griddepcontrol
// CHECK:         scf.while
// CHECK:         } do {
// CHECK-NOT:     nvvm.griddepcontrol
// CHECK:           scf.for
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK-NOT:     nvvm.griddepcontrol
// CHECK:           scf.yield
// CHECK-NEXT:    }
// After the last tile: the launch of the dependents, then the drain.
// CHECK:         nvvm.griddepcontrol launch_dependents
// CHECK-NEXT:    llvm.getelementptr
// CHECK-NEXT:    nvvm.mbarrier.try_wait.parity
// The consumer's branch has no PDL point.
// CHECK:         scf.while
// CHECK-NOT:     nvvm.griddepcontrol
// CHECK:         gpu.return

// PTX-LABEL: .entry persistent_pdl(
// PTX:         griddepcontrol.wait;
// PTX:         griddepcontrol.launch_dependents;

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    gpu.func @persistent_pdl(%tiles: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %m = arith.index_cast %tiles : i32 to index
      tspipe.kernel warps(2) {
        tspipe.pipeline @ring config(<async_async, num_stages = 2,
            producer_group = <thread, 32>, consumer_group = <thread, 32>>)
        tspipe.work_queue @tiles grid(%m)
        tspipe.task @load warps(0, 1) produces [@ring] {
          tspipe.pdl_wait
          tspipe.work_tile_loop @tiles {
          ^bb0(%tm: index):
            tspipe.domain_loop %i = %c0 to %c4 step %c1 {
              %s = tspipe.producer_acquire @ring
              tspipe.producer_commit @ring
            }
            tspipe.advance_work_tile @tiles
          }
          tspipe.pdl_launch_dependents
        }
        tspipe.task @use warps(1, 1) consumes [@ring] {
          tspipe.work_tile_loop @tiles {
          ^bb0(%tm: index):
            tspipe.domain_loop %i = %c0 to %c4 step %c1 {
              %w = tspipe.consumer_wait @ring
              tspipe.consumer_release @ring
            }
            tspipe.advance_work_tile @tiles
          }
        }
      }
      gpu.return
    }
  }
}
