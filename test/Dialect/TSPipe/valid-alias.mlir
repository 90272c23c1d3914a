// RUN: tspipe-opt %s -split-input-file | FileCheck %s

// Alias groups whose reuse the IR orders (rule X23); the failing twins
// under the same names are in invalid-alias.mlir.

// Split-K (CUTLASS TS tutorial 6): the epilogue's staging buffer reuses the
// A/B ring. The MMA's reads of @ab end when its tcgen05 commit of @acc
// arrives; the epilogue waits on @acc before it writes @staging.
// CHECK-LABEL: gpu.func @X23_split_k_staging
// CHECK:         tspipe.alias_group @reuse smem {{\[}}[@ab], [@staging]]
gpu.module @m {
gpu.func @X23_split_k_staging(%src: !llvm.ptr<1>, %nk: index, %v: f32) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 32768 : i32
  tspipe.kernel warps(6) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 4, num_bytes = 32768,
        producer_group = <thread, 1>, consumer_group = <thread, 1>>)
        smem_bytes(131072)
    tspipe.pipeline @acc config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 128>>)
        tmem_columns(128)
    tspipe.buffer @staging smem_bytes(16384)
    tspipe.alias_group @reuse smem [[@ab], [@staging]]
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
        %col = tspipe.tmem_column @acc : i32
        llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [$0], $1, $1, 0, 1;", "r,l" %col, %desc : (i32, i64) -> ()
        tspipe.consumer_release @ab
      }
      tspipe.producer_commit @acc
    }
    tspipe.task @epilogue warps(2, 4) consumes [@acc] {
      tspipe.domain_loop %t = %c0 to %c1 step %c1 {
      }
      %s = tspipe.consumer_wait @acc
      %p = tspipe.buffer_address @staging : !llvm.ptr<3>
      llvm.store %v, %p : f32, !llvm.ptr<3>
      tspipe.consumer_release @acc
    }
  }
  gpu.return
}
}

// -----

// TS's TMEM alias race, ordered: the MMA drains @s (its epilogue released
// it) before it writes the aliased columns of @o.
// CHECK-LABEL: gpu.func @X23_tmem_alias_race
// CHECK:         tspipe.producer_tail @s
// CHECK-NEXT:    tspipe.producer_acquire @o
gpu.module @m {
gpu.func @X23_tmem_alias_race(%v: f32) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @s config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 128>>)
        tmem_columns(128)
    tspipe.pipeline @o config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 128>>)
        tmem_columns(128)
    tspipe.alias_group @cols tmem [[@s], [@o]]
    tspipe.task @mma warps(0, 1) produces [@s, @o] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
      %a = tspipe.producer_acquire @s
      %cs = tspipe.tmem_column @s : i32
      llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [$0], 0, 0, 0, 0;", "r" %cs : (i32) -> ()
      tspipe.producer_commit @s
      tspipe.producer_tail @s
      %b = tspipe.producer_acquire @o
      %co = tspipe.tmem_column @o : i32
      llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [$0], 0, 0, 0, 0;", "r" %co : (i32) -> ()
      tspipe.producer_commit @o
    }
    tspipe.task @epilogue warps(1, 4) consumes [@s, @o] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
      %w = tspipe.consumer_wait @s
      %cs = tspipe.tmem_column @s : i32
      %x = llvm.inline_asm has_side_effects "tcgen05.ld.sync.aligned.32x32b.x1.b32 {$0}, [$1];", "=r,r" %cs : (i32) -> i32
      tspipe.consumer_release @s
      %w2 = tspipe.consumer_wait @o
      tspipe.consumer_release @o
    }
  }
  gpu.return
}
}

// -----

// Ordered by a pipeline: the epilogue hands @freed to the MMA task after
// its last read of @s; the MMA waits on it before it writes @o.
// CHECK-LABEL: gpu.func @X23_tmem_handoff
// CHECK:         tspipe.consumer_wait @freed
// CHECK-NEXT:    tspipe.consumer_release @freed
// CHECK-NEXT:    tspipe.producer_acquire @o
gpu.module @m {
gpu.func @X23_tmem_handoff(%v: f32) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @s config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 128>>)
        tmem_columns(128)
    tspipe.pipeline @o config(<umma_async, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 128>>)
        tmem_columns(128)
    tspipe.pipeline @freed config(<async_async, num_stages = 1,
        producer_group = <thread, 128>, consumer_group = <thread, 32>>)
    tspipe.alias_group @cols tmem [[@s], [@o]]
    tspipe.task @mma warps(0, 1) produces [@s, @o] consumes [@freed] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
      %a = tspipe.producer_acquire @s
      %cs = tspipe.tmem_column @s : i32
      llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [$0], 0, 0, 0, 0;", "r" %cs : (i32) -> ()
      tspipe.producer_commit @s
      %f = tspipe.consumer_wait @freed
      tspipe.consumer_release @freed
      %b = tspipe.producer_acquire @o
      %co = tspipe.tmem_column @o : i32
      llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [$0], 0, 0, 0, 0;", "r" %co : (i32) -> ()
      tspipe.producer_commit @o
    }
    tspipe.task @epilogue warps(1, 4) produces [@freed] consumes [@s, @o] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
      %w = tspipe.consumer_wait @s
      %cs = tspipe.tmem_column @s : i32
      %x = llvm.inline_asm has_side_effects "tcgen05.ld.sync.aligned.32x32b.x1.b32 {$0}, [$1];", "=r,r" %cs : (i32) -> i32
      tspipe.consumer_release @s
      %g = tspipe.producer_acquire @freed
      tspipe.producer_commit @freed
      %w2 = tspipe.consumer_wait @o
      tspipe.consumer_release @o
    }
  }
  gpu.return
}
}
