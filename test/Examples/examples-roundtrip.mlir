// Every shipped example parses, verifies and round-trips: printing and
// re-parsing gives the same IR, in the custom and in the generic form.
//
// RUN: tspipe-opt %S/../../examples/tma_stream.mlir > %t.1.mlir
// RUN: tspipe-opt %t.1.mlir > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: tspipe-opt --mlir-print-op-generic %t.1.mlir | tspipe-opt > %t.3.mlir
// RUN: diff %t.1.mlir %t.3.mlir
// RUN: tspipe-opt %S/../../examples/tma_stream_all_threads.mlir > %t.4.mlir
// RUN: tspipe-opt %t.4.mlir | diff %t.4.mlir -
// RUN: tspipe-opt %S/../../examples/async_load.mlir > %t.5.mlir
// RUN: tspipe-opt %t.5.mlir | diff %t.5.mlir -
// RUN: tspipe-opt --mlir-print-op-generic %t.5.mlir | tspipe-opt | diff %t.5.mlir -
// RUN: tspipe-opt %S/../../examples/async_thread.mlir > %t.6.mlir
// RUN: tspipe-opt %t.6.mlir | diff %t.6.mlir -
// RUN: tspipe-opt %S/../../examples/tma_stream_interleaved.mlir > %t.7.mlir
// RUN: tspipe-opt %t.7.mlir | diff %t.7.mlir -
// RUN: tspipe-opt --mlir-print-op-generic %t.7.mlir | tspipe-opt | diff %t.7.mlir -
// RUN: FileCheck %s --input-file=%t.1.mlir

// CHECK: tspipe.kernel warps(5) {
// CHECK: tspipe.pipeline @tiles config(<tma_async, num_stages = 4, num_bytes = 16384, producer_group = <thread, 1>, consumer_group = <thread, 4>>) smem_bytes(65536)
