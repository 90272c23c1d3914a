// RUN: tspipe-opt %s --tspipe-verify-lowering -split-input-file -verify-diagnostics

// X32: a work step's tcgen05.mma uses cta_group::2 in a kernel whose
// AsyncUmma pipeline commits with cta_group::1 (V = 1); ptxas rejects a
// function that mixes the two groups.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @mma_group(%n: index, %d: !llvm.ptr<6>, %a: i64, %b: i64,
                      %idesc: i32, %acc: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          // expected-error @+1 {{'nvvm.tcgen05.mma' op [X32] uses cta_group::2, but pipeline '@ring' of this kernel commits with tcgen05 cta_group::1 (V = 1 in its cta_layout_vmnk); the tcgen05 instructions of a kernel must all use one CTA group (ptxas rejects the mix): use #nvvm.cta_group<cta_1>}}
          nvvm.tcgen05.mma %d, %a, %b, %idesc, %acc
              {kind = #nvvm.tcgen05_mma_kind<f16>,
               ctaGroup = #nvvm.cta_group<cta_2>}
              : (!llvm.ptr<6>, i64, i64, i32, i1)
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// X32 in setup code outside the tspipe kernel: the pair's pipeline (V = 2)
// commits with cta_group::2, the allocation uses cta_group::1.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @alloc_group(%n: index, %slot: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cols = arith.constant 128 : i32
    // expected-error @+1 {{'nvvm.tcgen05.alloc' op [X32] uses cta_group::1, but pipeline '@ring' of this kernel commits with tcgen05 cta_group::2 (V = 2 in its cta_layout_vmnk); the tcgen05 instructions of a kernel must all use one CTA group (ptxas rejects the mix): use #nvvm.cta_group<cta_2>}}
    nvvm.tcgen05.alloc %slot, %cols : !llvm.ptr<3>, i32
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader,
          consumer_signaling = cta_leader>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}

// -----

// X32 without a tcgen05 pipeline: the user's own tcgen05 ops disagree.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @own_ops(%slot: !llvm.ptr<3>, %t: !llvm.ptr<6>) kernel {
    %cols = arith.constant 32 : i32
    nvvm.tcgen05.alloc %slot, %cols {group = #nvvm.cta_group<cta_2>}
        : !llvm.ptr<3>, i32
    // expected-error @+1 {{'nvvm.tcgen05.dealloc' op [X32] uses cta_group::1, but 'nvvm.tcgen05.alloc' of this kernel uses cta_group::2; the tcgen05 instructions of a kernel must all use one CTA group (ptxas rejects the mix): use #nvvm.cta_group<cta_2>}}
    nvvm.tcgen05.dealloc %t, %cols : !llvm.ptr<6>, i32
    gpu.return
  }
}

// -----

// Passing: the pair's allocation, MMA and the pipeline's commits all use
// cta_group::2 (the TMA copy's own cta_group is no tcgen05 instruction).
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @pair(%n: index, %slot: !llvm.ptr<3>, %d: !llvm.ptr<6>, %a: i64,
                 %b: i64, %idesc: i32, %acc: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cols = arith.constant 128 : i32
    nvvm.tcgen05.alloc %slot, %cols {group = #nvvm.cta_group<cta_2>}
        : !llvm.ptr<3>, i32
    tspipe.kernel warps(2) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader,
          consumer_signaling = cta_leader>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          // The pair leader issues the pair's MMA (X5).
          %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
          %two = arith.constant 2 : i32
          %zero = arith.constant 0 : i32
          %inpair = arith.remui %rank, %two : i32
          %leader = arith.cmpi eq, %inpair, %zero : i32
          scf.if %leader {
            nvvm.tcgen05.mma %d, %a, %b, %idesc, %acc
                {kind = #nvvm.tcgen05_mma_kind<f16>,
                 ctaGroup = #nvvm.cta_group<cta_2>}
                : (!llvm.ptr<6>, i64, i64, i32, i1)
          }
          tspipe.consumer_release @ring
        }
      }
    }
    nvvm.tcgen05.dealloc %d, %cols {group = #nvvm.cta_group<cta_2>}
        : !llvm.ptr<6>, i32
    gpu.return
  }
}

// -----

// X32 between pipelines: a pair's AsyncUmma ring (V = 2) and a single-CTA
// one (V = 1) in one kernel would commit with both groups.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @two_rings(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) cluster([2, 1, 1]) {
      tspipe.pipeline @pair config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader,
          consumer_signaling = cta_leader>)
      // expected-error @+1 {{'tspipe.pipeline' op [X32] commits with tcgen05 cta_group::1 (V = 1), but pipeline '@pair' of the same kernel commits with cta_group::2; the tcgen05 instructions of a kernel must all use one CTA group (ptxas rejects the mix): give both the same V in cta_layout_vmnk}}
      tspipe.pipeline @single config(<async_umma, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 1>,
          cta_layout_vmnk = [1, 1, 1, 1]>)
      tspipe.task @p0 warps(0, 1) produces [@pair] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @pair
          tspipe.producer_commit @pair
        }
      }
      tspipe.task @c0 warps(1, 1) consumes [@pair] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @pair
          tspipe.consumer_release @pair
        }
      }
      tspipe.task @p1 warps(2, 1) produces [@single] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @single
          tspipe.producer_commit @single
        }
      }
      tspipe.task @c1 warps(3, 1) consumes [@single] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @single
          tspipe.consumer_release @single
        }
      }
    }
    gpu.return
  }
}
