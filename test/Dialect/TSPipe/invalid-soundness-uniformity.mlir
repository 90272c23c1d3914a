// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// X29: on a pipeline spanning the cluster's CTAs, values computed from the
// CTA's position in the cluster must not decide the trip count, a bracket's
// guard or the multicast copies (DeepGEMM PRs 415, 429).

// DeepGEMM PR 429: a cluster straddles two groups with different K loops:
// the domain end comes from the block index, so the CTAs run different trip
// counts on a multicast pipeline.
func.func @X29_domain_end_from_block_id(%a: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %bytes = arith.constant 4096 : i32
  %mask = arith.constant 3 : i16
  %bid = gpu.block_id x
  %grp = arith.remui %bid, %c3 : index
  %end = arith.addi %n, %grp : index
  tspipe.kernel warps(2) cluster([2, 1, 1]) {
    tspipe.pipeline @stages config(<tma_async, num_stages = 2, num_bytes = 8192,
        producer_group = <thread, 1>, consumer_group = <thread, 2>,
        cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>)
        smem_bytes(16384)
    tspipe.task @load warps(0, 1) produces [@stages] {
      // expected-error @+1 {{'tspipe.domain_loop' op [X29] the domain loop's upper bound (the trip count) differs between the CTAs of the cluster: it is computed from 'gpu.block_id' #gpu<dim x> at}}
      tspipe.domain_loop %i = %c0 to %end step %c1 {
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
      // expected-error @+1 {{[X29] the domain loop's upper bound (the trip count) differs between the CTAs of the cluster}}
      tspipe.domain_loop %i = %c0 to %end step %c1 {
        %s = tspipe.consumer_wait @stages
        tspipe.consumer_release @stages
      }
    }
  }
  return
}

// -----

// DeepGEMM PR 429 with the CTA rank: the rank itself in the trip count.
func.func @X29_domain_end_from_rank(%a: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 4096 : i32
  %mask = arith.constant 3 : i16
  %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %rank = arith.index_cast %rank32 : i32 to index
  %end = arith.addi %n, %rank : index
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
          %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
          // expected-remark @+1 {{[X6] bytes of this stage of '@stages' not counted}}
          nvvm.cp.async.bulk.shared.cluster.global %dst, %a, %full, %bytes
              multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @stages
      }
    }
    tspipe.task @compute warps(1, 1) consumes [@stages] {
      // expected-error @+1 {{[X29] the domain loop's upper bound (the trip count) differs between the CTAs of the cluster: it is computed from 'nvvm.read.ptx.sreg.cluster.ctarank' at}}
      tspipe.domain_loop %i = %c0 to %end step %c1 {
        %s = tspipe.consumer_wait @stages
        tspipe.consumer_release @stages
      }
    }
  }
  return
}

// -----

// DeepGEMM PR 415: the CTAs disagree on whether the multicast is valid (a
// predicate computed from the block index), so the peer's full barrier
// never receives the bytes it was armed for.
func.func @X29_multicast_predicate_from_block_id(%a: !llvm.ptr<1>, %n: index, %limit: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 4096 : i32
  %mask = arith.constant 3 : i16
  %bid = gpu.block_id x
  %valid = arith.cmpi ult, %bid, %limit : index
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
          scf.if %valid {
            %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
            // expected-remark @+2 {{[X6] bytes of this stage of '@stages' not counted}}
            // expected-error @+1 {{[X29] whether this copy runs differs between the CTAs of the cluster: it is computed from 'gpu.block_id' #gpu<dim x>}}
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

// DeepGEMM PR 415, modeled per CTA: only rank 0 copies, to itself only, so
// CTA 1's full barrier never receives its bytes.
func.func @X29_rank_predicate_misses_a_cta(%a: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %bytes = arith.constant 8192 : i32
  %mask = arith.constant 1 : i16
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
            // expected-remark @+2 {{[X6] bytes of this stage of '@stages' not counted}}
            // expected-error @+1 {{[X29] where this copy lands differs between the CTAs of the cluster: it is computed from 'nvvm.read.ptx.sreg.cluster.ctarank' at}}
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

// A mask computed from the rank that names a CTA outside the cluster.
func.func @X29_mask_outside_cluster(%a: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 4096 : i32
  %mask0 = arith.constant 3 : i16
  %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %rank16 = arith.trunci %rank : i32 to i16
  %mask = arith.shli %mask0, %rank16 : i16
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
          %dst = llvm.addrspacecast %buf : !llvm.ptr<3> to !llvm.ptr<7>
          // expected-remark @+2 {{[X6] bytes of this stage of '@stages' not counted}}
          // expected-error @+1 {{[X29] the multicast mask of this copy on the CTA of rank 1 is 6, which names CTA 2 outside the cluster of 2 CTAs; keep every mask bit below the cluster size}}
          nvvm.cp.async.bulk.shared.cluster.global %dst, %a, %full, %bytes
              multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr<1>
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

// A bracket of a pipeline spanning CTAs under a condition computed from the
// rank: X29 on the scf.if (and X15 on the nested bracket).
func.func @X29_bracket_guard_from_rank(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
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
        tspipe.producer_commit @stages
      }
    }
    tspipe.task @compute warps(1, 1) consumes [@stages] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @stages
        // expected-error @+1 {{'scf.if' op [X29] the condition of the 'scf.if' around 'tspipe.consumer_release @stages' differs between the CTAs of the cluster: it is computed from 'nvvm.read.ptx.sreg.cluster.ctarank'}}
        scf.if %first {
          // expected-error @+1 {{[X15]}}
          tspipe.consumer_release @stages
        }
      }
    }
  }
  return
}
