// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Bracket order (R32-R34), head/loop producer work (R40, a warning),
// ping-pong pipelines (R65), brackets closed on a guarded iteration only (X8),
// pipelines used on one side only (X6, B20) and stage handles used by
// anything but a stage accessor. The valid twin of each case has the same
// name in valid-rules.mlir.

// -----

// R32 (B23): the consumer reads its stage before waiting for it.
func.func @R32_access_before_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %early = tspipe.current_stage @p consumer
        // expected-error @+1 {{[R32] accesses a stage of '@p' outside a tspipe.consumer_wait ... tspipe.consumer_release bracket of this iteration; move the access after tspipe.consumer_wait @p and before tspipe.consumer_release}}
        %idx = tspipe.stage_index %early
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R32: a release before the wait it should close, and the wait left open.
func.func @R32_release_before_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R32] tspipe.consumer_release @p is not preceded by a tspipe.consumer_wait of this iteration}}
        tspipe.consumer_release @p
        // expected-error @+1 {{[R32] tspipe.consumer_wait @p is not followed by a tspipe.consumer_release}}
        %s = tspipe.consumer_wait @p
      }
    }
  }
  return
}

// -----

// R32 with advance_on_wait (counted brackets): a release with no open wait.
func.func @R32_counted_release_first(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_wait = true>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R32] tspipe.consumer_release @p comes before the tspipe.consumer_wait it closes}}
        tspipe.consumer_release @p
        %s = tspipe.consumer_wait @p
      }
    }
  }
  return
}

// -----

// R32: work on a pipeline the task neither waits on nor reaches through a
// wait on a pipeline fed from it.
func.func @R32_work_without_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_wait = true>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.current_stage @p consumer
        // expected-error @+1 {{[R32] accesses a stage of '@p' in a task that has no tspipe.consumer_wait on it and no earlier one on a pipeline fed from it}}
        %idx = tspipe.stage_index %s
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R33: a commit before its acquire (and the acquire never committed).
func.func @R33_commit_before_acquire(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R33] tspipe.producer_commit @p is not preceded by a tspipe.producer_acquire of this iteration}}
        tspipe.producer_commit @p
        // expected-error @+1 {{[R33] tspipe.producer_acquire @p is not followed by a tspipe.producer_commit}}
        %s = tspipe.producer_acquire @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R33 (B20): an acquire that is never committed.
func.func @R33_acquire_without_commit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R33] acquires '@p' but the task never commits it}}
        %s = tspipe.producer_acquire @p
        %idx = tspipe.stage_index %s
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R33: two acquires without a commit between them.
func.func @R33_double_acquire(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        // expected-error @+1 {{[R33] acquires '@p' again before committing the stage it acquired last}}
        %t = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R33: the producer writes its stage after committing it.
func.func @R33_access_after_commit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
        // expected-error @+1 {{[R33] accesses a stage of '@p' outside a tspipe.producer_acquire ... tspipe.producer_commit bracket}}
        %idx = tspipe.stage_index %s
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R33: a commit-only task needs its own commit cursor (advance_on_acquire).
func.func @R33_split_producer_without_flag(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @acq warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R33] acquires '@p' but the task never commits it}}
        %s = tspipe.producer_acquire @p
      }
    }
    tspipe.task @com warps(1, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R33] commits '@p' in a task that never acquires it, but the pipeline has no advance_on_acquire}}
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(2, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R34: a probe with no blocking wait after it.
func.func @R34_try_wait_without_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
        // expected-error @+1 {{[R34] probes '@p' but no later tspipe.consumer_wait of this task follows it}}
        %r = tspipe.consumer_try_wait @p
      }
    }
  }
  return
}

// -----

