// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The passing twins of invalid-soundness-uniformity.mlir (X29): values
// every CTA of the cluster shares, and rank-dependent copies whose model on
// every CTA delivers the same copies to each (DeepGEMM PRs 415, 429).

// DeepGEMM PR 429's fix: the trip count from a kernel argument, the tile
// from the cluster's index (block index / cluster extent, the same on both
// CTAs) and the grid size.
// CHECK-LABEL: func.func @X29_uniform_domain
func.func @X29_uniform_domain(%a: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bytes = arith.constant 4096 : i32
  %mask = arith.constant 3 : i16
  %bid = gpu.block_id x
  %cluster = arith.divui %bid, %c2 : index
  %grid = gpu.grid_dim x
  %span = arith.addi %cluster, %grid : index
  %end = arith.addi %n, %span : index
  // The rank modulo 1 is 0 on every CTA: the same value everywhere.
  %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %rank = arith.index_cast %rank32 : i32 to index
  %zero = arith.remui %rank, %c1 : index
  %start = arith.addi %c0, %zero : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @stages config(<tma_async, num_stages = 2, num_bytes = 8192,
        producer_group = <thread, 1>, consumer_group = <thread, 2>,
        cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>)
        smem_bytes(16384)
    tspipe.task @load warps(0, 1) produces [@stages] {
      tspipe.domain_loop %i = %start to %end step %c1 {
        %s = tspipe.producer_acquire @stages
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %leader = nvvm.elect.sync -> i1
        scf.if %leader {
          %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
          // expected-remark @+1 {{[X6] bytes of this stage of '@stages' not counted}}
          nvvm.cp.async.bulk.shared.cluster.global %dst, %a, %full, %bytes
              multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @stages
      }
    }
    tspipe.task @compute warps(1, 1) consumes [@stages] {
      tspipe.domain_loop %i = %start to %end step %c1 {
        %s = tspipe.consumer_wait @stages
        tspipe.consumer_release @stages
      }
    }
  }
  return
}

// -----

// DeepGEMM PR 415's pattern done right: rank 0 alone issues the copy, and
// multicasts it to both CTAs (each receives one copy).
// CHECK-LABEL: func.func @X29_rank_predicate_reaches_every_cta
func.func @X29_rank_predicate_reaches_every_cta(%a: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %bytes = arith.constant 8192 : i32
  %mask = arith.constant 3 : i16
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %first = arith.cmpi eq, %rank, %c0_i32 : i32
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @stages config(<tma_async, num_stages = 2, num_bytes = 8192,
        producer_group = <thread, 1>, consumer_group = <thread, 2>,
        cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>)
        smem_bytes(16384)
    tspipe.task @load warps(0, 1) produces [@stages] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @stages
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %leader = nvvm.elect.sync -> i1
        scf.if %leader {
          scf.if %first {
            %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
            // expected-remark @+1 {{[X6] bytes of this stage of '@stages' not counted}}
            nvvm.cp.async.bulk.shared.cluster.global %dst, %a, %full, %bytes
                multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr<1>
          }
        }
        tspipe.producer_commit @stages
      }
    }
    tspipe.task @compute warps(1, 1) consumes [@stages] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @stages
        tspipe.consumer_release @stages
      }
    }
  }
  return
}

// -----

// Masks computed from the rank (as in examples/tma_mcast_4cta_mn.mlir):
// each CTA multicasts along its row and its column of a 2 x 2 cluster, and
// every CTA receives two copies of each.
// CHECK-LABEL: func.func @X29_rank_masks_cover_every_cta
func.func @X29_rank_masks_cover_every_cta(%a: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bytes = arith.constant 4096 : i32
  %mask_a0 = arith.constant 5 : i16
  %mask_b0 = arith.constant 3 : i16
  %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %rank = arith.index_cast %rank32 : i32 to index
  %m = arith.remui %rank, %c2 : index
  %nn = arith.divui %rank, %c2 : index
  %m16 = arith.index_cast %m : index to i16
  %maska = arith.shli %mask_a0, %m16 : i16
  %n2 = arith.muli %nn, %c2 : index
  %n16 = arith.index_cast %n2 : index to i16
  %maskb = arith.shli %mask_b0, %n16 : i16
  tspipe.kernel warps(2) cluster([4, 1, 1]) {
    tspipe.pipeline @stages config(<tma_async, num_stages = 2, num_bytes = 16384,
        producer_group = <thread, 1>, consumer_group = <thread, 3>,
        cta_layout_vmnk = [1, 2, 2, 1], mcast_mode_mn = [1, 1]>)
        smem_bytes(32768)
    tspipe.task @load warps(0, 1) produces [@stages] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @stages
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %leader = nvvm.elect.sync -> i1
        scf.if %leader {
          %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
          nvvm.cp.async.bulk.shared.cluster.global %dst, %a, %full, %bytes
              multicast_mask = %maska : !llvm.ptr<7>, !llvm.ptr<1>
          // expected-remark @+1 {{[X6] bytes of this stage of '@stages' not counted}}
          nvvm.cp.async.bulk.shared.cluster.global %dst, %a, %full, %bytes
              multicast_mask = %maskb : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @stages
      }
    }
    tspipe.task @compute warps(1, 1) consumes [@stages] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @stages
        tspipe.consumer_release @stages
      }
    }
  }
  return
}

// -----

// A pipeline that stays on its CTA (cta_layout_vmnk of one CTA) may run a
// trip count of its own on each CTA of the cluster.
// CHECK-LABEL: func.func @X29_local_pipeline_rank_domain
func.func @X29_local_pipeline_rank_domain(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %rank = arith.index_cast %rank32 : i32 to index
  %end = arith.addi %n, %rank : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(512)
    tspipe.task @p warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %end step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @c warps(1, 1) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %end step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  return
}
