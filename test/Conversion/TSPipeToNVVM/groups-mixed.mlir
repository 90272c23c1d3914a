// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for sm_100a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// Pipeline groups whose members differ in type (docs/Protocols.md, Pipeline
// groups): the group-level bracket is the lead's, which makes the arrivals
// every member's own bracket would make on one CTA; each member keeps its
// own protocol on its own array.

// A merge of an AsyncAsync and a UmmaAsync member (consumer threads on
// both): F_a at +0 (32 threads), F_u at +16 (one tcgen05.commit), E_shared
// at +32, initialized once with the common consumer group (64 threads). The
// group release is one arrive of every consumer thread on E_shared.
// CHECK-LABEL: gpu.func @merge_async_umma_async
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK:         %[[F_A:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_SHARED:.*]] = llvm.getelementptr %[[F_A]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[F_U:.*]] = llvm.getelementptr %[[F_A]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_A]], %[[C32]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_SHARED]], %[[C64]]
// CHECK:         nvvm.mbarrier.init %[[F_U]], %[[C1]]
// CHECK-NOT:     nvvm.mbarrier.init %[[E_SHARED]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:           nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// The UmmaAsync producer commits its own full barrier.
// CHECK:         scf.for {{.*}} iter_args(%[[PU:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:           %[[CU:.*]] = llvm.getelementptr %[[F_U]][%[[PU]]]
// CHECK:             nvvm.tcgen05.commit %[[CU]] : !llvm.ptr<3>
// CHECK:         scf.for {{.*}} iter_args(%[[C:.*]] = %{{.*}}, %[[C_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[WA:.*]] = llvm.getelementptr %[[F_A]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WA]], %[[C_PH]]
// CHECK-NEXT:      %[[WU:.*]] = llvm.getelementptr %[[F_U]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WU]], %[[C_PH]]
// CHECK-NEXT:      %[[REL:.*]] = llvm.getelementptr %[[E_SHARED]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[REL]] : !llvm.ptr<3>
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
// BIN: gpu.binary @merge_async_umma_async
gpu.module @merge_async_umma_async [#nvvm.target<chip = "sm_100a">] {
gpu.func @merge_async_umma_async(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>)
    tspipe.pipeline @u config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 64>>)
    tspipe.pipeline_group @au merge [@a, @u]
    tspipe.task @load_a warps(0, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@au)
        tspipe.producer_commit @a group(@au)
      }
    }
    tspipe.task @mma_u warps(1, 1) produces [@u] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @u group(@au)
        tspipe.producer_commit @u group(@au)
      }
    }
    tspipe.task @use warps(2, 2) consumes [@a, @u] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @a group(@au)
        %t = tspipe.consumer_wait @u group(@au)
        tspipe.consumer_release @au
      }
    }
  }
  gpu.return
}
}

// -----

// A merge of a TmaUmma, an AsyncUmma and a UmmaUmma member (MMA consumer):
// the lead is the AsyncUmma member (the first that is not TMA), E_shared at
// +48 is initialized once with its consumer group (1); the group release is
// one elected tcgen05.commit on E_shared.
// CHECK-LABEL: gpu.func @merge_umma_consumers
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK:         %[[F_T:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_SHARED:.*]] = llvm.getelementptr %[[F_T]][48] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[F_S:.*]] = llvm.getelementptr %[[F_T]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[F_M:.*]] = llvm.getelementptr %[[F_T]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[E_SHARED]], %[[C1]]
// CHECK-NOT:     nvvm.mbarrier.init %[[E_SHARED]],
// CHECK:         nvvm.fence.mbarrier.init
// The consumer (phase 0).
// CHECK:         scf.for {{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[C_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK-NEXT:      %[[WT:.*]] = llvm.getelementptr %[[F_T]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WT]], %[[C_PH]]
// CHECK-NEXT:      %[[WS:.*]] = llvm.getelementptr %[[F_S]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WS]], %[[C_PH]]
// CHECK-NEXT:      %[[WM:.*]] = llvm.getelementptr %[[F_M]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WM]], %[[C_PH]]
// CHECK-NEXT:      %[[REL:.*]] = llvm.getelementptr %[[E_SHARED]][%[[C]]]
// CHECK-NEXT:      %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK-NEXT:      scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[REL]] : !llvm.ptr<3>
// CHECK-NEXT:      }
// CHECK-NOT:       nvvm.tcgen05.commit
// CHECK:           scf.yield
// BIN: gpu.binary @merge_umma_consumers
gpu.module @merge_umma_consumers [#nvvm.target<chip = "sm_100a">] {
gpu.func @merge_umma_consumers(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @t config(<tma_umma, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline @s config(<async_umma, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline @m config(<umma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline_group @tsm merge [@t, @s, @m]
    tspipe.task @load_t warps(0, 1) produces [@t] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %x = tspipe.producer_acquire @t group(@tsm)
        tspipe.producer_commit @t group(@tsm)
      }
    }
    tspipe.task @load_s warps(1, 1) produces [@s] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %x = tspipe.producer_acquire @s group(@tsm)
        tspipe.producer_commit @s group(@tsm)
      }
    }
    tspipe.task @fill_m warps(2, 1) produces [@m] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %x = tspipe.producer_acquire @m group(@tsm)
        tspipe.producer_commit @m group(@tsm)
      }
    }
    tspipe.task @mma warps(3, 1) consumes [@t, @s, @m] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %x = tspipe.consumer_wait @t group(@tsm)
        %y = tspipe.consumer_wait @s group(@tsm)
        %z = tspipe.consumer_wait @m group(@tsm)
        tspipe.consumer_release @tsm
      }
    }
  }
  gpu.return
}
}

