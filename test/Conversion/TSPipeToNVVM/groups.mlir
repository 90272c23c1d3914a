// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s

// Pipeline groups (docs/Protocols.md, Pipeline groups): the barrier layout
// tspipe-allocate-smem gives a group, the arrive counts of its arrays, each
// shared array initialized once, and the group-level bracket lowered as one
// arrive on the shared barrier.

// Merge of two AsyncAsync members, 2 stages: F_a at +0, F_b at +16,
// E_shared at +32 (Pg = 32 per member, shared Cg = 64). Each producer waits
// on E_shared and arrives on its own full barrier; the consumer waits on
// F_a and F_b and arrives once on E_shared.
// CHECK-LABEL: gpu.func @merge_async
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG:     %[[F_A_SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared-memory base, once at kernel entry (32-bit, from lane 0).
// CHECK:         %[[F_A_SYM32:.*]] = llvm.ptrtoint %[[F_A_SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[F_A_B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[F_A_SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[F_A:.*]] = llvm.inttoptr %[[F_A_B32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_SHARED:.*]] = llvm.getelementptr %[[F_A]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[F_B:.*]] = llvm.getelementptr %[[F_A]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_A]], %[[C32]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_SHARED]], %[[C64]]
// CHECK-NEXT:    %[[F_A1:.*]] = llvm.getelementptr %[[F_A]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[F_A1]], %[[C32]]
// CHECK-NEXT:    %[[E_SHARED1:.*]] = llvm.getelementptr %[[E_SHARED]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_SHARED1]], %[[C64]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[F_B]], %[[C32]]
// CHECK-NEXT:    %[[F_B1:.*]] = llvm.getelementptr %[[F_B]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[F_B1]], %[[C32]]
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// Producer of @a: acquire on E_shared, commit on F_a.
// CHECK:         scf.for {{.*}} iter_args(%[[PA:.*]] = %{{.*}}, %[[PA_PH:.*]] = %{{.*}})
// CHECK:           %[[EA:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PA]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[EA]], %[[PA_PH]]
// CHECK-NEXT:      %[[FA:.*]] = llvm.getelementptr %[[F_A]][%[[PA]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[FA]]
// Producer of @b: acquire on E_shared, commit on F_b.
// CHECK:         scf.for {{.*}} iter_args(%[[PB:.*]] = %{{.*}}, %[[PB_PH:.*]] = %{{.*}})
// CHECK:           %[[EB:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PB]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[EB]], %[[PB_PH]]
// CHECK-NEXT:      %[[FB:.*]] = llvm.getelementptr %[[F_B]][%[[PB]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[FB]]
// The consumer: one cursor for both members, one arrive on E_shared.
// CHECK:         scf.for {{.*}} iter_args(%[[C:.*]] = %{{.*}}, %[[C_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[WA:.*]] = llvm.getelementptr %[[F_A]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WA]], %[[C_PH]]
// CHECK-NEXT:      %[[WB:.*]] = llvm.getelementptr %[[F_B]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WB]], %[[C_PH]]
// CHECK-NEXT:      %[[REL:.*]] = llvm.getelementptr %[[E_SHARED]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[REL]]
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
gpu.module @merge_async [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @merge_async(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>)
    tspipe.pipeline_group @ab merge [@a, @b]
    tspipe.task @load_a warps(0, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@ab)
        tspipe.producer_commit @a group(@ab)
      }
    }
    tspipe.task @load_b warps(1, 1) produces [@b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @b group(@ab)
        tspipe.producer_commit @b group(@ab)
      }
    }
    tspipe.task @use warps(2, 2) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @a group(@ab)
        %t = tspipe.consumer_wait @b group(@ab)
        tspipe.consumer_release @ab
      }
    }
  }
  gpu.return
}
}

// -----

