// RUN: tspipe-opt %s --tspipe-allocate-smem | FileCheck %s

// Alias groups: every phase of a group starts at the group's one offset
// (its members one after the other, 128-byte aligned in shared memory), the
// group as large as its largest phase, placed after the buffers no group
// lists. TMEM columns likewise, from column 0, unaligned.

gpu.module @allocate_smem_alias {

// Barriers: @ab 2 stages [0, 32), @acc 1 stage [32, 48). @other (1024 bytes)
// is in no group: 48 -> 128, up to 1152. The group starts at 1152: phase 0
// is @ab (4096 bytes, up to 5248), phase 1 @staging (1024) then @recv
// (1000 at 2176, up to 3176); the group ends at the larger phase, 5248.
// TMEM: @acc (128 columns) at 0; @scratch in no group after it, at 128.
// CHECK-LABEL: gpu.func @smem_phases
// CHECK:         tspipe.kernel warps(2) attributes {smem_bytes = 5248 : i64} {
// CHECK-NEXT:      tspipe.pipeline @ab config({{.*}}) smem_bytes(4096) {barrier_offset = 0 : i64, buffer_offset = 1152 : i64}
// CHECK-NEXT:      tspipe.pipeline @acc config({{.*}}) tmem_columns(128) {barrier_offset = 32 : i64, tmem_offset = 0 : i64}
// CHECK-NEXT:      tspipe.buffer @other smem_bytes(1024) {buffer_offset = 128 : i64}
// CHECK-NEXT:      tspipe.buffer @staging smem_bytes(1024) {buffer_offset = 1152 : i64}
// CHECK-NEXT:      tspipe.buffer @recv smem_bytes(1000) {buffer_offset = 2176 : i64}
// CHECK-NEXT:      tspipe.buffer @scratch tmem_columns(64) {tmem_offset = 128 : i64}
// CHECK-NEXT:      tspipe.alias_group @reuse smem {{\[}}[@ab], [@staging, @recv]]
gpu.func @smem_phases() kernel {
  tspipe.kernel warps(2) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 2, num_bytes = 2048,
        producer_group = <thread, 1>, consumer_group = <thread, 1>>)
        smem_bytes(4096)
    tspipe.pipeline @acc config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 32>>)
        tmem_columns(128)
    tspipe.buffer @other smem_bytes(1024)
    tspipe.buffer @staging smem_bytes(1024)
    tspipe.buffer @recv smem_bytes(1000)
    tspipe.buffer @scratch tmem_columns(64)
    tspipe.alias_group @reuse smem [[@ab], [@staging, @recv]]
  }
  gpu.return
}

// TMEM: two accumulators of 128 and 256 columns share columns [0, 256);
// @t (32 columns, no group) comes first, at 0, so the group starts at 32.
// CHECK-LABEL: gpu.func @tmem_phases
// CHECK:         tspipe.pipeline @s config({{.*}}) tmem_columns(128) {barrier_offset = 0 : i64, tmem_offset = 32 : i64}
// CHECK-NEXT:    tspipe.pipeline @o config({{.*}}) tmem_columns(256) {barrier_offset = 16 : i64, tmem_offset = 32 : i64}
// CHECK-NEXT:    tspipe.buffer @t tmem_columns(32) {tmem_offset = 0 : i64}
gpu.func @tmem_phases() kernel {
  tspipe.kernel warps(2) {
    tspipe.pipeline @s config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 32>>)
        tmem_columns(128)
    tspipe.pipeline @o config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 32>>)
        tmem_columns(256)
    tspipe.buffer @t tmem_columns(32)
    tspipe.alias_group @cols tmem [[@s], [@o]]
  }
  gpu.return
}

}