// -----

// A fork of an AsyncAsync and an AsyncUmma member (both async_thread
// producers): F_shared at +0 is initialized once with the common producer
// group (32 threads); the group commit is one arrive of every producer
// thread on F_shared. The consumers release their own arrays: threads on
// E_x, one tcgen05.commit on E_y.
// CHECK-LABEL: gpu.func @fork_async_umma
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK:         %[[F_SHARED:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_X:.*]] = llvm.getelementptr %[[F_SHARED]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[E_Y:.*]] = llvm.getelementptr %[[F_SHARED]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_SHARED]], %[[C32]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_X]], %[[C32]]
// CHECK:         nvvm.mbarrier.init %[[E_Y]], %[[C1]]
// CHECK-NOT:     nvvm.mbarrier.init %[[F_SHARED]],
// CHECK:         scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[P_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[AX:.*]] = llvm.getelementptr %[[E_X]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AX]], %[[P_PH]]
// CHECK-NEXT:      %[[AY:.*]] = llvm.getelementptr %[[E_Y]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AY]], %[[P_PH]]
// The AsyncUmma member's MMA reads the stage (async proxy): the group
// commit fences the threads' writes first (FlashKDA issue 24).
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      %[[COMMIT:.*]] = llvm.getelementptr %[[F_SHARED]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[COMMIT]] : !llvm.ptr<3>
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
// CHECK:         scf.for {{.*}} iter_args(%[[CX:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
// CHECK:           %[[RX:.*]] = llvm.getelementptr %[[E_X]][%[[CX]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[RX]]
// CHECK:         scf.for {{.*}} iter_args(%[[CY:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
// CHECK:           %[[RY:.*]] = llvm.getelementptr %[[E_Y]][%[[CY]]]
// CHECK:             nvvm.tcgen05.commit %[[RY]] : !llvm.ptr<3>
// BIN: gpu.binary @fork_async_umma
gpu.module @fork_async_umma [#nvvm.target<chip = "sm_100a">] {
gpu.func @fork_async_umma(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @y config(<async_umma, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 1>>)
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

// A fork of a UmmaAsync and a UmmaUmma member (tcgen05 producer): the group
// commit is one elected tcgen05.commit on F_shared (initialized once with
// count 1); the epilogue threads arrive on E_p, the MMA commits on E_q.
// CHECK-LABEL: gpu.func @fork_umma
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK:         %[[F_SHARED:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_P:.*]] = llvm.getelementptr %[[F_SHARED]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[E_Q:.*]] = llvm.getelementptr %[[F_SHARED]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_SHARED]], %[[C1]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_P]], %[[C32]]
// CHECK:         nvvm.mbarrier.init %[[E_Q]], %[[C1]]
// CHECK-NOT:     nvvm.mbarrier.init %[[F_SHARED]],
// CHECK:         scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[P_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[AP:.*]] = llvm.getelementptr %[[E_P]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AP]], %[[P_PH]]
// CHECK-NEXT:      %[[AQ:.*]] = llvm.getelementptr %[[E_Q]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AQ]], %[[P_PH]]
// CHECK-NEXT:      %[[COMMIT:.*]] = llvm.getelementptr %[[F_SHARED]][%[[P]]]
// CHECK-NEXT:      %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK-NEXT:      scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[COMMIT]] : !llvm.ptr<3>
// CHECK-NEXT:      }
// CHECK-NOT:       nvvm.tcgen05.commit
// CHECK:           scf.yield
// BIN: gpu.binary @fork_umma
gpu.module @fork_umma [#nvvm.target<chip = "sm_100a">] {
gpu.func @fork_umma(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @p config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    tspipe.pipeline @q config(<umma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline_group @pq fork [@p, @q]
    tspipe.task @mma warps(0, 1) produces [@p, @q] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @p group(@pq)
        %t = tspipe.producer_acquire @q group(@pq)
        tspipe.producer_commit @pq
      }
    }
    tspipe.task @epilogue warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p group(@pq)
        tspipe.consumer_release @p group(@pq)
      }
    }
    tspipe.task @mma2 warps(2, 1) consumes [@q] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @q group(@pq)
        tspipe.consumer_release @q group(@pq)
      }
    }
  }
  gpu.return
}
}
