// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --mlir-very-unsafe-disable-verifier-on-parsing --tspipe-check-progress | FileCheck %s
// RUN: not tspipe-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=VERIFIER

// Phases, not counts (R71): an mbarrier wait tests one phase bit, so a wait
// for completion t passes as soon as the barrier has t's parity, also at
// t - 2, a whole ring lap early. A task that skips a phase of a stage and
// then waits for the next one can get there. The checker compares the
// phases a task waits for (not the number of its waits) and, for every wait
// that skips a phase, runs the least schedule that reaches it. The verifier's
// bracket pairing (R32: a release after a wait of its iteration) keeps such
// schedules out of verified kernels; the checker answers for IR built
// without the verifier too (the first RUN line), as in
// check-progress-unverified.mlir.

// VERIFIER: error: 'tspipe.consumer_release' op [R32]

// The consumer waits twice for the first phase, releases one stage more in
// its last iteration than it waits for, and then waits in its tail for the
// phase after the one it skipped: with one phase completed, the parity of
// that phase is the parity it waits for. The wait count equals the phases
// completed, so a balance by counts accepted it.
gpu.module @lap_early {
  gpu.func @lap_early(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %m = arith.addi %n, %c3 : index
    %k = arith.addi %n, %c1 : index
    // expected-error @+1 {{[R71] lap-early wait with domain lengths @producer = 3, @consumer = 1 (%arg0 = 0): @consumer can reach its consumer_wait for completion 3 of @ring full barrier, stage 0 when the barrier has completed 1 phase(s)}}
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 1, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %m step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %k step %c1 {
          tspipe.first_iter {
            %t = tspipe.consumer_wait @ring
          }
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
          tspipe.last_iter {
            tspipe.consumer_release @ring
          }
        }
        // expected-note @+1 {{@consumer waits here in the tail for phase parity 0 of @ring full barrier, stage 0, which it has not waited for in the visit before}}
        %u = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
    gpu.return
  }
}

// -----

// The twin waits for every phase it releases.
// CHECK-LABEL: gpu.func @every_phase_waited
gpu.module @every_phase_waited {
  gpu.func @every_phase_waited(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %m = arith.addi %n, %c3 : index
    %k = arith.addi %n, %c1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 1, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %m step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %k step %c1 {
          tspipe.first_iter {
            %t = tspipe.consumer_wait @ring
          }
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
          tspipe.last_iter {
            %v = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
        }
        %u = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
    gpu.return
  }
}
