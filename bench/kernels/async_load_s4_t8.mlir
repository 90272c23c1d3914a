// examples/async_load.mlir with 4 stages of 8 KiB (2048 f32 per
// tile, 512 cp.async chunks of 16 bytes): y = x * x + 1.
// Launch: block 128 threads, grid G.
gpu.module @async_load_s4_t8 [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @async_load_s4_t8(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>,
                       %tiles_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %cch = arith.constant 512 : index
    %ce = arith.constant 2048 : index
    %one = arith.constant dense<1.0> : vector<4xf32>
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    tspipe.kernel warps(4) {
      tspipe.pipeline @tiles config(<async_async, num_stages = 4,
          producer_group = <thread, 64>, consumer_group = <thread, 64>,
          async_producer_op = async_load>) smem_bytes(32768)
      tspipe.task @load warps(0, 2) produces [@tiles] {
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.producer_acquire @tiles
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %ce : index
          scf.for %chunk = %tid to %cch step %c64 {
            %e = arith.muli %chunk, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %dst = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %src = llvm.getelementptr %x[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            nvvm.cp.async.shared.global %dst, %src, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
          }
          tspipe.producer_commit @tiles
        }
      }
      tspipe.task @compute warps(2, 2) consumes [@tiles] {
        %t = arith.subi %tid, %c64 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.consumer_wait @tiles
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %ce : index
          scf.for %chunk = %t to %cch step %c64 {
            %e = arith.muli %chunk, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %sp = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %xv = llvm.load %sp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %sq = arith.mulf %xv, %xv : vector<4xf32>
            %yv = arith.addf %sq, %one : vector<4xf32>
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
