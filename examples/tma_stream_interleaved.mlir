// Interleaved TmaAsync streaming kernel: y = a * x + b.
//
// Like tma_stream.mlir, but two producer warps share the 4-stage ring through
// interleave_stride = [2, 2, 1, 1] (warp lanes, docs/Protocols.md,
// Interleaved lanes): producer warp l acquires and fills stages l, l + 2,
// l + 4, ... (its cursor starts at stage l and advances by 2), so each stage
// is armed by exactly one warp (producer_group = 1). Warp l loads tiles
// 2*i + l of the CTA's range. The four consumer warps wait and release every
// stage in order (stride 1).
// tiles_per_cta must be even; the consumer runs 2 * (tiles_per_cta / 2)
// iterations, so an odd count leaves the last tile out instead of hanging
// (tspipe-check-progress proves the kernel free of deadlock for every count).
//
// Launch: block 192 threads, grid G, dynamic shared memory = smem_bytes.
gpu.module @tma_stream_interleaved [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @tma_stream_interleaved(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %a: f32, %b: f32,
                       %tiles_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
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
    %c2 = arith.constant 2 : index
    %warp = arith.divui %tid, %c32 : index
    %rounds = arith.divui %ntiles, %c2 : index
    %consumed = arith.muli %rounds, %c2 : index
    tspipe.kernel warps(6) {
      tspipe.pipeline @tiles config(<tma_async, num_stages = 4, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          interleave_stride = [2, 2, 1, 1]>)
          smem_bytes(65536)

      tspipe.task @load warps(0, 2) produces [@tiles] {
        tspipe.domain_loop %i = %c0 to %rounds step %c1 {
          %s = tspipe.producer_acquire @tiles
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
          %pair = arith.muli %i, %c2 : index
          %own = arith.addi %pair, %warp : index
          %tile = arith.addi %first_tile, %own : index
          %first = arith.muli %tile, %c4096 : index
          %first64 = arith.index_cast %first : index to i64
          %src = llvm.getelementptr %x[%first64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            // The shared::cluster window contains this CTA's shared memory.
            %dst_cluster = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dst_cluster, %src, %full, %tile_bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
          }
          tspipe.producer_commit @tiles
        }
      }

      tspipe.task @compute warps(2, 4) consumes [@tiles] {
        %c64 = arith.constant 64 : index
        %t = arith.subi %tid, %c64 : index
        tspipe.domain_loop %i = %c0 to %consumed step %c1 {
          %s = tspipe.consumer_wait @tiles
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
        }
      }
    }
    gpu.return
  }
}
