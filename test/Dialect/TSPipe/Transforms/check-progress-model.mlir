// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-check-progress=print-model

// Unit tests of the progress checker's pieces, through its print-model
// remarks: how domain bounds are read (exact expressions, their
// quasi-affine form and from which value it holds), the rotation period of
// a ring, and the bound on the values of a symbol that decide every length
// (docs/ProgressChecker.md, "Which lengths are checked").

// -----

// ((n - 1) divsi 2) + 1 is floor((n + 1) / 2) only from n = 1 on (divsi
// rounds toward zero: at n = 0 it is 1); below that value the checker
// evaluates the exact expression (check-progress-soundness.mlir, @divsi).
gpu.module @divsi_from {
  gpu.func @divsi_from(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %nm1 = arith.subi %n, %c1 : index
    %h = arith.divsi %nm1, %c2 : index
    %pe = arith.addi %h, %c1 : index
    %np1 = arith.addi %n, %c1 : index
    %ce = arith.divui %np1, %c2 : index
    tspipe.kernel warps(2) {
      // expected-remark @+1 {{rotation period of @ring: 1 of 2 stage(s)}}
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-remark @+1 {{lengths of the component of @producer checked for %arg0 = 0..6}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        // expected-remark @+1 {{trip count of @producer = max(0, 1 * floor((1 * %arg0 + 1) / 2) + 0) for %arg0 >= 1}}
        tspipe.domain_loop %i = %c0 to %pe step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        // expected-remark @+1 {{trip count of @consumer = max(0, 1 * floor((1 * %arg0 + 1) / 2) + 0) for %arg0 >= 1}}
        tspipe.domain_loop %i = %c0 to %pe step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// ceildivsi(4 n, 128) and (4 n + 127) divui 128: one form; a 4-stage ring
// whose tasks move one stage at a time has rotation period 1, and the bound
// covers a few iterations of both tasks (128 values of n each).
gpu.module @ceil_forms {
  gpu.func @ceil_forms(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c127 = arith.constant 127 : index
    %c128 = arith.constant 128 : index
    %m = arith.muli %n, %c4 : index
    %pe = arith.ceildivsi %m, %c128 : index
    %a = arith.addi %m, %c127 : index
    %ce = arith.divui %a, %c128 : index
    tspipe.kernel warps(2) {
      // expected-remark @+1 {{rotation period of @ring: 1 of 4 stage(s)}}
      tspipe.pipeline @ring config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-remark @+1 {{lengths of the component of @producer checked for %arg0 = 0..192}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        // expected-remark @+1 {{trip count of @producer = max(0, 1 * floor((4 * %arg0 + 127) / 128) + 0) for %arg0 >= 0}}
        tspipe.domain_loop %i = %c0 to %pe step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        // expected-remark @+1 {{trip count of @consumer = max(0, 1 * floor((4 * %arg0 + 127) / 128) + 0) for %arg0 >= 0}}
        tspipe.domain_loop %i = %c0 to %ce step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// max(n, 8) is n from n = 8 on; a start of 3.
gpu.module @clamps {
  gpu.func @clamps(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %pe = arith.maxsi %n, %c8 : index
    %ce = arith.maxsi %c8, %n : index
    tspipe.kernel warps(2) {
      // expected-remark @+1 {{rotation period of @ring: 1 of 2 stage(s)}}
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      // expected-remark @+1 {{lengths of the component of @producer checked for %arg0 = 0..8}}
      tspipe.task @producer warps(0, 1) produces [@ring] {
        // expected-remark @+1 {{trip count of @producer = max(0, 1 * floor((1 * %arg0 + -3) / 1) + 0) for %arg0 >= 8}}
        tspipe.domain_loop %i = %c3 to %pe step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        // expected-remark @+1 {{trip count of @consumer = max(0, 1 * floor((1 * %arg0 + -3) / 1) + 0) for %arg0 >= 8}}
        tspipe.domain_loop %i = %c3 to %ce step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// A remainder is no quasi-affine function (both tasks share the expression,
// so their common trip count is the symbol).
gpu.module @remainder {
  gpu.func @remainder(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pe = arith.remui %n, %c4 : index
    tspipe.kernel warps(2) {
      // expected-remark @+1 {{rotation period of @ring: 1 of 2 stage(s)}}
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        // expected-remark @+1 {{trip count of @producer is no quasi-affine function of %arg0}}
        tspipe.domain_loop %i = %c0 to %pe step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        // expected-remark @+1 {{trip count of @consumer is no quasi-affine function of %arg0}}
        tspipe.domain_loop %i = %c0 to %pe step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// A constant beyond 2^24 is a constant.
gpu.module @big_constant {
  gpu.func @big_constant(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pe = arith.constant 16777216 : index
    tspipe.kernel warps(2) {
      // expected-remark @+1 {{rotation period of @ring: 1 of 2 stage(s)}}
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        // expected-remark @+1 {{trip count of @producer = 16777216}}
        tspipe.domain_loop %i = %c0 to %pe step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        // expected-remark @+1 {{trip count of @consumer = 16777216}}
        tspipe.domain_loop %i = %c0 to %pe step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
