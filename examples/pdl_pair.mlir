// A pair of kernels ordered by programmatic dependent launch (PDL).
//
// @pdl_write fills x: CTA i writes the `tiles_per_cta` tiles of 4096 f32
// starting at tile i * tiles_per_cta with x[e] = (e mod 1021) * 0.5. It
// signals its dependents at once (tspipe.pdl_launch_dependents before its
// writes): that only lets the next grid launch early, since the next grid's
// griddepcontrol.wait still waits for this whole grid to complete and its
// writes to be visible (docs/Protocols.md, Programmatic dependent launch).
//
// @pdl_read, launched right after it on the same stream with the
// PROGRAMMATIC_STREAM_SERIALIZATION attribute, is tma_stream's pipeline on
// x (y = 2 * x + 1): x is marked tspipe.pdl_input, so the one task that
// reads it, the TMA producer warp, waits for @pdl_write with tspipe.pdl_wait
// first (X20); the consumer warps read the shared-memory ring only.
//
// Launch (examples/pdl_pair.py): grid G, @pdl_write block 128 threads,
// then @pdl_read block 160 threads with the kernel's smem_bytes.
gpu.module @pdl_pair [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @pdl_write(%x: !llvm.ptr<1>, %tiles_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c1021 = arith.constant 1021 : index
    %c4096 = arith.constant 4096 : index
    %half = arith.constant 0.5 : f32
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    tspipe.kernel warps(4) {
      tspipe.task @write warps(0, 4) {
        tspipe.pdl_launch_dependents
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c4096 : index
          scf.for %v = %tid to %c4096 step %c128 {
            %e = arith.addi %first, %v : index
            %m = arith.remui %e, %c1021 : index
            %m32 = arith.index_cast %m : index to i32
            %mf = arith.uitofp %m32 : i32 to f32
            %val = arith.mulf %mf, %half : f32
            %e64 = arith.index_cast %e : index to i64
            %p = llvm.getelementptr %x[%e64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %val, %p : f32, !llvm.ptr<1>
          }
        }
      }
    }
    gpu.return
  }

  gpu.func @pdl_read(%x: !llvm.ptr<1> {tspipe.pdl_input}, %y: !llvm.ptr<1>,
                     %tiles_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c4 = arith.constant 4 : index
    %c4096 = arith.constant 4096 : index
    %tile_bytes = arith.constant 16384 : i32
    %two = arith.constant dense<2.0> : vector<4xf32>
    %one = arith.constant dense<1.0> : vector<4xf32>
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    tspipe.kernel warps(5) {
      tspipe.pipeline @tiles config(<tma_async, num_stages = 4, num_bytes = 16384,
          producer_group = <thread, 1>, consumer_group = <thread, 4>>)
          smem_bytes(65536)

      // The only task that reads x: it waits for @pdl_write first.
      tspipe.task @load warps(0, 1) produces [@tiles] {
        tspipe.pdl_wait
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

      tspipe.task @compute warps(1, 4) consumes [@tiles] {
        %t = arith.subi %tid, %c32 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {
          %s = tspipe.consumer_wait @tiles
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %c4096 : index
          scf.for %v = %t to %c1024 step %c128 {
            %e = arith.muli %v, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %sp = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %xv = llvm.load %sp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %tx = arith.mulf %two, %xv : vector<4xf32>
            %yv = arith.addf %tx, %one : vector<4xf32>
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
