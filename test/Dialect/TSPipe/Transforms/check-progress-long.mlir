// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress | FileCheck %s

// Long rings (512 stages): the checker decides every domain length of them
// through the ring's rotation period (docs/ProgressChecker.md, "Which
// lengths are checked"), without a warning that only some lengths were
// checked (-verify-diagnostics fails on an unexpected warning), and a
// counterexample still has the smallest failing lengths.

// One producer and one consumer, one stage per iteration each: free of
// hangs for every n.
// CHECK-LABEL: gpu.func @long_ring
gpu.module @long_ring {
  gpu.func @long_ring(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 512, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Interleaved lanes on a long ring: the two producer warps own the even and
// the odd stages (rotation period 2); the consumer takes 2 * (n / 2) stages.
// CHECK-LABEL: gpu.func @long_warp_lanes
gpu.module @long_warp_lanes {
  gpu.func @long_warp_lanes(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %half = arith.divui %n, %c2 : index
    %even = arith.muli %half, %c2 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 512, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = [2, 2, 1, 1]>)
      tspipe.task @load warps(0, 2) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %half step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %even step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Fails for odd lengths only: the consumer takes two stages per iteration
// over a domain of step 2, so for an odd n it waits for one fill more than
// the producer makes. The smallest failing length is n = 1.
gpu.module @long_odd {
  gpu.func @long_odd(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @load = 1, @use = 1}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 512, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{the credit for completion 1 of @ring full barrier, stage 1 is held by @load: it has committed that stage 0 time(s) and has finished}}
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c2 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
          // expected-note @+1 {{@use blocks in iteration 0 on @ring full barrier, stage 1, phase 0}}
          %t = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The twin of @long_odd: the producer's domain is twice the consumer's
// iterations, so the lengths always match.
// CHECK-LABEL: gpu.func @long_even
gpu.module @long_even {
  gpu.func @long_even(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n2 = arith.muli %n, %c2 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 512, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n2 step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n2 step %c2 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
          %t = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Fails only once the ring wraps around: @use waits in its head for @go,
// which @load fills only after its domain loop. Up to 512 iterations @load
// finds a free stage every time; at n = 513 it waits for a release of stage
// 0 that @use, still waiting for @go, never makes.
gpu.module @long_wrap {
  gpu.func @long_wrap(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @load = 513, @use = 513}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 512, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline @go config(<async_async, num_stages = 1, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @load warps(0, 1) produces [@ring, @go] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-note @+2 {{@load blocks in iteration 512 on @ring empty barrier, stage 0, phase 0 (producer_acquire needs completion 1, the barrier has 0)}}
          // expected-note @+1 {{the credit for completion 1 of @go full barrier, stage 0 is held by @load: it has committed that stage 0 time(s) and is blocked here, in iteration 512 on @ring empty barrier, stage 0}}
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
        %g = tspipe.producer_acquire @go
        tspipe.producer_commit @go
      }
      tspipe.task @use warps(1, 1) consumes [@ring, @go] {
        // expected-note @+2 {{@use blocks in the head on @go full barrier, stage 0, phase 0}}
        // expected-note @+1 {{the credit for completion 1 of @ring empty barrier, stage 0 is held by @use: it has released that stage 0 time(s) and is blocked here, in the head on @go full barrier, stage 0}}
        %g = tspipe.consumer_wait @go
        tspipe.consumer_release @go
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The twin of @long_wrap: @use waits for @go in its tail, after its loop,
// so nothing holds back the ring.
// CHECK-LABEL: gpu.func @long_wrap_tail
gpu.module @long_wrap_tail {
  gpu.func @long_wrap_tail(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 512, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline @go config(<async_async, num_stages = 1, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @load warps(0, 1) produces [@ring, @go] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
        %g = tspipe.producer_acquire @go
        tspipe.producer_commit @go
      }
      tspipe.task @use warps(1, 1) consumes [@ring, @go] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
        %g = tspipe.consumer_wait @go
        tspipe.consumer_release @go
      }
    }
    gpu.return
  }
}
