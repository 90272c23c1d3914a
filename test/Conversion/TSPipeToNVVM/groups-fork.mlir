// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for its target (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// Fork groups of TMA producers (docs/Protocols.md, Pipeline groups): the
// members share one full barrier array F_shared, initialized once with the
// common producer count. The lead (the first member) waits on its own empty
// barrier and arms F_shared with the bytes of the members the producer
// fills (R68): these kernels show no copy, so TS's rule applies, the
// members' common num_bytes (fork-one-load.mlir has the forms with copies:
// one load that every member reads, one copy per member, armed with the
// sum); the other members' acquires only
// wait on their own empty barriers. The group commit emits nothing (the
// copies complete the bytes). Each consumer waits on F_shared and releases
// its own empty barrier; every member is drained.

// Two TmaAsync members of 1024 bytes, 2 stages, one CTA: F_shared at +0
// (count 1), E_x at +16, E_y at +32 (count 1 each: one lane-0 arrive).
// CHECK-LABEL: gpu.func @fork_tma
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[SUM:.*]] = arith.constant 1024 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[F_SHARED:.*]] = llvm.inttoptr %[[B32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_X:.*]] = llvm.getelementptr %[[F_SHARED]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[E_Y:.*]] = llvm.getelementptr %[[F_SHARED]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_SHARED]], %[[C1]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_X]], %[[C1]]
// CHECK-NEXT:    %[[F_SHARED1:.*]] = llvm.getelementptr %[[F_SHARED]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[F_SHARED1]], %[[C1]]
// CHECK-NEXT:    %[[E_X1:.*]] = llvm.getelementptr %[[E_X]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_X1]], %[[C1]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_Y]], %[[C1]]
// CHECK-NEXT:    %[[E_Y1:.*]] = llvm.getelementptr %[[E_Y]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_Y1]], %[[C1]]
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// The producer: the lead's acquire waits on E_x and arms F_shared with
// 2048 bytes; the acquire of @y only waits on E_y; no other arm, no arrive.
// CHECK:         scf.for {{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[P_PH:.*]] = %[[C1]]) -> (i32, i32)
// CHECK-NEXT:      %[[AX:.*]] = llvm.getelementptr %[[E_X]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AX]], %[[P_PH]]
// CHECK-NEXT:      %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK-NEXT:      scf.if %[[EL]] {
// CHECK-NEXT:        %[[ARM:.*]] = llvm.getelementptr %[[F_SHARED]][%[[P]]]
// CHECK-NEXT:        nvvm.mbarrier.arrive.expect_tx %[[ARM]], %[[SUM]] : !llvm.ptr<3>, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[AY:.*]] = llvm.getelementptr %[[E_Y]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AY]], %[[P_PH]]
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
// The drain waits on both members' empty barriers (2 stages each).
// CHECK-COUNT-2:   nvvm.mbarrier.try_wait.parity %{{.*}}, %{{.*}}, %{{.*}}
// CHECK:           %[[DY:.*]] = llvm.getelementptr %[[E_Y]]
// CHECK:         }
// Each consumer waits on F_shared and lane 0 of its warp arrives on its own
// empty barrier.
// CHECK:         scf.for {{.*}} iter_args(%[[CX:.*]] = %[[C0]], %[[CX_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK-NEXT:      %[[WX:.*]] = llvm.getelementptr %[[F_SHARED]][%[[CX]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WX]], %[[CX_PH]]
// CHECK:             %[[RX:.*]] = llvm.getelementptr %[[E_X]][%[[CX]]]
// CHECK-NEXT:        nvvm.mbarrier.arrive %[[RX]]
// CHECK:         scf.for {{.*}} iter_args(%[[CY:.*]] = %[[C0]], %[[CY_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK-NEXT:      %[[WY:.*]] = llvm.getelementptr %[[F_SHARED]][%[[CY]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WY]], %[[CY_PH]]
// CHECK:             %[[RY:.*]] = llvm.getelementptr %[[E_Y]][%[[CY]]]
// CHECK-NEXT:        nvvm.mbarrier.arrive %[[RY]]
// BIN: gpu.binary @fork_tma
gpu.module @fork_tma [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @fork_tma(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline_group @xy fork [@x, @y]
    tspipe.task @load warps(0, 1) produces [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @x group(@xy)
        %t = tspipe.producer_acquire @y group(@xy)
        tspipe.producer_commit @xy
      }
    }
    tspipe.task @use_x warps(1, 1) consumes [@x] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @x group(@xy)
        tspipe.consumer_release @x group(@xy)
      }
    }
    tspipe.task @use_y warps(2, 1) consumes [@y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @y group(@xy)
        tspipe.consumer_release @y group(@xy)
      }
    }
  }
  gpu.return
}
}

// -----

