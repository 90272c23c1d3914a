// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X7 when the module is verified: the NVVM targets of the gpu.module that
// holds a kernel (chips of the CUDA 13 toolkit, their PTX ISA versions, the
// pipeline types each chip runs). The valid twin of each case has the same
// name in valid-rules.mlir.

// -----

// An unknown chip (a typo).
gpu.module @X7_unknown_chip [#nvvm.target<chip = "sm_90aa", features = "+ptx80">] {
  gpu.func @X7_unknown_chip() kernel {
    // expected-error @+1 {{[X7] gpu.module '@X7_unknown_chip' targets chip = "sm_90aa", which the CUDA 13 toolkit does not know}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// B24: CUDA 13 renamed sm_101 to sm_110; ptxas 13.0 rejects sm_101a.
gpu.module @X7_sm_101a [#nvvm.target<chip = "sm_101a", features = "+ptx86">] {
  gpu.func @X7_sm_101a() kernel {
    // expected-error @+1 {{[X7] gpu.module '@X7_sm_101a' targets chip = "sm_101a", which the CUDA 13 toolkit does not know}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// A PTX ISA version older than the chip needs.
gpu.module @X7_ptx_too_old [#nvvm.target<chip = "sm_100a", features = "+ptx80">] {
  gpu.func @X7_ptx_too_old() kernel {
    // expected-error @+1 {{[X7] chip "sm_100a" needs PTX ISA 8.6 or newer (at most 9.0), but the target's features are "+ptx80"; use features = "+ptx86"}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// Targets, but none of them NVVM.
gpu.module @X7_no_nvvm_target [#rocdl.target<chip = "gfx90a">] {
  gpu.func @X7_no_nvvm_target() kernel {
    // expected-error @+1 {{[X7] gpu.module '@X7_no_nvvm_target' lists targets but no #nvvm.target}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// tcgen05 pipelines on Hopper.
gpu.module @X7_tcgen05_on_hopper [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @X7_tcgen05_on_hopper() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[X7] a tma_umma pipeline needs tcgen05 as tspipe lowers it, for sm_100a only (sm_103a and sm_110a have tcgen05, but LLVM 22's NVVM dialect takes tcgen05.commit for sm_100a alone), but gpu.module '@X7_tcgen05_on_hopper' targets chip = "sm_90a"}}
      tspipe.pipeline @p config(<tma_umma, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    }
    gpu.return
  }
}

// -----

// X10: the gpu.func becomes a PTX .entry; a name that is no PTX identifier
// used to stop LLVM's NVPTX backend with a fatal error.
gpu.module @X10_entry_name [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @"tile-loader.v2"() kernel {
    // expected-error @+1 {{[X10] the enclosing gpu.func '@"tile-loader.v2"' becomes a PTX .entry, but its name is not a PTX identifier that LLVM can emit (a letter, or _ or $ and one more character, followed by letters, digits, _ or $); rename the function}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X10 holds without targets as well (the chip is chosen later, the name
// is not): a lone underscore is no PTX identifier.
gpu.module @X10_lone_underscore {
  gpu.func @_() kernel {
    // expected-error @+1 {{[X10] the enclosing gpu.func '@"_"' becomes a PTX .entry}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X10: PTX allows a leading %, but LLVM's NVPTX backend cannot print such a
// symbol (it stopped with "Symbol name with unsupported characters").
gpu.module @X10_percent_name [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @"%x"() kernel {
    // expected-error @+1 {{[X10] the enclosing gpu.func '@"%x"' becomes a PTX .entry, but its name is not a PTX identifier that LLVM can emit}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X10: WARP_SZ is a predefined PTX identifier; ptxas rejects it as a name.
gpu.module @X10_reserved_name [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @WARP_SZ() kernel {
    // expected-error @+1 {{[X10] the enclosing gpu.func '@WARP_SZ' becomes a PTX .entry, but 'WARP_SZ' is a predefined PTX identifier, which ptxas rejects as a name; rename the function}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X7: a feature without its '+' (LLVM's subtarget parser asserted on it).
gpu.module @X7_feature_without_plus [#nvvm.target<chip = "sm_90a", features = "ptx80">] {
  gpu.func @X7_feature_without_plus() kernel {
    // expected-error @+1 {{[X7] gpu.module '@X7_feature_without_plus' targets features = "ptx80", but the entry 'ptx80' is not a PTX ISA version; features must be empty or one '+ptxNN' with a version LLVM knows (e.g. "+ptx80" for sm_90a)}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X7: a chip given as a feature, and a garbage entry after a good one.
gpu.module @X7_feature_chip [#nvvm.target<chip = "sm_90a", features = "+ptx80,sm_90a">] {
  gpu.func @X7_feature_chip() kernel {
    // expected-error @+1 {{[X7] gpu.module '@X7_feature_chip' targets features = "+ptx80,sm_90a", but the entry 'sm_90a' is not a PTX ISA version}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

gpu.module @X7_feature_garbage [#nvvm.target<chip = "sm_100a", features = "garbage">] {
  gpu.func @X7_feature_garbage() kernel {
    // expected-error @+1 {{[X7] gpu.module '@X7_feature_garbage' targets features = "garbage", but the entry 'garbage' is not a PTX ISA version; features must be empty or one '+ptxNN' with a version LLVM knows (e.g. "+ptx86" for sm_100a)}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X7: a version in range that PTX never had.
gpu.module @X7_ptx_version_unknown [#nvvm.target<chip = "sm_90a", features = "+ptx89">] {
  gpu.func @X7_ptx_version_unknown() kernel {
    // expected-error @+1 {{[X7] chip "sm_90a" needs PTX ISA 8.0 or newer (at most 9.0), but the target's features are "+ptx89" (PTX ISA 8.9 does not exist); use features = "+ptx80"}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X7: sm_103a has tcgen05, but the lowering cannot emit tcgen05.commit for
// it (LLVM 22's NVVM dialect): rejected when the target is known.
gpu.module @X7_tcgen05_on_sm_103a [#nvvm.target<chip = "sm_103a", features = "+ptx88">] {
  gpu.func @X7_tcgen05_on_sm_103a() kernel {
    tspipe.kernel warps(1) {
      // expected-error @+1 {{[X7] a umma_async pipeline needs tcgen05 as tspipe lowers it, for sm_100a only (sm_103a and sm_110a have tcgen05, but LLVM 22's NVVM dialect takes tcgen05.commit for sm_100a alone), but gpu.module '@X7_tcgen05_on_sm_103a' targets chip = "sm_103a"}}
      tspipe.pipeline @p config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    }
    gpu.return
  }
}

// -----

// X7: LLVM does not trim feature entries; a space before '+' aborted it too.
gpu.module @X7_feature_space [#nvvm.target<chip = "sm_90a", features = " +ptx80">] {
  gpu.func @X7_feature_space() kernel {
    // expected-error @+1 {{[X7] gpu.module '@X7_feature_space' targets features = " +ptx80", but the entry ' +ptx80' is not a PTX ISA version}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X9: without `kernel` the function becomes a PTX .func no launch starts.
gpu.module @X9_not_a_kernel_func [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @helper() {
    // expected-error @+1 {{[X9] the enclosing gpu.func '@helper' is not a kernel, so it would become a PTX .func that no launch starts; mark it: gpu.func @helper(...) kernel}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X9: the lowering's dynamic shared memory symbol is reserved.
gpu.module @X9_reserved_smem_name [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  llvm.mlir.global external @__tspipe_dynamic_smem() {addr_space = 3 : i32} : !llvm.array<0 x i8>
  gpu.func @X9_reserved_smem_name() kernel {
    // expected-error @+1 {{[X9] the gpu.module defines '@__tspipe_dynamic_smem' ('llvm.mlir.global'), a name tspipe reserves for the kernel's dynamic shared memory; rename that symbol}}
    tspipe.kernel warps(1) {
    }
    gpu.return
  }
}

// -----

// X7: the lowered protocol needs mbarrier transaction counts, elect.sync and
// TMA (sm_90 or newer).
gpu.module @m [#nvvm.target<chip = "sm_80", features = "+ptx70">] {
  gpu.func @X7_pre_hopper_target(%n: index) kernel {
    // expected-error @below {{[X7] tspipe kernels need an sm_90 or newer target (mbarrier transaction counts, elect.sync, TMA), but the gpu.module targets chip = "sm_80"; use sm_90a or sm_100a}}
    tspipe.kernel warps(1) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    }
    gpu.return
  }
}

// -----

// X7: registers(n) lowers to setmaxnreg, which only the
// architecture-specific targets have.
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

// X7: clc_fetch_async lowers to clusterlaunchcontrol.try_cancel (sm_100 on).
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @X7_clc_needs_sm100(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
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

// X19: wgmma exists on sm_90a alone; a work step's nvgpu.warpgroup.mma in
// a kernel for the sm_100a family would only fail when lowered (NVVM's own
// wgmma ops are rejected by the NVVM dialect's target check). Valid twin:
// valid-rules.mlir, X19_wgmma_on_blackwell.
gpu.module @X19_wgmma_on_blackwell [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  gpu.func @X19_wgmma_on_blackwell(%da: !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>, %db: !nvgpu.warpgroup.descriptor<tensor = memref<16x128xf16, 3>>, %acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) {
      tspipe.task @mma warps(0, 4) {
        tspipe.domain_loop %i = %c0 to %c1 step %c1 {
          // expected-error @+1 {{'nvgpu.warpgroup.mma' op [X19] issues a warpgroup MMA (wgmma), which only sm_90a has, but gpu.module '@X19_wgmma_on_blackwell' targets chip = "sm_100a"; target sm_90a, or use tcgen05.mma on the sm_100a family}}
          %d = nvgpu.warpgroup.mma %da, %db, %acc : !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<16x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
        }
      }
    }
    gpu.return
  }
}
