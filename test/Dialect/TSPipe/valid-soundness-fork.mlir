// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// The passing twins of invalid-soundness-fork.mlir (CUTLASS TS tutorial 7,
// fork_load_gemm_act: one TMA load that every member of a fork reads).

// One load, a config armed for one member's bytes.
// CHECK-LABEL: func.func @X6_fork_one_load_config_sum
func.func @X6_fork_one_load_config_sum(%src: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 1024 : i32
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(2048)
    tspipe.pipeline_group @xy fork [@x, @y] config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 2>>)
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
  return
}

// -----

// One copy per member, a config armed for their sum.
// CHECK-LABEL: func.func @X6_fork_copy_per_member_config_common
func.func @X6_fork_copy_per_member_config_common(%src: !llvm.ptr<1>, %n: index) {
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
  return
}

// -----

// One load, the derived config (TS 4.8.1: the common num_bytes).
// CHECK-LABEL: func.func @fork_one_load_derived
func.func @fork_one_load_derived(%src: !llvm.ptr<1>, %n: index) {
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
  return
}

// -----

// One copy per member, the derived config: the copies decide (the sum).
// CHECK-LABEL: func.func @fork_copy_per_member_derived
func.func @fork_copy_per_member_derived(%src: !llvm.ptr<1>, %n: index) {
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
  return
}
