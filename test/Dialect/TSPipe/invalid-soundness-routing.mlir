// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X5 on the routing of a CTA pair (V = 2; triton PRs 9460, 9510): both
// CTAs' copies complete on the pair leader's full barrier
// (tspipe.full_barrier %s {pair_leader}), barrier addresses are followed or
// rejected, and the tcgen05 work of a CtaLeader side runs on the leader.

// triton PR 9460: the peer CTA's copy completes on its own full barrier,
// which only the leader arms: the peer's bytes never reach the leader.
func.func @X5_peer_copy_on_own_barrier(%tmap: !llvm.ptr, %src: !llvm.ptr<1>, %n: index) {
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
        scf.if %e {
          // expected-remark @+2 {{[X6] bytes of this stage of '@ab' not counted}}
          // expected-error @+1 {{[X5] completes on this CTA's own full barrier of '@ab', but with a CTA pair (cta_layout_vmnk V = 2) only the pair leader arms the stage's full barrier, for both CTAs' bytes: on the peer CTA this barrier is never armed and the leader's phase never receives the peer's bytes (triton PRs 9460, 9510); complete the copy on the leader's barrier, %lead = tspipe.full_barrier %s {pair_leader} : !llvm.ptr<3>}}
          nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %full, box[%x, %x] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
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

// Barrier arithmetic other than the peer-bit idiom: which barrier the copy
// completes on cannot be told.
func.func @X5_opaque_barrier_arithmetic(%tmap: !llvm.ptr, %src: !llvm.ptr<1>, %n: index) {
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
        // expected-remark @+1 {{[X6] bytes of this stage of '@ab' not counted}}
        %a = llvm.ptrtoint %full : !llvm.ptr<3> to i32
        %eight = arith.constant 8 : i32
        %b = arith.addi %a, %eight : i32
        %bar = llvm.inttoptr %b : i32 to !llvm.ptr<3>
        scf.if %e {
          // expected-error @+1 {{[X5] completes on an address computed from the 'tspipe.full_barrier' at}}
          nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %tmap, %bar, box[%x, %x] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
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

// expect_tx on the pair leader counts both CTAs' copies (num_bytes): each
// CTA's bracket delivers num_bytes_per_warp_per_cta, not num_bytes.
func.func @X6_leader_barrier_counts_both_ctas(%tmap: !llvm.ptr, %src: !llvm.ptr<1>, %n: index) {
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
        // expected-error @+1 {{[X6] the 1 copies completing on the full barrier of this stage of '@ab' deliver 32768 bytes, but the stage is armed for 16384 (num_bytes_per_warp_per_cta)}}
        %s = tspipe.producer_acquire @ab
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
        %e = nvvm.elect.sync -> i1
        %lead = tspipe.full_barrier %s {pair_leader} : !llvm.ptr<3>
        %all = arith.constant 32768 : i32
        scf.if %e {
          nvvm.cp.async.bulk.shared.cluster.global %dst, %src, %lead, %all : !llvm.ptr<7>, !llvm.ptr<1>
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

// triton PR 9510: the peer CTA issues tcgen05.cp on a side that only the
// leader waits on.
func.func @X5_peer_issues_tcgen05_cp(%tmap: !llvm.ptr, %src: !llvm.ptr<1>, %n: index, %tmem: !llvm.ptr<6>, %desc: i64) {
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
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          // expected-error @+1 {{[X5] task '@mma' plays the consumer side of '@ab' with consumer_signaling = cta_leader and a CTA pair (V = 2), so its barrier operations run on the pair leader only, but this tcgen05 op also runs on the peer CTA of rank 1, without the wait that orders it (triton PRs 9460, 9510)}}
          nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>, group = #nvvm.cta_group<cta_2>}
        }
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// {pair_leader} needs a CTA pair.
func.func @X5_leader_barrier_without_pair(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @p config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(4096)
    tspipe.task @load warps(0, 1) produces [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-warning @+1 {{[X6] no copy completes on the full barrier of this stage of '@p'}}
        %s = tspipe.producer_acquire @p
        // expected-error @+1 {{[X5] {pair_leader} names the pair leader's full barrier, which only a producer stage of a TMA pipeline (tma_async, tma_umma) with a CTA pair (cta_layout_vmnk V = 2) has, but '@p' is a tma_async pipeline with V = 1; drop {pair_leader}}}
        %l = tspipe.full_barrier %s {pair_leader} : !llvm.ptr<3>
        tspipe.producer_commit @p
      }
    }
    tspipe.task @use warps(1, 1) consumes [@p] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @p
        tspipe.consumer_release @p
      }
    }
  }
  return
}
