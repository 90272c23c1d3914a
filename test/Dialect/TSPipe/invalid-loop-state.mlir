// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X26: the values a domain loop carries (docs/Rules.md, X26). The valid
// forms are in loop-state.mlir.

gpu.module @X26_missing_yield {
  gpu.func @X26_missing_yield(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{[X26] carries 1 values but its body does not end with tspipe.yield}}
        %r = tspipe.domain_loop %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
          %b = arith.addi %a, %a : i32
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @X26_yield_count {
  gpu.func @X26_yield_count(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        %r = tspipe.domain_loop %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
          // expected-error @+1 {{[X26] yields 2 values but the domain loop carries 1; yield one next value per iter_args entry}}
          tspipe.yield %a, %a : i32, i32
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @X26_yield_type {
  gpu.func @X26_yield_type(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        %r = tspipe.domain_loop %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
          %f = arith.constant 1.0 : f32
          // expected-error @+1 {{[X26] yielded value #0 is 'f32' but the carried value is 'i32'}}
          tspipe.yield %f : f32
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @X26_types_count {
  gpu.func @X26_types_count(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        // expected-error @+1 {{[X26] iter_args lists 1 values but the type list after '->' has 2; give one type per carried value}}
        %r = tspipe.domain_loop %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32, i32) {
          tspipe.yield %a : i32
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @X26_yield_outside {
  gpu.func @X26_yield_outside(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(1) {
      tspipe.task @t warps(0, 1) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
        // expected-error @+1 {{'tspipe.yield' op expects parent op 'tspipe.domain_loop'}}
        tspipe.yield
      }
    }
    gpu.return
  }
}
