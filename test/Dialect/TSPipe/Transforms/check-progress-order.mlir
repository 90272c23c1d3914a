// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-to-nvvm

// tspipe-to-nvvm runs the progress checker before the lowering. A kernel
// that cannot be lowered must fail with that reason, not with a deadlock
// the checker would make up: a domain counting down is rejected by the
// verifier (X11) before the checker runs.

gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @negative_step(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cm1 = arith.constant -1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        // expected-error @below {{[X11] step -1 is negative, but the lowered domain loop counts up}}
        tspipe.domain_loop %i = %n to %c0 step %cm1 {
          %s = tspipe.producer_acquire @ring
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
    gpu.return
  }
}

// -----

// A bracket nested in an scf op: the kernel verifier rejects it (X15: the
// lowering cannot carry its cursor), before the checker could report a
// deadlock.
gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @nested(%n: index, %flag: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          scf.if %flag {
            // expected-error @below {{[X15] must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.if')}}
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
    gpu.return
  }
}
