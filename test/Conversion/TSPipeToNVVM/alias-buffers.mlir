// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: %if ptxas %{ tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// tspipe.buffer_address is the shared base plus the buffer's offset; an
// alias group's members share it. tspipe.tmem_column is the resource's
// first column. Barriers: @ab (2 stages) [0, 32);
// @recv, in no group, first at 128; the group after it at 1152, @ab and
// @staging both.
// CHECK-LABEL: gpu.func @alias_buffers
// CHECK:         %[[COL:.*]] = arith.constant 64 : i32
// CHECK:         %[[STAGING:.*]] = llvm.getelementptr %{{.*}}[1152] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.store %{{.*}}, %[[STAGING]] : f32, !llvm.ptr<3>
// CHECK-NEXT:    %[[RECV:.*]] = llvm.getelementptr %{{.*}}[128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    llvm.store %{{.*}}, %[[RECV]] : f32, !llvm.ptr<3>
// CHECK:         llvm.inline_asm has_side_effects "// column $0", "r" %[[COL]]
// BIN: gpu.binary @alias_buffers
gpu.module @alias_buffers [#nvvm.target<chip = "sm_100a">] {
gpu.func @alias_buffers(%v: f32) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ab config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
        smem_bytes(4096)
    tspipe.buffer @staging smem_bytes(1024)
    tspipe.buffer @recv smem_bytes(1024)
    tspipe.buffer @acc tmem_columns(64)
    tspipe.buffer @other tmem_columns(64)
    tspipe.alias_group @reuse smem [[@ab], [@staging]]
    tspipe.task @load warps(0, 1) produces [@ab] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        %s = tspipe.producer_acquire @ab
        tspipe.producer_commit @ab
      }
    }
    tspipe.task @epilogue warps(1, 1) consumes [@ab] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
        %s = tspipe.consumer_wait @ab
        tspipe.consumer_release @ab
      }
      %p = tspipe.buffer_address @staging : !llvm.ptr<3>
      llvm.store %v, %p : f32, !llvm.ptr<3>
      %q = tspipe.buffer_address @recv : !llvm.ptr<3>
      llvm.store %v, %q : f32, !llvm.ptr<3>
      %col = tspipe.tmem_column @other : i32
      llvm.inline_asm has_side_effects "// column $0", "r" %col : (i32) -> ()
    }
  }
  gpu.return
}
}
