// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X6 on a copy issued under `lane == 0` (tspipe issue 17, item 9): the
// message proposes nvvm.elect.sync, the guard the byte count can follow.
func.func @X6_lane_zero_guard(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[X6] the copies completing on the full barrier of this stage of '@p' deliver between 0 and 1024 bytes, depending on the scf.if arm, but the stage is armed for 1024 (num_bytes), so its phase never completes; make the copies of every path add up to 1024 or change the config; a branch on lane == 0 picks one lane per warp, which the check cannot tell from any other condition: write it as %e = nvvm.elect.sync -> i1, scf.if %e}}
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %lane = nvvm.read.ptx.sreg.laneid : i32
        %z = arith.constant 0 : i32
        %e = arith.cmpi eq, %lane, %z : i32
        scf.if %e {
          nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// tspipe issue 17, item 9: a TMA pipeline armed for 0 bytes whose bracket
// issues copies completes each phase on the producer's arrive alone, before
// its copies land (X6).
func.func @X6_tma_num_bytes_zero(%n: index, %src: !llvm.ptr<1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b1024 = arith.constant 1024 : i32
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[X6] '@p' is a tma_async pipeline with num_bytes = 0 whose stages task '@load' fills with TMA copies: its full barrier is armed for 0 transaction bytes, so a phase completes on the producer's arrive alone, before the copies land, and the consumers read the stage early; set num_bytes to the bytes the copies of one stage deliver}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[X6] the 1 copies completing on the full barrier of this stage of '@p' deliver 1024 bytes, but the stage is armed for 0 (num_bytes)}}
        %s = tspipe.producer_acquire @p
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          // expected-note @+1 {{a copy completing on the stage}}
          nvvm.cp.async.bulk.shared.cluster.global %d7, %src, %full, %b1024 : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R54's fix-it on a cluster: the lane count only (the all-thread count is
// X4's error there).
func.func @R54_cluster_fixit_proposes_lane_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    // expected-error @+1 {{[R54] consumer_group gives 5 arrivals per stage, but the consumer tasks @use[1] release with 2 arrivals (2 per warp, lane release; the all-thread release cannot reach the other CTAs of the cluster, X4); set consumer_group = <thread, 2>}}
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 5>, cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}
