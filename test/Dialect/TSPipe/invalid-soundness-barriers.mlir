// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X12: CTA- and cluster-wide barriers in a task that does not span the CTA
// (or cluster) deadlock; X13: the named barriers that replace them.

// NVIDIA/Fuser PR 4187: a CTA-wide barrier in a warp-specialized branch.
func.func @X12_gpu_barrier_in_task(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        // expected-error @+1 {{'gpu.barrier' op [X12] waits for every thread of the CTA, but task '@c0' runs on warps [1, 2) of 3, so the other warps never arrive and the barrier never completes; declare 'tspipe.named_barrier @b tasks [@c0, ...]' and use 'tspipe.named_barrier_sync @b'}}
        gpu.barrier
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// triton PR 9456: __syncthreads (bar.sync 0) inside one warp group's partition.
func.func @X12_barrier0_in_task(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        // expected-error @+1 {{'nvvm.barrier0' op [X12] waits for every thread of the CTA, but task '@c0' runs on warps [1, 2) of 3, so the other warps never arrive and the barrier never completes; declare 'tspipe.named_barrier @b tasks [@c0, ...]' and use 'tspipe.named_barrier_sync @b'}}
        nvvm.barrier0
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// triton PR 9456: bar.sync id without a thread count counts the whole CTA.
func.func @X12_barrier_without_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        %id = arith.constant 3 : i32
        // expected-error @+1 {{'nvvm.barrier' op [X12] waits for every thread of the CTA, but task '@c0' runs on warps [1, 2) of 3, so the other warps never arrive and the barrier never completes; declare 'tspipe.named_barrier @b tasks [@c0, ...]' and use 'tspipe.named_barrier_sync @b'}}
        nvvm.barrier id = %id
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// triton PR 9786: barrier.cluster arrive/wait in one partition.
func.func @X12_cluster_barrier_in_task(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        // expected-error @+1 {{'nvvm.cluster.arrive' op [X12] waits for every thread of the cluster, but task '@c0' runs on warps [1, 2) of 3, so the other threads of the cluster never arrive and the barrier never completes; synchronize the CTAs through a pipeline spanning the cluster instead}}
        nvvm.cluster.arrive
        // expected-error @+1 {{'nvvm.cluster.wait' op [X12] waits for every thread of the cluster, but task '@c0' runs on warps [1, 2) of 3, so the other threads of the cluster never arrive and the barrier never completes; synchronize the CTAs through a pipeline spanning the cluster instead}}
        nvvm.cluster.wait
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// A task the barrier does not count (the thread count would be short).
func.func @X13_unlisted_task(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.named_barrier @nb tasks [@c0, @c1]
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        // expected-error @+1 {{'tspipe.named_barrier_sync' op [X13] task '@p' is not listed by named barrier @nb, whose thread count counts only the threads of the tasks it lists; add @p to its tasks}}
        tspipe.named_barrier_sync @nb
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.named_barrier_sync @nb
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.named_barrier_sync @nb
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// A listed task that never reaches the barrier: the others wait forever
// (NVIDIA/Fuser PR 4187's shape with a named barrier).
func.func @X13_listed_task_never_arrives(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    // expected-error @+1 {{'tspipe.named_barrier' op [X13] lists task '@c1', which never syncs or arrives at it, so the barrier's thread count (64) is never reached; drop the task from the list or use the barrier in it}}
    tspipe.named_barrier @nb tasks [@c0, @c1]
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.named_barrier_sync @nb
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// A sync on a barrier the kernel does not declare.
func.func @X13_undeclared(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        // expected-error @+1 {{'tspipe.named_barrier_sync' op [X13] @nb does not name a tspipe.named_barrier of the enclosing tspipe.kernel; declare 'tspipe.named_barrier @nb tasks [@c0, ...]'}}
        tspipe.named_barrier_sync @nb
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}

// -----

// A named barrier inside an scf.if: the progress checker could not count its
// phases there, and X15 keeps it out (the arrive-only and differing
// schedules X13 used to reject are decided by the checker:
// Transforms/check-progress-named-barriers.mlir, rule X30).
func.func @X15_named_barrier_nested(%n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(512)
    tspipe.named_barrier @nb tasks [@c0, @c1]
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c0 warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        scf.if %flag {
          // expected-error @+1 {{'tspipe.named_barrier_sync' op [X15] must be a direct child of the task, its domain loop or a loop guard (pipeline cursors cannot be carried through 'scf.if')}}
          tspipe.named_barrier_sync @nb
        }
        tspipe.consumer_release @ring
      }
    }
    tspipe.task @c1 warps(2, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.named_barrier_sync @nb
        tspipe.consumer_release @ring
      }
    }
  }
  return
}
