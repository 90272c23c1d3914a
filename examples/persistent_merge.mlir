// Persistent merge group: y = x + w over a static work queue.
//
// The kernel of merge_add.mlir made persistent: the grid has fewer CTAs
// than tiles, and every task walks the tiles of one static work queue
// (`tspipe.work_queue @tiles grid(%ntiles)`) with a
// `tspipe.work_tile_loop`: CTA c takes tiles c, c + G, c + 2G, ... (G CTAs
// launched), so with num_tiles not a multiple of G the last wave is
// uneven, and a CTA may get no tile at all. A tile is 4096 float32 (16
// KiB), staged as 4 chunks of 1024 through the two AsyncAsync members of
// the merge group (4 stages each, one shared empty barrier array): the
// domain loop of each tile runs 4 iterations, and the pipelines' cursors
// (stage index, phase) carry on from one tile to the next. The producer
// drains run once, after the last tile (docs/Protocols.md, Work queues).
//
// Launch: block 128 threads, any grid G, dynamic shared memory = smem_bytes.
gpu.module @persistent_merge [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @persistent_merge(%x: !llvm.ptr<1>, %w: !llvm.ptr<1>, %y: !llvm.ptr<1>,
                             %num_tiles: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %ntiles = arith.index_cast %num_tiles : i64 to index
    %tid = gpu.thread_id x
    tspipe.kernel warps(4) {
      tspipe.pipeline @xs config(<async_async, num_stages = 4,
          producer_group = <thread, 32>, consumer_group = <thread, 64>>)
          smem_bytes(16384)
      tspipe.pipeline @ws config(<async_async, num_stages = 4,
          producer_group = <thread, 32>, consumer_group = <thread, 64>>)
          smem_bytes(16384)
      tspipe.pipeline_group @xw merge [@xs, @ws]
      tspipe.work_queue @tiles grid(%ntiles)

      tspipe.task @load_x warps(0, 1) produces [@xs] {
        tspipe.work_tile_loop @tiles {
        ^bb0(%tile_m: index):
          %first_chunk = arith.muli %tile_m, %c4 : index
          tspipe.domain_loop %i = %c0 to %c4 step %c1 {
            %s = tspipe.producer_acquire @xs group(@xw)
            %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
            %chunk_id = arith.addi %first_chunk, %i : index
            %first = arith.muli %chunk_id, %c1024 : index
            // 256 pieces of 16 bytes per chunk; thread t copies t, t+32, ...
            scf.for %chunk = %tid to %c256 step %c32 {
              %e = arith.muli %chunk, %c4 : index
              %e64 = arith.index_cast %e : index to i64
              %dst = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
              %g = arith.addi %first, %e : index
              %g64 = arith.index_cast %g : index to i64
              %src = llvm.getelementptr %x[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
              %v = llvm.load %src {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
              llvm.store %v, %dst {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
            }
            tspipe.producer_commit @xs group(@xw)
          }
          tspipe.advance_work_tile @tiles
        }
      }

      tspipe.task @load_w warps(1, 1) produces [@ws] {
        %t = arith.subi %tid, %c32 : index
        tspipe.work_tile_loop @tiles {
        ^bb0(%tile_m: index):
          %first_chunk = arith.muli %tile_m, %c4 : index
          tspipe.domain_loop %i = %c0 to %c4 step %c1 {
            %s = tspipe.producer_acquire @ws group(@xw)
            %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
            %chunk_id = arith.addi %first_chunk, %i : index
            %first = arith.muli %chunk_id, %c1024 : index
            scf.for %chunk = %t to %c256 step %c32 {
              %e = arith.muli %chunk, %c4 : index
              %e64 = arith.index_cast %e : index to i64
              %dst = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
              %g = arith.addi %first, %e : index
              %g64 = arith.index_cast %g : index to i64
              %src = llvm.getelementptr %w[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
              %v = llvm.load %src {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
              llvm.store %v, %dst {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
            }
            tspipe.producer_commit @ws group(@xw)
          }
          tspipe.advance_work_tile @tiles
        }
      }

      tspipe.task @add warps(2, 2) consumes [@xs, @ws] {
        %t = arith.subi %tid, %c64 : index
        tspipe.work_tile_loop @tiles {
        ^bb0(%tile_m: index):
          %first_chunk = arith.muli %tile_m, %c4 : index
          tspipe.domain_loop %i = %c0 to %c4 step %c1 {
            %sx = tspipe.consumer_wait @xs group(@xw)
            %sw = tspipe.consumer_wait @ws group(@xw)
            %bx = tspipe.stage_buffer %sx : !llvm.ptr<3>
            %bw = tspipe.stage_buffer %sw : !llvm.ptr<3>
            %chunk_id = arith.addi %first_chunk, %i : index
            %first = arith.muli %chunk_id, %c1024 : index
            scf.for %chunk = %t to %c256 step %c64 {
              %e = arith.muli %chunk, %c4 : index
              %e64 = arith.index_cast %e : index to i64
              %px = llvm.getelementptr %bx[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
              %pw = llvm.getelementptr %bw[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
              %xv = llvm.load %px {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
              %wv = llvm.load %pw {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
              %yv = arith.addf %xv, %wv : vector<4xf32>
              %g = arith.addi %first, %e : index
              %g64 = arith.index_cast %g : index to i64
              %gp = llvm.getelementptr %y[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
              llvm.store %yv, %gp {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
            }
            tspipe.consumer_release @xw
          }
          tspipe.advance_work_tile @tiles
        }
      }
    }
    gpu.return
  }
}
