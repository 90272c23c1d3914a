// RUN: tspipe-opt %s --tspipe-normalize -split-input-file -verify-diagnostics

// X16: pipeline groups whose one group-level bracket cannot make every
// member's arrivals are rejected by the verifier with a diagnostic naming
// both members' forms (docs/Protocols.md, Pipeline groups). R67 accepts
// each of them. A merge's release forms are known once tspipe-normalize has
// recorded the TmaAsync release form, so the first case fails after that
// pass. The valid twins are the lowering tests groups-mixed.mlir,
// groups-fork.mlir and groups-fused.mlir (test/Conversion/TSPipeToNVVM).

// A merge of a multicast TmaAsync member and an AsyncAsync member on a
// 2-CTA cluster: the AsyncAsync lead's release arrives on its own CTA only,
// while the TMA member's copies also wrote the peer CTA's stage.
gpu.module @merge_mcast_mixed [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @merge_mcast_mixed(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) cluster([2, 1, 1]) {
      tspipe.pipeline @t config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768)
      tspipe.pipeline @a config(<async_async, num_stages = 4,
          producer_group = <thread, 32>, consumer_group = <thread, 64>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
      // expected-error @+1 {{'tspipe.pipeline_group' op [X16] cannot lower the merge group's one tspipe.consumer_release for every member: for '@a' (async_async) every signaling thread arrives (mbarrier.arrive) on its own CTA's barrier, but '@t' (tma_async) needs its release on the barriers of every CTA of its TMA multicast set; give the members one pipeline type or run the kernel on one CTA, where both reach this CTA's barrier alone}}
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

// A fork whose members fill with different instructions: the AsyncAsync
// lead's commit is a cp.async arrive (async_load), the AsyncUmma member's
// producers arrive with mbarrier.arrive (async_thread); one commit cannot
// be both.
gpu.module @fork_producer_ops [#nvvm.target<chip = "sm_100a">] {
gpu.func @fork_producer_ops(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, async_producer_op = async_load>)
    tspipe.pipeline @y config(<async_umma, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 1>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [X16] cannot lower the fork group's one tspipe.producer_commit for every member: for '@x' (async_async) every signaling thread arrives once its cp.async copies land (cp.async.mbarrier.arrive.noinc) on its own CTA's barrier, but '@y' (async_umma) needs that every signaling thread arrives (mbarrier.arrive) on its own CTA's barrier; give the members one pipeline type}}
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
    tspipe.task @mma_y warps(2, 1) consumes [@y] {
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

// A fused_merge on a CTA pair (V = 2) whose producers arrive on different
// CTAs' full barriers: the AsyncUmma threads on the pair leader's, the
// UmmaUmma commit on both CTAs'; one shared full barrier cannot count both.
gpu.module @fused_pair [#nvvm.target<chip = "sm_100a">] {
gpu.func @fused_pair(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) cluster([2, 1, 1]) {
    tspipe.pipeline @s config(<async_umma, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader, consumer_signaling = cta_leader>)
    tspipe.pipeline @m config(<umma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 1, 1, 1], producer_signaling = cta_leader, consumer_signaling = cta_leader>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [X16] cannot lower the fused_merge group's shared full barrier: the producers of '@s' (async_umma) arrive on the barrier of its pair's leader CTA, those of '@m' (umma_umma) on the barriers of both CTAs of its pair; use a merge group, whose members keep their own full barriers}}
    tspipe.pipeline_group @sm fused_merge [@s, @m]
    tspipe.task @load_s warps(0, 1) produces [@s] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %x = tspipe.producer_acquire @s group(@sm)
        tspipe.producer_commit @s group(@sm)
      }
    }
    tspipe.task @fill_m warps(1, 1) produces [@m] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %x = tspipe.producer_acquire @m group(@sm)
        tspipe.producer_commit @m group(@sm)
      }
    }
    tspipe.task @mma warps(2, 1) consumes [@s, @m] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %x = tspipe.consumer_wait @sm
        tspipe.consumer_release @sm
      }
    }
  }
  gpu.return
}
}

// -----

// X18: the merge's one consumer_release is lowered by its lead with the
// lead's remote-arrive scope, so a member that asks for another scope would
// not get it. Valid twin: valid-groups.mlir, X18_merge_same_scope.
gpu.module @X18_merge_scopes [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @X18_merge_scopes(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(4) cluster([2, 1, 1]) {
      tspipe.pipeline @x config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768) remote_arrive_scope(cta)
      tspipe.pipeline @y config(<tma_async, num_stages = 4, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 4>,
          cta_layout_vmnk = [1, 2, 1, 1], mcast_mode_mn = [0, 1]>)
          smem_bytes(32768)
      // expected-error @+1 {{'tspipe.pipeline_group' op [X18] the merge group's group-level bracket is lowered once, with the remote-arrive scope of its lead '@x' (cta), but '@y' has remote_arrive_scope(cluster); give every member the same remote_arrive_scope (absent means cluster)}}
      tspipe.pipeline_group @xy merge [@x, @y]
      tspipe.task @load_x warps(0, 1) produces [@x] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @x group(@xy)
          tspipe.producer_commit @x group(@xy)
        }
      }
      tspipe.task @load_y warps(1, 1) produces [@y] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @y group(@xy)
          tspipe.producer_commit @y group(@xy)
        }
      }
      tspipe.task @use warps(2, 2) consumes [@x, @y] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @x group(@xy)
          %t = tspipe.consumer_wait @y group(@xy)
          tspipe.consumer_release @xy
        }
      }
    }
    gpu.return
  }
}
