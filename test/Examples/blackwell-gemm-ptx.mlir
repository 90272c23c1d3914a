// The sm_100a GEMM examples issue real tcgen05 MMAs: the PTX allocates
// tensor memory, builds the instruction descriptor and the shared-memory
// matrix descriptors of docs/blackwell-gemm.md, issues tcgen05.mma of the
// example's shape and CTA group, reads the accumulator back with tcgen05.ld
// and frees the columns; ptxas assembles every one.
//
// RUN: tspipe-opt %S/../../examples/umma_gemm.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/extract_ptx.py | FileCheck %s --check-prefix=G1
// RUN: tspipe-opt %S/../../examples/umma_gemm_2cta.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/extract_ptx.py | FileCheck %s --check-prefix=G2
// RUN: tspipe-opt %S/../../examples/async_umma_gemm.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/extract_ptx.py | FileCheck %s --check-prefix=GA
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/umma_gemm.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/umma_gemm_2cta.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ tspipe-opt %S/../../examples/async_umma_gemm.mlir --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// Descriptor constants as the PTX prints them (signed decimal):
//   instruction descriptor, kind::f16, D f32, A/B bf16, K-major:
//     128 x 128: 0x08200490 = 136316048   256 x 256: 0x10400490 = 272630928
//   shared-memory descriptor without its start address (bits 0-13):
//     128-byte swizzle, SBO 1024: 0x4000404000010000 = 4611756662049538048
//     64-byte swizzle, SBO 512:   0x8000402000010000 = -9223301530671579136
//   the K steps of 32 bytes add 2, 4, 6 to the start address field.

// ---- umma_gemm: one CTA, TMA-fed, 128 x 128 x 16 MMAs -------------------
// G1-LABEL: .visible .entry umma_gemm(
// G1: .shared .align 16 .u32 umma_gemm_tmem_base;
// G1: mov.b32 [[COLS:%r[0-9]+]], 128;
// G1-NEXT: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [umma_gemm_tmem_base], [[COLS]];
// G1-NEXT: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// G1: ld.shared.b32 [[TMEM:%r[0-9]+]], [umma_gemm_tmem_base];
// The MMA warp: the start address field is (1024-aligned address) >> 4,
// masked to 14 bits; then the fixed fields.
// G1: tcgen05.fence::after_thread_sync;
// G1: and.b32 [[AENC:%r[0-9]+]], {{%r[0-9]+}}, 16320;
// G1: cvt.u64.u32 [[ALO:%rd[0-9]+]], [[AENC]];
// G1-NEXT: or.b64 [[DA0:%rd[0-9]+]], [[ALO]], 4611756662049538048;
// G1-NEXT: cvt.u64.u32 [[BLO:%rd[0-9]+]], {{%r[0-9]+}};
// G1-NEXT: or.b64 [[DB0:%rd[0-9]+]], [[BLO]], 4611756662049538048;
// G1-NEXT: mov.b32 [[IDESC:%r[0-9]+]], 136316048;
// G1-NEXT: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [[[TMEM]]], [[DA0]], [[DB0]], [[IDESC]], {{%p[0-9]+}};
// G1-NEXT: or.b64 [[DA1:%rd[0-9]+]], [[ALO]], 4611756662049538050;
// G1-NEXT: or.b64 [[DB1:%rd[0-9]+]], [[BLO]], 4611756662049538050;
// G1: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [[[TMEM]]], [[DA1]], [[DB1]], [[IDESC]], [[ACC:%p[0-9]+]];
// G1: or.b64 {{%rd[0-9]+}}, [[ALO]], 4611756662049538052;
// G1: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [[[TMEM]]], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[IDESC]], [[ACC]];
// G1: or.b64 {{%rd[0-9]+}}, [[ALO]], 4611756662049538054;
// G1: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard [[[TMEM]]], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[IDESC]], [[ACC]];
// G1-NOT: tcgen05.mma
// The release: the same elected lane commits the MMAs to the empty barrier.
// G1: elect.sync
// G1: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// The producer: two 2-D tensor copies per stage.
// G1: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// G1-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// The epilogue: 4 loads of 32 columns, each waited for, then stored.
// G1: tcgen05.ld.sync.aligned.32x32b.x32.b32
// G1-NEXT: tcgen05.wait::ld.sync.aligned;
// G1-NEXT: st.global.v4.b32
// G1-COUNT-3: tcgen05.ld.sync.aligned.32x32b.x32.b32
// G1-NOT: tcgen05.ld
// G1: tcgen05.dealloc.cta_group::1.sync.aligned.b32 [[TMEM]], {{%r[0-9]+}};

// ---- umma_gemm_2cta: CTA pairs, cta_group::2, 256 x 256 x 16 MMAs -------
// G2-LABEL: .visible .entry umma_gemm_2cta(
// G2: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [umma_gemm_2cta_tmem_base],
// G2-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// G2: ld.shared.b32 [[TMEM:%r[0-9]+]], [umma_gemm_2cta_tmem_base];
// G2: or.b64 [[DA0:%rd[0-9]+]], [[ALO:%rd[0-9]+]], -9223301530671579136;
// G2: or.b64 [[DB0:%rd[0-9]+]], [[BLO:%rd[0-9]+]], -9223301530671579136;
// G2-NEXT: mov.b32 [[IDESC:%r[0-9]+]], 272630928;
// G2-NEXT: tcgen05.mma.cta_group::2.kind::f16.collector::a::discard [[[TMEM]]], [[DA0]], [[DB0]], [[IDESC]], {{%p[0-9]+}};
// G2-NEXT: or.b64 [[DA1:%rd[0-9]+]], [[ALO]], -9223301530671579134;
// G2-NEXT: or.b64 [[DB1:%rd[0-9]+]], [[BLO]], -9223301530671579134;
// G2: tcgen05.mma.cta_group::2.kind::f16.collector::a::discard [[[TMEM]]], [[DA1]], [[DB1]], [[IDESC]], {{%p[0-9]+}};
// G2-NOT: tcgen05.mma
// G2: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// G2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2
// G2-NEXT: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2
// G2-COUNT-8: tcgen05.ld.sync.aligned.32x32b.x32.b32
// G2-NOT: tcgen05.ld
// The pair frees its columns after a cluster barrier.
// G2: barrier.cluster.arrive.aligned;
// G2-NEXT: barrier.cluster.wait.aligned;
// G2: tcgen05.dealloc.cta_group::2.sync.aligned.b32 [[TMEM]], {{%r[0-9]+}};

// ---- async_umma_gemm: thread-filled swizzled stages ---------------------
// GA-LABEL: .visible .entry async_umma_gemm(
// GA: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [async_umma_gemm_tmem_base],
// The producer threads store the swizzled chunks, then fence them for the
// MMA's async-proxy reads before the commit arrive.
// GA: st.shared.v2.b64
// GA: fence.proxy.async.shared::cta;
// GA: mbarrier.arrive.shared.b64
// GA: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 4611756662049538048;
// GA: mov.b32 [[IDESC:%r[0-9]+]], 136316048;
// GA-NEXT: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard
// GA-COUNT-3: tcgen05.mma.cta_group::1.kind::f16.collector::a::discard {{.*}}, [[IDESC]],
// GA-NOT: tcgen05.mma
// GA: tcgen05.commit.cta_group::1
// GA-COUNT-4: tcgen05.ld.sync.aligned.32x32b.x32.b32
// GA: tcgen05.dealloc.cta_group::1.sync.aligned.b32

// BIN: gpu.binary
// BIN-SAME: #gpu.object<#nvvm.target<chip = "sm_100a"
