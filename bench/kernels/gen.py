#!/usr/bin/env python3
"""Writes the benchmark kernels of bench/kernels/ (tspipe IR, not examples).

    python3 bench/kernels/gen.py            # rewrites bench/kernels/*.mlir
    python3 bench/kernels/gen.py --check    # exit 1 if a file differs

Compile them as the examples are compiled (PTX, cubin, launch JSON):

    python -m tspipe.demo --examples bench/kernels --out /tmp/bk --no-run

Kernels (all sm_90a; see bench/gpu_bench.py for how each is launched and
timed, and bench/twins.cu for the hand-written CUDA twin of each):

* `pingpong_s{1,2,4}(iters)`: two one-warp tasks bounce a token through
  two AsyncAsync pipelines of S stages (`ping` from task a to task b,
  `pong` back); every thread of a warp arrives (groups of 32 threads). One
  iteration is one round trip, two hand-offs.
* `tma_elect_s1(x, iters)`: TmaAsync, one stage of 64 bytes: the producer
  warp's elected thread arms the full barrier (arrive.expect_tx) and issues
  a 64-byte bulk copy; one consumer warp waits and releases (lane 0
  arrives). One iteration is copy completion plus release hand-off.
* `tma_mcast_elect_c2(x, iters)`: tma_elect_s1 across a 2-CTA cluster:
  each CTA multicasts a 32-byte half to both; the release arrives on both
  CTAs' empty barriers, one of them a cluster peer's remote arrive.
* `tma_stream_s{S}_t{K}(x, y, a, b, tiles_per_cta)`: examples/tma_stream.mlir
  with S stages of K KiB (y = a * x + b).
* `async_load_s{S}_t{K}(x, y, tiles_per_cta)`: examples/async_load.mlir
  with S stages of K KiB (y = x * x + 1; cp.async producer).
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = '#nvvm.target<chip = "sm_90a", features = "+ptx80">'
STAGES = (2, 4, 8)
TILE_KIB = (4, 8, 16)


def pingpong(s: int) -> str:
    name = f"pingpong_s{s}"
    cfg = (f"config(<async_async, num_stages = {s}, producer_group = "
           f"<thread, 32>, consumer_group = <thread, 32>>)")
    return f"""// Ping-pong over two AsyncAsync pipelines of {s} stage(s): task a hands a
// token to task b through @ping, b hands it back through @pong. One
// iteration of the domain loop is one round trip (two hand-offs).
// Launch: 1 CTA of 64 threads (2 warps), iters iterations.
gpu.module @{name} [{TARGET}] {{
  gpu.func @{name}(%iters: i64) kernel {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.index_cast %iters : i64 to index
    tspipe.kernel warps(2) {{
      tspipe.pipeline @ping {cfg}
      tspipe.pipeline @pong {cfg}
      tspipe.task @a warps(0, 1) produces [@ping] consumes [@pong] {{
        tspipe.domain_loop %i = %c0 to %n step %c1 {{
          %s = tspipe.producer_acquire @ping
          tspipe.producer_commit @ping
          %t = tspipe.consumer_wait @pong
          tspipe.consumer_release @pong
        }}
      }}
      tspipe.task @b warps(1, 1) produces [@pong] consumes [@ping] {{
        tspipe.domain_loop %i = %c0 to %n step %c1 {{
          %t = tspipe.consumer_wait @ping
          tspipe.consumer_release @ping
          %s = tspipe.producer_acquire @pong
          tspipe.producer_commit @pong
        }}
      }}
    }}
    gpu.return
  }}
}}
"""


def tma_elect() -> str:
    name = "tma_elect_s1"
    return f"""// TmaAsync elected arrive: one stage of 64 bytes. Each iteration the
