// Fork group over one load (CUTLASS TS tutorial 7, fork_load_gemm_act):
// y = a * x and z = x + b from one TMA load of x per tile.
//
// The two TmaAsync members @xa and @xb are barrier rings without data
// buffers of their own: the tile lives in one static shared buffer
// (@x_tiles, 4 stages of 8192 bytes) that both members' consumers read.
// The producer acquires both members (`producer_acquire @xa group(@fx)`
// arms the shared full barrier, the acquire of @xb only waits on @xb's
// empty barrier), issues ONE bulk copy of 8192 bytes on the shared full
// barrier and commits once on the group. Since one load fills the stage of
// every member, the shared full barrier expects the members' common
// num_bytes once (8192, as TS 4.8.1 arms a derived fork config), not their
// sum: armed with 2 x 8192 it would never complete (docs/Rules.md, R68).
// examples/fork_tma.mlir is the other shape: one copy per member, armed
// with the sum. Warps 1-2 write y from @xa, warps 3-4 z from @xb, each
// releasing its own member (lane 0 of each warp arrives: 2 arrivals).
//
// Launch: block 160 threads, grid G, dynamic shared memory = smem_bytes.
gpu.module @fork_load [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  llvm.mlir.global internal @x_tiles() {addr_space = 3 : i32, alignment = 128 : i64}
      : !llvm.array<32768 x i8>
  gpu.func @fork_load(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %z: !llvm.ptr<1>,
                      %a: f32, %b: f32, %tiles_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c512 = arith.constant 512 : index
    %c2048 = arith.constant 2048 : index
    %tile_bytes = arith.constant 8192 : i32
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    %va = vector.broadcast %a : f32 to vector<4xf32>
    %vb = vector.broadcast %b : f32 to vector<4xf32>
    tspipe.kernel warps(5) {
      tspipe.pipeline @xa config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 2>>)
      tspipe.pipeline @xb config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 2>>)
      tspipe.pipeline_group @fx fork [@xa, @xb]

      tspipe.task @load warps(0, 1) produces [@xa, @xb] {
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %sa = tspipe.producer_acquire @xa group(@fx)
          %sb = tspipe.producer_acquire @xb group(@fx)
          // The shared full barrier of the stage; the one copy completes on it.
          %full = tspipe.full_barrier %sa : !llvm.ptr<3>
          %stage = tspipe.stage_index %sa
          %off = arith.muli %stage, %c2048 : index
          %off64 = arith.index_cast %off : index to i64
          %tiles = llvm.mlir.addressof @x_tiles : !llvm.ptr<3>
          %dst = llvm.getelementptr %tiles[%off64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c2048 : index
          %first64 = arith.index_cast %first : index to i64
          %src = llvm.getelementptr %x[%first64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %dst_cluster = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dst_cluster, %src, %full, %tile_bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
          }
          tspipe.producer_commit @fx
        }
      }

      tspipe.task @scale warps(1, 2) consumes [@xa] {
        %t = arith.subi %tid, %c32 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.consumer_wait @xa group(@fx)
          %stage = tspipe.stage_index %s
          %off = arith.muli %stage, %c2048 : index
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c2048 : index
          %tiles = llvm.mlir.addressof @x_tiles : !llvm.ptr<3>
          // 512 float4 per tile; thread t handles t, t + 64, ...
          scf.for %v = %t to %c512 step %c64 {
            %e = arith.muli %v, %c4 : index
            %se = arith.addi %off, %e : index
            %se64 = arith.index_cast %se : index to i64
            %sp = llvm.getelementptr %tiles[%se64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %xv = llvm.load %sp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %yv = arith.mulf %va, %xv : vector<4xf32>
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %gp = llvm.getelementptr %y[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %yv, %gp {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
          }
          tspipe.consumer_release @xa group(@fx)
        }
      }

      tspipe.task @shift warps(3, 2) consumes [@xb] {
        %t = arith.subi %tid, %c96 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.consumer_wait @xb group(@fx)
          %stage = tspipe.stage_index %s
          %off = arith.muli %stage, %c2048 : index
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c2048 : index
          %tiles = llvm.mlir.addressof @x_tiles : !llvm.ptr<3>
          scf.for %v = %t to %c512 step %c64 {
            %e = arith.muli %v, %c4 : index
            %se = arith.addi %off, %e : index
            %se64 = arith.index_cast %se : index to i64
            %sp = llvm.getelementptr %tiles[%se64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %xv = llvm.load %sp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %zv = arith.addf %xv, %vb : vector<4xf32>
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %gp = llvm.getelementptr %z[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %zv, %gp {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
          }
          tspipe.consumer_release @xb group(@fx)
        }
      }
    }
    gpu.return
  }
}
