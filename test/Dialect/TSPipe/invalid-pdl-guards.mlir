// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X20: the consumer reads the previous grid's output but only the producer
// waits (Dao-AILab quack issue 206: the wait sat in one warp role, another
// role read the stale data). TS's R37 passes this kernel.
func.func @X20_other_role(%x: !llvm.ptr<1> {tspipe.pdl_input}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @producer warps(0, 1) produces [@ring] {
      tspipe.pdl_wait
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        %v = llvm.load %x : !llvm.ptr<1> -> f32
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @consumer warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %i64 = arith.index_cast %i : index to i64
        %p = llvm.getelementptr %x[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        // expected-error @+1 {{[X20] accesses argument 0 of @X20_other_role, which the previous grid writes (tspipe.pdl_input), but no tspipe.pdl_wait of task '@consumer' dominates it; every task that touches the previous grid's output must wait for that grid itself}}
        %v = llvm.load %p : !llvm.ptr<1> -> f32
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// X20: a wait that runs on the first iteration only does not dominate the
// reads of the later iterations.
func.func @X20_guarded_wait(%x: !llvm.ptr<1> {tspipe.pdl_input}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @producer warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        tspipe.first_iter {
          // expected-note @+1 {{this tspipe.pdl_wait does not run before the access on every path}}
          tspipe.pdl_wait
        }
        %s = tspipe.producer_acquire @ring
        // expected-error @+1 {{[X20] accesses argument 0 of @X20_guarded_wait}}
        %v = llvm.load %x : !llvm.ptr<1> -> f32
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
  return
}

// -----

// X20: an access outside every task, before any wait can run.
func.func @X20_outside(%x: !llvm.ptr<1> {tspipe.pdl_input}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{[X20] accesses argument 0 of @X20_outside, which the previous grid writes (tspipe.pdl_input), outside every task}}
  %v = llvm.load %x : !llvm.ptr<1> -> i64
  tspipe.kernel warps(1) {
    tspipe.task @only warps(0, 1) {
      tspipe.pdl_wait
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

// R37: the producer of a pipeline fed by the previous grid waits only after
// its first bracket on it.
func.func @R37_late_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) attributes {tspipe.pdl_pipelines = [@ring]} {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @producer warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R37] task '@producer' uses '@ring', which tspipe.pdl_pipelines lists as fed by the previous grid, before waiting for that grid; add tspipe.pdl_wait before the task's first bracket on '@ring'}}
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
      tspipe.pdl_wait
    }
    tspipe.task @consumer warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// X21: tspipe.pdl_pipelines names a pipeline the kernel lacks.
func.func @X21_unknown_pipeline(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{[X21] tspipe.pdl_pipelines names '@nope', which is no pipeline of this kernel}}
  tspipe.kernel warps(1) attributes {tspipe.pdl_pipelines = [@nope]} {
    tspipe.task @only warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

// X21: tspipe.pdl_input marks memory, not an integer.
// expected-error @+1 {{[X21] tspipe.pdl_input marks argument 0 of @X21_not_pointer of type 'index'; it marks memory the previous grid writes, so it belongs on a pointer (or memref) argument}}
func.func @X21_not_pointer(%n: index {tspipe.pdl_input}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.task @only warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
      }
    }
  }
  return
}

// -----

// X21: a PDL point outside a task.
func.func @X21_outside_task() {
  // expected-error @+1 {{[X21] must be inside a tspipe.task}}
  tspipe.pdl_wait
  return
}

// -----

// X22: a period must be positive.
func.func @X22_period(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.task @only warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[X22] period(0) must be positive}}
        tspipe.every period(0) start(0) {
        }
      }
    }
  }
  return
}

// -----

// X22: start lies in [0, period).
func.func @X22_start(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.task @only warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[X22] start(2) must be in [0, 2) for period(2)}}
        tspipe.every period(2) start(2) {
        }
      }
    }
  }
  return
}

// -----

// A guard's condition is an i1.
// expected-note @+1 {{prior use here}}
func.func @cond_type(%n: index, %c: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.task @only warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{use of value '%c' expects different type than prior uses: 'i1' vs 'i32'}}
        tspipe.when_true %c {
        }
      }
    }
  }
  return
}

// -----

// R33 under every: the acquire runs on every iteration, its commit on
// ceil(n / 2) of them.
func.func @R33_every(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @producer warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R33] tspipe.producer_acquire @ring runs on n of the n iterations of the domain loop (every iteration) and no tspipe.producer_commit of this task runs on the same iterations}}
        %s = tspipe.producer_acquire @ring
        tspipe.every period(2) start(0) {
          // expected-error @+1 {{[R33] tspipe.producer_commit @ring runs on ceil((n - 0) / 2) of the n iterations of the domain loop (tspipe.every period(2) start(0)), but the tspipe.producer_acquire it closes runs on n (every iteration)}}
          tspipe.producer_commit @ring
        }
      }
    }
    tspipe.task @consumer warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// R32 under conditions: the wait under when_true, its release under
// when_false.
func.func @R32_when(%n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @producer warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @consumer warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        tspipe.when_true %flag {
          // expected-error @+1 {{[R32] tspipe.consumer_wait @ring runs on an unknown number (0 to n) of the n iterations of the domain loop (tspipe.when_true %arg1)}}
          %s = tspipe.consumer_wait @ring
        }
        tspipe.when_false %flag {
          // expected-error @+1 {{[R32] tspipe.consumer_release @ring runs on an unknown number (0 to n) of the n iterations of the domain loop (tspipe.when_false %arg1), but the tspipe.consumer_wait it closes runs on}}
          tspipe.consumer_release @ring
        }
      }
    }
  }
  return
}
