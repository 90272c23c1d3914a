// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --mlir-very-unsafe-disable-verifier-on-parsing --tspipe-check-progress
// RUN: not tspipe-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=VERIFIER

// Kernels that the kernel verifier rejects before tspipe-check-progress
// sees them: the bracket rules find each mistake inside one task's schedule
// (R33 an acquire repeated before its commit, X8 a guarded release that
// closes a wait of the task head, R34 a probe without its blocking form;
// invalid-brackets.mlir). The checker still finds them on its own when it
// is handed the IR unverified (first RUN line), with the counterexample it
// reports for kernels that pass the verifier (check-progress-invalid.mlir).

// VERIFIER: error: 'tspipe.producer_acquire' op [R33]
// VERIFIER: error: 'tspipe.consumer_release' op [X8]
// VERIFIER: error: 'tspipe.producer_try_acquire' op [R34]

// An extra acquire: in the default cursor mode an acquire does not advance,
// so the second acquire takes the same stage again and is never released.
gpu.module @extra_acquire {
  gpu.func @extra_acquire(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] credits are unbalanced: 1 acquire(s) of @producer are never released with domain lengths @producer = 1, @consumer = 1}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          // expected-note @+1 {{@producer executes producer_acquire on @ring empty barrier, stage 0 2 time(s); the barrier completes 1 phase(s)}}
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

// X8: the release pairs with a wait in the head but runs only under
// last_iter; with an empty domain no guard runs and the stage is never
// released.
gpu.module @last_iter_release {
  gpu.func @last_iter_release(%n: index) kernel {
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
        %s = tspipe.consumer_wait @ring
        tspipe.domain_loop %i = %c0 to %n step %c1 {
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

// -----

// A try form never followed by its blocking form: the probe's token is
// dropped, so the producer commits stages it never acquired.
gpu.module @try_without_acquire {
  gpu.func @try_without_acquire(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[R70] credits are unbalanced: 1 release(s) are not matched by any acquire with domain lengths @producer = 1, @consumer = 1}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          // expected-note @+1 {{this probe is never followed by its blocking form}}
          %r = tspipe.producer_try_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          // expected-note @+1 {{@consumer executes consumer_release on @ring empty barrier, stage 0 1 time(s); the barrier completes 1 phase(s)}}
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
