// RUN: tspipe-opt %s 2>&1 | FileCheck %s
//
// A verifier warning printed without -verify-diagnostics: the note that shows
// the op must not verify the op again (that re-entered the verifier without
// end and overflowed the stack).

// CHECK: warning: [R40] producer work on '@p' both in the task head and in its domain loop
// CHECK-LABEL: func.func @R40_head_and_loop_work
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
