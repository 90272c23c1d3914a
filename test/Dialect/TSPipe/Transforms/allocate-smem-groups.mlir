// RUN: tspipe-opt %s --tspipe-allocate-smem | FileCheck %s

// tspipe-allocate-smem lays out a pipeline group's barriers as one block of
// (N + 1) * num_stages mbarriers (8 bytes each) at the group's
// barrier_offset, before the other pipelines' rings: merge
// [F_0][F_1]...[E_shared], fork [F_shared][E_0][E_1]... (docs/Protocols.md,
// Pipeline groups). Each member gets barrier_offset (its full array) and
// empty_barrier_offset (its empty array).

gpu.module @allocate_smem_groups {

// Merge of two 4-stage members: F_a [0, 32), F_b [32, 64), E_shared
// [64, 96). The ungrouped @c follows at 96 ([96, 160)); the buffers start at
// 256.
// CHECK-LABEL: gpu.func @merge_layout
// CHECK:         tspipe.kernel warps(3) attributes {smem_bytes = 4352 : i64} {
// CHECK-NEXT:      tspipe.pipeline @a config({{.*}}) smem_bytes(2048) {barrier_offset = 0 : i64, buffer_offset = 256 : i64, empty_barrier_offset = 64 : i64}
// CHECK-NEXT:      tspipe.pipeline @b config({{.*}}) smem_bytes(2048) {barrier_offset = 32 : i64, buffer_offset = 2304 : i64, empty_barrier_offset = 64 : i64}
// CHECK-NEXT:      tspipe.pipeline @c config({{.*}}) {barrier_offset = 96 : i64}
// CHECK-NEXT:      tspipe.pipeline_group @ab merge [@a, @b] {barrier_offset = 0 : i64}
gpu.func @merge_layout() kernel {
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(2048)
    tspipe.pipeline @b config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(2048)
    tspipe.pipeline @c config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
  }
  gpu.return
}

// Fork of three 2-stage members: F_shared [0, 16), E_x [16, 32), E_y
// [32, 48), E_z [48, 64).
// CHECK-LABEL: gpu.func @fork_layout
// CHECK:         tspipe.kernel warps(1) attributes {smem_bytes = 64 : i64} {
// CHECK-NEXT:      tspipe.pipeline @x config({{.*}}) {barrier_offset = 0 : i64, empty_barrier_offset = 16 : i64}
// CHECK-NEXT:      tspipe.pipeline @y config({{.*}}) {barrier_offset = 0 : i64, empty_barrier_offset = 32 : i64}
// CHECK-NEXT:      tspipe.pipeline @z config({{.*}}) {barrier_offset = 0 : i64, empty_barrier_offset = 48 : i64}
// CHECK-NEXT:      tspipe.pipeline_group @xyz fork [@x, @y, @z] {barrier_offset = 0 : i64}
gpu.func @fork_layout() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @x config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @y config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @z config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @xyz fork [@x, @y, @z]
  }
  gpu.return
}

}
