// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --split-input-file --verify-diagnostics

gpu.module @m {
  gpu.func @tcgen05_without_target(%n: index) kernel {
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

gpu.module @m {
  gpu.func @X4_all_thread_release_in_cluster(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      // The kernel verifier rejects the all-thread release on a cluster before
      // the lowering sees it (the lowering checks it again on release(all_threads)).
      // expected-error @below {{[X4] releases with every consumer thread (consumer_group = 32 = 32 x 1 warps) on a cluster of 2 CTAs, but those arrives are local and never reach the multicast peers' empty barriers; use the lane release (consumer_group = <thread, 2>)}}
      tspipe.pipeline @ring config(<tma_async, num_stages = 2, num_bytes = 1024,
          producer_group = <thread, 1>, consumer_group = <thread, 32>,
          cta_layout_vmnk = [1, 2, 1, 1]>)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @use warps(1, 1) consumes [@ring] {
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

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @X7_clc_needs_sm100(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      // The kernel verifier checks the target (X7) before the lowering does.
      // expected-error @below {{[X7] a clc_fetch_async pipeline needs cluster launch control (sm_100 or newer), but gpu.module '@m' targets chip = "sm_90a"; target a chip that has it}}
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 1, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 64>,
          cta_layout_vmnk = [1, 2, 1, 1], producer_signaling = cta_leader>)
          smem_bytes(16)
      tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.producer_acquire @clc
          tspipe.producer_commit @clc
          %s = tspipe.consumer_wait @clc
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @bracket_in_work_region(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          scf.if %true {
            // expected-error @below {{must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.if')}}
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

gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx70">] {
  gpu.func @X7_pre_hopper_target(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @below {{[X7] tspipe kernels need an sm_90 or newer target (mbarrier transaction counts, elect.sync, TMA), but the gpu.module targets chip = "sm_80"; use sm_90a or sm_100a}}
    tspipe.kernel warps(1) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    }
    gpu.return
  }
}

// -----

func.func @kernel_outside_gpu_module(%n: index) {
  // expected-error @below {{[X9] must be nested in a gpu.func of a gpu.module to be lowered}}
  tspipe.kernel warps(1) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
  }
  return
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
  gpu.func @X7_setmaxnreg_needs_arch_specific(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      // expected-error @below {{[X7] registers(232) lowers to setmaxnreg, which needs an architecture-specific target, but the gpu.module targets chip = "sm_90"; use "sm_90a"}}
      tspipe.task @heavy warps(0, 4) registers(232) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
    }
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @tcgen05_on_sm90(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      // expected-error @below {{[X7] a tma_umma pipeline needs tcgen05 as tspipe lowers it, for sm_100a only (sm_103a and sm_110a have tcgen05, but LLVM 22's NVVM dialect takes tcgen05.commit for sm_100a alone), but gpu.module '@m' targets chip = "sm_90a"; target a chip that has it}}
      tspipe.pipeline @ab config(<tma_umma, num_stages = 2, num_bytes = 4096,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
      tspipe.task @load warps(0, 1) produces [@ab] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ab
          tspipe.producer_commit @ab
        }
      }
      tspipe.task @mma warps(1, 1) consumes [@ab] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ab
          tspipe.consumer_release @ab
        }
      }
    }
    gpu.return
  }
}
