// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/../../Examples/extract_ptx.py > %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// A skippable part that carries no pipeline cursor (a persistent copy
// through global memory, CUTLASS's TS tutorial 3 copy_persistent_skip_tile):
// the skipped tile's branch yields nothing, the copy runs only when the
// predicate is false.

// CHECK-LABEL: gpu.func @skip_without_cursors
// CHECK:         scf.while
// CHECK:         } do {
// The tile runs unless skip_if (tile >= logical) holds: canonicalized,
// tile < logical.
// CHECK:           %[[TILE:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK-NEXT:      %[[ON:.*]] = arith.cmpi ult, %[[TILE]], %arg2 : index
// CHECK-NEXT:      scf.if %[[ON]] {
// CHECK:             scf.for
// CHECK:               llvm.load
// CHECK:               llvm.store
// CHECK:             }
// CHECK-NEXT:      }
// CHECK-NEXT:      arith.addi
// CHECK:           scf.yield

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    gpu.func @skip_without_cursors(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>,
                                   %logical: index, %launched: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      tspipe.kernel warps(1) {
        tspipe.work_queue @tiles grid(%launched)
        tspipe.task @copy warps(0, 1) {
          tspipe.work_tile_loop @tiles skip_if {
          ^bb0(%sm: index):
            %skip = arith.cmpi uge, %sm, %logical : index
            tspipe.skip_tile %skip
          } {
          ^bb0(%tm: index):
            tspipe.skippable {
              tspipe.domain_loop %i = %c0 to %c8 step %c1 {
                %row = arith.muli %tm, %c8 : index
                %e = arith.addi %row, %i : index
                %e64 = arith.index_cast %e : index to i64
                %pa = llvm.getelementptr %a[%e64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
                %pb = llvm.getelementptr %b[%e64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
                %v = llvm.load %pa : !llvm.ptr<1> -> f32
                llvm.store %v, %pb : f32, !llvm.ptr<1>
              }
            }
            tspipe.advance_work_tile @tiles
          }
        }
      }
      gpu.return
    }
  }
}
