// RUN: tspipe-opt %S/../../examples/persistent_merge.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/extract_ptx.py | FileCheck %s
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/persistent_merge.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: tspipe-opt %S/../../examples/persistent_clc.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/extract_ptx.py | FileCheck %s --check-prefix=CLC
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/persistent_clc.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// The persistent examples lower to PTX and (where ptxas is installed)
// assemble: persistent_merge for sm_90a, persistent_clc for sm_100a.

// Each task of the static queue starts at its CTA's linear id, tests it
// against the tile count (unsigned), and steps by the CTAs launched.
// CHECK: .entry persistent_merge(
// CHECK:      mov.u32 {{%r[0-9]+}}, %ctaid.x;
// CHECK:      mov.u32 {{%r[0-9]+}}, %nctaid.x;
// CHECK:      setp.ge.u32 {{%p[0-9]+}}, [[T:%r[0-9]+]], [[N:%r[0-9]+]];
// CHECK:      mbarrier.try_wait.parity.shared.b64
// CHECK:      setp.lt.u32 {{%p[0-9]+}}, [[T]], [[N]];
// CHECK:      ret;

// CLC: .entry persistent_clc(
// CLC: .reqnctapercluster 2, 1, 1
// CLC: mov.u32 {{%r[0-9]+}}, %clusterid.x;
// CLC: clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128
// CLC: clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// CLC: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// BIN: gpu.binary
