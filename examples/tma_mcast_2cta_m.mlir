// TmaAsync across a 2-CTA cluster with TMA multicast (cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]).
//
// Cluster rank r = m + 2 * n is CTA (m, n). Cluster c works on `tiles` steps; at
// step i (g = c * tiles + i) a stage of CTA (m, n) holds 1 part(s) of 2048 f32:
//   * B part: the B tile of column n (CTAs with the same N coordinate share it); CTA (m, n) copies slice m of 2 (4096 bytes) and multicasts it to the 2 CTAs of column n.
// Every CTA arms its own full barrier with all the bytes that land in it (8192),
// whoever issued the copy. Four consumer warps read the stage and write y = alpha * B + beta
// for CTA (m, n) at y[((g * 2 + m) * 1 + n) * 2048 + e]. The release tells every
// CTA whose copies wrote the stage (2 per warp: lanes < 2 of the multicast set),
// hence consumer_group = 4 x 2. producer_tail keeps a CTA from exiting while
// peers may still signal its barriers or write its stages.
//
// Launch: block 160 threads, cluster (2, 1, 1), grid = 2 x clusters.
gpu.module @tma_mcast_2cta_m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @tma_mcast_2cta_m(%a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %y: !llvm.ptr<1>,
      %alpha: f32, %beta: f32, %tiles_i64: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %c2048 = arith.constant 2048 : index
    %bytes_a = arith.constant 8192 : i32
    %bytes_b = arith.constant 4096 : i32
    %mask_a0 = arith.constant 1 : i16
    %mask_b0 = arith.constant 3 : i16
    %tiles = arith.index_cast %tiles_i64 : i64 to index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %m = arith.remui %rank, %c2 : index
    %n = arith.divui %rank, %c2 : index
    %bid = gpu.block_id x
    %cluster = arith.divui %bid, %c2 : index
    %first = arith.muli %cluster, %tiles : index
    %tid = gpu.thread_id x
    %valpha = vector.broadcast %alpha : f32 to vector<4xf32>
    %vbeta = vector.broadcast %beta : f32 to vector<4xf32>
    tspipe.kernel warps(5) cluster([2, 1, 1]) {
      tspipe.pipeline @stages config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 8>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768)

      tspipe.task @load warps(0, 1) produces [@stages] {
        tspipe.domain_loop %i = %c0 to %tiles step %c1 {
          %s = tspipe.producer_acquire @stages
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %g = arith.addi %first, %i : index
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {
            %gb = arith.muli %g, %c1 : index
            %rb = arith.addi %gb, %n : index
            %tb = arith.muli %rb, %c2048 : index
            %ob = arith.muli %m, %c1024 : index
            %eb = arith.addi %tb, %ob : index
            %eb64 = arith.index_cast %eb : index to i64
            %srcb = llvm.getelementptr %b[%eb64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            %sob = arith.addi %ob, %c0 : index
            %ob64 = arith.index_cast %sob : index to i64
            %dstb = llvm.getelementptr %buf[%ob64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %dstb7 = llvm.addrspacecast %dstb : !llvm.ptr<3> to !llvm.ptr<7>
            %nm = arith.muli %n, %c2 : index
            %nm16 = arith.index_cast %nm : index to i16
            %maskb = arith.shli %mask_b0, %nm16 : i16
            nvvm.cp.async.bulk.shared.cluster.global %dstb7, %srcb, %full, %bytes_b
                multicast_mask = %maskb : !llvm.ptr<7>, !llvm.ptr<1>
          }
          tspipe.producer_commit @stages
        }
        tspipe.producer_tail @stages
      }

      tspipe.task @compute warps(1, 4) consumes [@stages] {
        %t = arith.subi %tid, %c32 : index
        tspipe.domain_loop %i = %c0 to %tiles step %c1 {
          %s = tspipe.consumer_wait @stages
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %g = arith.addi %first, %i : index
          %gm = arith.muli %g, %c2 : index
          %rm = arith.addi %gm, %m : index
          %rmn = arith.muli %rm, %c1 : index
          %rowcol = arith.addi %rmn, %n : index
          %out = arith.muli %rowcol, %c2048 : index
          scf.for %v = %t to %c512 step %c128 {
            %e = arith.muli %v, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %pp = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %pv = llvm.load %pp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
            %ap = arith.mulf %valpha, %pv : vector<4xf32>
            %yv = arith.addf %ap, %vbeta : vector<4xf32>
            %o = arith.addi %out, %e : index
            %o64 = arith.index_cast %o : index to i64
            %op = llvm.getelementptr %y[%o64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %yv, %op {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
          }
          tspipe.consumer_release @stages
        }
      }
    }
    gpu.return
  }
}