// R34 on the producer side.
func.func @R34_try_acquire_without_acquire(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
        // expected-error @+1 {{[R34] probes '@p' but no later tspipe.producer_acquire of this task follows it}}
        %r = tspipe.producer_try_acquire @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R40 (a warning): producer work in the head and in the loop.
func.func @R40_head_and_loop_work(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      %h = tspipe.producer_acquire @p
      %hi = tspipe.stage_index %h
      tspipe.producer_commit @p
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        // expected-warning @+1 {{[R40] producer work on '@p' both in the task head and in its domain loop}}
        %idx = tspipe.stage_index %s
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// R65: a ping-pong pipeline (one task on both sides) whose consumer is
// tcgen05.
func.func @R65_ping_pong_tcgen05_consumer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) {
    tspipe.pipeline @p config(<tma_umma, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    // expected-error @+1 {{[R65] uses '@p' on both sides (ping-pong), which needs a synchronous (thread) consumer, but its type tma_umma is consumed by tcgen05}}
    tspipe.task @pp warps(0, 1) produces [@p] consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
        %t = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// X8: an acquire in the head committed only on the last iteration of a
// domain that may be empty.
func.func @X8_last_iter_commit_of_head_acquire(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      %s = tspipe.producer_acquire @p
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        tspipe.last_iter {
          // expected-error @+1 {{[X8] closes the tspipe.producer_acquire @p of the task head only on a guarded iteration; with an empty domain it never runs}}
          tspipe.producer_commit @p
        }
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// X6 (B20): a pipeline consumed by a task but produced by none.
func.func @X6_consumed_never_produced(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[X6] '@p' is consumed by a task but produced by none, so its stages are never filled and every wait hangs}}
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// X6 (B20): the reverse.
func.func @X6_produced_never_consumed(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    // expected-error @+1 {{[X6] '@p' is produced by a task but consumed by none}}
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
  }
  return
}

// -----

// A stage handle selected between two brackets has no cursor to lower to.
func.func @stage_handle_in_select(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @q config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p, @q] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R22] stage handle is used by 'arith.select' (operand 1), but only tspipe.stage_index, tspipe.full_barrier, tspipe.empty_barrier and tspipe.stage_buffer may read a stage}}
        %s = tspipe.producer_acquire @p
        %t = tspipe.producer_acquire @q
        // expected-note @+1 {{the other user}}
        %u = arith.select %c, %s, %t : !tspipe.stage
        tspipe.producer_commit @p
        tspipe.producer_commit @q
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p, @q] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
        %t = tspipe.consumer_wait @q
        tspipe.consumer_release @q
      }
    }
  }
  return
}

// -----

// A stage handle yielded out of a region.
func.func @stage_handle_in_scf_yield(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R22] stage handle is used by 'scf.yield' (operand 0)}}
        %s = tspipe.producer_acquire @p
        %r = scf.execute_region -> !tspipe.stage {
          // expected-note @+1 {{the other user}}
          scf.yield %s : !tspipe.stage
        }
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// A stage handle cast to another type.
func.func @stage_handle_in_cast(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p
        tspipe.producer_commit @p
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R22] stage handle is used by 'builtin.unrealized_conversion_cast' (operand 0)}}
        %s = tspipe.consumer_wait @p
        // expected-note @+1 {{the other user}}
        %x = builtin.unrealized_conversion_cast %s : !tspipe.stage to i32
        tspipe.consumer_release @p
      }
    }
  }
  return
}

// -----

// Every failure of a kernel is reported, not only the first: here an R33, an
// R34 and an X6.
func.func @every_failure_reported(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    // expected-error @+1 {{[X6] '@q' is produced by a task but consumed by none}}
    tspipe.pipeline @q config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @prod warps(0, 1) produces [@p, @q] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{[R33] acquires '@p' but the task never commits it}}
        %s = tspipe.producer_acquire @p
        %t = tspipe.producer_acquire @q
        tspipe.producer_commit @q
      }
    }
    tspipe.task @cons warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
        // expected-error @+1 {{[R34] probes '@p'}}
        %r = tspipe.consumer_try_wait @p
      }
    }
  }
  return
}

// -----

// tspipe issue 17, item 9: a bracket nested in scf.for is rejected when the
// kernel is verified (X15), not only by tspipe-verify-lowering: its cursor
// moves once per inner trip, which neither the lowering nor the checker
// follows.
func.func @X15_bracket_in_scf_for(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        scf.for %j = %c0 to %c2 step %c1 {
          // expected-error @+1 {{[X15] must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.for')}}
          %s = tspipe.producer_acquire @ring
          // expected-error @+1 {{[X15] must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.for')}}
          tspipe.producer_commit @ring
        }
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// The same in an scf.if that is not a tspipe guard.
func.func @X15_bracket_in_scf_if(%n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        scf.if %flag {
          // expected-error @+1 {{[X15] must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.if')}}
          tspipe.producer_commit @ring
        }
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}
