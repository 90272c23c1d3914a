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
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
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
// CHECK:         scf.for {{.*}} iter_args(%[[PA:.*]] = %[[C0]], %[[PA_PH:.*]] = %[[C1]])
// CHECK:           %[[EA:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PA]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[EA]], %[[PA_PH]]
// CHECK-NEXT:      %[[FA:.*]] = llvm.getelementptr %[[F_A]][%[[PA]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[FA]]
// Producer of @b: acquire on E_shared, commit on F_b.
// CHECK:         scf.for {{.*}} iter_args(%[[PB:.*]] = %[[C0]], %[[PB_PH:.*]] = %[[C1]])
// CHECK:           %[[EB:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PB]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[EB]], %[[PB_PH]]
// CHECK-NEXT:      %[[FB:.*]] = llvm.getelementptr %[[F_B]][%[[PB]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[FB]]
// The consumer: one cursor for both members, one arrive on E_shared.
// CHECK:         scf.for {{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[C_PH:.*]] = %[[C0]]) -> (i32, i32)
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
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
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
// CHECK:         scf.for {{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[P_PH:.*]] = %[[C1]]) -> (i32, i32)
// CHECK-NEXT:      %[[AX:.*]] = llvm.getelementptr %[[E_X]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AX]], %[[P_PH]]
// CHECK-NEXT:      %[[AY:.*]] = llvm.getelementptr %[[E_Y]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[AY]], %[[P_PH]]
// CHECK-NEXT:      %[[COMMIT:.*]] = llvm.getelementptr %[[F_SHARED]][%[[P]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[COMMIT]]
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           scf.yield
// CHECK:         scf.for {{.*}} iter_args(%[[CX:.*]] = %[[C0]], %[[CX_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK-NEXT:      %[[WX:.*]] = llvm.getelementptr %[[F_SHARED]][%[[CX]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[WX]], %[[CX_PH]]
// CHECK-NEXT:      %[[RX:.*]] = llvm.getelementptr %[[E_X]][%[[CX]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[RX]]
// CHECK:         scf.for {{.*}} iter_args(%[[CY:.*]] = %[[C0]], %[[CY_PH:.*]] = %[[C0]]) -> (i32, i32)
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
// The TMA member's loader: wait on E_shared[p], arm its own F_t[p].
// CHECK:         scf.for {{.*}} iter_args(%[[PT:.*]] = %[[C0]], %[[PT_PH:.*]] = %[[C1]])
// CHECK:           %[[ET:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PT]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[ET]], %[[PT_PH]]
// CHECK:             %[[FT:.*]] = llvm.getelementptr %[[F_T]][%[[PT]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[FT]], %[[C1024]]
// The AsyncAsync member's loader: wait on E_shared[p], arrive on F_a[p].
// CHECK:         scf.for {{.*}} iter_args(%[[PA:.*]] = %[[C0]], %[[PA_PH:.*]] = %[[C1]])
// CHECK:           %[[EA:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PA]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[EA]], %[[PA_PH]]
// CHECK:           %[[FA:.*]] = llvm.getelementptr %[[F_A]][%[[PA]]]
// CHECK:           nvvm.mbarrier.arrive %[[FA]]
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

// -----

