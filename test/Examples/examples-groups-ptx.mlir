// RUN: tspipe-opt %S/../../examples/merge_add.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/extract_ptx.py | FileCheck %s
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/merge_add.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// The merge-group example lowers to PTX (and, where ptxas is installed,
// assembles for sm_90a). Its barrier storage, 4 stages of 8 bytes each:
// F_xs at +0, F_ws at +32, E_shared at +64 (12 barriers). The shared empty
// array is initialized once, with the 64 consumer threads; each full array
// with its producer's 32. Addresses are offsets from the base B.

// CHECK: .entry merge_add(
// The shared-memory base B, once at kernel entry, broadcast from lane 0.
// CHECK:      mov.b32 [[SYM:%r[0-9]+]], __tspipe_dynamic_smem;
// CHECK-NEXT: shfl.sync.idx.b32 [[B:%r[0-9]+]], [[SYM]], 0, 31, -1;
// CHECK-NEXT: add.s32 [[E0:%r[0-9]+]], [[B]], 64;
// CHECK:      add.s32 [[F1:%r[0-9]+]], [[B]], 32;
// CHECK-NEXT: mov.b32 [[PG:%r[0-9]+]], 32;
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]], [[PG]];
// CHECK-NEXT: mov.b32 [[CG:%r[0-9]+]], 64;
// CHECK-NEXT: mbarrier.init.shared.b64 [[[E0]]], [[CG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]+8], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]+72], [[CG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]+16], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]+80], [[CG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]+24], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]+88], [[CG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[F1]]], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]+40], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]+48], [[PG]];
// CHECK-NEXT: mbarrier.init.shared.b64 [[[B]]+56], [[PG]];
// CHECK-NEXT: fence.mbarrier_init.release.cluster;

// BIN: gpu.binary @merge_add
