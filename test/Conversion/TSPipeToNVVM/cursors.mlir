// RUN: tspipe-opt %s --allow-unregistered-dialect --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s

// advance_on_wait (split consumer): the wait advances the wait cursor at
// once, the release task uses its own lagging release cursor. The waiter
// hands each stage to the releaser through @proxy (ts-semantics 4.5).

// CHECK-LABEL: gpu.func @advance_on_wait
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Waiter: one loop-carried @ring cursor that advances after the wait, no
// arrive on @ring (then its @proxy bracket).
// CHECK:         scf.if
// CHECK:           scf.for {{.*}} iter_args(%[[WIDX:.*]] = %[[C0]], %[[WPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C1]])
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[WIDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[F]], %[[WPH]]
// CHECK-DAG:         %[[WN:.*]] = arith.addi %[[WIDX]], %[[C1]] : i32
// CHECK-DAG:         %[[WW:.*]] = arith.cmpi sge, %[[WN]], %[[C2]] : i32
// CHECK-DAG:         %[[WWR:.*]] = arith.addi %[[WIDX]], %[[CM1]] : i32
// CHECK-DAG:         %[[WX:.*]] = arith.select %[[WW]], %[[WWR]], %[[WN]] : i32
// CHECK-DAG:         %[[WFL:.*]] = arith.xori %[[WPH]], %[[C1]] : i32
// CHECK-DAG:         %[[WPX:.*]] = arith.select %[[WW]], %[[WFL]], %[[WPH]] : i32
// CHECK:             scf.yield %[[WX]], %[[WPX]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
// Releaser: after its @proxy wait, arrives on the empty barrier of its own
// release cursor; it never waits on @ring.
// CHECK:         scf.if
// CHECK:           scf.for {{.*}} iter_args(%[[RIDX:.*]] = %[[C0]], %[[RPH:.*]] = %[[C0]], %{{.*}} = %[[C0]], %{{.*}} = %[[C0]])
// CHECK-NOT:         nvvm.mbarrier.try_wait.parity %{{.*}}, %[[RPH]]
// CHECK:             %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[RIDX]]]
// CHECK:             nvvm.mbarrier.arrive %[[E]]
// CHECK-DAG:         %[[RN:.*]] = arith.addi %[[RIDX]], %[[C1]] : i32
// CHECK-DAG:         %[[RW:.*]] = arith.cmpi sge, %[[RN]], %[[C2]] : i32
// CHECK-DAG:         %[[RWR:.*]] = arith.addi %[[RIDX]], %[[CM1]] : i32
// CHECK-DAG:         %[[RX:.*]] = arith.select %[[RW]], %[[RWR]], %[[RN]] : i32
// CHECK-DAG:         %[[RFL:.*]] = arith.xori %[[RPH]], %[[C1]] : i32
// CHECK-DAG:         %[[RPX:.*]] = arith.select %[[RW]], %[[RFL]], %[[RPH]] : i32
// CHECK:             scf.yield %[[RX]], %[[RPX]], %{{.*}}, %{{.*}} : i32, i32, i32, i32
gpu.module @m {
  gpu.func @advance_on_wait(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>,
          advance_on_wait = true>)
      tspipe.pipeline @proxy config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @waiter warps(1, 1) produces [@proxy] consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          %p = tspipe.producer_acquire @proxy
          tspipe.producer_commit @proxy
        }
      }
      tspipe.task @releaser warps(2, 1) consumes [@ring, @proxy] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.consumer_wait @proxy
          %s = tspipe.current_stage @ring consumer
          tspipe.consumer_release @ring
          tspipe.consumer_release @proxy
        }
      }
    }
    gpu.return
  }
}

// -----

// A cluster kernel synchronizes the barrier inits across the cluster with a
// relaxed arrive and a wait instead of a CTA barrier.

// CHECK-LABEL: gpu.func @cluster_init
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK-NOT:     nvvm.barrier0
gpu.module @m {
  gpu.func @cluster_init(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>,
          cta_layout_vmnk = [1, 2, 1, 1]>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Stage accessors: index, full/empty barrier and the stage's buffer slice
// (buffer base + index * stage bytes).

// CHECK-LABEL: gpu.func @accessors
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[STAGE_BYTES:.*]] = arith.constant 512 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[BUF:.*]] = llvm.getelementptr %[[BASE]][128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for {{.*}} iter_args(%[[IDX:.*]] = %[[C0]]
// CHECK:           %[[EB:.*]] = llvm.getelementptr %[[EMPTY]][%[[IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:           %[[I:.*]] = arith.index_cast %[[IDX]] : i32 to index
// CHECK:           %[[FULL:.*]] = llvm.getelementptr %[[BASE]][%[[IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:           %[[OFF:.*]] = arith.muli %[[IDX]], %[[STAGE_BYTES]] : i32
// CHECK:           %[[SLICE:.*]] = llvm.getelementptr %[[BUF]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:           "test.use"(%[[I]], %[[FULL]], %[[EB]], %[[SLICE]])
gpu.module @m {
  gpu.func @accessors(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
          smem_bytes(1024)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          %idx = tspipe.stage_index %s
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %empty = tspipe.empty_barrier %s : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          "test.use"(%idx, %full, %empty, %buf) : (index, !llvm.ptr<3>, !llvm.ptr<3>, !llvm.ptr<3>) -> ()
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// registers(n) becomes setmaxnreg at task entry: an increase above TS's
// default budget (65536 / (12 warps * 32 * 8) * 8 = 168 registers), a
// decrease below it.

// A kernel with registers(n) also gets .minnctapersm 1 (nvvm.minctasm)
// next to its launch bound, or ptxas ignores setmaxnreg (B21; the ptxas run
// is in registers-ptxas.mlir).
// CHECK-LABEL: gpu.func @register_hints
// CHECK-SAME:    known_block_size = array<i32: 384, 1, 1>
// CHECK-SAME:    nvvm.minctasm = 1 : i32
// CHECK:         nvvm.barrier0
// CHECK:         scf.if
// CHECK-NEXT:      nvvm.setmaxregister decrease 40
// CHECK:         scf.if
// CHECK-NEXT:      nvvm.setmaxregister increase 232
gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @register_hints(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(12) {
      tspipe.task @load warps(0, 4) registers(40) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
      tspipe.task @math warps(4, 8) registers(232) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
    }
    gpu.return
  }
}
