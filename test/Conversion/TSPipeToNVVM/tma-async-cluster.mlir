// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s

// TmaAsync across a cluster (docs/Protocols.md, Clusters and TmaAsync). Every
// CTA inits its barriers, fences them and joins a relaxed cluster arrive +
// wait before any task (B10). Each CTA's producer warp arms its own F with
// num_bytes (local arrive.expect_tx). The lane release selects, per consumer
// warp, the lanes l < T whose CTA l is in this CTA's multicast set and
// arrives on that CTA's E through mapa and the shared::cluster form (B14),
// never the local form.

// cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = (0, 1): the two CTAs differ
// in M and share N, so both are in each other's set; lanes 0 and 1 of each
// consumer warp arrive on CTA 0's and CTA 1's E (consumer_group = 2 warps x 2).
// Only the L coordinate (rank / 2) is left to compare.

// CHECK-LABEL: gpu.func @mcast_m_2cta
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-DAG:     %[[CG:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[CT:.*]] = arith.constant 2 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]]
// CHECK:         %[[EBASE:.*]] = llvm.getelementptr %[[SMEM:.*]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[SMEM]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EBASE]], %[[CG]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:  nvvm.cluster.wait {aligned}
// CHECK-NOT:   nvvm.barrier0
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[PE:.*]] = llvm.getelementptr %[[EBASE]][%[[PI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           nvvm.elect.sync
// CHECK:           %[[PF:.*]] = llvm.getelementptr %[[SMEM]][%[[PI]]]
// CHECK:           nvvm.mbarrier.arrive.expect_tx %[[PF]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:         scf.for %{{.*}} iter_args(%[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[SMEM]][%[[CI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// CHECK:           nvvm.bar.warp.sync
// CHECK:           %[[IN_CLUSTER:.*]] = arith.cmpi ult, %[[LANE]], %[[CT]] : i32
// CHECK:           %[[L_ME:.*]] = arith.divui %[[RANK]], %[[CT]]
// CHECK:           %[[L_PEER:.*]] = arith.divui %[[LANE]], %[[CT]]
// CHECK:           %[[SAME_L:.*]] = arith.cmpi eq, %[[L_ME]], %[[L_PEER]]
// CHECK:           %[[SIGNAL:.*]] = arith.andi %[[IN_CLUSTER]], %[[SAME_L]]
// CHECK:           scf.if %[[SIGNAL]] {
// CHECK:             %[[CE:.*]] = llvm.getelementptr %[[EBASE]][%[[CI]]]
// CHECK:             %[[REMOTE:.*]] = nvvm.mapa %[[CE]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-NOT:         nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
gpu.module @m {
  gpu.func @mcast_m_2cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768)
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

// cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = (1, 0): the CTAs share M and
// differ in N; lanes 0 and 1 arrive on both CTAs' E.

// CHECK-LABEL: gpu.func @mcast_n_2cta
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-DAG:     %[[CG:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[CT:.*]] = arith.constant 2 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]]
// CHECK:         %[[EBASE:.*]] = llvm.getelementptr %[[SMEM:.*]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[SMEM]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EBASE]], %[[CG]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:  nvvm.cluster.wait {aligned}
// CHECK-NOT:   nvvm.barrier0
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[PE:.*]] = llvm.getelementptr %[[EBASE]][%[[PI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           nvvm.elect.sync
// CHECK:           %[[PF:.*]] = llvm.getelementptr %[[SMEM]][%[[PI]]]
// CHECK:           nvvm.mbarrier.arrive.expect_tx %[[PF]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:         scf.for %{{.*}} iter_args(%[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[SMEM]][%[[CI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// CHECK:           nvvm.bar.warp.sync
// CHECK:           %[[IN_CLUSTER:.*]] = arith.cmpi ult, %[[LANE]], %[[CT]] : i32
// CHECK:           %[[L_ME:.*]] = arith.divui %[[RANK]], %[[CT]]
// CHECK:           %[[L_PEER:.*]] = arith.divui %[[LANE]], %[[CT]]
// CHECK:           %[[SAME_L:.*]] = arith.cmpi eq, %[[L_ME]], %[[L_PEER]]
// CHECK:           %[[SIGNAL:.*]] = arith.andi %[[IN_CLUSTER]], %[[SAME_L]]
// CHECK:           scf.if %[[SIGNAL]] {
// CHECK:             %[[CE:.*]] = llvm.getelementptr %[[EBASE]][%[[CI]]]
// CHECK:             %[[REMOTE:.*]] = nvvm.mapa %[[CE]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-NOT:         nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
gpu.module @m {
  gpu.func @mcast_n_2cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>)
          smem_bytes(32768)
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

// cta_layout_vmnk = [1, 2, 2, 1], mcast_mode_mn = (1, 1): lane l < 4 arrives on
// CTA l's E when l shares this CTA's M (rank % 2) or its N ((rank / 2) % 2):
// M + N - 1 = 3 arrivals per warp, consumer_group = 2 x 3.

// CHECK-LABEL: gpu.func @mcast_both_4cta
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 2, 1>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-DAG:     %[[CG:.*]] = arith.constant 6 : i32
// CHECK-DAG:     %[[CT:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]]
// CHECK:         %[[EBASE:.*]] = llvm.getelementptr %[[SMEM:.*]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[SMEM]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EBASE]], %[[CG]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:  nvvm.cluster.wait {aligned}
// CHECK-NOT:   nvvm.barrier0
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[PE:.*]] = llvm.getelementptr %[[EBASE]][%[[PI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           nvvm.elect.sync
// CHECK:           %[[PF:.*]] = llvm.getelementptr %[[SMEM]][%[[PI]]]
// CHECK:           nvvm.mbarrier.arrive.expect_tx %[[PF]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:         scf.for %{{.*}} iter_args(%[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[SMEM]][%[[CI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// CHECK:           nvvm.bar.warp.sync
// CHECK:           %[[IN_CLUSTER:.*]] = arith.cmpi ult, %[[LANE]], %[[CT]] : i32
// CHECK:           %[[M_ME:.*]] = arith.remui %[[RANK]], %[[C2]]
// CHECK:           %[[Q_ME:.*]] = arith.divui %[[RANK]], %[[C2]]
// CHECK:           %[[N_ME:.*]] = arith.remui %[[Q_ME]], %[[C2]]
// CHECK:           %[[L_ME:.*]] = arith.divui %[[Q_ME]], %[[C2]]
// CHECK:           %[[M_PEER:.*]] = arith.remui %[[LANE]], %[[C2]]
// CHECK:           %[[Q_PEER:.*]] = arith.divui %[[LANE]], %[[C2]]
// CHECK:           %[[N_PEER:.*]] = arith.remui %[[Q_PEER]], %[[C2]]
// CHECK:           %[[L_PEER:.*]] = arith.divui %[[Q_PEER]], %[[C2]]
// CHECK:           %[[SAME_M:.*]] = arith.cmpi eq, %[[M_ME]], %[[M_PEER]]
// CHECK:           %[[SAME_N:.*]] = arith.cmpi eq, %[[N_ME]], %[[N_PEER]]
// CHECK:           %[[ROW_OR_COL:.*]] = arith.ori %[[SAME_M]], %[[SAME_N]]
// CHECK:           %[[SAME_L:.*]] = arith.cmpi eq, %[[L_ME]], %[[L_PEER]]
// CHECK:           %[[IN_SET:.*]] = arith.andi %[[ROW_OR_COL]], %[[SAME_L]]
// CHECK:           %[[SIGNAL:.*]] = arith.andi %[[IN_CLUSTER]], %[[IN_SET]]
// CHECK:           scf.if %[[SIGNAL]] {
// CHECK:             %[[CE:.*]] = llvm.getelementptr %[[EBASE]][%[[CI]]]
// CHECK:             %[[REMOTE:.*]] = nvvm.mapa %[[CE]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-NOT:         nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
gpu.module @m {
  gpu.func @mcast_both_4cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 2, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 6>,
          cta_layout_vmnk = [1, 2, 2, 1], mcast_mode_mn = [1, 1]>)
          smem_bytes(32768)
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

// cta_layout_vmnk = [1, 4, 1, 1], mcast_mode_mn = (0, 1): four CTAs along M share
// N; lanes 0..3 arrive on every CTA's E (consumer_group = 2 x 4).

// CHECK-LABEL: gpu.func @mcast_m_4cta
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 4, 1, 1>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-DAG:     %[[CG:.*]] = arith.constant 8 : i32
// CHECK-DAG:     %[[CT:.*]] = arith.constant 4 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]]
// CHECK:         %[[EBASE:.*]] = llvm.getelementptr %[[SMEM:.*]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[SMEM]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EBASE]], %[[CG]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:  nvvm.cluster.wait {aligned}
// CHECK-NOT:   nvvm.barrier0
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[PE:.*]] = llvm.getelementptr %[[EBASE]][%[[PI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           nvvm.elect.sync
// CHECK:           %[[PF:.*]] = llvm.getelementptr %[[SMEM]][%[[PI]]]
// CHECK:           nvvm.mbarrier.arrive.expect_tx %[[PF]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:         scf.for %{{.*}} iter_args(%[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[SMEM]][%[[CI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// CHECK:           nvvm.bar.warp.sync
// CHECK:           %[[IN_CLUSTER:.*]] = arith.cmpi ult, %[[LANE]], %[[CT]] : i32
// CHECK:           %[[L_ME:.*]] = arith.divui %[[RANK]], %[[CT]]
// CHECK:           %[[L_PEER:.*]] = arith.divui %[[LANE]], %[[CT]]
// CHECK:           %[[SAME_L:.*]] = arith.cmpi eq, %[[L_ME]], %[[L_PEER]]
// CHECK:           %[[SIGNAL:.*]] = arith.andi %[[IN_CLUSTER]], %[[SAME_L]]
// CHECK:           scf.if %[[SIGNAL]] {
// CHECK:             %[[CE:.*]] = llvm.getelementptr %[[EBASE]][%[[CI]]]
// CHECK:             %[[REMOTE:.*]] = nvvm.mapa %[[CE]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-NOT:         nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
gpu.module @m {
  gpu.func @mcast_m_4cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 8>,
          cta_layout_vmnk = [1, 4, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768)
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

// cta_layout_vmnk = [1, 1, 4, 1], mcast_mode_mn = (1, 0): four CTAs along N.

// CHECK-LABEL: gpu.func @mcast_n_4cta
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 4, 1, 1>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-DAG:     %[[CG:.*]] = arith.constant 8 : i32
// CHECK-DAG:     %[[CT:.*]] = arith.constant 4 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]]
// CHECK:         %[[EBASE:.*]] = llvm.getelementptr %[[SMEM:.*]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[SMEM]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EBASE]], %[[CG]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:  nvvm.cluster.wait {aligned}
// CHECK-NOT:   nvvm.barrier0
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[PE:.*]] = llvm.getelementptr %[[EBASE]][%[[PI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           nvvm.elect.sync
// CHECK:           %[[PF:.*]] = llvm.getelementptr %[[SMEM]][%[[PI]]]
// CHECK:           nvvm.mbarrier.arrive.expect_tx %[[PF]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:         scf.for %{{.*}} iter_args(%[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[SMEM]][%[[CI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// CHECK:           nvvm.bar.warp.sync
// CHECK:           %[[IN_CLUSTER:.*]] = arith.cmpi ult, %[[LANE]], %[[CT]] : i32
// CHECK:           %[[L_ME:.*]] = arith.divui %[[RANK]], %[[CT]]
// CHECK:           %[[L_PEER:.*]] = arith.divui %[[LANE]], %[[CT]]
// CHECK:           %[[SAME_L:.*]] = arith.cmpi eq, %[[L_ME]], %[[L_PEER]]
// CHECK:           %[[SIGNAL:.*]] = arith.andi %[[IN_CLUSTER]], %[[SAME_L]]
// CHECK:           scf.if %[[SIGNAL]] {
// CHECK:             %[[CE:.*]] = llvm.getelementptr %[[EBASE]][%[[CI]]]
// CHECK:             %[[REMOTE:.*]] = nvvm.mapa %[[CE]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-NOT:         nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
gpu.module @m {
  gpu.func @mcast_n_4cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 8>,
          cta_layout_vmnk = [1, 1, 4, 1], mcast_mode_mn = [1, 0]>)
          smem_bytes(32768)
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

// cta_layout_vmnk = [1, 2, 2, 1], mcast_mode_mn = (1, 0): only the CTAs with
// this CTA's M coordinate (rank % 2) share its stages, so of lanes 0..3 only
// the two with lane % 2 == rank % 2 arrive (consumer_group = 2 x 2).

// CHECK-LABEL: gpu.func @mcast_m_rows_4cta
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 2, 1>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-DAG:     %[[CG:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]]
// CHECK:         %[[EBASE:.*]] = llvm.getelementptr %[[SMEM:.*]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[SMEM]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EBASE]], %[[CG]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:  nvvm.cluster.wait {aligned}
// CHECK-NOT:   nvvm.barrier0
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK:           %[[PE:.*]] = llvm.getelementptr %[[EBASE]][%[[PI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[PE]], %[[PPH]]
// CHECK:           nvvm.elect.sync
// CHECK:           %[[PF:.*]] = llvm.getelementptr %[[SMEM]][%[[PI]]]
// CHECK:           nvvm.mbarrier.arrive.expect_tx %[[PF]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:         scf.for %{{.*}} iter_args(%[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[CF:.*]] = llvm.getelementptr %[[SMEM]][%[[CI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[CF]], %[[CPH]]
// CHECK:           nvvm.bar.warp.sync
// CHECK:           %[[IN_CLUSTER:.*]] = arith.cmpi ult, %[[LANE]], %[[CG]] : i32
// CHECK:           %[[M_ME:.*]] = arith.remui %[[RANK]], %[[C2]]
// CHECK:           %[[Q_ME:.*]] = arith.divui %[[RANK]], %[[C2]]
// CHECK:           %[[L_ME:.*]] = arith.divui %[[Q_ME]], %[[C2]]
// CHECK:           %[[M_PEER:.*]] = arith.remui %[[LANE]], %[[C2]]
// CHECK:           %[[Q_PEER:.*]] = arith.divui %[[LANE]], %[[C2]]
// CHECK:           %[[L_PEER:.*]] = arith.divui %[[Q_PEER]], %[[C2]]
// CHECK:           %[[SAME_M:.*]] = arith.cmpi eq, %[[M_ME]], %[[M_PEER]]
// CHECK:           %[[SAME_L:.*]] = arith.cmpi eq, %[[L_ME]], %[[L_PEER]]
// CHECK:           %[[IN_SET:.*]] = arith.andi %[[SAME_M]], %[[SAME_L]]
// CHECK:           %[[SIGNAL:.*]] = arith.andi %[[IN_CLUSTER]], %[[IN_SET]]
// CHECK:           scf.if %[[SIGNAL]] {
// CHECK:             %[[CE:.*]] = llvm.getelementptr %[[EBASE]][%[[CI]]]
// CHECK:             %[[REMOTE:.*]] = nvvm.mapa %[[CE]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-NOT:         nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
gpu.module @m {
  gpu.func @mcast_m_rows_4cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([2, 2, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 2, 2, 1], mcast_mode_mn = [1, 0]>)
          smem_bytes(32768)
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

// CtaLeader | TaskWarpLeader on a cta_layout_vmnk = [2, 2, 1, 1] cluster:
// every producer warp waits on E, only the task's first warp on a V-leader
// CTA (rank % 2 == 0) arms F; the consumer's wait and release are gated to
// V-leader CTAs, and the release also requires the same V coordinate.

// CHECK-LABEL: gpu.func @twl_cta_leader_4cta
// CHECK-DAG:     %[[CM3:.*]] = arith.constant -3 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[WARP_T:.*]] = arith.divui
// CHECK:         %[[WARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP_T]]
// CHECK:         %[[LANE:.*]] = arith.remui
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK:         %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         %[[WARP0:.*]] = arith.cmpi eq, %[[WARP]], %[[C0]]
// Pg = 1 (one producer task, TaskWarpLeader); Cg = W x m = 4: each of
// the 2 consumer warps arrives on the E of the m = 2 CTAs that share its
// V and N coordinates (multicast along M).
// CHECK:         nvvm.mbarrier.init %[[BASE]], %[[C1]]
// CHECK:         nvvm.mbarrier.init %[[EMPTY]], %[[C4]]
// CHECK:         nvvm.cluster.wait
// CHECK:         scf.for %{{.*}} iter_args(%[[PI:.*]] = %[[C0]], %[[PPH:.*]] = %[[C1]])
// CHECK-NOT:       scf.if
// CHECK:           %[[E:.*]] = llvm.getelementptr %[[EMPTY]][%[[PI]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[E]], %[[PPH]]
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %[[C2]]
// CHECK:           %[[LEADER:.*]] = arith.cmpi eq, %[[V]], %[[C0]]
// CHECK:           %[[ARM:.*]] = arith.andi %[[LEADER]], %[[WARP0]]
// CHECK:           scf.if %[[ARM]] {
// CHECK:             %[[EL:.*]] = nvvm.elect.sync
// CHECK:             scf.if %[[EL]] {
// CHECK:               %[[F:.*]] = llvm.getelementptr %[[BASE]][%[[PI]]]
// CHECK:               nvvm.mbarrier.arrive.expect_tx %[[F]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK:         scf.for %{{.*}} iter_args(%[[CI:.*]] = %[[C0]], %[[CPH:.*]] = %[[C0]])
// CHECK:           %[[CV:.*]] = arith.remui %[[RANK]], %[[C2]]
// CHECK:           %[[CLEADER:.*]] = arith.cmpi eq, %[[CV]], %[[C0]]
// CHECK:           scf.if %[[CLEADER]] {
// CHECK:             %[[F2:.*]] = llvm.getelementptr %[[BASE]][%[[CI]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[F2]], %[[CPH]]
// CHECK:           }
// CHECK:           nvvm.bar.warp.sync
// Lane l signals CTA l when l < T and CTA l has this CTA's V and N
// coordinates (multicast along M): v = rank % 2, n = rank / 2 / 2.
// CHECK-DAG:       %[[IN_CLUSTER:.*]] = arith.cmpi ult, %[[LANE]], %[[C4]]
// CHECK-DAG:       %[[Q:.*]] = arith.divui %[[RANK]], %[[C2]]
// CHECK-DAG:       %[[N:.*]] = arith.divui %[[Q]], %[[C2]]
// CHECK-DAG:       %[[V_PEER:.*]] = arith.remui %[[LANE]], %[[C2]]
// CHECK-DAG:       %[[Q_PEER:.*]] = arith.divui %[[LANE]], %[[C2]]
// CHECK-DAG:       %[[N_PEER:.*]] = arith.divui %[[Q_PEER]], %[[C2]]
// CHECK-DAG:       %[[SAME_V:.*]] = arith.cmpi eq, %[[CV]], %[[V_PEER]]
// CHECK-DAG:       %[[SAME_N:.*]] = arith.cmpi eq, %[[N]], %[[N_PEER]]
// CHECK-DAG:       %[[SAME:.*]] = arith.andi %[[SAME_V]], %[[SAME_N]]
// CHECK-DAG:       %[[DEST:.*]] = arith.andi %[[IN_CLUSTER]], %[[SAME]]
// CHECK:           %[[SIGNAL:.*]] = arith.andi %[[CLEADER]], %[[DEST]]
// CHECK:           scf.if %[[SIGNAL]] {
// CHECK:             %[[E2:.*]] = llvm.getelementptr %[[EMPTY]][%[[CI]]]
// CHECK:             %[[PEER_E:.*]] = nvvm.mapa %[[E2]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive %[[PEER_E]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK:           }
// CHECK-DAG:       %[[CN:.*]] = arith.addi %[[CI]], %[[C1]] : i32
// CHECK:           %[[CW:.*]] = arith.cmpi sge, %[[CN]], %[[C4]] : i32
// CHECK-DAG:       %[[CWR:.*]] = arith.addi %[[CI]], %[[CM3]] : i32
// CHECK-DAG:       %[[CX:.*]] = arith.select %[[CW]], %[[CWR]], %[[CN]] : i32
// CHECK-DAG:       %[[CFL:.*]] = arith.xori %[[CPH]], %[[C1]] : i32
// CHECK-DAG:       %[[CPX:.*]] = arith.select %[[CW]], %[[CFL]], %[[CPH]] : i32
// CHECK-DAG:       %[[CNI:.*]] = arith.select %[[CLEADER]], %[[CX]], %[[CI]] : i32
// CHECK-DAG:       %[[CNP:.*]] = arith.select %[[CLEADER]], %[[CPX]], %[[CPH]] : i32
// CHECK:           scf.yield %[[CNI]], %[[CNP]] : i32, i32
gpu.module @m {
  gpu.func @twl_cta_leader_4cta(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(3) cluster([4, 1, 1]) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [2, 2, 1, 1], mcast_mode_mn = [0, 1],
          producer_signaling = cta_leader|task_warp_leader, consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 2048>)
          smem_bytes(32768)
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
