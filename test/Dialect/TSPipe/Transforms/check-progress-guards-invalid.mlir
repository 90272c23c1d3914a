// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress -o /dev/null

// Loop guards the progress checker rejects (twins: check-progress-guards.mlir).

// The condition guards the producer only: with %flag false the consumer
// waits for a stage no one fills. Not proven (R70), with the values that
// fail.
gpu.module @when_one_side {
  gpu.func @when_one_side(%n: index, %flag: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] progress not proven for every domain length: the schedules fail when %arg1 = false: tasks deadlock with domain lengths @producer = 1, @consumer = 1}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.when_true %flag {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
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

// A condition computed from the iteration (odd iterations) is no kernel-
// wide value: not proven, even though it matches the consumer's
// every(2, 1) on the GPU.
gpu.module @when_thread {
  gpu.func @when_thread(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+2 {{[R70] progress not proven for every domain length: the condition of the tspipe.when_true guard at}}
    // expected-error @+1 {{[R70] progress not proven for every domain length: the schedules fail when %1 = false}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %odd = arith.remui %i, %c2 : index
          %c = arith.cmpi eq, %odd, %c1 : index
          tspipe.when_true %c {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.every period(2) start(1) {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
      }
    }
    gpu.return
  }
}

// -----

// every is exact: the producer fills on even iterations, the consumer
// drains on odd ones; with one iteration the filled stage is never
// released and the producer's drain waits for ever.
gpu.module @every_mismatch {
  gpu.func @every_mismatch(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 1, @consumer = 1}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{@producer blocks in the tail on @ring empty barrier, stage 0, phase 0}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.every period(2) start(0) {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
        }
      }
      // expected-note @+1 {{the credit for completion 1 of @ring empty barrier, stage 0 is held by @consumer}}
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.every period(2) start(1) {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
      }
    }
    gpu.return
  }
}

// -----

// The same with a period of 2^31 - 1: the checker jumps over the
// iterations on which no step runs instead of stepping each one (it ran
// for minutes), and finds the same deadlock.
gpu.module @every_long_period {
  gpu.func @every_long_period(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] tasks deadlock with domain lengths @producer = 1, @consumer = 1}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-note @+1 {{@producer blocks in the tail on @ring empty barrier, stage 0, phase 0}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.every period(2147483647) start(0) {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
        }
      }
      // expected-note @+1 {{the credit for completion 1 of @ring empty barrier, stage 0 is held by @consumer}}
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          tspipe.every period(2147483647) start(1) {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
      }
    }
    gpu.return
  }
}
