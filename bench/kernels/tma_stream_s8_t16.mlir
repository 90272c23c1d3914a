// examples/tma_stream.mlir with 8 stages of 16 KiB (4096 f32 per
// tile): y = a * x + b. Launch: block 160 threads, grid G.
gpu.module @tma_stream_s8_t16 [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @tma_stream_s8_t16(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %a: f32, %b: f32,
                       %tiles_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %cv = arith.constant 1024 : index
    %c4 = arith.constant 4 : index
    %ce = arith.constant 4096 : index
    %tile_bytes = arith.constant 16384 : i32
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    %va = vector.broadcast %a : f32 to vector<4xf32>
    %vb = vector.broadcast %b : f32 to vector<4xf32>
    tspipe.kernel warps(5) {
      tspipe.pipeline @tiles config(<tma_async, num_stages = 8, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 4>>)
          smem_bytes(131072)
      tspipe.task @load warps(0, 1) produces [@tiles] {
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.producer_acquire @tiles
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %ce : index
          %first64 = arith.index_cast %first : index to i64
          %src = llvm.getelementptr %x[%first64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %dc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dc, %src, %full, %tile_bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
          }
          tspipe.producer_commit @tiles
        }
      }
      tspipe.task @compute warps(1, 4) consumes [@tiles] {
        %t = arith.subi %tid, %c32 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.consumer_wait @tiles
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %ce : index
          scf.for %v = %t to %cv step %c128 {
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
        }
      }
    }
    gpu.return
  }
}
