// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// RUN: tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=PTX

// remote_arrive_scope on tspipe.pipeline (docs/Protocols.md, Remote-arrive
// scope): every remote arrive of the pipeline's lowering (mapa, then the
// shared::cluster form of mbarrier.arrive / arrive.expect_tx) releases at
// the chosen scope. Absent means cluster (tma-async-cluster.mlir,
// clc-fetch-async.mlir); cta is the CTA-scope release CUTLASS's cluster
// barriers issue.

// A TmaAsync consumer release across a 2-CTA cluster, CTA scope: the arrive
// on each CTA of the multicast set carries no cluster scope.
// CHECK-LABEL: gpu.func @tma_release_cta
// CHECK:         %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:    nvvm.mbarrier.arrive %[[REMOTE]] : !llvm.ptr<7>
// CHECK-NOT:     mem_scope<cluster>
// PTX-LABEL:   gpu.binary @tma_release_cta
// PTX-SAME:    mapa.shared::cluster
// PTX-SAME:    mbarrier.arrive.shared::cluster.b64
gpu.module @tma_release_cta [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @tma_release_cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768) remote_arrive_scope(cta)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @compute warps(1, 2) consumes [@ring] {
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

// The same pipeline with remote_arrive_scope(cluster) written out: the
// default's instruction, a cluster-scope release.
// CHECK-LABEL: gpu.func @tma_release_cluster
// CHECK:         %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:    nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// PTX-LABEL:   gpu.binary @tma_release_cluster
// PTX-SAME:    mbarrier.arrive.release.cluster.shared::cluster.b64
gpu.module @tma_release_cluster [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @tma_release_cluster(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768) remote_arrive_scope(cluster)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @compute warps(1, 2) consumes [@ring] {
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

// ClcFetchAsync on a 2-CTA cluster at CTA scope: the remote arms of each
// CTA's full barrier (arrive.expect_tx) and the workers' releases to CTA 0.
// CHECK-LABEL: gpu.func @clc_cta
// CHECK:         %[[PEER_F:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:    nvvm.mbarrier.arrive.expect_tx %[[PEER_F]], %{{.*}} : !llvm.ptr<7>, i32
// CHECK:         %[[CTA0_E:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:    nvvm.mbarrier.arrive %[[CTA0_E]] : !llvm.ptr<7>
// CHECK-NOT:     mem_scope<cluster>
// PTX-LABEL:   gpu.binary @clc_cta
// PTX-SAME:    mbarrier.arrive.shared::cluster.b64
// PTX-SAME:    mbarrier.arrive.expect_tx.shared::cluster.b64
gpu.module @clc_cta [#nvvm.target<chip = "sm_100a">] {
  gpu.func @clc_cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 2, num_bytes = 16,
          producer_group = <thread, 1>, consumer_group = <thread, 192>,
          cta_layout_vmnk = [1, 2, 1, 1], producer_signaling = cta_leader>)
          smem_bytes(32) remote_arrive_scope(cta)
      tspipe.task @sched warps(0, 1) produces [@clc] consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %p = tspipe.producer_acquire @clc
          %full = tspipe.full_barrier %p : !llvm.ptr<3>
          %resp = tspipe.stage_buffer %p : !llvm.ptr<3>
          %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
          %c0_i32 = arith.constant 0 : i32
          %is0 = arith.cmpi eq, %rank, %c0_i32 : i32
          scf.if %is0 {
            %e = nvvm.elect.sync -> i1
            scf.if %e {
              nvvm.clusterlaunchcontrol.try.cancel multicast, %resp, %full
            }
          }
          tspipe.producer_commit @clc
          %s = tspipe.consumer_wait @clc
          tspipe.consumer_release @clc
        }
        tspipe.producer_tail @clc
      }
      tspipe.task @work warps(1, 2) consumes [@clc] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @clc
          tspipe.consumer_release @clc
        }
      }
    }
    gpu.return
  }
}

// -----

// AsyncUmma with V = 2 at CTA scope: the producer's commit arrives on the
// pair leader's full barrier (rank - rank % 2) through mapa.
// CHECK-LABEL: gpu.func @pair_leader_cta
// CHECK:         %[[LEADER_F:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:    nvvm.mbarrier.arrive %[[LEADER_F]] : !llvm.ptr<7>
// CHECK-NOT:     mem_scope<cluster>
// PTX-LABEL:   gpu.binary @pair_leader_cta
// PTX-SAME:    mbarrier.arrive.shared::cluster.b64
gpu.module @pair_leader_cta [#nvvm.target<chip = "sm_100a">] {
  gpu.func @pair_leader_cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 64>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 2, 1, 1], consumer_signaling = cta_leader>)
          remote_arrive_scope(cta)
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
