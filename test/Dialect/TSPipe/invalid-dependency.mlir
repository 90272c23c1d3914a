// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Rules over the dependency graph tspipe derives from the IR (R31, R36);
// the passing twins are in valid-dependency.mlir under the same names.

// R31: the epilogue lists @ab, which its body never touches.
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
    // expected-error @+1 {{[R31] lists '@ab' in consumes but no consumer bracket of its body uses it}}
    tspipe.task @epilogue warps(2, 4) consumes [@acc, @ab] {
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

// R36: on the edge @ab -> @acc, the MMA task releases the stage (its
// tcgen05.commit) before the MMA that reads it through the stage buffer.
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
        // expected-error @+1 {{[R36] releases the stage of '@ab' before the 'llvm.inline_asm' that reads it (on the edge '@ab' -> '@acc' this task makes)}}
        tspipe.consumer_release @ab
        // expected-note @+1 {{the read of the stage}}
        llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [0], $0, $0, 0, 1;", "l" %desc : (i64) -> ()
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

// R36: the same with the stage addressed through its index.
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
        // expected-error @+1 {{[R36] releases the stage of '@ab' before the 'llvm.inline_asm' that reads it}}
        tspipe.consumer_release @ab
        // expected-note @+1 {{the read of the stage}}
        llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [0], $0, $0, 0, 1;", "l" %off64 : (i64) -> ()
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
