// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Register counts per warpgroup (R41), the register budget (R42) and tensor
// memory (R44). The valid twin of each case has the same name in
// valid-rules.mlir.

// -----

// R41 (B22): two tasks of one warpgroup with different register counts.
func.func @R41_warpgroup_disagrees(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.task @producer warps(0, 1) registers(40) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    // expected-error @+1 {{[R41] registers(232) differs from registers(40) of task '@producer' in warpgroup 0 (warps 0-3); setmaxnreg applies to a whole warpgroup}}
    tspipe.task @consumer warps(1, 3) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

// R41: a register-setting task covers half a warpgroup.
func.func @R41_partial_warpgroup(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    // expected-error @+1 {{[R41] sets registers(232) in warpgroup 0 (warps 0-3), but warp 2 is in no task that sets registers; setmaxnreg needs all 4 warps of the warpgroup}}
    tspipe.task @math warps(0, 2) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @other warps(2, 2) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

// R42: more registers than the register file holds.
func.func @R42_register_file_exceeded(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{[R42] the tasks' registers add up to 118784 (sum of warps x 32 x registers, 128 for tasks without registers(n)), more than the 65536 registers of the register file}}
  tspipe.kernel warps(16) {
    tspipe.task @a warps(0, 4) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
    tspipe.task @b warps(4, 12) registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

// R44: tensor-memory columns over the 512 of an SM.
func.func @R44_tmem_columns_exceeded() {
  // expected-error @+1 {{[R44] the pipelines use 576 tensor-memory columns, more than the 512 of an SM}}
  tspipe.kernel warps(1) {
    tspipe.pipeline @acc config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>>) tmem_columns(512)
    tspipe.pipeline @aux config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>>) tmem_columns(64)
  }
  return
}
