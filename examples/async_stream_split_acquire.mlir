// AsyncAsync streaming with a split producer (advance_on_acquire):
// y = a * x + b.
//
// The producer task (warps 0-3, AsyncThread: plain loads from global memory,
// stores to shared memory, every thread arrives) acquires two stages of
// @ring before it commits either: per iteration it acquires stage A, then
// stage B, fills A with tile 2i and B with tile 2i + 1, and commits A, then
// B. Its acquire cursor runs ahead of its commit cursor, so @ring needs the
// split producer cursors of advance_on_acquire; each acquire's stage value
// names the stage it acquired. Warps 4-7 consume @ring one tile per
// iteration and write y.
//
// Each CTA owns 2 * `pairs_per_cta` consecutive tiles of 4096 f32 (16 KiB).
// Launch: block 256 threads, grid G, dynamic shared memory = smem_bytes.
gpu.module @async_stream_split_acquire [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @async_stream_split_acquire(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>,
                                       %a: f32, %b: f32, %pairs_per_cta: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c4 = arith.constant 4 : index
    %c4096 = arith.constant 4096 : index
    %npairs = arith.index_cast %pairs_per_cta : i64 to index
    %ntiles = arith.muli %npairs, %c2 : index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    %va = vector.broadcast %a : f32 to vector<4xf32>
    %vb = vector.broadcast %b : f32 to vector<4xf32>
    tspipe.kernel warps(8) {
      tspipe.pipeline @ring config(<async_async, num_stages = 4,
          producer_group = <thread, 128>, consumer_group = <thread, 128>,
          advance_on_acquire = true>)
          smem_bytes(65536)

      tspipe.task @fill warps(0, 4) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %npairs step %c1 {
          %sa = tspipe.producer_acquire @ring
          %sb = tspipe.producer_acquire @ring
          %bufa = tspipe.stage_buffer %sa : !llvm.ptr<3>
          %bufb = tspipe.stage_buffer %sb : !llvm.ptr<3>
          %i2 = arith.muli %i, %c2 : index
          %tile = arith.addi %first_tile, %i2 : index
          %firsta = arith.muli %tile, %c4096 : index
          %firstb = arith.addi %firsta, %c4096 : index
          scf.for %v = %tid to %c1024 step %c128 {
            %e = arith.muli %v, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %ga = arith.addi %firsta, %e : index
            %ga64 = arith.index_cast %ga : index to i64
            %gpa = llvm.getelementptr %x[%ga64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            %xa = llvm.load %gpa {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
            %spa = llvm.getelementptr %bufa[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            llvm.store %xa, %spa {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
            %gb = arith.addi %firstb, %e : index
            %gb64 = arith.index_cast %gb : index to i64
            %gpb = llvm.getelementptr %x[%gb64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            %xb = llvm.load %gpb {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
            %spb = llvm.getelementptr %bufb[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            llvm.store %xb, %spb {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
          }
          tspipe.producer_commit @ring
          tspipe.producer_commit @ring
        }
      }

      tspipe.task @compute warps(4, 4) consumes [@ring] {
        %t = arith.subi %tid, %c128 : index
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
