// RUN: tspipe-opt %s | tspipe-opt | FileCheck %s

// Buffers, alias groups and their accessors round-trip.
gpu.module @alias_ops {

// CHECK-LABEL: gpu.func @smem_and_tmem
// CHECK:         tspipe.pipeline @ab config(<tma_umma{{.*}}>) smem_bytes(65536)
// CHECK:         tspipe.pipeline @acc0 config(<umma_async{{.*}}>) tmem_columns(128)
// CHECK:         tspipe.buffer @staging smem_bytes(8192)
// CHECK:         tspipe.buffer @scratch tmem_columns(64)
// CHECK:         tspipe.alias_group @reuse smem {{\[}}[@ab], [@staging]]
// CHECK:         tspipe.alias_group @cols tmem {{\[}}[@acc0], [@scratch]]
// CHECK:         tspipe.buffer_address @staging : !llvm.ptr<3>
// CHECK:         tspipe.tmem_column @acc0 : i32
// CHECK:         tspipe.tmem_column @scratch : i32
gpu.func @smem_and_tmem() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 2, num_bytes = 32768,
        producer_group = <thread, 1>, consumer_group = <thread, 1>>)
        smem_bytes(65536)
    tspipe.pipeline @acc0 config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 32>>)
        tmem_columns(128)
    tspipe.buffer @staging smem_bytes(8192)
    tspipe.buffer @scratch tmem_columns(64)
    tspipe.alias_group @reuse smem [[@ab], [@staging]]
    tspipe.alias_group @cols tmem [[@acc0], [@scratch]]
    tspipe.task @epi warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
      %p = tspipe.buffer_address @staging : !llvm.ptr<3>
      %a = tspipe.tmem_column @acc0 : i32
      %s = tspipe.tmem_column @scratch : i32
    }
  }
  gpu.return
}

}
