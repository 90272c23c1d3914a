// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Alias groups (rules X23, X24): structure, and reuse the IR does not
// order. The passing twins are in valid-alias.mlir.

gpu.module @m {
gpu.func @X24_one_phase() kernel {
  tspipe.kernel warps(1) {
    tspipe.buffer @a smem_bytes(1024)
    // expected-error @+1 {{[X24] has 1 phase(s); an alias group needs at least two phases}}
    tspipe.alias_group @g smem [[@a]]
  }
  gpu.return
}
}

// -----

gpu.module @m {
gpu.func @X24_wrong_space() kernel {
  tspipe.kernel warps(1) {
    tspipe.buffer @a smem_bytes(1024)
    tspipe.buffer @b smem_bytes(1024)
    // expected-error @+1 {{[X24] @a has no tmem_columns, so it has no storage in tmem to share}}
    tspipe.alias_group @g tmem [[@a], [@b]]
  }
  gpu.return
}
}

// -----

gpu.module @m {
gpu.func @X24_unknown_member() kernel {
  tspipe.kernel warps(1) {
    tspipe.buffer @a smem_bytes(1024)
    // expected-error @+1 {{[X24] @nope does not name a tspipe.pipeline or tspipe.buffer}}
    tspipe.alias_group @g smem [[@a], [@nope]]
  }
  gpu.return
}
}

// -----

gpu.module @m {
gpu.func @X24_member_twice() kernel {
  tspipe.kernel warps(1) {
    tspipe.buffer @a smem_bytes(1024)
    // expected-error @+1 {{[X24] @a appears twice}}
    tspipe.alias_group @g smem [[@a], [@a]]
  }
  gpu.return
}
}

// -----

gpu.module @m {
gpu.func @X24_two_groups() kernel {
  tspipe.kernel warps(1) {
    tspipe.buffer @a smem_bytes(1024)
    tspipe.buffer @b smem_bytes(1024)
    tspipe.buffer @c smem_bytes(1024)
    tspipe.alias_group @g smem [[@a], [@b]]
    // expected-error @+1 {{[X24] '@a' is already in alias group '@g'}}
    tspipe.alias_group @h smem [[@a], [@c]]
  }
  gpu.return
}
}

// -----

gpu.module @m {
gpu.func @X24_buffer_both_spaces() kernel {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{[X24] gives both smem_bytes and tmem_columns}}
    tspipe.buffer @a smem_bytes(1024) tmem_columns(32)
  }
  gpu.return
}
}

// -----

gpu.module @m {
gpu.func @X24_address_of_tmem_buffer() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.buffer @t tmem_columns(32)
    tspipe.task @t0 warps(0, 1) {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
      // expected-error @+1 {{[X24] @t is a tensor-memory buffer; take its column with tspipe.tmem_column}}
      %p = tspipe.buffer_address @t : !llvm.ptr<3>
    }
  }
  gpu.return
}
}

// -----

// Split-K (CUTLASS TS tutorial 6) with the epilogue writing the staging
// buffer before it waits for the accumulator: the MMA may still read @ab.
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
    // expected-error @+1 {{[X23] reuses the storage of '@ab' (phase 0) for '@staging' (phase 1), but task '@epilogue' first writes '@staging' before the IR orders it after task '@mma''s last use of '@ab' (an MMA read}}
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
        // expected-note @+1 {{last use of '@ab' here}}
        tspipe.consumer_release @ab
      }
      tspipe.producer_commit @acc
    }
    tspipe.task @epilogue warps(2, 4) consumes [@acc] {
      tspipe.domain_loop %t = %c0 to %c1 step %c1 {
      }
      %p = tspipe.buffer_address @staging : !llvm.ptr<3>
      // expected-note @+1 {{first write of '@staging' here}}
      llvm.store %v, %p : f32, !llvm.ptr<3>
      %s = tspipe.consumer_wait @acc
      tspipe.consumer_release @acc
    }
  }
  gpu.return
}
}

// -----

