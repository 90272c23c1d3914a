// Fork group of two TmaAsync pipelines: y = a * x, z = w + b.
//
// One producer warp bulk-copies a tile of x into @xs and the tile of w with
// the same index into @ws. The pipelines form a fork group: they share one
// full barrier array, so one stage of both members is filled together. The
// producer acquires each member (`producer_acquire @xs group(@xw)` waits on
// @xs's empty barrier and arms the shared full barrier with the bytes of
// both members, 2 x 8192; the acquire of @ws only waits on @ws's empty
// barrier), each copy completes its 8192 bytes on the shared full barrier,
// and one commit on the group (`producer_commit @xw`) fills the stage of
// both. Each member has its own consumer task and empty barriers: warps 1-2
// write y = a * x from @xs, warps 3-4 write z = w + b from @ws, each
// releasing only its member (lane 0 of each warp arrives: 2 arrivals).
// Barrier storage, 4 stages: [F_shared x 4][E_xs x 4][E_ws x 4]
// (docs/Protocols.md, Pipeline groups).
//
// Launch: block 160 threads, grid G, dynamic shared memory = smem_bytes.
gpu.module @fork_tma [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @fork_tma(%x: !llvm.ptr<1>, %w: !llvm.ptr<1>, %y: !llvm.ptr<1>,
                     %z: !llvm.ptr<1>, %a: f32, %b: f32,
                     %tiles_per_cta: i64) kernel {
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
      tspipe.pipeline @xs config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 2>>)
          smem_bytes(32768)
      tspipe.pipeline @ws config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 2>>)
          smem_bytes(32768)
      tspipe.pipeline_group @xw fork [@xs, @ws]

      tspipe.task @load warps(0, 1) produces [@xs, @ws] {
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %sx = tspipe.producer_acquire @xs group(@xw)
          %sw = tspipe.producer_acquire @ws group(@xw)
          // Both full barriers are the one shared full barrier of the stage.
          %fx = tspipe.full_barrier %sx : !llvm.ptr<3>
          %fw = tspipe.full_barrier %sw : !llvm.ptr<3>
          %dx = tspipe.stage_buffer %sx : !llvm.ptr<3>
          %dw = tspipe.stage_buffer %sw : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c2048 : index
          %first64 = arith.index_cast %first : index to i64
          %src_x = llvm.getelementptr %x[%first64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          %src_w = llvm.getelementptr %w[%first64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            // The shared::cluster window contains this CTA's shared memory.
            %dx_cluster = llvm.addrspacecast %dx : !llvm.ptr<3> to !llvm.ptr<7>
            %dw_cluster = llvm.addrspacecast %dw : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dx_cluster, %src_x, %fx, %tile_bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
            nvvm.cp.async.bulk.shared.cluster.global %dw_cluster, %src_w, %fw, %tile_bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
          }
          tspipe.producer_commit @xw
        }
      }

      tspipe.task @scale warps(1, 2) consumes [@xs] {
        %t = arith.subi %tid, %c32 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.consumer_wait @xs group(@xw)
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c2048 : index
          // 512 float4 per tile; thread t handles t, t + 64, ...
          scf.for %v = %t to %c512 step %c64 {
            %e = arith.muli %v, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %sp = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %xv = llvm.load %sp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %yv = arith.mulf %va, %xv : vector<4xf32>
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %gp = llvm.getelementptr %y[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %yv, %gp {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
          }
          tspipe.consumer_release @xs group(@xw)
        }
      }

      tspipe.task @shift warps(3, 2) consumes [@ws] {
        %t = arith.subi %tid, %c96 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.consumer_wait @ws group(@xw)
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c2048 : index
          scf.for %v = %t to %c512 step %c64 {
            %e = arith.muli %v, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %sp = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %wv = llvm.load %sp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %zv = arith.addf %wv, %vb : vector<4xf32>
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %gp = llvm.getelementptr %z[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %zv, %gp {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
          }
          tspipe.consumer_release @ws group(@xw)
        }
      }
    }
    gpu.return
  }
}
