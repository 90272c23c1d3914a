// The TmaAsync multicast examples lower to PTX for a cluster: the entry
// requires its cluster shape, barriers are initialized cluster-wide, the
// producer's copies multicast, and consumer releases reach peer CTAs
// through mapa and the shared::cluster arrive; ptxas accepts them. They
// also round-trip through the printer.
//
// RUN: tspipe-opt %S/../../examples/tma_mcast_2cta_n.mlir > %t.tma_mcast_2cta_n.mlir
// RUN: tspipe-opt %t.tma_mcast_2cta_n.mlir | diff %t.tma_mcast_2cta_n.mlir -
// RUN: tspipe-opt %S/../../examples/tma_mcast_2cta_m.mlir > %t.tma_mcast_2cta_m.mlir
// RUN: tspipe-opt %t.tma_mcast_2cta_m.mlir | diff %t.tma_mcast_2cta_m.mlir -
// RUN: tspipe-opt %S/../../examples/tma_mcast_4cta_mn.mlir > %t.tma_mcast_4cta_mn.mlir
// RUN: tspipe-opt %t.tma_mcast_4cta_mn.mlir | diff %t.tma_mcast_4cta_mn.mlir -
// RUN: tspipe-opt %S/../../examples/tma_mcast_4cta_n.mlir > %t.tma_mcast_4cta_n.mlir
// RUN: tspipe-opt %t.tma_mcast_4cta_n.mlir | diff %t.tma_mcast_4cta_n.mlir -
// RUN: tspipe-opt %S/../../examples/tma_mcast_2cta_n.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefixes=CHECK,T2
// RUN: tspipe-opt %S/../../examples/tma_mcast_2cta_m.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefixes=CHECK,T2
// RUN: tspipe-opt %S/../../examples/tma_mcast_4cta_mn.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefixes=CHECK,T4
// RUN: tspipe-opt %S/../../examples/tma_mcast_4cta_n.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefixes=CHECK,T4
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/tma_mcast_2cta_n.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/tma_mcast_2cta_m.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/tma_mcast_4cta_mn.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/tma_mcast_4cta_n.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// CHECK: gpu.binary @tma_mcast_
// CHECK-SAME: .target sm_90a
// CHECK-SAME: .entry tma_mcast_
// T2-SAME: .explicitcluster
// T2-SAME: .reqnctapercluster 2, 1, 1
// T4-SAME: .explicitcluster
// T4-SAME: .reqnctapercluster 4, 1, 1
// CHECK-SAME: mbarrier.init.shared.b64
// CHECK-SAME: fence.mbarrier_init.release.cluster;
// CHECK-SAME: barrier.cluster.arrive.relaxed.aligned;
// CHECK-SAME: barrier.cluster.wait.aligned;
// In the order LLVM lays the task blocks out: the consumer's release, then
// the producer's arm and multicast copy.
// CHECK-SAME: bar.warp.sync
// CHECK-SAME: mapa.shared::cluster
// CHECK-SAME: mbarrier.arrive.release.cluster.shared::cluster.b64
// CHECK-SAME: mbarrier.arrive.expect_tx.shared.b64
// CHECK-SAME: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster

// BIN: gpu.binary @tma_mcast_
