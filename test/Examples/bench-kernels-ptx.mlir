// The benchmark kernels of bench/kernels/ (written by bench/kernels/gen.py,
// run by bench/gpu_bench.py) verify and lower to PTX: the ping-pong rings
// arrive and wait on their own barriers, the TmaAsync token rings arm with
// arrive.expect_tx and complete with a bulk copy, the cluster one multicasts
// and releases through mapa and the shared::cluster arrive, and the
// streaming variants carry their stage counts. The files are gen.py's
// output.
//
// RUN: %python %S/../../bench/kernels/gen.py --check
// RUN: tspipe-opt %S/../../bench/kernels/pingpong_s1.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=PP
// RUN: tspipe-opt %S/../../bench/kernels/pingpong_s4.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=PP
// RUN: tspipe-opt %S/../../bench/kernels/tma_elect_s1.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=TMA
// RUN: tspipe-opt %S/../../bench/kernels/tma_mcast_elect_c2.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=MC
// RUN: tspipe-opt %S/../../bench/kernels/tma_stream_s8_t16.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=TS
// RUN: tspipe-opt %S/../../bench/kernels/async_load_s2_t4.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=AL
// RUN: %if ptxas %{ tspipe-opt %S/../../bench/kernels/tma_mcast_elect_c2.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// PP: gpu.binary @pingpong_s
// PP-SAME: .entry pingpong_s
// PP-SAME: mbarrier.try_wait.parity.shared.b64
// PP-SAME: mbarrier.arrive.shared.b64

// TMA: gpu.binary @tma_elect_s1
// TMA-SAME: mbarrier.arrive.expect_tx.shared.b64
// TMA-SAME: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes

// MC: gpu.binary @tma_mcast_elect_c2
// MC-SAME: .reqnctapercluster 2, 1, 1
// MC-SAME: mapa.shared::cluster
// MC-SAME: mbarrier.arrive.release.cluster.shared::cluster.b64
// MC-SAME: mbarrier.arrive.expect_tx.shared.b64
// MC-SAME: multicast::cluster

// TS: gpu.binary @tma_stream_s8_t16
// The stage index wraps after 8 stages of 16384 bytes.
// TS-SAME: mbarrier.arrive.expect_tx.shared.b64
// TS-SAME: mov.b32 {{.*}}, 16384;
// TS-SAME: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// TS-SAME: setp.gt.s32 {{.*}}, 7;

// AL: gpu.binary @async_load_s2_t4
// AL-SAME: cp.async.cg.shared.global
// AL-SAME: cp.async.mbarrier.arrive.noinc.shared.b64

// BIN: gpu.binary @tma_mcast_elect_c2
