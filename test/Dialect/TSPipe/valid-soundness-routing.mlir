// RUN: tspipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The passing twins of invalid-soundness-routing.mlir (X5, X6 with a CTA
// pair; triton PRs 9460, 9510).

// triton PRs 9460, 9510 done right: both CTAs' copies on the leader's
// barrier, the tcgen05.cp on the pair leader only.
// CHECK-LABEL: func.func @X5_copies_on_leader_barrier
func.func @X5_copies_on_leader_barrier(%tmap: !llvm.ptr, %src: !llvm.ptr<1>, %n: index, %tmem: !llvm.ptr<6>, %desc: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 0 : i32
  %bytes = arith.constant 16384 : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 2, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 16384>)
        smem_bytes(65536)
    tspipe.task @load warps(0, 1) produces [@ab] {
      tspipe.domain_loop %k = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ab
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        %lead = tspipe.full_barrier %s {pair_leader} : !llvm.ptr<3>
        scf.if %e {
          // expected-remark @+1 {{[X6] bytes of this stage of '@ab' not counted}}
          nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %lead, box[%x, %x] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
        }
        tspipe.producer_commit @ab
      }
    }
    tspipe.task @mma warps(1, 1) consumes [@ab] {
      tspipe.domain_loop %k = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ab
        %two = arith.constant 2 : i32
        %zero = arith.constant 0 : i32
        %inpair = arith.remui %rank, %two : i32
        %leader = arith.cmpi eq, %inpair, %zero : i32
        scf.if %leader {
          %e = nvvm.elect.sync -> i1
          scf.if %e {
            nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>, group = #nvvm.cta_group<cta_2>}
          }
        }
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// The leader test and the lane election in one condition (elect.sync &
// leader, as examples/umma_gemm_2cta.mlir issues its MMAs): false on the
// peer whatever elect.sync returns. The descriptor op computes a value and
// needs no gate.
// CHECK-LABEL: func.func @X5_leader_and_elect_in_one_condition
func.func @X5_leader_and_elect_in_one_condition(%n: index, %tmem: !llvm.ptr<6>, %a: i32, %idesc: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %lbo = arith.constant 1 : i32
  %sbo = arith.constant 32 : i32
  %base = arith.constant 0 : i8
  %mode = arith.constant false
  %swz = arith.constant 4 : i8
  %acc = arith.constant true
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 2, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 16384>)
        smem_bytes(65536)
    tspipe.task @load warps(0, 1) produces [@ab] {
      tspipe.domain_loop %k = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ab
        tspipe.producer_commit @ab
      }
    }
    tspipe.task @mma warps(1, 1) consumes [@ab] {
      tspipe.domain_loop %k = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ab
        %two = arith.constant 2 : i32
        %zero = arith.constant 0 : i32
        %inpair = arith.remui %rank, %two : i32
        %leader = arith.cmpi eq, %inpair, %zero : i32
        %desc = nvvm.tcgen05.mma_smem_desc (%a, %lbo, %sbo, %base, %mode, %swz) : (i32, i32, i32, i8, i1, i8) -> i64
        %e = nvvm.elect.sync -> i1
        %issue = arith.andi %e, %leader : i1
        scf.if %issue {
          nvvm.tcgen05.mma %tmem, %desc, %desc, %idesc, %acc {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_2>} : (!llvm.ptr<6>, i64, i64, i32, i1)
        }
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// The peer-bit idiom (ptrtoint, and ~(1 << 24), inttoptr) is followed as
// the leader's full barrier.
// CHECK-LABEL: func.func @X5_peer_bit_idiom
func.func @X5_peer_bit_idiom(%tmap: !llvm.ptr, %src: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 0 : i32
  %bytes = arith.constant 16384 : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 2, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 16384>)
        smem_bytes(65536)
    tspipe.task @load warps(0, 1) produces [@ab] {
      tspipe.domain_loop %k = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ab
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        %full = tspipe.full_barrier %s : !llvm.ptr<3>
        %clear = arith.constant -16777217 : i32
        %a = llvm.ptrtoint %full : !llvm.ptr<3> to i32
        %l = arith.andi %a, %clear : i32
        %lead = llvm.inttoptr %l : i32 to !llvm.ptr<3>
        scf.if %e {
          // expected-remark @+1 {{[X6] bytes of this stage of '@ab' not counted}}
          nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %lead, box[%x, %x] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
        }
        tspipe.producer_commit @ab
      }
    }
    tspipe.task @mma warps(1, 1) consumes [@ab] {
      tspipe.domain_loop %k = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ab
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// Each CTA's bracket delivers its share (num_bytes_per_warp_per_cta, half
// of what the leader arms).
// CHECK-LABEL: func.func @X6_leader_barrier_half_bytes
func.func @X6_leader_barrier_half_bytes(%tmap: !llvm.ptr, %src: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 0 : i32
  %bytes = arith.constant 16384 : i32
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @ab config(<tma_umma, num_stages = 2, num_bytes = 32768,
          producer_group = <thread, 1>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling = cta_leader,
          num_bytes_per_warp_per_cta = 16384>)
        smem_bytes(65536)
    tspipe.task @load warps(0, 1) produces [@ab] {
      tspipe.domain_loop %k = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @ab
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        %lead = tspipe.full_barrier %s {pair_leader} : !llvm.ptr<3>
        %half = arith.constant 16384 : i32
        scf.if %e {
          nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %lead, %half : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @ab
      }
    }
    tspipe.task @mma warps(1, 1) consumes [@ab] {
      tspipe.domain_loop %k = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ab
        tspipe.consumer_release @ab
      }
    }
  }
  return
}
