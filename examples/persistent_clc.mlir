// CLC-scheduled persistent kernel (sm_100a): a work queue driven by
// cluster launch control.
//
// The grid is launched with one 2-CTA cluster per tile. Warp 0 is the
// scheduler task: each tile, CTA 0's scheduler asks cluster launch control
// to cancel a cluster not yet launched (`tspipe.fetch_work_tile`, the
// multicast try_cancel into a 16-byte response of the @clc ring, whose
// arrive.expect_tx arms the full barrier of both CTAs). Every task of
// both CTAs waits on the response, reads the next tile from it
// (`tspipe.advance_work_tile`: the cancelled cluster's first ctaid) and
// releases the stage to CTA 0; the loop ends on the first response that
// cancelled nothing. The first tile is the cluster's own. Warps 1-2 write,
// per tile, `tile_x + 1` into the 64 elements `y[64 * tile_x + t]`, one per
// thread t of each CTA's worker warps (CTA r covers t in [32 r, 32 r + 32)
// of warp 1 only; warp 2 checks in), so every launched cluster's tile is
// written by exactly one cluster.
//
// Launch: block 96 threads, cluster (2, 1, 1), grid (2 * tiles, 1, 1),
// dynamic shared memory = smem_bytes (docs/Protocols.md, Work queues).
gpu.module @persistent_clc [#nvvm.target<chip = "sm_100a">] {
  gpu.func @persistent_clc(%y: !llvm.ptr<1>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank_idx = arith.index_cast %rank : i32 to index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2,
          num_bytes = 16, producer_group = <thread, 1>,
          consumer_group = <thread, 192>, cta_layout_vmnk = [1, 2, 1, 1],
          producer_signaling = cta_leader>) smem_bytes(32)
      tspipe.work_queue @tiles clc(@clc)

      tspipe.task @scheduler warps(0, 1) produces [@clc] consumes [@clc] {
        tspipe.work_tile_loop @tiles {
        ^bb0(%x: index, %yy: index, %z: index):
          tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          }
          %p = tspipe.producer_acquire @clc
          tspipe.fetch_work_tile @tiles stage(%p)
          tspipe.producer_commit @clc
          %s = tspipe.consumer_wait @clc
          tspipe.advance_work_tile @tiles response(%s)
          tspipe.consumer_release @clc
        }
      }

      tspipe.task @worker warps(1, 2) consumes [@clc] {
        tspipe.work_tile_loop @tiles {
        ^bb0(%x: index, %yy: index, %z: index):
          tspipe.domain_loop %i = %c0 to %c1 step %c1 {
            %lane = arith.subi %tid, %c32 : index
            %in_warp1 = arith.cmpi ult, %lane, %c32 : index
            scf.if %in_warp1 {
              %base = arith.muli %x, %c64 : index
              %half = arith.muli %rank_idx, %c32 : index
              %off = arith.addi %base, %half : index
              %e = arith.addi %off, %lane : index
              %e64 = arith.index_cast %e : index to i64
              %ptr = llvm.getelementptr %y[%e64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
              %x1 = arith.addi %x, %c1 : index
              %v = arith.index_cast %x1 : index to i32
              llvm.store %v, %ptr : i32, !llvm.ptr<1>
            }
          }
          %s = tspipe.consumer_wait @clc
          tspipe.advance_work_tile @tiles response(%s)
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}
