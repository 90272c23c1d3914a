// RUN: tspipe-opt %s --tspipe-allocate-smem | FileCheck %s

// tspipe-allocate-smem lays out each kernel's dynamic shared memory: first the
// barrier rings of all pipelines in declaration order (2 * num_stages
// mbarriers of 8 bytes each, so 16 bytes per stage, packed at 8-byte
// granularity), then the data buffers, each starting on a 128-byte boundary.
// The kernel's smem_bytes is the end of the last buffer.

gpu.module @allocate_smem {

// Barriers: @a 4 stages -> [0, 64), @b 3 stages -> [64, 112), @c 2 stages ->
// [112, 144). Buffers: 144 rounds up to 256 for @a (16384 bytes, up to 16640,
// which is already 128-aligned) and @b starts at 16640 (3072 bytes, up to
// 19712). @c owns no buffer and gets no buffer_offset.
// CHECK-LABEL: gpu.func @barriers_then_buffers
// CHECK:         tspipe.kernel warps(4) attributes {smem_bytes = 19712 : i64} {
// CHECK-NEXT:      tspipe.pipeline @a config({{.*}}) smem_bytes(16384) {barrier_offset = 0 : i64, buffer_offset = 256 : i64}
// CHECK-NEXT:      tspipe.pipeline @b config({{.*}}) smem_bytes(3072) {barrier_offset = 64 : i64, buffer_offset = 16640 : i64}
// CHECK-NEXT:      tspipe.pipeline @c config({{.*}}) {barrier_offset = 112 : i64}
// CHECK-NEXT:    }
gpu.func @barriers_then_buffers() kernel {
  tspipe.kernel warps(4) {
    tspipe.pipeline @a config(<tma_async, num_stages = 4, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 3>>) smem_bytes(16384)
    tspipe.pipeline @b config(<async_async, num_stages = 3, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(3072)
    tspipe.pipeline @c config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
  }
  gpu.return
}

// A single-stage ring takes 16 bytes, so the next ring starts at 16 (8-byte
// granularity, no padding). Buffer sizes that are not multiples of 128 push
// the next buffer to the following 128-byte boundary: @x [128, 176) -> @y at
// 256 [256, 304) -> @z at 384, ending at 384 + 32 = 416.
// CHECK-LABEL: gpu.func @buffer_alignment
// CHECK:         tspipe.kernel warps(1) attributes {smem_bytes = 416 : i64} {
// CHECK-NEXT:      tspipe.pipeline @x config({{.*}}) smem_bytes(48) {barrier_offset = 0 : i64, buffer_offset = 128 : i64}
// CHECK-NEXT:      tspipe.pipeline @y config({{.*}}) smem_bytes(48) {barrier_offset = 16 : i64, buffer_offset = 256 : i64}
// CHECK-NEXT:      tspipe.pipeline @z config({{.*}}) smem_bytes(32) {barrier_offset = 64 : i64, buffer_offset = 384 : i64}
gpu.func @buffer_alignment() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @x config(<async_async, num_stages = 1, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(48)
    tspipe.pipeline @y config(<async_async, num_stages = 3, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(48)
    tspipe.pipeline @z config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(32)
  }
  gpu.return
}

// Offsets written by hand (or by an earlier run) are recomputed, and a stale
// buffer_offset on a pipeline without a buffer is removed. Tasks do not take
// part in the layout.
// CHECK-LABEL: gpu.func @recomputes_stale_offsets
// CHECK:         tspipe.kernel warps(2) attributes {smem_bytes = 32 : i64} {
// CHECK-NEXT:      tspipe.pipeline @p config({{.*}}) {barrier_offset = 0 : i64}
// CHECK-NEXT:      tspipe.task @t
gpu.func @recomputes_stale_offsets() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) attributes {smem_bytes = 999 : i64} {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 64>, consumer_group = <thread, 64>>) {barrier_offset = 999 : i64, buffer_offset = 999 : i64}
    tspipe.task @t warps(0, 2) produces [@p] consumes [@p] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
        %t = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  gpu.return
}

// A kernel without pipelines needs no shared memory.
// CHECK-LABEL: gpu.func @no_pipelines
// CHECK:         tspipe.kernel warps(1) attributes {smem_bytes = 0 : i64} {
gpu.func @no_pipelines() kernel {
  tspipe.kernel warps(1) {
  }
  gpu.return
}

// Each kernel is laid out on its own: both start at offset 0.
// CHECK-LABEL: gpu.func @two_kernels_first
// CHECK:         tspipe.kernel warps(1) attributes {smem_bytes = 256 : i64} {
// CHECK-NEXT:      tspipe.pipeline @first config({{.*}}) smem_bytes(128) {barrier_offset = 0 : i64, buffer_offset = 128 : i64}
// CHECK-LABEL: gpu.func @two_kernels_second
// CHECK:         tspipe.kernel warps(1) attributes {smem_bytes = 64 : i64} {
// CHECK-NEXT:      tspipe.pipeline @second config({{.*}}) {barrier_offset = 0 : i64}
gpu.func @two_kernels_first() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @first config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(128)
  }
  gpu.return
}
gpu.func @two_kernels_second() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @second config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
  }
  gpu.return
}

// The default capacity is the 232448 bytes (227 KiB) an sm_90 / sm_100 CTA
// may use; this kernel fills it exactly: 32 bytes of barriers, padding to 128,
// then a 232320-byte buffer.
// CHECK-LABEL: gpu.func @default_capacity_exact_fit
// CHECK:         tspipe.kernel warps(1) attributes {smem_bytes = 232448 : i64} {
gpu.func @default_capacity_exact_fit() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(232320)
  }
  gpu.return
}

}
