// RUN: tspipe-opt %S/../../examples/merge_add.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/extract_ptx.py | FileCheck %s
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/merge_add.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// The merge-group example lowers to PTX (and, where ptxas is installed,
// assembles for sm_90a). Its barrier storage, 4 stages of 8 bytes each:
// F_xs at +0, F_ws at +32, E_shared at +64 (12 barriers). The shared empty
// array is initialized once, with the 64 consumer threads; each full array
// with its producer's 32.

// CHECK: .entry merge_add(
// CHECK:      mov.b32 [[PG:%r[0-9]+]], 32;
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem], [[PG]];
// CHECK-NEXT: mov.b32 [[CG:%r[0-9]+]], 64;
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+64], [[CG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+8], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+72], [[CG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+16], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+80], [[CG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+24], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+88], [[CG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+32], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+40], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+48], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__tspipe_dynamic_smem+56], [[PG]];
// CHECK-NEXT: fence.mbarrier_init.release.cluster;

// BIN: gpu.binary @merge_add
