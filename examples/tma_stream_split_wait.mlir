// TmaAsync streaming with a split consumer (advance_on_wait): y = a * x + b.
//
// The consumer side of @tiles is split over two tasks (TS's split-consumer
// pattern): warp 1 (@waiter) only waits for each filled stage, its cursor
// advancing at the wait, and hands the stage on through the AsyncAsync
// pipeline @handoff; warps 2-5 (@compute) wait on @handoff, read the @tiles
// stage through their own release cursor (`current_stage @tiles consumer`),
// compute a*x+b, store to global memory, and release both pipelines. The
// waiter may run up to the ring's 4 stages ahead of the releasing warps, so
// the ring's wait and release cursors differ at run time; tspipe-normalize
// records advance_on_wait (R66) and the lowering keeps two cursors.
//
// Each CTA owns `tiles_per_cta` consecutive tiles of 4096 f32 (16 KiB).
// Launch: block 192 threads, grid G, dynamic shared memory = smem_bytes.
gpu.module @tma_stream_split_wait [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @tma_stream_split_wait(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %a: f32,
                                  %b: f32, %tiles_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c4 = arith.constant 4 : index
    %c4096 = arith.constant 4096 : index
    %tile_bytes = arith.constant 16384 : i32
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    %va = vector.broadcast %a : f32 to vector<4xf32>
    %vb = vector.broadcast %b : f32 to vector<4xf32>
    tspipe.kernel warps(6) {
      tspipe.pipeline @tiles config(<tma_async, num_stages = 4, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          advance_on_wait = true>)
          smem_bytes(65536)
      tspipe.pipeline @handoff config(<async_async, num_stages = 4,
          producer_group = <thread, 32>, consumer_group = <thread, 128>>)

      tspipe.task @load warps(0, 1) produces [@tiles] {
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.producer_acquire @tiles
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c4096 : index
          %first64 = arith.index_cast %first : index to i64
          %src = llvm.getelementptr %x[%first64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %dst_cluster = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dst_cluster, %src, %full, %tile_bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
          }
          tspipe.producer_commit @tiles
        }
      }

      tspipe.task @waiter warps(1, 1) produces [@handoff] consumes [@tiles] {
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.consumer_wait @tiles
          %h = tspipe.producer_acquire @handoff
          tspipe.producer_commit @handoff
        }
      }

      tspipe.task @compute warps(2, 4) consumes [@tiles, @handoff] {
        %t = arith.subi %tid, %c64 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %h = tspipe.consumer_wait @handoff
          %s = tspipe.current_stage @tiles consumer
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
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %gp = llvm.getelementptr %y[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %yv, %gp {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
          }
          tspipe.consumer_release @tiles
          tspipe.consumer_release @handoff
        }
      }
    }
    gpu.return
  }
}
