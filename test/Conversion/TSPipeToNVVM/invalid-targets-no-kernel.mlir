// RUN: tspipe-opt %s -split-input-file --tspipe-to-nvvm -verify-diagnostics
//
// X7 holds for every gpu.module the pass sees, with or without a tspipe
// kernel: LLVM's NVPTX backend (gpu-module-to-binary) aborts on a feature
// without a leading '+' or '-' instead of reporting it.

// expected-error @+1 {{'gpu.module' op [X7] gpu.module '@plain' targets features = "ptx80", but the entry 'ptx80' is not a PTX ISA version}}
gpu.module @plain [#nvvm.target<chip = "sm_90a", features = "ptx80">] {
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