// producer warp's elected thread arms the full barrier (expect_tx 64) and
// bulk-copies 64 bytes of x into the stage; the consumer warp waits for the
// copy to complete and releases (lane 0 arrives on the empty barrier).
// Launch: 1 CTA of 64 threads (2 warps), iters iterations.
gpu.module @{name} [{TARGET}] {{
  gpu.func @{name}(%x: !llvm.ptr<1>, %iters: i64) kernel {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 64 : i32
    %n = arith.index_cast %iters : i64 to index
    tspipe.kernel warps(2) {{
      tspipe.pipeline @tok config(<tma_async, num_stages = 1, num_bytes = 64,
          producer_group = <thread, 1>, consumer_group = <thread, 1>>)
          smem_bytes(64)
      tspipe.task @load warps(0, 1) produces [@tok] {{
        tspipe.domain_loop %i = %c0 to %n step %c1 {{
          %s = tspipe.producer_acquire @tok
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {{
            %dc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dc, %x, %full, %bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
          }}
          tspipe.producer_commit @tok
        }}
      }}
      tspipe.task @use warps(1, 1) consumes [@tok] {{
        tspipe.domain_loop %i = %c0 to %n step %c1 {{
          %s = tspipe.consumer_wait @tok
          tspipe.consumer_release @tok
        }}
      }}
    }}
    gpu.return
  }}
}}
"""


def tma_mcast_elect() -> str:
    name = "tma_mcast_elect_c2"
    return f"""// TmaAsync across a 2-CTA cluster, one stage of 64 bytes, each CTA's
