// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse --split-input-file | FileCheck %s
// RUN: %if ptxas %{ tspipe-opt %s --split-input-file --tspipe-to-nvvm --gpu-module-to-binary=format=bin | FileCheck %s --check-prefix=BIN %}

// The arm of a fork group's shared full barrier (docs/Rules.md, R68): the
// members' common num_bytes times the members the producer fills with copies
// of their own. CUTLASS TS tutorial 7 (fork_load_gemm_act) issues one TMA
// load that every member reads: TS 4.8.1 arms 1024 once; the sum (2048)
// never completes (a hang on the H200). Copies not shown: TS's rule, the
// group config's num_bytes (derived: the common value).

// One load on @x's stage: armed with 1024.
// CHECK-LABEL: gpu.func @fork_one_load
// CHECK-DAG:     %[[ARM:.*]] = arith.constant 1024 : i32
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[ARM]] : !llvm.ptr<3>, i32
// CHECK-NOT:     nvvm.mbarrier.arrive.expect_tx
// BIN: gpu.binary @fork_one_load
gpu.module @fork_one_load [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @fork_one_load(%src: !llvm.ptr<1>, %n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i32
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline_group @xy fork [@x, @y]
    tspipe.task @load warps(0, 1) produces [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @x group(@xy)
        %t = tspipe.producer_acquire @y group(@xy)
        %fs = tspipe.full_barrier %s : !llvm.ptr<3>
        %ds = tspipe.stage_buffer %s : !llvm.ptr<3>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          %ds7 = llvm.addrspacecast %ds : !llvm.ptr<3> to !llvm.ptr<7>
          nvvm.cp.async.bulk.shared.cluster.global %ds7, %src, %fs, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
        }
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

// One copy per member: armed with their sum.
// CHECK-LABEL: gpu.func @fork_copy_per_member
// CHECK-DAG:     %[[ARM:.*]] = arith.constant 2048 : i32
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[ARM]] : !llvm.ptr<3>, i32
// CHECK-NOT:     nvvm.mbarrier.arrive.expect_tx
// BIN: gpu.binary @fork_copy_per_member
gpu.module @fork_copy_per_member [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @fork_copy_per_member(%src: !llvm.ptr<1>, %n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i32
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline_group @xy fork [@x, @y]
    tspipe.task @load warps(0, 1) produces [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @x group(@xy)
        %t = tspipe.producer_acquire @y group(@xy)
        %fs = tspipe.full_barrier %s : !llvm.ptr<3>
        %ft = tspipe.full_barrier %t : !llvm.ptr<3>
        %ds = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dt = tspipe.stage_buffer %t : !llvm.ptr<3>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          %ds7 = llvm.addrspacecast %ds : !llvm.ptr<3> to !llvm.ptr<7>
          %dt7 = llvm.addrspacecast %dt : !llvm.ptr<3> to !llvm.ptr<7>
          nvvm.cp.async.bulk.shared.cluster.global %ds7, %src, %fs, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
          nvvm.cp.async.bulk.shared.cluster.global %dt7, %src, %ft, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
        }
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

// No copy shown, derived config: TS's common num_bytes.
// CHECK-LABEL: gpu.func @fork_no_copies_derived
// CHECK-DAG:     %[[ARM:.*]] = arith.constant 1024 : i32
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[ARM]] : !llvm.ptr<3>, i32
// CHECK-NOT:     nvvm.mbarrier.arrive.expect_tx
// BIN: gpu.binary @fork_no_copies_derived
gpu.module @fork_no_copies_derived [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @fork_no_copies_derived(%src: !llvm.ptr<1>, %n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i32
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

// No copy shown, explicit config of the sum: its num_bytes.
// CHECK-LABEL: gpu.func @fork_no_copies_config_sum
// CHECK-DAG:     %[[ARM:.*]] = arith.constant 2048 : i32
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[ARM]] : !llvm.ptr<3>, i32
// CHECK-NOT:     nvvm.mbarrier.arrive.expect_tx
// BIN: gpu.binary @fork_no_copies_config_sum
gpu.module @fork_no_copies_config_sum [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @fork_no_copies_config_sum(%src: !llvm.ptr<1>, %n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i32
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline_group @xy fork [@x, @y] config(<tma_async, num_stages = 2, num_bytes = 2048, producer_group = <thread, 1>, consumer_group = <thread, 2>>)
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
