// RUN: tspipe-opt %s -split-input-file | FileCheck %s

// The passing twins of invalid-dependency.mlir.

// R31: every listed pipeline is used.
// CHECK-LABEL: gpu.func @R31_listed_never_used
// CHECK:         tspipe.task @epilogue warps(2, 4) consumes [@acc]
gpu.module @m {
gpu.func @R31_listed_never_used(%src: !llvm.ptr<1>, %nk: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %bytes = arith.constant 32768 : i32
  tspipe.kernel warps(6) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 4, num_bytes = 32768,
        producer_group = <thread, 1>, consumer_group = <thread, 1>>)
        smem_bytes(131072)
    tspipe.pipeline @acc config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 128>>)
    tspipe.task @load warps(0, 1) produces [@ab] {
      tspipe.domain_loop %k = %c0 to %nk step %c1 {
        %s = tspipe.producer_acquire @ab
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %leader = nvvm.elect.sync -> i1
        scf.if %leader {
          %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
          nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %full, %bytes
              : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @ab
      }
    }
    tspipe.task @mma warps(1, 1) produces [@acc] consumes [@ab] {
      %a = tspipe.producer_acquire @acc
      tspipe.domain_loop %k = %c0 to %nk step %c1 {
        %s = tspipe.consumer_wait @ab
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %desc = llvm.ptrtoint %buf : !llvm.ptr<3> to i64
        llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [0], $0, $0, 0, 1;", "l" %desc : (i64) -> ()
        tspipe.consumer_release @ab
      }
      tspipe.producer_commit @acc
    }
    tspipe.task @epilogue warps(2, 4) consumes [@acc] {
      tspipe.domain_loop %t = %c0 to %c1 step %c1 {
        %s = tspipe.consumer_wait @acc
        tspipe.consumer_release @acc
      }
    }
  }
  gpu.return
}
}

// -----

// R36: the release follows the MMA.
// CHECK-LABEL: gpu.func @R36_release_before_mma
// CHECK:         llvm.inline_asm
// CHECK-NEXT:    tspipe.consumer_release @ab
gpu.module @m {
gpu.func @R36_release_before_mma(%src: !llvm.ptr<1>, %nk: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %bytes = arith.constant 32768 : i32
  tspipe.kernel warps(6) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 4, num_bytes = 32768,
        producer_group = <thread, 1>, consumer_group = <thread, 1>>)
        smem_bytes(131072)
    tspipe.pipeline @acc config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 128>>)
    tspipe.task @load warps(0, 1) produces [@ab] {
      tspipe.domain_loop %k = %c0 to %nk step %c1 {
        %s = tspipe.producer_acquire @ab
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %leader = nvvm.elect.sync -> i1
        scf.if %leader {
          %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
          nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %full, %bytes
              : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @ab
      }
    }
    tspipe.task @mma warps(1, 1) produces [@acc] consumes [@ab] {
      %a = tspipe.producer_acquire @acc
      tspipe.domain_loop %k = %c0 to %nk step %c1 {
        %s = tspipe.consumer_wait @ab
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %desc = llvm.ptrtoint %buf : !llvm.ptr<3> to i64
        llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [0], $0, $0, 0, 1;", "l" %desc : (i64) -> ()
        tspipe.consumer_release @ab
      }
      tspipe.producer_commit @acc
    }
    tspipe.task @epilogue warps(2, 4) consumes [@acc] {
      tspipe.domain_loop %t = %c0 to %c1 step %c1 {
        %s = tspipe.consumer_wait @acc
        tspipe.consumer_release @acc
      }
    }
  }
  gpu.return
}
}

// -----

// CHECK-LABEL: gpu.func @R36_release_before_mma_index
// CHECK:         llvm.inline_asm
// CHECK-NEXT:    tspipe.consumer_release @ab
gpu.module @m {
gpu.func @R36_release_before_mma_index(%src: !llvm.ptr<1>, %nk: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %bytes = arith.constant 32768 : i32
  tspipe.kernel warps(6) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 4, num_bytes = 32768,
        producer_group = <thread, 1>, consumer_group = <thread, 1>>)
        smem_bytes(131072)
    tspipe.pipeline @acc config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 128>>)
    tspipe.task @load warps(0, 1) produces [@ab] {
      tspipe.domain_loop %k = %c0 to %nk step %c1 {
        %s = tspipe.producer_acquire @ab
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %leader = nvvm.elect.sync -> i1
        scf.if %leader {
          %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
          nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %full, %bytes
              : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @ab
      }
    }
    tspipe.task @mma warps(1, 1) produces [@acc] consumes [@ab] {
      %a = tspipe.producer_acquire @acc
      tspipe.domain_loop %k = %c0 to %nk step %c1 {
        %s = tspipe.consumer_wait @ab
        %i = tspipe.stage_index %s
        %off = arith.muli %i, %c4096 : index
        %off64 = arith.index_cast %off : index to i64
        llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [0], $0, $0, 0, 1;", "l" %off64 : (i64) -> ()
        tspipe.consumer_release @ab
      }
      tspipe.producer_commit @acc
    }
    tspipe.task @epilogue warps(2, 4) consumes [@acc] {
      tspipe.domain_loop %t = %c0 to %c1 step %c1 {
        %s = tspipe.consumer_wait @acc
        tspipe.consumer_release @acc
      }
    }
  }
  gpu.return
}
}