// The MMA's reads of @ab outlive its releases: a commit of an ordinary
// pipeline (@sig, async_async) does not wait for them, so the epilogue's
// write after @sig races with the last MMA.
gpu.module @m {
gpu.func @X23_mma_reads_outlive_release(%src: !llvm.ptr<1>, %nk: index, %v: f32) kernel {
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
    tspipe.pipeline @sig config(<async_async, num_stages = 1,
        producer_group = <thread, 32>, consumer_group = <thread, 128>>)
    tspipe.buffer @staging smem_bytes(16384)
    // expected-error @+1 {{finished only when the release's tcgen05.commit arrives or a later tcgen05 commit of '@mma' is waited on}}
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
    tspipe.task @mma warps(1, 1) produces [@acc, @sig] consumes [@ab] {
      %a = tspipe.producer_acquire @acc
      tspipe.domain_loop %k = %c0 to %nk step %c1 {
        %s = tspipe.consumer_wait @ab
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %desc = llvm.ptrtoint %buf : !llvm.ptr<3> to i64
        %col = tspipe.tmem_column @acc : i32
        llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [$0], $1, $1, 0, 1;", "r,l" %col, %desc : (i32, i64) -> ()
        // expected-note @+1 {{last use of '@ab' here}}
        tspipe.consumer_release @ab
      }
      %g = tspipe.producer_acquire @sig
      tspipe.producer_commit @sig
      tspipe.producer_commit @acc
    }
    tspipe.task @epilogue warps(2, 4) consumes [@acc, @sig] {
      tspipe.domain_loop %t = %c0 to %c1 step %c1 {
      }
      %g = tspipe.consumer_wait @sig
      tspipe.consumer_release @sig
      %p = tspipe.buffer_address @staging : !llvm.ptr<3>
      // expected-note @+1 {{first write of '@staging' here}}
      llvm.store %v, %p : f32, !llvm.ptr<3>
      %s = tspipe.consumer_wait @acc
      tspipe.consumer_release @acc
    }
  }
  gpu.return
}
}

// -----

// TS's TMEM alias race: @o's columns alias @s's; the MMA writes @o right
// after handing @s over, while the epilogue may still read @s
// (tcgen05.ld) before its release.
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
    // expected-error @+1 {{[X23] reuses the storage of '@s' (phase 0) for '@o' (phase 1), but task '@mma' first writes '@o' before the IR orders it after task '@epilogue''s last use of '@s'; order them}}
    tspipe.alias_group @cols tmem [[@s], [@o]]
    tspipe.task @mma warps(0, 1) produces [@s, @o] {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      }
      %a = tspipe.producer_acquire @s
      %cs = tspipe.tmem_column @s : i32
      llvm.inline_asm has_side_effects "tcgen05.mma.cta_group::1.kind::f16 [$0], 0, 0, 0, 0;", "r" %cs : (i32) -> ()
      tspipe.producer_commit @s
      // expected-note @+1 {{first write of '@o' here}}
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
      // expected-note @+1 {{last use of '@s' here}}
      tspipe.consumer_release @s
      %w2 = tspipe.consumer_wait @o
      tspipe.consumer_release @o
    }
  }
  gpu.return
}
}

// -----

// X23: a persistent task (its domain loop in a work_tile_loop) beside an
// alias group: the phase order is not modeled across tiles, so the
// verifier says so instead of guessing (it asserted in isBeforeInBlock
// before; found by the builder mutations of test_op_mutations.py).
gpu.module @m {
gpu.func @X23_persistent_task(%m: index) kernel {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(128)
    tspipe.buffer @scratch smem_bytes(256)
    tspipe.work_queue @tiles grid(%m)
    // expected-error @+1 {{[X23] cannot prove the phases of the group race-free: task '@load' runs its tspipe.domain_loop inside a 'tspipe.work_tile_loop'}}
    tspipe.alias_group @g smem [[@scratch], [@ring]]
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %c4 step %c1 {
          %s = tspipe.producer_acquire @ring
          %p = tspipe.buffer_address @scratch : !llvm.ptr<3>
          tspipe.producer_commit @ring
        }
        tspipe.advance_work_tile @tiles
      }
    }
    tspipe.task @use warps(1, 1) consumes [@ring] {
      tspipe.work_tile_loop @tiles {
      ^bb0(%tm: index):
        tspipe.domain_loop %i = %c0 to %c4 step %c1 {
          %w = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
        tspipe.advance_work_tile @tiles
      }
    }
  }
  gpu.return
}
}
