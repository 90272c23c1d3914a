// Merge group of two AsyncAsync pipelines: y = x + w.
//
// Two producer warps fill one pipeline each, warp 0 stages tiles of x into
// @xs, warp 1 tiles of w into @ws (plain loads and stores, then each of the
// 32 threads arrives on its member's own full barrier). The pipelines form
// a merge group: they share one empty barrier array, so the two consumer
// warps wait on each member (`consumer_wait @xs group(@xw)`) and free the
// stage of both with one release on the group (`consumer_release @xw`, 64
// arrivals on the shared empty barrier). Barrier storage, 4 stages:
// [F_xs x 4][F_ws x 4][E_shared x 4] (docs/Protocols.md, Pipeline groups).
//
// Launch: block 128 threads, grid G, dynamic shared memory = smem_bytes.
gpu.module @merge_add [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @merge_add(%x: !llvm.ptr<1>, %w: !llvm.ptr<1>, %y: !llvm.ptr<1>,
                      %tiles_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    tspipe.kernel warps(4) {
      tspipe.pipeline @xs config(<async_async, num_stages = 4,
          producer_group = <thread, 32>, consumer_group = <thread, 64>>)
          smem_bytes(16384)
      tspipe.pipeline @ws config(<async_async, num_stages = 4,
          producer_group = <thread, 32>, consumer_group = <thread, 64>>)
          smem_bytes(16384)
      tspipe.pipeline_group @xw merge [@xs, @ws]

      tspipe.task @load_x warps(0, 1) produces [@xs] {
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.producer_acquire @xs group(@xw)
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c1024 : index
          // 256 chunks of 16 bytes per tile; thread t copies t, t+32, ...
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
      }

      tspipe.task @load_w warps(1, 1) produces [@ws] {
        %t = arith.subi %tid, %c32 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.producer_acquire @ws group(@xw)
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c1024 : index
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
      }

      tspipe.task @add warps(2, 2) consumes [@xs, @ws] {
        %t = arith.subi %tid, %c64 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %sx = tspipe.consumer_wait @xs group(@xw)
          %sw = tspipe.consumer_wait @ws group(@xw)
          %bx = tspipe.stage_buffer %sx : !llvm.ptr<3>
          %bw = tspipe.stage_buffer %sw : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c1024 : index
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
      }
    }
    gpu.return
  }
}
