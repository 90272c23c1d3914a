// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s
//
// A gpu.module without a tspipe kernel and a well-formed target passes the
// X7 check of tspipe-to-nvvm and lowers unchanged.

// CHECK: gpu.binary @plain
// CHECK-SAME: .target sm_90a
gpu.module @plain [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @k() kernel {
    gpu.return
  }
}
