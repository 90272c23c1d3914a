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
      // expected-error @+1 {{[X7] a tma_umma pipeline needs tcgen05 (sm_100a, sm_103a or sm_110a), but gpu.module '@X7_tcgen05_on_hopper' targets chip = "sm_90a"}}
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
    // expected-error @+1 {{[X10] the enclosing gpu.func '@"tile-loader.v2"' becomes a PTX .entry, but its name is not a PTX identifier (a letter, or _ $ % and one more character, followed by letters, digits, _ or $); rename the function}}
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