// Fork of two AsyncAsync members, 2 stages: F_shared at +0 (Pg = 32,
// initialized once), E_x at +16, E_y at +32 (Cg = 32 each). The producer
// waits on E_x and E_y and arrives once on F_shared; each consumer waits on
// F_shared and arrives on its own empty barrier.
// CHECK-LABEL: gpu.func @fork_async
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[F_SHARED_SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared-memory base, once at kernel entry (32-bit, from lane 0).
// CHECK:         %[[F_SHARED_SYM32:.*]] = llvm.ptrtoint %[[F_SHARED_SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[F_SHARED_B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[F_SHARED_SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[F_SHARED:.*]] = llvm.inttoptr %[[F_SHARED_B32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_X:.*]] = llvm.getelementptr %[[F_SHARED]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[E_Y:.*]] = llvm.getelementptr %[[F_SHARED]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_SHARED]], %[[C32]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_X]], %[[C32]]
// CHECK-NEXT:    %[[F_SHARED1:.*]] = llvm.getelementptr %[[F_SHARED]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[F_SHARED1]], %[[C32]]
// CHECK-NEXT:    %[[E_X1:.*]] = llvm.getelementptr %[[E_X]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_X1]], %[[C32]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_Y]], %[[C32]]
// CHECK-NEXT:    %[[E_Y1:.*]] = llvm.getelementptr %[[E_Y]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_Y1]], %[[C32]]
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// CHECK:         scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[P_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[AX:.*]] = llvm.getelementptr %[[E_X]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AX]], %[[P_PH]]
// CHECK-NEXT:      %[[AY:.*]] = llvm.getelementptr %[[E_Y]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AY]], %[[P_PH]]
// CHECK-NEXT:      %[[COMMIT:.*]] = llvm.getelementptr %[[F_SHARED]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[COMMIT]]
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
// CHECK:         scf.for {{.*}} iter_args(%[[CX:.*]] = %{{.*}}, %[[CX_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[WX:.*]] = llvm.getelementptr %[[F_SHARED]][%[[CX]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WX]], %[[CX_PH]]
// CHECK-NEXT:      %[[RX:.*]] = llvm.getelementptr %[[E_X]][%[[CX]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[RX]]
// CHECK:         scf.for {{.*}} iter_args(%[[CY:.*]] = %{{.*}}, %[[CY_PH:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NEXT:      %[[WY:.*]] = llvm.getelementptr %[[F_SHARED]][%[[CY]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WY]], %[[CY_PH]]
// CHECK-NEXT:      %[[RY:.*]] = llvm.getelementptr %[[E_Y]][%[[CY]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[RY]]
gpu.module @fork_async [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @fork_async(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @y config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
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

// A merge of a TmaAsync and an AsyncAsync member: the lead is the AsyncAsync
// member, so E_shared (at +32) is initialized once with its consumer group
// (64 threads) and the group release is its every-thread arrive, after the
// proxy fence of a TmaAsync release (the TMA member's next fill is an
// async-proxy write); the TMA member keeps its own full barriers (count 1,
// armed with its 1024 bytes).
// CHECK-LABEL: gpu.func @merge_mixed
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG:     %[[C1024:.*]] = arith.constant 1024 : i32
// CHECK-DAG:     %[[F_T_SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// The shared-memory base, once at kernel entry (32-bit, from lane 0).
// CHECK:         %[[F_T_SYM32:.*]] = llvm.ptrtoint %[[F_T_SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[F_T_B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[F_T_SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[F_T:.*]] = llvm.inttoptr %[[F_T_B32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_SHARED:.*]] = llvm.getelementptr %[[F_T]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[F_A:.*]] = llvm.getelementptr %[[F_T]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_T]], %[[C1]]
// CHECK-NEXT:    %[[F_T1:.*]] = llvm.getelementptr %[[F_T]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[F_T1]], %[[C1]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[F_A]], %[[C32]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_SHARED]], %[[C64]]
// CHECK-NEXT:    %[[F_A1:.*]] = llvm.getelementptr %[[F_A]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[F_A1]], %[[C32]]
// CHECK-NEXT:    %[[E_SHARED1:.*]] = llvm.getelementptr %[[E_SHARED]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_SHARED1]], %[[C64]]
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[C1024]]
// The consumer (cursor phase starts at 0): waits on F_t and F_a, one
// arrive on E_shared.
// CHECK:         scf.for {{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[C_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK-NEXT:      %[[WT:.*]] = llvm.getelementptr %[[F_T]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WT]], %[[C_PH]]
// CHECK-NEXT:      %[[WA:.*]] = llvm.getelementptr %[[F_A]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WA]], %[[C_PH]]
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      %[[REL:.*]] = llvm.getelementptr %[[E_SHARED]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[REL]]
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
gpu.module @merge_mixed [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @merge_mixed(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @t config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>>) smem_bytes(2048)
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>)
    tspipe.pipeline_group @ta merge [@t, @a]
    tspipe.task @load_t warps(0, 1) produces [@t] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @t group(@ta)
        tspipe.producer_commit @t group(@ta)
      }
    }
    tspipe.task @load_a warps(1, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@ta)
        tspipe.producer_commit @a group(@ta)
      }
    }
    tspipe.task @use warps(2, 2) consumes [@t, @a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @t group(@ta)
        %u = tspipe.consumer_wait @a group(@ta)
        tspipe.consumer_release @ta
      }
    }
  }
  gpu.return
}
}
