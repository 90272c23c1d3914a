// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress

// Each kernel below can hang or leaves barrier credits unbalanced for some
// domain length; tspipe-check-progress reports the smallest failing lengths
// (R70, R71, X8) with notes on the operations of the counterexample. The
// corrected twin of each is in check-progress.mlir.

// A missing release: the consumer never frees a stage, so the producer's
// drain (producer_tail, implicit at task exit) waits forever after one
// iteration.
gpu.module @missing_release {
  gpu.func @missing_release(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 1, @consumer = 1}}
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
        }
      }
    }
    gpu.return
  }
}

// -----

// Producer and consumer domains of different lengths: the consumer waits
// for one stage more than the producer fills.
gpu.module @domain_mismatch {
  gpu.func @domain_mismatch(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = arith.addi %n, %c1 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 0, @consumer = 1}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{the credit for completion 1 of @ring full barrier, stage 0 is held by @producer: it has committed that stage 0 time(s) and has finished}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %m step %c1 {
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

// A wrong stride: the two producers split the domain into even and odd
// iterations (domain lanes), but the pipeline is not interleaved, so both
// fill stages 0, 1, 0, ... together and each stage waits for both of them.
gpu.module @wrong_stride {
  gpu.func @wrong_stride(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @even = 1, @odd = 0, @consumer = 1}}
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 64>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{@even blocks in the tail on @ring empty barrier, stage 0, phase 0}}
      tspipe.task @even warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c2 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      // expected-note @+1 {{the credit for completion 1 of @ring full barrier, stage 0 is held by @odd: it has committed that stage 0 time(s) and has finished}}
      tspipe.task @odd warps(1, 1) produces [@ring] {
        tspipe.domain_loop %i = %c1 to %n step %c2 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-note @+2 {{@consumer blocks in iteration 0 on @ring full barrier, stage 0, phase 0}}
          // expected-note @+1 {{held by @consumer: it has released that stage 0 time(s) and is blocked here, in iteration 0 on @ring full barrier, stage 0}}
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// R71, phase overrun: a split consumer whose releasing task is not ordered
// after its waiting task. @release frees stages nobody has filled yet, so an
// empty barrier can complete a phase before the producer's acquire of that
// phase: the acquire's parity wait then looks at the wrong phase.
gpu.module @split_consumer_lag {
  gpu.func @split_consumer_lag(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R71] phase overrun with domain lengths @producer = 1, @watch = 1, @release = 1}}
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_wait = true>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-note @+1 {{@producer waits here in iteration 0 for phase parity 1 of @ring empty barrier, stage 0}}
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @watch warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
        }
      }
      tspipe.task @release warps(2, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-note @+1 {{@release arrives for the next phase here, in iteration 0, without waiting for @producer}}
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Long static domains are decided through the schedules' period: the
// consumer waits once more than the producer fills, a million iterations in.
gpu.module @long_mismatch {
  gpu.func @long_mismatch() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000000 : index
    %m = arith.constant 1000001 : index
    // expected-error @+1 {{these lengths stand for @producer = 1000000, @consumer = 1000001: the schedules repeat with a period, so both fail the same way}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{is held by @producer}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %m step %c1 {
          // expected-note @+1 {{@consumer blocks in iteration}}
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Warp lanes: every warp of @epilogue (4 warps, wait and release stride 4)
// runs the whole domain loop on its own lane, so each iteration waits on 4
// stages while @mma fills one. After one iteration each warp waits for a
// second fill of its stage that never comes. (TS 4.8.1 accepts this kernel:
// its credit simulators count the lane task once per wait;
// docs/ProgressChecker.md, Agreement with TS.)
gpu.module @warp_lane_rate {
  gpu.func @warp_lane_rate() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @mma = 4, @epilogue = 4}}
    tspipe.kernel warps(5) {
      tspipe.pipeline @acc config(<umma_async, num_stages = 4, producer_group = <thread, 1>,
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
          // expected-note @+4 {{@epilogue.w0 blocks in iteration 1 on @acc full barrier, stage 0, phase 1}}
          // expected-note @+3 {{@epilogue.w1 blocks in iteration 1 on @acc full barrier, stage 1, phase 1}}
          // expected-note @+2 {{@epilogue.w2 blocks in iteration 1 on @acc full barrier, stage 2, phase 1}}
          // expected-note @+1 {{@epilogue.w3 blocks in iteration 1 on @acc full barrier, stage 3, phase 1}}
          %s = tspipe.consumer_wait @acc
          tspipe.consumer_release @acc
        }
      }
    }
    gpu.return
  }
}

// -----

// A bracket nested in scf.while: the checker cannot place it in a schedule
// (nor can the lowering carry the cursors through it). The kernel verifier
// rejects it first (X15), so the checker never gives a verdict on a
// schedule without it.
gpu.module @nested_in_while {
  gpu.func @nested_in_while(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          scf.while : () -> () {
            scf.condition(%true)
          } do {
            // expected-error @+1 {{[X15] must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.while')}}
            %s = tspipe.producer_acquire @ring
            // expected-error @+1 {{[X15] must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.while')}}
            tspipe.producer_commit @ring
            scf.yield
          }
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
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

// The same in scf.execute_region (its twin with the brackets as direct
// children of the domain loop is @with_release of check-progress.mlir).
gpu.module @nested_in_execute_region {
  gpu.func @nested_in_execute_region(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          scf.execute_region {
            // expected-error @+1 {{[X15] must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.execute_region')}}
            tspipe.producer_commit @ring
            scf.yield
          }
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
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

// An extra acquire: with advance_on_acquire every acquire takes the next
// stage, so the second acquire of each iteration holds a stage that no
// commit fills and no release frees (the kernel verifier accepts the split
// producer cursor; in the default cursor mode R33 rejects the second
// acquire first: invalid-brackets.mlir).
gpu.module @extra_acquire {
  gpu.func @extra_acquire(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] credits are unbalanced: 1 acquire(s) of @producer are never released with domain lengths @producer = 1, @consumer = 1}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>,
          consumer_group = <thread, 32>, advance_on_acquire = true>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          // expected-note @+1 {{@producer executes producer_acquire on @ring empty barrier, stage 1 1 time(s); the barrier completes 0 phase(s)}}
          %t = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
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

// X8: the consumer waits under first_iter and releases under last_iter;
// with an empty domain neither guard runs, the stage the producer filled in
// its head is never released, and its drain waits forever. (The twin
// releases in the tail: @tail_release in check-progress.mlir.)
gpu.module @guarded_pair_empty_domain {
  gpu.func @guarded_pair_empty_domain(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[X8] tasks deadlock with domain lengths @producer = 1, @consumer = 0}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{@producer blocks in the tail on @ring empty barrier, stage 0, phase 0}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        }
      }
      // expected-note @+1 {{the credit for completion 1 of @ring empty barrier, stage 0 is held by @consumer: it has released that stage 0 time(s) and has finished}}
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.first_iter {
            %s = tspipe.consumer_wait @ring
          }
          tspipe.last_iter {
            // expected-note @+1 {{[X8] this consumer_release runs only under a loop guard, and @consumer's domain is empty here}}
            tspipe.consumer_release @ring
          }
        }
      }
    }
    gpu.return
  }
}
