// AsyncAsync streaming with a split producer over two tasks
// (advance_on_acquire): y = a * x + b.
//
// Task @acq (warps 0-3) acquires a stage of @ring, fills it with one tile
// and hands it through @hand to task @fill (warp 4), which commits it;
// warps 5-8 consume @ring one tile per iteration and write y. @acq never commits
// @ring, so its drain waits with its acquire cursor (docs/Protocols.md,
// Producer drain): with the commit cursor, which never moves in @acq, the
// drain's waits hung once the consumers had released a stage once, for an
// odd number of tiles.
//
// Each CTA owns `tiles_per_cta` consecutive tiles of 4096 f32 (16 KiB).
// Launch: block 288 threads, grid G, dynamic shared memory = smem_bytes.
gpu.module @async_stream_split_producer [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @async_stream_split_producer(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>,
                                        %a: f32, %b: f32, %tiles_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c160 = arith.constant 160 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c4 = arith.constant 4 : index
    %c4096 = arith.constant 4096 : index
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    %va = vector.broadcast %a : f32 to vector<4xf32>
    %vb = vector.broadcast %b : f32 to vector<4xf32>
    tspipe.kernel warps(9) {
      tspipe.pipeline @ring config(<async_async, num_stages = 4,
          producer_group = <thread, 32>, consumer_group = <thread, 128>,
          advance_on_acquire = true>)
          smem_bytes(65536)
      tspipe.pipeline @hand config(<async_async, num_stages = 2,
          producer_group = <thread, 128>, consumer_group = <thread, 32>>)

      tspipe.task @acq warps(0, 4) produces [@ring, @hand] {
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.producer_acquire @ring
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c4096 : index
          scf.for %v = %tid to %c1024 step %c128 {
            %e = arith.muli %v, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %gp = llvm.getelementptr %x[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            %xv = llvm.load %gp {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
            %sp = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            llvm.store %xv, %sp {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
          }
          %h = tspipe.producer_acquire @hand
          tspipe.producer_commit @hand
        }
      }

      tspipe.task @fill warps(4, 1) produces [@ring] consumes [@hand] {
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %h = tspipe.consumer_wait @hand
          tspipe.producer_commit @ring
          tspipe.consumer_release @hand
        }
      }

      tspipe.task @compute warps(5, 4) consumes [@ring] {
        %t = arith.subi %tid, %c160 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.consumer_wait @ring
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c4096 : index
          scf.for %v = %t to %c1024 step %c128 {
            %e = arith.muli %v, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %sp = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %xv = llvm.load %sp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %ax = arith.mulf %va, %xv : vector<4xf32>
            %yv = arith.addf %ax, %vb : vector<4xf32>
            %g0 = arith.addi %first, %e : index
            %g64 = arith.index_cast %g0 : index to i64
            %gp = llvm.getelementptr %y[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %yv, %gp {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
          }
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
