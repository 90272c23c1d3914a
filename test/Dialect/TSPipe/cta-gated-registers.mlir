// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Registers of CTA-gated tasks, counted per CTA (R41, R42): a task pinned
// to CTA k with registers(n) runs its setmaxnreg on every CTA for its
// warps, outside its CTA gate, on the CTAs where no task claims them.

// Passing: on CTA 1 no task claims warps 4-5; @producer's setmaxnreg
// covers them there, so warpgroup 1 sets 40 registers on both CTAs.
func.func @gated_covers_other_cta(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(8) cluster([2, 1, 1]) {
    tspipe.task @math warps(0, 4) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @producer warps(4, 2) cta(0) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @idle warps(6, 2) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

// R41 on CTA 1 only: @producer's registers cover warps 4-5 there, but
// warps 6-7 run @other1, which sets none.
func.func @R41_short_on_cta1(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(8) cluster([2, 1, 1]) {
    tspipe.task @math warps(0, 4) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    // expected-error @+1 {{[R41] sets registers(40) (whose setmaxnreg runs on CTA 1 outside its cta(0) gate) in warpgroup 1 (warps 4-7) of CTA 1, but warp 6 is in no task that sets registers}}
    tspipe.task @producer warps(4, 2) cta(0) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @other0 warps(6, 2) cta(0) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @other1 warps(6, 2) cta(1) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

// R41 on CTA 1: the gated task's count differs from the task that shares
// its warpgroup there.
func.func @R41_differs_on_cta1(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(8) cluster([2, 1, 1]) {
    tspipe.task @math warps(0, 4) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @producer warps(4, 2) cta(0) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @other0 warps(6, 2) cta(0) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    // expected-error @+1 {{[R41] registers(56) differs from registers(40) of task '@producer' (whose setmaxnreg runs on CTA 1 outside its cta(0) gate) in warpgroup 1 (warps 4-7) of CTA 1}}
    tspipe.task @other1 warps(6, 2) cta(1) registers(56) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

// R42 per CTA: @sm's and @corr's increases (240 and 232 registers, where
// @corr's setmaxnreg runs on both CTAs) are not paid for by @low's decrease.
func.func @R42_gated_increase(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{[R42] the register increases on CTA 0 exceed the decreases by 32 registers per thread-warp}}
  tspipe.kernel warps(12) cluster([2, 1, 1]) {
    tspipe.task @sm warps(0, 4) registers(240) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @corr warps(4, 4) cta(0) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @low warps(8, 4) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}
