// Ping-pong over two AsyncAsync pipelines of 2 stage(s): task a hands a
// token to task b through @ping, b hands it back through @pong. One
// iteration of the domain loop is one round trip (two hand-offs).
// Launch: 1 CTA of 64 threads (2 warps), iters iterations.
gpu.module @pingpong_s2 [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @pingpong_s2(%iters: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.index_cast %iters : i64 to index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ping config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.pipeline @pong config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @a warps(0, 1) produces [@ping] consumes [@pong] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ping
          tspipe.producer_commit @ping
          %t = tspipe.consumer_wait @pong
          tspipe.consumer_release @pong
        }
      }
      tspipe.task @b warps(1, 1) produces [@pong] consumes [@ping] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %t = tspipe.consumer_wait @ping
          tspipe.consumer_release @ping
          %s = tspipe.producer_acquire @pong
          tspipe.producer_commit @pong
        }
      }
    }
    gpu.return
  }
}
