// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm | FileCheck %s --check-prefix=RAW
// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/../../Examples/extract_ptx.py > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// The PDL points become griddepcontrol (PTX ISA, griddepcontrol), in the
// task's code where they stand; tspipe.every(2, 1) tests the iteration
// count (iv - lb) / step modulo 2 against 1; when_true / when_false test
// the condition (and its negation) around their brackets.

// CHECK-LABEL: gpu.func @pdl_guards
// Producer: wait for the previous grid before the loop.
// CHECK:         nvvm.griddepcontrol wait
// CHECK:         scf.for %[[IV:.*]] = %[[LB:.*]] to %{{.*}} step %{{.*}} iter_args(
// The step is 1: the count is iv - lb.
// CHECK:           %[[K:.*]] = arith.subi %[[IV]], %[[LB]] : i32
// CHECK:           %[[R:.*]] = arith.remui %[[K]], %c2_i32 : i32
// CHECK:           %[[ON:.*]] = arith.cmpi eq, %[[R]], %c1_i32 : i32
// CHECK:           scf.if %[[ON]] -> (i32, i32)
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:             nvvm.mbarrier.arrive
// CHECK:           scf.if %arg4 -> (i32, i32)
// CHECK:         nvvm.griddepcontrol launch_dependents
// Consumer: when_true and when_false on one flag fold into an if / else.
// CHECK:         scf.for
// CHECK:           scf.if %arg4 -> (i32, i32)
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:           } else {
// CHECK-NEXT:        llvm.store
// CHECK-NOT:     tspipe.

// Before canonicalization: the count divides by the step, when_false tests
// the negated flag.
// RAW-LABEL: gpu.func @pdl_guards
// RAW:         %[[K0:.*]] = arith.subi %arg{{[0-9]+}}, %{{.*}} : i32
// RAW-NEXT:    %[[K:.*]] = arith.divui %[[K0]],
// RAW:         arith.remui %[[K]],
// RAW:         %[[NOT:.*]] = arith.xori %arg4, %{{.*}} : i1
// RAW:         scf.if %[[NOT]]

// PTX-LABEL: .visible .entry pdl_guards(
// PTX:       griddepcontrol.wait;
// PTX:       griddepcontrol.launch_dependents;

gpu.module @pdl_guards [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @pdl_guards(%x: !llvm.ptr<1> {tspipe.pdl_input}, %y: !llvm.ptr<1>,
                       %n: index, %lo: index, %flag: i1) kernel {
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.pdl_wait
        tspipe.domain_loop %i = %lo to %n step %c1 {
          tspipe.every period(2) start(1) {
            %s = tspipe.producer_acquire @ring
            %i64 = arith.index_cast %i : index to i64
            %p = llvm.getelementptr %x[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            %v = llvm.load %p : !llvm.ptr<1> -> f32
            %q = llvm.getelementptr %y[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %v, %q : f32, !llvm.ptr<1>
            tspipe.producer_commit @ring
          }
          tspipe.when_true %flag {
            %s = tspipe.producer_acquire @ring
            tspipe.producer_commit @ring
          }
        }
        tspipe.pdl_launch_dependents
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %lo to %n step %c1 {
          tspipe.every period(2) start(1) {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
          tspipe.when_true %flag {
            %s = tspipe.consumer_wait @ring
            tspipe.consumer_release @ring
          }
          tspipe.when_false %flag {
            %z = arith.constant 0.0 : f32
            llvm.store %z, %y : f32, !llvm.ptr<1>
          }
        }
      }
    }
    gpu.return
  }
}
