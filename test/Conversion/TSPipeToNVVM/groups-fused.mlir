// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// Every kernel assembles for sm_90a (format=bin runs ptxas).
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// fused_merge groups (TS 4.8.1's FusedMerge; docs/Protocols.md, Pipeline
// groups): the members share both barrier arrays, [F_shared x S][E_shared x
// S]. F_shared is initialized once with the sum of the members' producer
// arrivals, E_shared once with the common consumer group. Each producer
// arrives on F_shared with its own protocol (a TMA member arms its own
// bytes); the consumer waits once on F_shared and releases once on
// E_shared.

// A TmaAsync member (1 producer arrival, 1024 bytes) and an AsyncAsync
// member (32 producer threads), 2 stages: F_shared at +0 (count 33),
// E_shared at +16 (count 64, the AsyncAsync lead's consumer group). The
// release starts with the proxy fence (the TMA member's next fill is an
// async-proxy write).
// CHECK-LABEL: gpu.func @fused_mixed
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C33:.*]] = arith.constant 33 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 1024 : i32
// CHECK:         %[[F_SHARED:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-NEXT:    %[[E_SHARED:.*]] = llvm.getelementptr %[[F_SHARED]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_SHARED]], %[[C33]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_SHARED]], %[[C64]]
// CHECK-NEXT:    %[[F_SHARED1:.*]] = llvm.getelementptr %[[F_SHARED]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[F_SHARED1]], %[[C33]]
// CHECK-NEXT:    %[[E_SHARED1:.*]] = llvm.getelementptr %[[E_SHARED]][1]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_SHARED1]], %[[C64]]
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// The TMA producer: wait on E_shared, arm F_shared with its own bytes.
// CHECK:         scf.for {{.*}} iter_args(%[[PT:.*]] = %[[C0]], %[[PT_PH:.*]] = %[[C1]]) -> (i32, i32)
// CHECK-NEXT:      %[[ET:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PT]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[ET]], %[[PT_PH]]
// CHECK:             %[[ARM:.*]] = llvm.getelementptr %[[F_SHARED]][%[[PT]]]
// CHECK-NEXT:        nvvm.mbarrier.arrive.expect_tx %[[ARM]], %[[BYTES]] : !llvm.ptr<3>, i32
// The AsyncAsync producer: wait on E_shared, every thread arrives on
// F_shared.
// CHECK:         scf.for {{.*}} iter_args(%[[PA:.*]] = %[[C0]], %[[PA_PH:.*]] = %[[C1]]) -> (i32, i32)
// CHECK-NEXT:      %[[EA:.*]] = llvm.getelementptr %[[E_SHARED]][%[[PA]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[EA]], %[[PA_PH]]
// CHECK-NEXT:      %[[FA:.*]] = llvm.getelementptr %[[F_SHARED]][%[[PA]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[FA]] : !llvm.ptr<3>
// The consumer: one wait on F_shared, the fence, one arrive on E_shared.
// CHECK:         scf.for {{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[C_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK-NEXT:      %[[W:.*]] = llvm.getelementptr %[[F_SHARED]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.try_wait.parity %[[W]], %[[C_PH]]
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      %[[REL:.*]] = llvm.getelementptr %[[E_SHARED]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[REL]] : !llvm.ptr<3>
// CHECK-NOT:       nvvm.mbarrier
// CHECK:           scf.yield
// BIN: gpu.binary @fused_mixed
gpu.module @fused_mixed [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @fused_mixed(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(4) {
    tspipe.pipeline @t config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>>) smem_bytes(2048)
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>) smem_bytes(2048)
    tspipe.pipeline_group @ta fused_merge [@t, @a]
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
        %s = tspipe.consumer_wait @ta
        %st = tspipe.current_stage @t consumer group(@ta)
        %bt = tspipe.stage_buffer %st : !llvm.ptr<3>
        %sa = tspipe.current_stage @a consumer group(@ta)
        %ba = tspipe.stage_buffer %sa : !llvm.ptr<3>
        tspipe.consumer_release @ta
      }
    }
  }
  gpu.return
}
}

// -----

// Two AsyncAsync members (32 producer threads each): F_shared counts 64.
// The consumer probes F_shared once on the group (try_wait), waits only when
// the probe failed, and reads member @b's stage through its cursor:
// buffer of @b at +1152, 512 bytes per stage.
// CHECK-LABEL: gpu.func @fused_try
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[STAGE:.*]] = arith.constant 512 : i32
// CHECK:         %[[F_SHARED:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK-NEXT:    %[[E_SHARED:.*]] = llvm.getelementptr %[[F_SHARED]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[BUF_B:.*]] = llvm.getelementptr %[[F_SHARED]][1152] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mbarrier.init %[[F_SHARED]], %[[C64]]
// CHECK-NEXT:    nvvm.mbarrier.init %[[E_SHARED]], %[[C32]]
// CHECK:         scf.for {{.*}} iter_args(%[[C:.*]] = %[[C0]], %[[C_PH:.*]] = %[[C0]]) -> (i32, i32)
// CHECK-NEXT:      %[[W:.*]] = llvm.getelementptr %[[F_SHARED]][%[[C]]]
// CHECK-NEXT:      %[[READY:.*]] = nvvm.mbarrier.try_wait %[[W]], %[[C_PH]] : !llvm.ptr<3>, i32 -> i1
// CHECK-NEXT:      %[[NOT_READY:.*]] = arith.xori %[[READY]], %{{.*}} : i1
// CHECK-NEXT:      scf.if %[[NOT_READY]] {
// CHECK-NEXT:        nvvm.mbarrier.try_wait.parity %[[W]], %[[C_PH]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[OFF:.*]] = arith.muli %[[C]], %[[STAGE]] : i32
// CHECK-NEXT:      %[[DATA:.*]] = llvm.getelementptr %[[BUF_B]][%[[OFF]]]
// CHECK-NEXT:      llvm.store %{{.*}}, %[[DATA]] : i32, !llvm.ptr<3>
// CHECK-NEXT:      %[[REL:.*]] = llvm.getelementptr %[[E_SHARED]][%[[C]]]
// CHECK-NEXT:      nvvm.mbarrier.arrive %[[REL]] : !llvm.ptr<3>
// BIN: gpu.binary @fused_try
gpu.module @fused_try [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @fused_try(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline_group @ab fused_merge [@a, @b]
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
    tspipe.task @use warps(2, 1) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %r = tspipe.consumer_try_wait @ab
        %s = tspipe.consumer_wait @ab ready(%r)
        %sb = tspipe.current_stage @b consumer group(@ab)
        %buf = tspipe.stage_buffer %sb : !llvm.ptr<3>
        %one = arith.constant 1 : i32
        llvm.store %one, %buf : i32, !llvm.ptr<3>
        tspipe.consumer_release @ab
      }
    }
  }
  gpu.return
}
}
