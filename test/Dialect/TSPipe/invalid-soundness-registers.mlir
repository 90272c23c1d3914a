// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// R41 in a cluster names the CTA whose warpgroup breaks the rule (tspipe
// issue 17, item 9): here CTA 1, where @math1 covers half of warpgroup 0.
func.func @R41_names_cta(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) cluster([2, 1, 1]) {
    tspipe.task @math0 warps(0, 4) cta(0) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    // expected-error @+1 {{[R41] sets registers(232) in warpgroup 0 (warps 0-3) of CTA 1, but warp 2 is in no task that sets registers; setmaxnreg needs all 4 warps of the warpgroup}}
    tspipe.task @math1 warps(0, 2) cta(1) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @other1 warps(2, 2) cta(1) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}
