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
