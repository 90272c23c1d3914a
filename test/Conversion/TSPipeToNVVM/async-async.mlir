// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s

// AsyncAsync, AsyncThread producer: init counts, acquire = parity wait on the
// empty barrier (producer phase starts at 1), commit = every thread arrives
// on the full barrier, wait = parity wait on the full barrier (phase 0),
// release = every thread arrives on the empty barrier, then the drain.

// CHECK-LABEL: gpu.func @async_thread
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[C31:.*]] = arith.constant 31 : i32
// CHECK-DAG:     %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The warp index is broadcast from lane 0 (warp-uniform task dispatch).
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui %[[TID]], %[[C32]]
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %[[ALL]], %[[WARP_T]], %[[C0]], %[[C31]] : i32 -> i32
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %[[ALL]], %[[SYM32]], %[[C0]], %[[C31]] : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[IS_W0:.*]] = arith.cmpi eq, %[[WARP]], %[[C0]]
// CHECK:         scf.if %[[IS_W0]] {
// CHECK:           %[[ELECT:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[ELECT]] {
// Barrier init, straight-line for a short ring: F[i] then E[i] per stage.
// CHECK:             nvvm.mbarrier.init %[[BASE]], %[[C32]]
// CHECK:             nvvm.mbarrier.init %[[EMPTY]], %[[C64]]
// CHECK:             %[[F1:.*]] = llvm.getelementptr %[[BASE]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:             nvvm.mbarrier.init %[[F1]], %[[C32]]
// CHECK:             %[[E1:.*]] = llvm.getelementptr %[[EMPTY]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK:             nvvm.mbarrier.init %[[E1]], %[[C64]]
// CHECK-NOT:         nvvm.mbarrier.init
// CHECK:             nvvm.fence.mbarrier.init
// CHECK:         nvvm.barrier0
// Producer task: warp 0. The domain loop counts in i32.
// CHECK:         scf.if %[[IS_W0]] {
// CHECK:           %[[N:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:           %[[P:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[PIDX:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]]) -> (i32, i32) : i32 {
// CHECK:             %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PIDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:             nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PIDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:             nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
// CHECK-DAG:         %[[NEXT:.*]] = arith.addi %[[PIDX]], %[[C1]]
// CHECK:             %[[WRAP:.*]] = arith.cmpi sge, %[[NEXT]], %[[C2]]
// CHECK:             arith.select %[[WRAP]]
// CHECK-DAG:         %[[FLIP:.*]] = arith.xori %[[PPH]], %[[C1]]
// CHECK:             arith.select %[[WRAP]], %[[FLIP]], %[[PPH]]
// CHECK:             scf.yield
// Drain: num_stages parity waits on the empty barriers (straight-line for
// a short ring), from the cursor the domain loop left.
// CHECK:           %[[DE:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]#0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:           nvvm.mbarrier.try_wait.parity %[[DE]], %[[P]]#1
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity
// CHECK:         }
// Consumer task: warps 1-2, phase starts at 0.
// CHECK:         scf.if
// CHECK:           scf.for %{{.*}} iter_args(%[[CIDX:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]]) -> (i32, i32) : i32 {
// CHECK:             %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CIDX]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:             %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CIDX]]]
// CHECK:             nvvm.mbarrier.arrive %[[E2]] : !llvm.ptr<3>
// CHECK-NOT:       nvvm.mbarrier.try_wait.parity
// CHECK:         gpu.return
gpu.module @m {
  gpu.func @async_thread(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 64>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 2) consumes [@ring] {
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

// AsyncLoad producer: commit is cp.async.mbarrier.arrive.noinc on the full
// barrier of the stage.

// CHECK-LABEL: gpu.func @async_load
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[STAGE_BYTES:.*]] = arith.constant 512 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[BUF:.*]] = llvm.getelementptr %[[BASE]][128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[OFF:.*]] = arith.muli %[[P]], %[[STAGE_BYTES]] : i32
// CHECK:           %[[SLICE:.*]] = llvm.getelementptr %[[BUF]][%[[OFF]]]
// CHECK:           nvvm.cp.async.shared.global %[[SLICE]]
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[P]]]
// CHECK:           nvvm.cp.async.mbarrier.arrive %[[F]] {noinc = true} : !llvm.ptr<3>
// CHECK-NOT:       nvvm.mbarrier.arrive %
// CHECK:           scf.yield
gpu.module @m {
  gpu.func @async_load(%x: !llvm.ptr<1>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>,
          async_producer_op = async_load>) smem_bytes(1024)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          nvvm.cp.async.shared.global %buf, %x, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
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

// Try forms: the probe is one non-blocking try_wait; the blocking wait runs
// only when the probe failed.

// CHECK-LABEL: gpu.func @try_forms
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for %{{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:           %[[READY:.*]] = nvvm.mbarrier.try_wait %[[E]], %[[PPH]] : !llvm.ptr<3>, i32 -> i1
// CHECK-DAG:       %[[NOT:.*]] = arith.xori %[[READY]], %[[TRUE]]
// CHECK:           scf.if %[[NOT]] {
// CHECK:             nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           }
// CHECK:           %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[P]]]
// CHECK:           nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
// CHECK:         scf.for %{{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[C]]]
// CHECK:           %[[CREADY:.*]] = nvvm.mbarrier.try_wait %[[F2]], %[[CPH]] : !llvm.ptr<3>, i32 -> i1
// CHECK-DAG:       %[[CNOT:.*]] = arith.xori %[[CREADY]], %[[TRUE]]
// CHECK:           scf.if %[[CNOT]] {
// CHECK:             nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           }
// CHECK:           %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[C]]]
// CHECK:           nvvm.mbarrier.arrive %[[E2]] : !llvm.ptr<3>
gpu.module @m {
  gpu.func @try_forms(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %r = tspipe.producer_try_acquire @ring
          %s = tspipe.producer_acquire @ring ready(%r)
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %r = tspipe.consumer_try_wait @ring
          %s = tspipe.consumer_wait @ring ready(%r)
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// Loop guards: first_iter compares the iteration with the start, last_iter
// checks that the next iteration reaches the end; cursors flow out of the
// guard through scf.if results.

// CHECK-LABEL: gpu.func @guards
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// The domain bounds (the kernel's arguments), not a protocol value.
// CHECK:         %[[LB:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:         %[[UB:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:         scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[STEP:.*]] iter_args(%[[P:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[IV]], %[[LB]] : i32
// An acquire does not move the cursor: the guard yields nothing.
// CHECK:           scf.if %[[FIRST]] {
// CHECK:             %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[P]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           }
// CHECK:           %[[NEXT:.*]] = arith.addi %[[IV]], %[[STEP]] : i32
// CHECK:           %[[LAST:.*]] = arith.cmpi sge, %[[NEXT]], %[[UB]] : i32
// CHECK:           %[[G:.*]]:2 = scf.if %[[LAST]] -> (i32, i32) {
// CHECK:             %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[P]]]
// CHECK:             nvvm.mbarrier.arrive %[[F]] : !llvm.ptr<3>
// CHECK-DAG:         %[[PN:.*]] = arith.addi %[[P]], %[[C1]] : i32
// CHECK:             %[[PW:.*]] = arith.cmpi sge, %[[PN]], %[[C2]] : i32
// CHECK-DAG:         %[[PWR:.*]] = arith.addi %[[P]], %[[CM1]] : i32
// CHECK-DAG:         %[[PX:.*]] = arith.select %[[PW]], %[[PWR]], %[[PN]] : i32
// CHECK-DAG:         %[[PFL:.*]] = arith.xori %[[PPH]], %[[C1]] : i32
// CHECK-DAG:         %[[PPX:.*]] = arith.select %[[PW]], %[[PFL]], %[[PPH]] : i32
// CHECK:             scf.yield %[[PX]], %[[PPX]] : i32, i32
// CHECK:           } else {
// CHECK:             scf.yield %[[P]], %[[PPH]] : i32, i32
// CHECK:           }
// CHECK:           scf.yield %[[G]]#0, %[[G]]#1 : i32, i32
gpu.module @m {
  gpu.func @guards(%lb: index, %n: index) kernel {
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %lb to %n step %c1 {
          tspipe.first_iter {
            %s = tspipe.producer_acquire @ring
          }
          tspipe.last_iter {
            tspipe.producer_commit @ring
          }
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %lb to %n step %c1 {
          tspipe.first_iter {
            %s = tspipe.consumer_wait @ring
          }
          tspipe.last_iter {
            tspipe.consumer_release @ring
          }
        }
      }
    }
    gpu.return
  }
}

// -----

// A long ring (16 stages, more than 8): barrier init and the drain are i32
// loops over the stages instead of straight-line code, so code size and
// lowering time do not grow with num_stages.

// CHECK-LABEL: gpu.func @long_ring
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared memory base, once at kernel entry: the 32-bit shared
// address of the symbol, broadcast from lane 0.
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[BASE32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %[[BASE32]] : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         scf.for %[[S:.*]] = %[[C0]] to %[[C16]] step %[[C1]] : i32 {
// CHECK-NEXT:      %[[FI:.*]] = llvm.getelementptr %[[BASE]][%[[S]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK-NEXT:      nvvm.mbarrier.init %[[FI]], %[[C32]]
// CHECK-NEXT:      %[[EI:.*]] = llvm.getelementptr %[[EMPTY]][%[[S]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK-NEXT:      nvvm.mbarrier.init %[[EI]], %[[C32]]
// CHECK-NEXT:    }
// CHECK:         %[[P:.*]]:2 = scf.for
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[C16]] step %[[C1]] iter_args(%[[DIDX:.*]] = %[[P]]#0, %[[DPH:.*]] = %[[P]]#1) -> (i32, i32) : i32 {
// CHECK-NEXT:      %[[DE:.*]] = llvm.getelementptr %[[EMPTY]][%[[DIDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[DE]], %[[DPH]]
// CHECK:           scf.yield
gpu.module @m {
  gpu.func @long_ring(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 16,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
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