// A fork that mixes a TmaAsync and a TmaUmma member (consumer kinds differ,
// one CTA, sm_100a): the TmaAsync lead arms F_shared with the common 4096
// bytes (no copy shown), the TmaUmma member only waits; the TmaAsync consumer releases with
// a lane-0 arrive on E_x, the MMA consumer with one tcgen05.commit on E_y.
// CHECK-LABEL: gpu.func @fork_tma_umma
// CHECK-DAG:     %[[SUM:.*]] = arith.constant 4096 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK:         %[[F_SHARED:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_X:.*]] = llvm.getelementptr %[[F_SHARED]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[E_Y:.*]] = llvm.getelementptr %[[F_SHARED]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_SHARED]], %[[C1]]
// CHECK:         scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[P_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[AX:.*]] = llvm.getelementptr %[[E_X]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AX]], %[[P_PH]]
// CHECK:             %[[ARM:.*]] = llvm.getelementptr %[[F_SHARED]][%[[P]]]
// CHECK-NEXT:        nvvm.mbarrier.arrive.expect_tx %[[ARM]], %[[SUM]] : !llvm.ptr<3>, i32
// CHECK:           %[[AY:.*]] = llvm.getelementptr %[[E_Y]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AY]], %[[P_PH]]
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
// CHECK:         scf.for {{.*}} iter_args(%[[CX:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
// CHECK:             %[[RX:.*]] = llvm.getelementptr %[[E_X]][%[[CX]]]
// CHECK-NEXT:        nvvm.mbarrier.arrive %[[RX]]
// CHECK:         scf.for {{.*}} iter_args(%[[CY:.*]] = %{{.*}}, %[[CY_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[WY:.*]] = llvm.getelementptr %[[F_SHARED]][%[[CY]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WY]], %[[CY_PH]]
// CHECK-NEXT:      %[[RY:.*]] = llvm.getelementptr %[[E_Y]][%[[CY]]]
// CHECK-NEXT:      %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK-NEXT:      scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[RY]] : !llvm.ptr<3>
// BIN: gpu.binary @fork_tma_umma
gpu.module @fork_tma_umma [#nvvm.target<chip = "sm_100a">] {
gpu.func @fork_tma_umma(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(8192)
    tspipe.pipeline @y config(<tma_umma, num_stages = 2, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(8192)
    tspipe.pipeline_group @xy fork [@x, @y]
    tspipe.task @load warps(0, 1) produces [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @x group(@xy)
        %t = tspipe.producer_acquire @y group(@xy)
        tspipe.producer_commit @xy
      }
    }
    tspipe.task @use_x warps(1, 1) consumes [@x] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @x group(@xy)
        tspipe.consumer_release @x group(@xy)
      }
    }
    tspipe.task @mma_y warps(2, 1) consumes [@y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @y group(@xy)
        tspipe.consumer_release @y group(@xy)
      }
    }
  }
  gpu.return
}
}

// -----

// A fork of two multicast TmaAsync members on a 2-CTA cluster
// (cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = (0, 1)): every CTA's lead
// arms its own F_shared with the bytes landing there; no copy is shown, so
// TS's rule gives the common 8192 (an explicit group config of 16384 would
// arm one multicast copy per member); each
// member's consumers signal the CTAs of the multicast set on their own
// member's empty barrier (mapa + shared::cluster arrive). 4 stages:
// F_shared at +0, E_x at +32, E_y at +64.
// CHECK-LABEL: gpu.func @fork_tma_cluster
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-DAG:     %[[SUM:.*]] = arith.constant 8192 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[CG:.*]] = arith.constant 4 : i32
// CHECK:         %[[LANE:.*]] = arith.remui
// CHECK:         %[[F_SHARED:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_X:.*]] = llvm.getelementptr %[[F_SHARED]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[E_Y:.*]] = llvm.getelementptr %[[F_SHARED]][64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_SHARED]], %[[C1]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_X]], %[[CG]]
// CHECK:         nvvm.mbarrier.init %[[E_Y]], %[[CG]]
// CHECK:         nvvm.cluster.arrive.relaxed
// CHECK:         scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[P_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[AX:.*]] = llvm.getelementptr %[[E_X]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AX]], %[[P_PH]]
// CHECK:             %[[ARM:.*]] = llvm.getelementptr %[[F_SHARED]][%[[P]]]
// CHECK-NEXT:        nvvm.mbarrier.arrive.expect_tx %[[ARM]], %[[SUM]] : !llvm.ptr<3>, i32
// CHECK:           %[[AY:.*]] = llvm.getelementptr %[[E_Y]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AY]], %[[P_PH]]
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
// CHECK:         scf.for {{.*}} iter_args(%[[CX:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
// CHECK:             %[[RX:.*]] = llvm.getelementptr %[[E_X]][%[[CX]]]
// CHECK-NEXT:        %[[REMOTE_X:.*]] = nvvm.mapa %[[RX]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:        nvvm.mbarrier.arrive %[[REMOTE_X]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK:         scf.for {{.*}} iter_args(%[[CY:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
// CHECK:             %[[RY:.*]] = llvm.getelementptr %[[E_Y]][%[[CY]]]
// CHECK-NEXT:        %[[REMOTE_Y:.*]] = nvvm.mapa %[[RY]], %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:        nvvm.mbarrier.arrive %[[REMOTE_Y]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// BIN: gpu.binary @fork_tma_cluster
gpu.module @fork_tma_cluster [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @fork_tma_cluster(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(5) cluster([2, 1, 1]) {
      tspipe.pipeline @x config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768)
      tspipe.pipeline @y config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768)
      tspipe.pipeline_group @xy fork [@x, @y]
      tspipe.task @load warps(0, 1) produces [@x, @y] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @x group(@xy)
          %t = tspipe.producer_acquire @y group(@xy)
          tspipe.producer_commit @xy
        }
      }
      tspipe.task @use_x warps(1, 2) consumes [@x] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @x group(@xy)
          tspipe.consumer_release @x group(@xy)
        }
      }
      tspipe.task @use_y warps(3, 2) consumes [@y] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @y group(@xy)
          tspipe.consumer_release @y group(@xy)
        }
      }
    }
    gpu.return
  }
}