// elected thread arming its full barrier (expect_tx 64) and multicasting
// its 32-byte half to both CTAs. The consumer warp's release is lane 0 on
// CTA 0's empty barrier and lane 1 on CTA 1's: one of the two arrivals is a
// cluster peer's remote arrive (mapa + shared::cluster arrive).
// Launch: grid 2, cluster (2, 1, 1), 64 threads, iters iterations.
gpu.module @{name} [{TARGET}] {{
  gpu.func @{name}(%x: !llvm.ptr<1>, %iters: i64) kernel {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %half = arith.constant 32 : i32
    %mask = arith.constant 3 : i16
    %n = arith.index_cast %iters : i64 to index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %off = arith.muli %rank, %c8 : index
    %off64 = arith.index_cast %off : index to i64
    %src = llvm.getelementptr %x[%off64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    tspipe.kernel warps(2) cluster([2, 1, 1]) {{
      tspipe.pipeline @tok config(<tma_async, num_stages = 1, num_bytes = 64,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>)
          smem_bytes(64)
      tspipe.task @load warps(0, 1) produces [@tok] {{
        tspipe.domain_loop %i = %c0 to %n step %c1 {{
          %s = tspipe.producer_acquire @tok
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {{
            %dst = llvm.getelementptr %buf[%off64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %dc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dc, %src, %full, %half
                multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr<1>
          }}
          tspipe.producer_commit @tok
        }}
        tspipe.producer_tail @tok
      }}
      tspipe.task @use warps(1, 1) consumes [@tok] {{
        tspipe.domain_loop %i = %c0 to %n step %c1 {{
          %s = tspipe.consumer_wait @tok
          tspipe.consumer_release @tok
        }}
      }}
    }}
    gpu.return
  }}
}}
"""


def tma_stream(s: int, kib: int) -> str:
    name = f"tma_stream_s{s}_t{kib}"
    b = kib * 1024
    e = b // 4
    v = e // 4
    return f"""// examples/tma_stream.mlir with {s} stages of {kib} KiB ({e} f32 per
// tile): y = a * x + b. Launch: block 160 threads, grid G.
gpu.module @{name} [{TARGET}] {{
  gpu.func @{name}(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %a: f32, %b: f32,
                       %tiles_per_cta: i64) kernel {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %cv = arith.constant {v} : index
    %c4 = arith.constant 4 : index
    %ce = arith.constant {e} : index
    %tile_bytes = arith.constant {b} : i32
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    %va = vector.broadcast %a : f32 to vector<4xf32>
    %vb = vector.broadcast %b : f32 to vector<4xf32>
    tspipe.kernel warps(5) {{
      tspipe.pipeline @tiles config(<tma_async, num_stages = {s}, num_bytes = {b},
          producer_group = <thread, 1>, consumer_group = <thread, 4>>)
          smem_bytes({s * b})
      tspipe.task @load warps(0, 1) produces [@tiles] {{
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {{
          %s = tspipe.producer_acquire @tiles
          %full = tspipe.full_barrier %s : !llvm.ptr<3>
          %dst = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %ce : index
          %first64 = arith.index_cast %first : index to i64
          %src = llvm.getelementptr %x[%first64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          %leader = nvvm.elect.sync -> i1
          scf.if %leader {{
            %dc = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
            nvvm.cp.async.bulk.shared.cluster.global %dc, %src, %full, %tile_bytes
                : !llvm.ptr<7>, !llvm.ptr<1>
          }}
          tspipe.producer_commit @tiles
        }}
      }}
      tspipe.task @compute warps(1, 4) consumes [@tiles] {{
        %t = arith.subi %tid, %c32 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {{
          %s = tspipe.consumer_wait @tiles
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %ce : index
          scf.for %v = %t to %cv step %c128 {{
            %e = arith.muli %v, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %sp = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %xv = llvm.load %sp {{alignment = 16 : i64}} : !llvm.ptr<3> -> vector<4xf32>
            %ax = arith.mulf %va, %xv : vector<4xf32>
            %yv = arith.addf %ax, %vb : vector<4xf32>
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %gp = llvm.getelementptr %y[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %yv, %gp {{alignment = 16 : i64}} : vector<4xf32>, !llvm.ptr<1>
          }}
          tspipe.consumer_release @tiles
        }}
      }}
    }}
    gpu.return
  }}
}}
"""


def async_load(s: int, kib: int) -> str:
    name = f"async_load_s{s}_t{kib}"
    b = kib * 1024
    e = b // 4
    chunks = b // 16
    return f"""// examples/async_load.mlir with {s} stages of {kib} KiB ({e} f32 per
// tile, {chunks} cp.async chunks of 16 bytes): y = x * x + 1.
// Launch: block 128 threads, grid G.
gpu.module @{name} [{TARGET}] {{
  gpu.func @{name}(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>,
                       %tiles_per_cta: i64) kernel {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %cch = arith.constant {chunks} : index
    %ce = arith.constant {e} : index
    %one = arith.constant dense<1.0> : vector<4xf32>
    %ntiles = arith.index_cast %tiles_per_cta : i64 to index
    %bid = gpu.block_id x
    %first_tile = arith.muli %bid, %ntiles : index
    %tid = gpu.thread_id x
    tspipe.kernel warps(4) {{
      tspipe.pipeline @tiles config(<async_async, num_stages = {s},
          producer_group = <thread, 64>, consumer_group = <thread, 64>,
          async_producer_op = async_load>) smem_bytes({s * b})
      tspipe.task @load warps(0, 2) produces [@tiles] {{
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {{
          %s = tspipe.producer_acquire @tiles
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %ce : index
          scf.for %chunk = %tid to %cch step %c64 {{
            %e = arith.muli %chunk, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %dst = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %src = llvm.getelementptr %x[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            nvvm.cp.async.shared.global %dst, %src, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
          }}
          tspipe.producer_commit @tiles
        }}
      }}
      tspipe.task @compute warps(2, 2) consumes [@tiles] {{
        %t = arith.subi %tid, %c64 : index
        tspipe.domain_loop %i = %c0 to %ntiles step %c1 {{
          %s = tspipe.consumer_wait @tiles
          %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
          %tile = arith.addi %first_tile, %i : index
          %first = arith.muli %tile, %ce : index
          scf.for %chunk = %t to %cch step %c64 {{
            %e = arith.muli %chunk, %c4 : index
            %e64 = arith.index_cast %e : index to i64
            %sp = llvm.getelementptr %buf[%e64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
            %xv = llvm.load %sp {{alignment = 16 : i64}} : !llvm.ptr<3> -> vector<4xf32>
            %sq = arith.mulf %xv, %xv : vector<4xf32>
            %yv = arith.addf %sq, %one : vector<4xf32>
            %g = arith.addi %first, %e : index
            %g64 = arith.index_cast %g : index to i64
            %gp = llvm.getelementptr %y[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %yv, %gp {{alignment = 16 : i64}} : vector<4xf32>, !llvm.ptr<1>
          }}
          tspipe.consumer_release @tiles
        }}
      }}
    }}
    gpu.return
  }}
}}
"""


def main() -> None:
    """Writes (or, with --check, compares) every kernel file."""
    files = {f"pingpong_s{s}.mlir": pingpong(s) for s in (1, 2, 4)}
    files["tma_elect_s1.mlir"] = tma_elect()
    files["tma_mcast_elect_c2.mlir"] = tma_mcast_elect()
    for s in STAGES:
        for k in TILE_KIB:
            files[f"tma_stream_s{s}_t{k}.mlir"] = tma_stream(s, k)
            files[f"async_load_s{s}_t{k}.mlir"] = async_load(s, k)
    if "--check" in sys.argv[1:]:
        stale = [n for n, t in files.items()
                 if not (HERE / n).exists() or (HERE / n).read_text() != t]
        for n in stale:
            print(f"{HERE / n} differs from gen.py's output; run gen.py")
        sys.exit(1 if stale else 0)
    for name, text in files.items():
        (HERE / name).write_text(text)
    print(f"wrote {len(files)} kernels to {HERE}")


if __name__ == "__main__":
    main()
