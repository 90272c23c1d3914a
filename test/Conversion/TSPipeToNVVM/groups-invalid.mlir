// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm -split-input-file -verify-diagnostics

// Pipeline groups the conversion does not lower yet are rejected with a
// diagnostic, never a crash (docs/Protocols.md, Pipeline groups).

// A fork of TMA producers: the lead's acquire would have to arm the shared
// full barrier with every member's bytes.
gpu.module @fork_tma [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
gpu.func @fork_tma(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    // expected-error @+1 {{lowering of fork groups of tma_async pipelines is not implemented yet; fork groups lower for producers that arm nothing (async_async, async_umma, umma_async, umma_umma)}}
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

// The same for a fork of TmaUmma producers (tcgen05 consumers): the lead's
// acquire would arm F_shared with every member's bytes.
gpu.module @fork_tma_umma [#nvvm.target<chip = "sm_100a">] {
gpu.func @fork_tma_umma(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<tma_umma, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @y config(<tma_umma, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    // expected-error @+1 {{lowering of fork groups of tma_umma pipelines is not implemented yet; fork groups lower for producers that arm nothing (async_async, async_umma, umma_async, umma_umma)}}
    tspipe.pipeline_group @xy fork [@x, @y]
    tspipe.task @load warps(0, 1) produces [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @x group(@xy)
        %t = tspipe.producer_acquire @y group(@xy)
        tspipe.producer_commit @xy
      }
    }
    tspipe.task @mma_x warps(1, 1) consumes [@x] {
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
