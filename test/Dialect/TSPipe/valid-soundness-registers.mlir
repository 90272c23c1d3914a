// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The passing twin of invalid-soundness-registers.mlir: on each CTA one
// task covers warpgroup 0.
// CHECK-LABEL: func.func @R41_names_cta
func.func @R41_names_cta(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) cluster([2, 1, 1]) {
    tspipe.task @math0 warps(0, 4) cta(0) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @math1 warps(0, 4) cta(1) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}
