// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: %if ptxas %{ tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}
// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=PTX

// Named barriers (rule X13): ids 1, 2, ... in declaration order (id 0 is the
// kernel's init barrier), thread count 32 x the listed tasks' warps. @first
// (task @p, 1 warp): bar.sync 1, 32; @nb (tasks @c0, @c1, 1 warp each):
// bar.arrive 2, 64 in @c0's head, bar.sync 2, 64 in @c1's head; @loop:
// bar.sync 3, 64 in both loops. (The loops sync on a barrier of their own:
// on @nb, @c0's first loop sync could arrive before @c1's head sync, and
// the progress checker rejects that, X30.) The replacement of a CTA-wide barrier inside tasks (X12; NVIDIA/Fuser
// PR 4187, triton PRs 9456, 9786).
// CHECK-LABEL: gpu.func @named_barrier
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK:         nvvm.barrier0
// CHECK:         nvvm.barrier id = %[[C1]] number_of_threads = %[[C32]]
// CHECK:         nvvm.barrier.arrive id = %[[C2]] number_of_threads = %[[C64]]
// CHECK:         scf.for
// CHECK:           nvvm.barrier id = %[[C3]] number_of_threads = %[[C64]]
// CHECK:         nvvm.barrier id = %[[C2]] number_of_threads = %[[C64]]
// CHECK:         scf.for
// CHECK:           nvvm.barrier id = %[[C3]] number_of_threads = %[[C64]]
// PTX-DAG:       bar.sync \091, 32;
// PTX-DAG:       bar.arrive 2, 64;
// PTX-DAG:       bar.sync \092, 64;
// PTX-DAG:       bar.sync \093, 64;
// BIN: gpu.binary @named_barrier
gpu.module @named_barrier [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @named_barrier(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.named_barrier @first tasks [@p]
    tspipe.named_barrier @nb tasks [@c0, @c1]
    tspipe.named_barrier @loop tasks [@c0, @c1]
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.named_barrier_sync @first
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.named_barrier_arrive @nb
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.named_barrier_sync @loop
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.named_barrier_sync @nb
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.named_barrier_sync @loop
        tspipe.consumer_release @ring
      }
    }
  }
  gpu.return
}
}
