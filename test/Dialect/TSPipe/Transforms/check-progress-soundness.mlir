// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress | FileCheck %s

// Soundness of the progress checker: kernels it accepted although they hang,
// and correct kernels it rejected with an impossible counterexample, found by
// a generator of kernels whose verdict is known by construction
// (test/python/test_progress_generated.py). Each failing kernel has a passing
// twin next to it.

// -----

// divsi rounds toward zero: the producer's end ((n - 1) divsi 2) + 1 is 1 at
// n = 0, where the consumer's (n + 1) divui 2 is 0 (for n >= 1 they agree).
// Read as floor division, both were 0 and the kernel was accepted.
gpu.module @divsi {
  gpu.func @divsi(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %nm1 = arith.subi %n, %c1 : index
    %h = arith.divsi %nm1, %c2 : index
    %pe = arith.addi %h, %c1 : index
    %np1 = arith.addi %n, %c1 : index
    %ce = arith.divui %np1, %c2 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 1, @consumer = 0 (%arg0 = 0)}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{@producer blocks in the tail on @ring empty barrier, stage 0, phase 0 (producer_tail needs completion 1, the barrier has 0)}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %pe step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      // expected-note @+1 {{the credit for completion 1 of @ring empty barrier, stage 0 is held by @consumer: it has released that stage 0 time(s) and has finished}}
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %ce step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The twin: (n + 1) divsi 2 equals (n + 1) divui 2 for every n >= 0.
// CHECK-LABEL: gpu.func @divsi_twin
gpu.module @divsi_twin {
  gpu.func @divsi_twin(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %np1 = arith.addi %n, %c1 : index
    %pe = arith.divsi %np1, %c2 : index
    %ce = arith.divui %np1, %c2 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %pe step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %ce step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Domains [4096, n) and [4097, n) differ for every n > 4096; values were
// simulated only up to 4096, with no warning.
gpu.module @start_4097 {
  gpu.func @start_4097(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = arith.constant 4096 : index
    %b = arith.constant 4097 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 1, @consumer = 0 (%arg0 = 4097)}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{@producer blocks in the tail on @ring empty barrier, stage 0, phase 0 (producer_tail needs completion 1, the barrier has 0)}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %a to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      // expected-note @+1 {{the credit for completion 1 of @ring empty barrier, stage 0 is held by @consumer: it has released that stage 0 time(s) and has finished}}
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %b to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The twin: both domains start at 4096.
// CHECK-LABEL: gpu.func @start_4096
gpu.module @start_4096 {
  gpu.func @start_4096(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = arith.constant 4096 : index
    %b = arith.constant 4096 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %a to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %b to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// A missing release with n / 128 iterations: the fallback bound was taken in
// units of n (n <= 12 runs no iteration), so only a warning said that some
// lengths were not checked. Now every length is decided: one iteration fails.
gpu.module @missing_release_n128 {
  gpu.func @missing_release_n128(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %t = arith.divui %n, %c128 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 1, @consumer = 1 (%arg0 = 128)}}
    tspipe.kernel warps(2) {
      // expected-note @+1 {{no task runs consumer_release on @ring; add it to the schedule of the task that waits on the stages}}
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{@producer blocks in the tail on @ring empty barrier, stage 0, phase 0 (producer_tail needs completion 1, the barrier has 0)}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %t step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %t step %c1 {
          %s = tspipe.consumer_wait @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The twin releases every stage.
// CHECK-LABEL: gpu.func @released_n128
gpu.module @released_n128 {
  gpu.func @released_n128(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %t = arith.divui %n, %c128 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %t step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %t step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Two loops bounded by two separate constants 16777216: the constants were
// too large for the checker, which made each an unrelated symbol and reported
// "@producer = 0, @consumer = 1", a schedule no execution has.
// CHECK-LABEL: gpu.func @two_constants
gpu.module @two_constants {
  gpu.func @two_constants(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = arith.constant 16777216 : index
    %b = arith.constant 16777216 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %a step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %b step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The failing twin: 16777217 iterations against 16777216.
gpu.module @two_constants_differ {
  gpu.func @two_constants_differ(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = arith.constant 16777216 : index
    %b = arith.constant 16777217 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 3, @consumer = 4: every unfinished task is blocked on a barrier whose credit is held by a blocked or finished task (these lengths stand for @producer = 16777216, @consumer = 16777217}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{the credit for completion 2 of @ring full barrier, stage 1 is held by @producer: it has committed that stage 1 time(s) and has finished}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %a step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %b step %c1 {
          // expected-note @+1 {{@consumer blocks in iteration 3 on @ring full barrier, stage 1, phase 1 (consumer_wait needs completion 2, the barrier has 1)}}
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Both roles compute ceil(4 * seqlen / 128) with ops of their own: equal
// expressions of the same kernel argument are one value (they were two
// unrelated ones, and the checker reported a mismatch that cannot happen).
// CHECK-LABEL: gpu.func @same_trip_own_ops
gpu.module @same_trip_own_ops {
  gpu.func @same_trip_own_ops(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pc4 = arith.constant 4 : index
    %pc = arith.constant 127 : index
    %pd = arith.constant 128 : index
    %pm = arith.muli %n, %pc4 : index
    %pa = arith.addi %pm, %pc : index
    %pt = arith.divui %pa, %pd : index
    %qc4 = arith.constant 4 : index
    %qc = arith.constant 127 : index
    %qd = arith.constant 128 : index
    %qm = arith.muli %n, %qc4 : index
    %qa = arith.addi %qm, %qc : index
    %qt = arith.divui %qa, %qd : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %pt step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %qt step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The failing twin: ceil(4 * seqlen / 64) iterations against
// ceil(4 * seqlen / 128) differ first at seqlen = 17.
gpu.module @different_trip {
  gpu.func @different_trip(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pc4 = arith.constant 4 : index
    %pc = arith.constant 127 : index
    %pd = arith.constant 128 : index
    %pm = arith.muli %n, %pc4 : index
    %pa = arith.addi %pm, %pc : index
    %pt = arith.divui %pa, %pd : index
    %qc4 = arith.constant 4 : index
    %qc = arith.constant 63 : index
    %qd = arith.constant 64 : index
    %qm = arith.muli %n, %qc4 : index
    %qa = arith.addi %qm, %qc : index
    %qt = arith.divui %qa, %qd : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 1, @consumer = 2 (%arg0 = 17)}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{the credit for completion 1 of @ring full barrier, stage 1 is held by @producer: it has committed that stage 0 time(s) and has finished}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %pt step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %qt step %c1 {
          // expected-note @+1 {{@consumer blocks in iteration 1 on @ring full barrier, stage 1, phase 0 (consumer_wait needs completion 1, the barrier has 0)}}
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// A second wait on the same stage before its release waits for the same phase
// again: it passes (the producer cannot refill the stage before the release).
// The balance compared the number of waits with the phases completed and
// reported "-1 committed phase(s) are never waited for".
// CHECK-LABEL: gpu.func @second_wait
gpu.module @second_wait {
  gpu.func @second_wait(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index

    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          %s2 = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The failing twin: two waits and no release.
gpu.module @second_wait_unreleased {
  gpu.func @second_wait_unreleased(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index

    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 1, @consumer = 1 (%arg0 = 1)}}
    tspipe.kernel warps(2) {
      // expected-note @+1 {{no task runs consumer_release on @ring; add it to the schedule of the task that waits on the stages}}
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{@producer blocks in the tail on @ring empty barrier, stage 0, phase 0 (producer_tail needs completion 1, the barrier has 0)}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          %s2 = tspipe.consumer_wait @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Lengths the checker cannot decide: n remui 4 against (n + 4) remui 4 are
// equal, but neither is a quasi-affine function of n, and they are different
// expressions. No counterexample among the values checked: an error that says
// what is not proven (it was accepted silently).
gpu.module @not_proven {
  gpu.func @not_proven(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = arith.remui %n, %c4 : index
    %n4 = arith.addi %n, %c4 : index
    %u = arith.remui %n4, %c4 : index
    // expected-error @+1 {{[R70] progress not proven for every domain length: the domain length of @producer, @consumer is no quasi-affine function of %arg0}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %t step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %u step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// The same kernel with the author's opt-out: a warning.
gpu.module @assumed {
  gpu.func @assumed(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = arith.remui %n, %c4 : index
    %n4 = arith.addi %n, %c4 : index
    %u = arith.remui %n4, %c4 : index
    // expected-warning @+1 {{[R70] progress not proven for every domain length (accepted by tspipe.assume_progress)}}
    tspipe.kernel warps(2) attributes {tspipe.assume_progress} {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %t step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %u step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// A length that is not quasi-affine still gives real counterexamples:
// n remui 4 iterations against n.
gpu.module @not_affine_counterexample {
  gpu.func @not_affine_counterexample(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = arith.remui %n, %c4 : index
    %n4 = arith.addi %n, %c4 : index
    %u = arith.remui %n4, %c4 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 0, @consumer = 4 (%arg0 = 4)}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{the credit for completion 1 of @ring full barrier, stage 0 is held by @producer: it has committed that stage 0 time(s) and has finished}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %t step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-note @+1 {{@consumer blocks in iteration 0 on @ring full barrier, stage 0, phase 0 (consumer_wait needs completion 1, the barrier has 0)}}
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Lengths that are no quasi-affine function, computed from the same bounds
// by both tasks, are one trip count: decided for every value of it.
// CHECK-LABEL: gpu.func @same_bounds
gpu.module @same_bounds {
  gpu.func @same_bounds(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = arith.remui %n, %c4 : index
    %n4 = arith.addi %n, %c4 : index
    %u = arith.remui %n4, %c4 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %t step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %t step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
