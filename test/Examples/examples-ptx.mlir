// The shipped examples lower to PTX with the expected barrier instructions,
// and ptxas accepts them (format=bin runs ptxas).
//
// RUN: tspipe-opt %S/../../examples/tma_stream.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=STREAM
// RUN: tspipe-opt %S/../../examples/tma_stream_all_threads.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=ALL
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/tma_stream_all_threads.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: tspipe-opt %S/../../examples/async_load.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=LOAD
// RUN: tspipe-opt %S/../../examples/async_thread.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=THREAD
// RUN: tspipe-opt %S/../../examples/tma_stream_interleaved.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=INTERLEAVED
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/async_thread.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/tma_stream_interleaved.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/tma_stream.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/async_load.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// tcgen05 GEMMs (sm_100a; their MMAs, descriptors and TMEM loads:
// blackwell-gemm-ptx.mlir).
// RUN: tspipe-opt %S/../../examples/umma_gemm.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=GEMM
// RUN: tspipe-opt %S/../../examples/umma_gemm_2cta.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=GEMM2
// RUN: tspipe-opt %S/../../examples/async_umma_gemm.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=AGEMM
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/umma_gemm.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN100 %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/umma_gemm_2cta.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN100 %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/async_umma_gemm.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN100 %}

// The -SAME chains follow the order LLVM lays the task blocks out in.
// GEMM: gpu.binary @umma_gemm
// GEMM-SAME: .target sm_100a
// GEMM-SAME: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// GEMM-SAME: mbarrier.arrive.expect_tx.shared.b64
// GEMM-SAME: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// GEMM-SAME: mbarrier.arrive.shared.b64
// GEMM-SAME: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64

// GEMM2: gpu.binary @umma_gemm_2cta
// GEMM2-SAME: barrier.cluster.arrive.relaxed.aligned
// GEMM2-SAME: mbarrier.arrive.expect_tx.shared.b64
// GEMM2-SAME: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2
// GEMM2-SAME: mapa.shared::cluster
// GEMM2-SAME: mbarrier.arrive.release.cluster.shared::cluster.b64
// GEMM2-SAME: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64

// AGEMM: gpu.binary @async_umma_gemm
// AGEMM-SAME: mbarrier.arrive.shared.b64
// AGEMM-SAME: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64

// BIN100: gpu.binary
// BIN100-SAME: #gpu.object<#nvvm.target<chip = "sm_100a"

// STREAM: gpu.binary @tma_stream
// STREAM-SAME: .target sm_90a
// STREAM-SAME: .extern .shared .align 1024 .b8 __tspipe_dynamic_smem[];
// STREAM-SAME: mbarrier.init.shared.b64
// STREAM-SAME: fence.mbarrier_init.release.cluster;
// STREAM-SAME: bar.sync
// In the order LLVM lays the task blocks out: the consumer's wait and
// release, then the producer's acquire, copy and drain.
// STREAM-SAME: mbarrier.try_wait.parity.shared.b64
// STREAM-SAME: bar.warp.sync
// STREAM-SAME: mbarrier.arrive.shared.b64
// STREAM-SAME: mbarrier.try_wait.parity.shared.b64
// STREAM-SAME: elect.sync
// STREAM-SAME: mbarrier.arrive.expect_tx.shared.b64
// STREAM-SAME: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes

// LOAD: gpu.binary @async_load
// LOAD-SAME: mbarrier.try_wait.parity.shared.b64
// LOAD-SAME: cp.async.cg.shared.global
// LOAD-SAME: cp.async.mbarrier.arrive.noinc.shared.b64
// LOAD-SAME: mbarrier.arrive.shared.b64

// AsyncThread producer: plain stores, then a release arrive on the full
// barrier; no cp.async.
// THREAD: gpu.binary @async_thread
// THREAD-NOT: cp.async
// THREAD-SAME: st.shared.v4.b32
// THREAD-SAME: mbarrier.arrive.shared.b64

// Interleaved producers: each producer warp arms the stages of its lane.
// INTERLEAVED: gpu.binary @tma_stream_interleaved
// INTERLEAVED-SAME: elect.sync
// INTERLEAVED-SAME: mbarrier.arrive.expect_tx.shared.b64
// INTERLEAVED-SAME: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes

// BIN: gpu.binary
// BIN-SAME: #gpu.object<#nvvm.target<chip = "sm_90a"

// All-thread release: every consumer thread arrives, no warp sync.
// ALL: gpu.binary @tma_stream_all_threads
// ALL-NOT: bar.warp.sync
// ALL-SAME: mbarrier.arrive.shared.b64
