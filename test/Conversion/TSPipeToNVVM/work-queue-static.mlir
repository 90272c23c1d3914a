// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// RUN: tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// The static persistent work queue (docs/Protocols.md, Work queues): each
// CTA starts at its linear id, walks the tiles with the stride of the CTAs
// launched, decodes (m, n) m-major, and carries its pipeline cursors from
// tile to tile; the producer drain runs once, after the tile loop.

// PTX: gpu.binary @m
// PTX-SAME: %nctaid.x
// PTX: gpu.binary @m
// PTX-SAME: %nclusterid.x
// BIN: gpu.binary @m
// BIN: gpu.binary @m

// CHECK-LABEL: gpu.func @static_tiles
// The producer's task branch: this CTA's linear id c and the CTAs
// launched C, the grid's M * N tiles.
// CHECK:         scf.if
// CHECK:         %[[X:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT:    %[[Y:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-NEXT:    %[[Z:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK-NEXT:    %[[NX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT:    %[[NY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NEXT:    %[[NZ:.*]] = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK-NEXT:    %[[YZ:.*]] = arith.muli %[[NY]], %[[Z]] : i32
// CHECK-NEXT:    %[[YZ2:.*]] = arith.addi %[[Y]], %[[YZ]] : i32
// CHECK-NEXT:    %[[XYZ:.*]] = arith.muli %[[NX]], %[[YZ2]] : i32
// CHECK-NEXT:    %[[C:.*]] = arith.addi %[[X]], %[[XYZ]] : i32
// CHECK-NEXT:    %[[NYZ:.*]] = arith.muli %[[NY]], %[[NZ]] : i32
// CHECK-NEXT:    %[[STRIDE:.*]] = arith.muli %[[NX]], %[[NYZ]] : i32
// CHECK-NEXT:    %[[GM:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:    %[[GN:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:    %[[TOTAL:.*]] = arith.muli %[[GM]], %[[GN]] : i32
// CHECK-NEXT:    %[[V0:.*]] = arith.cmpi ult, %[[C]], %[[TOTAL]] : i32
// The tile loop carries the linear tile, its validity and the producer
// cursor (index 0, phase 1).
// CHECK-NEXT:    %[[PEND:.*]]:3 = scf.while (%[[T:.*]] = %[[C]], %[[V:.*]] = %[[V0]], %[[PI:.*]] = %[[C0:.*]], %[[PPH:.*]] = %[[C1:.*]]) : (i32, i1, i32, i32) -> (i32, i32, i32) {
// CHECK-NEXT:      scf.condition(%[[V]]) %[[T]], %[[PI]], %[[PPH]]
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[T2:.*]]: i32, %[[PI2:.*]]: i32, %[[PPH2:.*]]: i32):
// m = t mod M is the tile's first coordinate; the per-tile domain ends at
// m + 1.
// CHECK-NEXT:      %[[M:.*]] = arith.remui %[[T2]], %[[GM]] : i32
// CHECK-NEXT:      %[[MI:.*]] = arith.index_castui %[[M]] : i32 to index
// CHECK-NEXT:      %[[END:.*]] = arith.addi %[[MI]], %{{.*}} : index
// CHECK-NEXT:      %[[END32:.*]] = arith.index_cast %[[END]] : index to i32
// CHECK-NEXT:      %[[DOM:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[END32]] step %{{.*}} iter_args(%{{.*}} = %[[PI2]], %{{.*}} = %[[PPH2]]) -> (i32, i32)  : i32 {
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:             nvvm.mbarrier.arrive
// CHECK:           }
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[T2]], %[[STRIDE]] : i32
// CHECK-NEXT:      %[[NV:.*]] = arith.cmpi ult, %[[NEXT]], %[[TOTAL]] : i32
// CHECK-NEXT:      scf.yield %[[NEXT]], %[[NV]], %[[DOM]]#0, %[[DOM]]#1 : i32, i1, i32, i32
// CHECK-NEXT:    }
// The drain, once, from the cursor the last tile left: S = 2 waits.
// CHECK-NEXT:    %[[D0:.*]] = llvm.getelementptr %{{.*}}[%[[PEND]]#1]
// CHECK-NEXT:    nvvm.mbarrier.try_wait.parity %[[D0]], %[[PEND]]#2
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NOT:     nvvm.mbarrier.try_wait.parity
// The consumer's branch: the same walk, its consumer cursor carried.
// CHECK:         } else {
// CHECK:           scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[C0]], %{{.*}} = %[[C0]]) : (i32, i1, i32, i32) -> (i32, i32, i32) {
// A consumer does not drain: nothing after its tile loop.
// CHECK:             scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, i1, i32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.return
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @static_tiles(%gm: index, %gn: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.work_queue @tiles grid(%gm, %gn)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.work_tile_loop @tiles {
        ^bb0(%tm: index, %tn: index):
          %end = arith.addi %tm, %c1 : index
          tspipe.domain_loop %i = %c0 to %end step %c1 {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
          tspipe.advance_work_tile @tiles
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ring] {
        tspipe.work_tile_loop @tiles {
        ^bb0(%tm: index, %tn: index):
          %end = arith.addi %tm, %c1 : index
          tspipe.domain_loop %i = %c0 to %end step %c1 {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
          tspipe.advance_work_tile @tiles
        }
      }
    }
    gpu.return
  }
}

