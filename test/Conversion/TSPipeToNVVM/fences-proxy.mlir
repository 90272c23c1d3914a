// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// Proxy fences per pipeline type (docs/Protocols.md, Proxy fences): a stage
// that one side accesses with loads and stores (generic proxy) and the
// other through the async proxy (TMA, wgmma / tcgen05 operands, the CLC
// response) gets `fence.proxy.async.shared::cta` from the generic side's
// threads before they hand it over; none where both sides are generic.

// AsyncUmma (FlashKDA issue 24): the producer threads write the operands,
// the MMA reads them: the commit fences before its arrive.
// CHECK-LABEL: gpu.func @async_umma_commit
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      %{{.*}} = llvm.getelementptr
// CHECK-NEXT:      nvvm.mbarrier.arrive
// CHECK:         scf.for
// CHECK-NOT:       nvvm.fence.proxy
// CHECK:           nvvm.tcgen05.commit
// BIN: gpu.binary @async_umma_commit
gpu.module @async_umma_commit [#nvvm.target<chip = "sm_100a">] {
  gpu.func @async_umma_commit(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 64>, consumer_group = <thread, 1>>)
      tspipe.task @producer warps(0, 2) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(2, 1) consumes [@ring] {
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

// AsyncAsync whose consumer issues a TMA store from the stage
// (TransformerEngine PR 3417): the producer's commit fences.
// CHECK-LABEL: gpu.func @async_async_tma_store
// CHECK:         scf.for
// CHECK:           llvm.store
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:           nvvm.mbarrier.arrive
// CHECK:         scf.for
// CHECK:           nvvm.cp.async.bulk.global.shared.cta
// BIN: gpu.binary @async_async_tma_store
gpu.module @async_async_tma_store [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @async_async_tma_store(%n: index, %out: !llvm.ptr<1>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 256 : i32
    %v = arith.constant 1.0 : f32
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
          smem_bytes(512)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          %b = tspipe.stage_buffer %s : !llvm.ptr<3>
          llvm.store %v, %b : f32, !llvm.ptr<3>
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          %b = tspipe.stage_buffer %s : !llvm.ptr<3>
          %e = nvvm.elect.sync -> i1
          scf.if %e {
            nvvm.cp.async.bulk.global.shared.cta %out, %b, %bytes : !llvm.ptr<1>, !llvm.ptr<3>
            nvvm.cp.async.bulk.commit.group
            nvvm.cp.async.bulk.wait_group 0 {read}
          }
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// AsyncAsync read by threads: both sides generic, no fence.
// CHECK-LABEL: gpu.func @async_async_generic
// CHECK-NOT:     nvvm.fence.proxy
// CHECK:         gpu.return
gpu.module @async_async_generic [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @async_async_generic(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = arith.constant 1.0 : f32
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>>)
          smem_bytes(512)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          %b = tspipe.stage_buffer %s : !llvm.ptr<3>
          llvm.store %v, %b : f32, !llvm.ptr<3>
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          %b = tspipe.stage_buffer %s : !llvm.ptr<3>
          %x = llvm.load %b : !llvm.ptr<3> -> f32
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// TmaUmma whose consumer also reads the stage with a load (DeepGEMM PR
// 389: scale factors read from shared memory next to the MMA): the release
// fences before its tcgen05.commit.
// CHECK-LABEL: gpu.func @tma_umma_generic_read
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:           nvvm.tcgen05.commit
// BIN: gpu.binary @tma_umma_generic_read
gpu.module @tma_umma_generic_read [#nvvm.target<chip = "sm_100a">] {
  gpu.func @tma_umma_generic_read(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 4, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(131072)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          %b = tspipe.stage_buffer %s : !llvm.ptr<3>
          %sf = llvm.load %b : !llvm.ptr<3> -> f32
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// TmaUmma read only by the MMA: both sides async, no fence.
// CHECK-LABEL: gpu.func @tma_umma_mma_only
// CHECK-NOT:     nvvm.fence.proxy
// CHECK:         gpu.return
gpu.module @tma_umma_mma_only [#nvvm.target<chip = "sm_100a">] {
  gpu.func @tma_umma_mma_only(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<tma_umma, num_stages = 4, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(131072)
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

// ClcFetchAsync (cudnn-frontend PR 894): the consumers read the response
// with loads, the next try_cancel writes the slot through the async proxy:
// the release fences before its arrive.
// CHECK-LABEL: gpu.func @clc_release
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:           nvvm.mbarrier.arrive
// BIN: gpu.binary @clc_release
gpu.module @clc_release [#nvvm.target<chip = "sm_100a">] {
  gpu.func @clc_release(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 32>>)
          smem_bytes(32)
      tspipe.task @sched warps(0, 1) produces [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.producer_acquire @clc
          %full = tspipe.full_barrier %p : !llvm.ptr<3>
          %resp = tspipe.stage_buffer %p : !llvm.ptr<3>
          %e = nvvm.elect.sync -> i1
          scf.if %e {
            nvvm.clusterlaunchcontrol.try.cancel %resp, %full
          }
          tspipe.producer_commit @clc
        }
      }
      tspipe.task @work warps(1, 1) consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @clc
          %r = tspipe.stage_buffer %s : !llvm.ptr<3>
          %v = llvm.load %r : !llvm.ptr<3> -> i128
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}
