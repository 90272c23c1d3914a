// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress
// RUN: tspipe-opt %s -split-input-file --tspipe-to-nvvm="debug-hang-timeout=1000 check-progress=0" | FileCheck %s

// Kernels on which real TS 4.8.1 and tspipe disagree (docs/crosscheck.md),
// written with AsyncAsync so that they run on an H200: the crosscheck's
// minimal cases use TmaUmma and UmmaAsync (tcgen05, Blackwell only), and
// these keep their barrier schedules. test/gpu/run_ts_verdicts.py lowers
// them with check-progress=0 and a debug hang timeout and runs each; the
// results are in docs/gpu-runs.md (TS verdicts on the GPU).

// CHECK: "tspipe: hang in task @producer waiting on @ring empty barrier stage %d phase %d (cta %d, thread %d)\0A\00"
// CHECK: llvm.intr.trap

// split_release: TS accepts, tspipe rejects (R71, phase overrun). @release
// releases the stage without waiting for anything, so its arrive can
// complete the empty barrier's phase 0 before @producer's first acquire
// polls it; that acquire's parity wait then waits for phase 1, which nobody
// completes. The nanosleep at the producer's start makes that order certain
// (any order is a legal execution of the schedule). TS's credit simulators
// count the early release as a spare free slot.
gpu.module @split_release [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @split_release() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R71] phase overrun with domain lengths @producer = 1, @watch = 1, @release = 1}}
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 1, producer_group = <thread, 32>,
          consumer_group = <thread, 32>, advance_on_wait = true>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        // Half a millisecond: the release lands first.
        llvm.inline_asm has_side_effects "nanosleep.u32 500000;", "" : () -> ()
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-note @+1 {{@producer waits here in iteration 0 for phase parity 1 of @ring empty barrier, stage 0}}
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @watch warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          %s = tspipe.consumer_wait @ring
        }
      }
      tspipe.task @release warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-note @+1 {{@release arrives for the next phase here, in iteration 0, without waiting for @producer}}
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// CHECK: "tspipe: hang in task @epilogue waiting on @acc full barrier stage %d phase %d (cta %d, thread %d)\0A\00"

// warp_lane_hang: TS accepts, tspipe rejects (R70, deadlock). Every warp of
// @epilogue (4 warps, wait/release stride 4: warp lanes) runs all 4
// iterations on its own stage; @mma fills each stage once, so each warp's
// second wait never returns. TS counts the lane task once per wait.
gpu.module @warp_lane_hang [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @warp_lane_hang() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @mma = 4, @epilogue = 4}}
    tspipe.kernel warps(5) {
      tspipe.pipeline @acc config(<async_async, num_stages = 4, producer_group = <thread, 32>,
          consumer_group = <thread, 32>, interleave_stride = [1, 1, 4, 4]>)
      // expected-note @+4 {{the credit for completion 2 of @acc full barrier, stage 0 is held by @mma}}
      // expected-note @+3 {{the credit for completion 2 of @acc full barrier, stage 1 is held by @mma}}
      // expected-note @+2 {{the credit for completion 2 of @acc full barrier, stage 2 is held by @mma}}
      // expected-note @+1 {{the credit for completion 2 of @acc full barrier, stage 3 is held by @mma}}
      tspipe.task @mma warps(0, 1) produces [@acc] {
        tspipe.domain_loop %i = %c0 to %c4 step %c1 {
          %s = tspipe.producer_acquire @acc
          tspipe.producer_commit @acc
        }
      }
      tspipe.task @epilogue warps(1, 4) consumes [@acc] {
        tspipe.domain_loop %i = %c0 to %c4 step %c1 {
          // expected-note @+4 {{@epilogue.w0 blocks in iteration 1}}
          // expected-note @+3 {{@epilogue.w1 blocks in iteration 1}}
          // expected-note @+2 {{@epilogue.w2 blocks in iteration 1}}
          // expected-note @+1 {{@epilogue.w3 blocks in iteration 1}}
          %s = tspipe.consumer_wait @acc
          tspipe.consumer_release @acc
        }
      }
    }
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @warp_lane_balanced

// warp_lane_balanced: TS rejects ("1x ProducerCommit from acc not
// consumed!"), tspipe accepts. @mma fills stages 0 and 1; @epilogue's two
// warps (warp lanes, stride 2) each wait for and release their own stage in
// the one iteration of [1, 2). Every fill is consumed; the kernel finishes.
gpu.module @warp_lane_balanced [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @warp_lane_balanced() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @acc config(<async_async, num_stages = 2, producer_group = <thread, 32>,
          consumer_group = <thread, 32>, interleave_stride = [1, 1, 2, 2]>)
      tspipe.task @mma warps(0, 1) produces [@acc] {
        tspipe.domain_loop %i = %c0 to %c2 step %c1 {
          %s = tspipe.producer_acquire @acc
          tspipe.producer_commit @acc
        }
      }
      tspipe.task @epilogue warps(1, 2) consumes [@acc] {
        tspipe.domain_loop %i = %c1 to %c2 step %c1 {
          %s = tspipe.consumer_wait @acc
          tspipe.consumer_release @acc
        }
      }
    }
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.module @domain_lanes_balanced

// domain_lanes_balanced: TS rejects ("Schedule is blocked! ... ConsumerWait
// ... waiting for producer commit credit at physical stage 1"), tspipe
// accepts. @load's two warps (warp lanes, stride 2) fill stages 0 and 1 in
// its one iteration; @lane0 (domain [0, 2) step 2) and @lane1 ([1, 2) step
// 2) each wait for and release their lane's stage once. TS keys the
// domain-lane credits per physical stage but counts the warp-lane producer
// as one dense participant (stage 0, advancing by 1), so stage 1 never gets
// its credit there.
gpu.module @domain_lanes_balanced [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @domain_lanes_balanced() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    tspipe.kernel warps(4) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>,
          consumer_group = <thread, 32>, interleave_stride = [2]>)
      tspipe.task @load warps(0, 2) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @lane0 warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %c2 step %c2 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
      tspipe.task @lane1 warps(3, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c1 to %c2 step %c2 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
