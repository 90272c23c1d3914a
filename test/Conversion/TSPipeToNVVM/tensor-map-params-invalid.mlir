// RUN: tspipe-opt %s --tspipe-to-nvvm -verify-diagnostics

// X28: a parameter listed in tspipe.grid_constants must be the generic
// pointer a tensor map is passed through.

gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  // expected-error @+1 {{[X28] tensor-map parameter #0 of @not_a_pointer must be a generic !llvm.ptr argument}}
  gpu.func @not_a_pointer(%x: i32) kernel attributes {tspipe.grid_constants = array<i64: 0>} {
    gpu.return
  }
}