// Pipeline groups with tcgen05 members. A merge of two TmaUmma members
// (TMA loads of A and B, one MMA warp), 2 stages, one CTA: F_a at +0, F_b
// at +16, E_shared at +32 (the group's (N + 1) S = 6 barriers). Every
// member is TMA, so the lead is the first member, @a; E_shared is
// initialized once with the common consumer group (Cg = 1, one tcgen05
// commit per phase), each F_m with its own producer group (Pg = 1). Each
// loader waits on E_shared[p] and arms its own F_m[p] with its own bytes
// (8192 for @a, 4096 for @b; TS's merged config sums them, each member's
// barrier expects its own). The MMA warp waits on F_a[c] and F_b[c] with
// one cursor and releases the stage of both with one elected
// tcgen05.commit to E_shared[c] (the lead's TmaUmma release).
// CHECK-LABEL: gpu.func @merge_tma_umma
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[BYTES_A:.*]] = arith.constant 8192 : i32
// CHECK-DAG:     %[[BYTES_B:.*]] = arith.constant 4096 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[F_A:.*]] = llvm.inttoptr %[[B32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_SHARED:.*]] = llvm.getelementptr %[[F_A]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[F_B:.*]] = llvm.getelementptr %[[F_A]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Six inits: F_a[0..1], F_b[0..1] and E_shared[0..1] (once), each count 1.
// CHECK-DAG:     nvvm.mbarrier.init %[[F_A]], %[[C1]]
// CHECK-DAG:     nvvm.mbarrier.init %[[E_SHARED]], %[[C1]]
// CHECK-DAG:     %[[F_A1:.*]] = llvm.getelementptr %[[F_A]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK-DAG:     nvvm.mbarrier.init %[[F_A1]], %[[C1]]
// CHECK-DAG:     %[[E_SHARED1:.*]] = llvm.getelementptr %[[E_SHARED]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK-DAG:     nvvm.mbarrier.init %[[E_SHARED1]], %[[C1]]
// CHECK-DAG:     nvvm.mbarrier.init %[[F_B]], %[[C1]]
// CHECK-DAG:     %[[F_B1:.*]] = llvm.getelementptr %[[F_B]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK-DAG:     nvvm.mbarrier.init %[[F_B1]], %[[C1]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NOT:     nvvm.mbarrier.init
// Loader of @a: wait on E_shared[p], arm F_a[p] with @a's bytes.
// CHECK:         %[[PA_END:.*]]:2 = scf.for {{.*}} iter_args(%[[PA:.*]] = %[[C0]], %[[PA_PH:.*]] = %[[C1]])
// CHECK:           %[[EA:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PA]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[EA]], %[[PA_PH]]
// CHECK:           %[[ELA:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[ELA]] {
// CHECK:             %[[FA:.*]] = llvm.getelementptr %[[F_A]][%[[PA]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[FA]], %[[BYTES_A]] : !llvm.ptr<3>, i32
// CHECK:           }
// CHECK:           scf.yield
// Its drain: S = 2 waits on E_shared.
// CHECK:         %[[DA:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PA_END]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[DA]], %[[PA_END]]#1
// CHECK:         nvvm.mbarrier.try_wait.parity
// Loader of @b: the same on E_shared, arming F_b[p] with @b's bytes.
// CHECK:         %[[PB_END:.*]]:2 = scf.for {{.*}} iter_args(%[[PB:.*]] = %[[C0]], %[[PB_PH:.*]] = %[[C1]])
// CHECK:           %[[EB:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PB]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[EB]], %[[PB_PH]]
// CHECK:           %[[ELB:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[ELB]] {
// CHECK:             %[[FB:.*]] = llvm.getelementptr %[[F_B]][%[[PB]]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx %[[FB]], %[[BYTES_B]] : !llvm.ptr<3>, i32
// CHECK:           }
// CHECK:           scf.yield
// CHECK:         %[[DB:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PB_END]]#0]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[DB]], %[[PB_END]]#1
// CHECK:         nvvm.mbarrier.try_wait.parity
// The MMA warp: one cursor for both members, one commit to E_shared.
// CHECK:         scf.for {{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[C_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK:           %[[WA:.*]] = llvm.getelementptr %[[F_A]][%[[C]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[WA]], %[[C_PH]]
// CHECK:           %[[WB:.*]] = llvm.getelementptr %[[F_B]][%[[C]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[WB]], %[[C_PH]]
// CHECK:           %[[REL:.*]] = llvm.getelementptr %[[E_SHARED]][%[[C]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[REL]] : !llvm.ptr<3>
// CHECK-NEXT:      }
// CHECK-NOT:       nvvm.tcgen05.commit
// CHECK:           scf.yield
gpu.module @merge_tma_umma [#nvvm.target<chip = "sm_100a">] {
gpu.func @merge_tma_umma(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<tma_umma, num_stages = 2, num_bytes = 8192, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(16384)
    tspipe.pipeline @b config(<tma_umma, num_stages = 2, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(8192)
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
    tspipe.task @mma warps(2, 1) consumes [@a, @b] {
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

// The same merge in a CTA pair (V = 2, [2, 1, 1, 1], M-row multicast only,
// consumer cta_leader): every CTA's loaders wait on E_shared[p]; only the
// pair leader arms F_m[p], with both CTAs' bytes (16384 = 2 x 8192, R56).
// The leader's MMA warp waits on F_a[c], F_b[c] and commits E_shared[c]
// once, with cta_group::2 and the M-row mask 0b11 << 2 (rank / 2), computed
// from the rank (both CTAs of the pair). Its cursor advance is gated.
// CHECK-LABEL: gpu.func @merge_tma_umma_pair
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 16384 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[F_A:.*]] = llvm.inttoptr %[[B32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_SHARED:.*]] = llvm.getelementptr %[[F_A]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[F_B:.*]] = llvm.getelementptr %[[F_A]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     nvvm.mbarrier.init %[[F_A]], %[[C1]]
// CHECK-DAG:     nvvm.mbarrier.init %[[E_SHARED]], %[[C1]]
// CHECK-DAG:     nvvm.mbarrier.init %[[F_B]], %[[C1]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.cluster.arrive.relaxed {aligned}
// CHECK:         nvvm.cluster.wait {aligned}
// Loader of @a.
// CHECK:         scf.for {{.*}} iter_args(%[[PA:.*]] = %[[C0]], %[[PA_PH:.*]] = %[[C1]])
// CHECK-NOT:       scf.if
// CHECK:           %[[EA:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PA]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[EA]], %[[PA_PH]]
// CHECK:           %[[VA:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEADA:.*]] = arith.cmpi eq, %[[VA]], %[[C0]] : i32
// CHECK:           scf.if %[[LEADA]] {
// CHECK:             %[[ELA:.*]] = nvvm.elect.sync -> i1
// CHECK:             scf.if %[[ELA]] {
// CHECK:               %[[FA:.*]] = llvm.getelementptr %[[F_A]][%[[PA]]]
// CHECK:               nvvm.mbarrier.arrive.expect_tx %[[FA]], %[[BYTES]] : !llvm.ptr<3>, i32
// Loader of @b.
// CHECK:         scf.for {{.*}} iter_args(%[[PB:.*]] = %[[C0]], %[[PB_PH:.*]] = %[[C1]])
// CHECK-NOT:       scf.if
// CHECK:           %[[EB:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PB]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[EB]], %[[PB_PH]]
// CHECK:           %[[VB:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEADB:.*]] = arith.cmpi eq, %[[VB]], %[[C0]] : i32
// CHECK:           scf.if %[[LEADB]] {
// CHECK:             %[[ELB:.*]] = nvvm.elect.sync -> i1
// CHECK:             scf.if %[[ELB]] {
// CHECK:               %[[FB:.*]] = llvm.getelementptr %[[F_B]][%[[PB]]]
// CHECK:               nvvm.mbarrier.arrive.expect_tx %[[FB]], %[[BYTES]] : !llvm.ptr<3>, i32
// The MMA warp of the leader.
// CHECK:         scf.for {{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[C_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK:           %[[V:.*]] = arith.remui %[[RANK]], %[[C2]] : i32
// CHECK:           %[[LEAD:.*]] = arith.cmpi eq, %[[V]], %[[C0]] : i32
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[WA:.*]] = llvm.getelementptr %[[F_A]][%[[C]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[WA]], %[[C_PH]]
// CHECK:           scf.if %[[LEAD]] {
// CHECK:             %[[WB:.*]] = llvm.getelementptr %[[F_B]][%[[C]]]
// CHECK:             nvvm.mbarrier.try_wait.parity %[[WB]], %[[C_PH]]
// CHECK:           scf.if %[[LEAD]] {
// CHECK-DAG:         %[[Q:.*]] = arith.divui %[[RANK]], %[[C2]] : i32
// CHECK-DAG:         %[[SHIFT:.*]] = arith.muli %[[Q]], %[[C2]] : i32
// CHECK-DAG:         %[[ROW:.*]] = arith.shli %[[C3]], %[[SHIFT]] : i32
// CHECK-DAG:         %[[MASK:.*]] = arith.trunci %[[ROW]] : i32 to i16
// CHECK-DAG:         %[[REL:.*]] = llvm.getelementptr %[[E_SHARED]][%[[C]]]
// CHECK:             %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:             scf.if %[[EL]] {
// CHECK-NEXT:          nvvm.tcgen05.commit %[[REL]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-NOT:       nvvm.tcgen05.commit
// CHECK-DAG:       %[[CCN:.*]] = arith.addi %[[C]], %[[C1]] : i32
// CHECK:           %[[CCW:.*]] = arith.cmpi sge, %[[CCN]], %[[C2]] : i32
// CHECK-DAG:       %[[CCWR:.*]] = arith.addi %[[C]], %[[CM1]] : i32
// CHECK-DAG:       %[[CCX:.*]] = arith.select %[[CCW]], %[[CCWR]], %[[CCN]] : i32
// CHECK-DAG:       %[[CCFL:.*]] = arith.xori %[[C_PH]], %[[C1]] : i32
// CHECK-DAG:       %[[CCPX:.*]] = arith.select %[[CCW]], %[[CCFL]], %[[C_PH]] : i32
// CHECK-DAG:       %[[CCNI:.*]] = arith.select %[[LEAD]], %[[CCX]], %[[C]] : i32
// CHECK-DAG:       %[[CCNP:.*]] = arith.select %[[LEAD]], %[[CCPX]], %[[C_PH]] : i32
// CHECK:           scf.yield %[[CCNI]], %[[CCNP]] : i32, i32
gpu.module @merge_tma_umma_pair [#nvvm.target<chip = "sm_100a">] {
gpu.func @merge_tma_umma_pair(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) cluster([2, 1, 1]) {
    tspipe.pipeline @a config(<tma_umma, num_stages = 2, num_bytes = 16384, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling = cta_leader, num_bytes_per_warp_per_cta = 8192, mcast_mode_mn = [1, 0]>) smem_bytes(16384)
    tspipe.pipeline @b config(<tma_umma, num_stages = 2, num_bytes = 16384, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling = cta_leader, num_bytes_per_warp_per_cta = 8192, mcast_mode_mn = [1, 0]>) smem_bytes(16384)
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
    tspipe.task @mma warps(2, 1) consumes [@a, @b] {
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

// A fork of two UmmaAsync members (one MMA warp fills two TMEM accumulators
// read by two epilogue tasks), 2 stages, one CTA: F_shared at +0 (Pg = 1,
// initialized once by the lead @x), E_x at +16 (Cg = 64, two warps), E_y
// at +32 (Cg = 32, one warp). The MMA warp waits on E_x[p] and E_y[p] with
// one cursor and commits once: one elected tcgen05.commit to F_shared[p]
// (the lead's UmmaAsync commit); its drain waits on each member's empty
// barrier. Each epilogue waits on F_shared[c] and every thread arrives on
// its own member's E_m[c].
// CHECK-LABEL: gpu.func @fork_umma_async
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG:     %[[SYM:.*]] = llvm.mlir.addressof @__tspipe_dynamic_smem : !llvm.ptr<3>
// CHECK:         %[[SYM32:.*]] = llvm.ptrtoint %[[SYM]] : !llvm.ptr<3> to i32
// CHECK:         %[[B32:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[SYM32]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         %[[F_SHARED:.*]] = llvm.inttoptr %[[B32]] : i32 to !llvm.ptr<3>
// CHECK-DAG:     %[[E_X:.*]] = llvm.getelementptr %[[F_SHARED]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     %[[E_Y:.*]] = llvm.getelementptr %[[F_SHARED]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG:     nvvm.mbarrier.init %[[F_SHARED]], %[[C1]]
// CHECK-DAG:     %[[F_SHARED1:.*]] = llvm.getelementptr %[[F_SHARED]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK-DAG:     nvvm.mbarrier.init %[[F_SHARED1]], %[[C1]]
// CHECK-DAG:     nvvm.mbarrier.init %[[E_X]], %[[C64]]
// CHECK-DAG:     %[[E_X1:.*]] = llvm.getelementptr %[[E_X]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK-DAG:     nvvm.mbarrier.init %[[E_X1]], %[[C64]]
// CHECK-DAG:     nvvm.mbarrier.init %[[E_Y]], %[[C32]]
// CHECK-DAG:     %[[E_Y1:.*]] = llvm.getelementptr %[[E_Y]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// CHECK-DAG:     nvvm.mbarrier.init %[[E_Y1]], %[[C32]]
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NOT:     nvvm.mbarrier.init
// CHECK:         scf.for {{.*}} iter_args(%[[P:.*]] = %[[C0]], %[[P_PH:.*]] = %[[C1]]) -> (i32, i32)
// CHECK:           %[[AX:.*]] = llvm.getelementptr %[[E_X]][%[[P]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[AX]], %[[P_PH]]
// CHECK:           %[[AY:.*]] = llvm.getelementptr %[[E_Y]][%[[P]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[AY]], %[[P_PH]]
// CHECK:           %[[COMMIT:.*]] = llvm.getelementptr %[[F_SHARED]][%[[P]]]
// CHECK:           %[[EL:.*]] = nvvm.elect.sync -> i1
// CHECK:           scf.if %[[EL]] {
// CHECK-NEXT:        nvvm.tcgen05.commit %[[COMMIT]] : !llvm.ptr<3>
// CHECK-NEXT:      }
// CHECK-NOT:       nvvm.tcgen05.commit
// CHECK:           scf.yield
// The UmmaAsync drain of each member: advance S - 1 = 1 time, wait once,
// on E_x and on E_y at the same stage and phase.
// CHECK:         %[[DX:.*]] = llvm.getelementptr %[[E_X]][%[[DI:[a-z0-9_#]+]]]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[DX]], %[[DPH:[a-z0-9_#]+]]
// CHECK:         %[[DY:.*]] = llvm.getelementptr %[[E_Y]][%[[DI]]]
// CHECK:         nvvm.mbarrier.try_wait.parity %[[DY]], %[[DPH]]
// Epilogue of @x.
// CHECK:         scf.for {{.*}} iter_args(%[[CX:.*]] = %[[C0]], %[[CX_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK:           %[[WX:.*]] = llvm.getelementptr %[[F_SHARED]][%[[CX]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[WX]], %[[CX_PH]]
// CHECK:           %[[RX:.*]] = llvm.getelementptr %[[E_X]][%[[CX]]]
// CHECK:           nvvm.mbarrier.arrive %[[RX]] : !llvm.ptr<3>
// Epilogue of @y.
// CHECK:         scf.for {{.*}} iter_args(%[[CY:.*]] = %[[C0]], %[[CY_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK:           %[[WY:.*]] = llvm.getelementptr %[[F_SHARED]][%[[CY]]]
// CHECK:           nvvm.mbarrier.try_wait.parity %[[WY]], %[[CY_PH]]
// CHECK:           %[[RY:.*]] = llvm.getelementptr %[[E_Y]][%[[CY]]]
// CHECK:           nvvm.mbarrier.arrive %[[RY]] : !llvm.ptr<3>
gpu.module @fork_umma_async [#nvvm.target<chip = "sm_100a">] {
gpu.func @fork_umma_async(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @x config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 64>>)
    tspipe.pipeline @y config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @xy fork [@x, @y]
    tspipe.task @mma warps(0, 1) produces [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @x group(@xy)
        %t = tspipe.producer_acquire @y group(@xy)
        tspipe.producer_commit @xy
      }
    }
    tspipe.task @epi_x warps(1, 2) consumes [@x] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @x group(@xy)
        tspipe.consumer_release @x group(@xy)
      }
    }
    tspipe.task @epi_y warps(3, 1) consumes [@y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @y group(@xy)
        tspipe.consumer_release @y group(@xy)
      }
    }
  }
  gpu.return
}
}