// -----

// A cluster of 2 walks the tiles by cluster id (both CTAs on one tile);
// skip_if guards the skippable domain loop with an scf.if that carries the
// cursors.

// CHECK-LABEL: gpu.func @cluster_skip
// CHECK:         nvvm.cluster.wait {aligned}
// CHECK:         scf.if
// CHECK-NEXT:      nvvm.read.ptx.sreg.clusterid.x : i32
// CHECK:           nvvm.read.ptx.sreg.nclusterid.x : i32
// CHECK:           scf.while
// CHECK:           } do {
// CHECK-NEXT:      ^bb0(%[[T:.*]]: i32, %[[PI:.*]]: i32, %[[PPH:.*]]: i32):
// skip_if on the tile's coordinate, at the top of the tile; the
// skippable domain loop runs when it is false, and the scf.if carries the
// producer cursor.
// CHECK-NEXT:        %[[M:.*]] = arith.index_castui %[[T]] : i32 to index
// CHECK-NEXT:        %[[ODD:.*]] = arith.remui %[[M]], %{{.*}} : index
// CHECK-NEXT:        %[[GO:.*]] = arith.cmpi ne, %[[ODD]], %{{.*}} : index
// CHECK-NEXT:        %[[IF:.*]]:2 = scf.if %[[GO]] -> (i32, i32) {
// CHECK:               %[[DOM:.*]]:2 = scf.for
// CHECK:               scf.yield %[[DOM]]#0, %[[DOM]]#1 : i32, i32
// CHECK-NEXT:        } else {
// CHECK-NEXT:          scf.yield %[[PI]], %[[PPH]] : i32, i32
// CHECK-NEXT:        }
// CHECK:             scf.yield %{{.*}}, %{{.*}}, %[[IF]]#0, %[[IF]]#1 : i32, i1, i32, i32
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @cluster_skip(%gm: index, %k: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.work_queue @tiles grid(%gm)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.work_tile_loop @tiles skip_if {
        ^bb0(%sm: index):
          %odd = arith.remui %sm, %c2 : index
          %skip = arith.cmpi eq, %odd, %c1 : index
          tspipe.skip_tile %skip
        } {
        ^bb0(%tm: index):
          tspipe.skippable {
            tspipe.domain_loop %i = %c0 to %k step %c1 {
              %s = tspipe.producer_acquire @ring
              tspipe.producer_commit @ring
            }
          }
          tspipe.advance_work_tile @tiles
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ring] {
        tspipe.work_tile_loop @tiles skip_if {
        ^bb0(%sm: index):
          %odd = arith.remui %sm, %c2 : index
          %skip = arith.cmpi eq, %odd, %c1 : index
          tspipe.skip_tile %skip
        } {
        ^bb0(%tm: index):
          tspipe.skippable {
            tspipe.domain_loop %i = %c0 to %k step %c1 {
              %s = tspipe.consumer_wait @ring
              tspipe.consumer_release @ring
            }
          }
          tspipe.advance_work_tile @tiles
        }
      }
    }
    gpu.return
  }
}
