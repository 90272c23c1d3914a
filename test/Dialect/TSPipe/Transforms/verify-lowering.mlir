// RUN: tspipe-opt %s -split-input-file --tspipe-verify-lowering -verify-diagnostics
//
// tspipe-verify-lowering: what convert-tspipe-to-nvvm needs beyond the op
// verifiers, checked first by the tspipe-to-nvvm pipeline. Each invalid case
// is followed by its valid twin.

// X7 holds for every gpu.module, with or without a tspipe kernel: LLVM's
// NVPTX backend (gpu-module-to-binary) aborts on a feature without a
// leading '+' or '-' instead of reporting it.
// expected-error @+1 {{'gpu.module' op [X7] gpu.module '@plain' targets features = "ptx80", but the entry 'ptx80' is not a PTX ISA version}}
gpu.module @plain [#nvvm.target<chip = "sm_90a", features = "ptx80">] {
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

gpu.module @plain_ok [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

// expected-error @+1 {{'gpu.module' op [X7] gpu.module '@chip' targets chip = "sm_90aa", which the CUDA 13 toolkit does not know}}
gpu.module @chip [#nvvm.target<chip = "sm_90aa">] {
  gpu.func @k() kernel {
    gpu.return
  }
}

// -----

// X7: a tcgen05 pipeline lowers to tcgen05.commit, which needs an NVVM
// target to name the chip (the kernel verifier checks the chip once the
// gpu.module has one).
gpu.module @m {
  gpu.func @X7_tcgen05_without_target(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      // expected-error @below {{[X7] umma_umma pipelines lower to tcgen05.commit, which needs an sm_100a-family target, but the gpu.module has no NVVM target; add #nvvm.target<chip = "sm_100a"> to its targets}}
      tspipe.pipeline @acc config(<umma_umma, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
      tspipe.task @mma warps(0, 1) produces [@acc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @acc
          tspipe.producer_commit @acc
        }
      }
      tspipe.task @mma2 warps(1, 1) consumes [@acc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @acc
          tspipe.consumer_release @acc
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @X7_tcgen05_with_target(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @acc config(<umma_umma, num_stages = 2,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
      tspipe.task @mma warps(0, 1) produces [@acc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @acc
          tspipe.producer_commit @acc
        }
      }
      tspipe.task @mma2 warps(1, 1) consumes [@acc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @acc
          tspipe.consumer_release @acc
        }
      }
    }
    gpu.return
  }
}

// -----

// X9: only a kernel in a gpu.func of a gpu.module becomes a PTX entry.
func.func @X9_kernel_outside_gpu_module(%n: index) {
  // expected-error @below {{[X9] must be nested in a gpu.func of a gpu.module to be lowered}}
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
  }
  return
}

// -----

gpu.module @m {
  gpu.func @X9_kernel_in_gpu_module(%n: index) kernel {
    tspipe.kernel warps(1) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    }
    gpu.return
  }
}

// -----

// X12: a bracket inside another op's region (here an scf.if) would move a
// cursor the lowered loop does not carry.
gpu.module @m {
  gpu.func @X12_bracket_in_work_region(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          scf.if %true {
            // expected-error @below {{[X12] must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.if')}}
            %s = tspipe.producer_acquire @ring
          }
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

gpu.module @m {
  gpu.func @X12_bracket_in_guard(%n: index) kernel {
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
          %s = tspipe.consumer_wait @ring
          tspipe.last_iter {
            %b = tspipe.stage_index %s
          }
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
