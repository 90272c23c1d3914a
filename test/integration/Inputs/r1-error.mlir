// A kernel that breaks R1 ('all' combines with no other signaling flag).
gpu.module @r1 {
  gpu.func @r1() kernel {
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = all|cta_leader>)
    }
    gpu.return
  }
}
