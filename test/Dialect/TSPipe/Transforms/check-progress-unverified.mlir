// RUN: tspipe-opt %s -verify-diagnostics --mlir-very-unsafe-disable-verifier-on-parsing --tspipe-check-progress
// RUN: not tspipe-opt %s 2>&1 | FileCheck %s --check-prefix=VERIFIER

// The one hang kind the kernel verifier always rejects before
// tspipe-check-progress sees it: a try form never followed by its blocking
// form (R34 requires a later blocking op of the same pipeline in the task,
// and R33 a commit after its acquire, so no verified kernel has it). The
// other hang kinds have verified forms, tested in
// check-progress-invalid.mlir (the extra acquire with a split producer
// cursor, X8 with a first_iter / last_iter pair). To test the checker's own
// answer to this one (the progress checker is also run by the Python layer,
// which may be handed IR built without the verifier's rules), the first
// RUN line skips the verifier while parsing; the second shows that the
// verifier rejects the kernel.

// VERIFIER: error: 'tspipe.producer_try_acquire' op [R34]

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
