"""The Hopper GEMM (examples/python/hopper_gemm.py) against torch.matmul
(cuBLAS), side by side in one process, on a GPU machine.

    PYTHONPATH=python python3 bench/gemm_bench.py DIR [--names ...]
        [--iters N] [--shapes ...]

``DIR`` holds what ``make demo`` (or ``python -m tspipe.demo``) wrote for the
example, ``hopper_gemm.sm_90a.cubin`` (or ``.ptx``) and its metadata JSON
``hopper_gemm.sm_90a.json`` (block size, cluster, dynamic shared memory,
the tensor-map types of the parameters), and what
``python bench/gemm_variants.py DIR`` writes for the other builds
(``--names``, see ``gemm_variants.VARIANTS``: K per stage, B's layout).
For each shape M x N x K (default: 4096^3, 8192^3, M = 256 with
N = K = 8192, K = 512 with M = N = 8192) it builds A (M x K) and B (N x K,
i.e. B column-major; K x N for the transposed-B build ``hopper_gemm_nn``)
in bf16 with torch, encodes the tensor maps (A, B and C) with
``tspipe.runtime.tensor_map`` from the IR's types, runs each kernel once
and checks C against the fp32 product (bf16 tolerance: every
|C - ref| <= 0.02 |ref| + 0.05 * rms(ref)), then times each kernel and
``torch.matmul`` in ``--rounds`` alternating rounds, each a burst of
``--iters`` launches between two CUDA events (after warm-up), and prints one JSON line per kernel and
shape: TFLOP/s of both (medians over the rounds) and the median, lowest
and highest of the per-round ratios. Needs torch, cuda-python and a Hopper GPU; the compiled tspipe
extension is not needed.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

import numpy as np

from tspipe.runtime import launcher as rt
from tspipe.runtime.meta import ExampleMeta
from tspipe.runtime.tensor_map import TensorMap

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gemm_variants import VARIANTS  # noqa: E402

DEFAULT_SHAPES = ["4096x4096x4096", "8192x8192x8192", "256x8192x8192",
                  "8192x8192x512"]
TILE_M, TILE_N, CLUSTER_M = 128, 256, 2
STAGE_K = 64  # K per pipeline stage of the default build (K_SUB x 64)


def load_kernel(folder: Path, name: str, arch: str):
    meta = ExampleMeta.load(folder / f"{name}.{arch}.json")
    km = meta.kernel(name)
    cubin = folder / f"{name}.{arch}.cubin"
    ptx = folder / f"{name}.{arch}.ptx"
    module = (rt.Module.from_file(cubin) if cubin.exists()
              else rt.Module.from_file(ptx))
    return module.kernel(name), km


def launch_args(km, a, b, c, m, n, k, sms, stage_k=STAGE_K, b_layout="t"):
    """Tensor maps and scalars for C = A @ B.T (``b_layout`` "t": b is
    N x K) or C = A @ B ("n": b is K x N); returns (grid, args)."""
    maps = km.tensor_maps
    a_map = TensorMap.encode(maps["a_map"], a, (m, k))
    b_map = TensorMap.encode(maps["b_map"], b,
                             (n, k) if b_layout == "t" else (k, n))
    c_map = TensorMap.encode(maps["c_map"], c, (m, n))
    pairs_m, n_blocks = m // (TILE_M * CLUSTER_M), n // TILE_N
    pairs = pairs_m * n_blocks
    clusters = min(sms // CLUSTER_M, pairs)
    per_cluster = math.ceil(pairs / clusters)
    kt = k // stage_k
    args = [a_map, b_map, c_map, c, np.int32(m), np.int32(n), np.int32(kt),
            np.int32(per_cluster * kt), np.int32(pairs_m)]
    return (clusters * CLUSTER_M, 1, 1), args


def time_ms(fn, iters, warmup=3):
    """Milliseconds per launch of ``fn`` over a burst of ``iters`` launches
    queued back to back between two CUDA events, after ``warmup``. The
    burst keeps the host's launch cost (cuda-python builds each launch's
    argument list in Python, tens of microseconds) off the GPU's timeline:
    timing each launch alone between its own events counts the host time
    too, which made the smaller shapes of the earlier records look slower
    than they run."""
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(
        enable_timing=True)
    s.record()
    for _ in range(iters):
        fn()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) / iters


def time_pair(ours, theirs, iters, rounds):
    """Both functions timed in alternating rounds (a burst of ``iters``
    launches each, :func:`time_ms`; the H200's clock drifts with its power
    draw, and alternating keeps the two side by side): the medians over the
    rounds of each, and the median, lowest and highest of the per-round
    ratios theirs / ours."""
    pairs = [(time_ms(ours, iters), time_ms(theirs, iters))
             for _ in range(rounds)]
    ratios = [p[1] / p[0] for p in pairs]
    return (statistics.median(p[0] for p in pairs),
            statistics.median(p[1] for p in pairs),
            statistics.median(ratios), min(ratios), max(ratios))


def main(argv=None) -> int:
    import torch
    p = argparse.ArgumentParser()
    p.add_argument("folder", type=Path)
    p.add_argument("--names", nargs="*", default=["hopper_gemm"],
                   help="builds to run (gemm_variants.VARIANTS, e.g. "
                        "hopper_gemm hopper_gemm_regs hopper_gemm_nn), each "
                        "against the same cuBLAS run; a name not listed "
                        "there is launched as the default build")
    p.add_argument("--arch", default="sm_90a")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--rounds", type=int, default=5,
                   help="alternating rounds of --iters launches of each "
                        "kernel and of torch.matmul")
    p.add_argument("--shapes", nargs="*", default=DEFAULT_SHAPES)
    opts = p.parse_args(argv)
    torch.cuda.init()
    rt.init()
    kernels = [(name, *load_kernel(opts.folder, name, opts.arch))
               for name in opts.names]
    sms = rt.device_info().sm_count
    stream = torch.cuda.current_stream().cuda_stream
    failed = False
    for shape in opts.shapes:
        m, n, k = (int(x) for x in shape.split("x"))
        g = torch.Generator(device="cuda").manual_seed(m + n + k)
        a = torch.randn(m, k, device="cuda", generator=g).to(torch.bfloat16)
        b = torch.randn(n, k, device="cuda", generator=g).to(torch.bfloat16)
        # The transposed-B builds read B stored K x N: the same matrix.
        b_kn = (b.T.contiguous()
                if any(VARIANTS.get(nm, {}).get("b_layout") == "n"
                       for nm, _, _ in kernels) else None)
        ref = a.float() @ b.float().T
        rms = ref.pow(2).mean().sqrt()
        flops = 2.0 * m * n * k
        def theirs():
            torch.matmul(a, b.T)

        for name, kernel, km in kernels:
            facts = VARIANTS.get(name, VARIANTS["hopper_gemm"])
            c = torch.full((m, n), float("nan"), device="cuda",
                           dtype=torch.bfloat16)
            grid, args = launch_args(
                km, a, b if facts["b_layout"] == "t" else b_kn, c, m, n, k,
                sms, facts["stage_k"], facts["b_layout"])

            def ours():
                rt.launch(kernel, grid, km.block_threads, args,
                          km.smem_bytes, km.cluster, stream=stream)

            # The first launch under a watchdog: a hang fails the run.
            rt.launch(kernel, grid, km.block_threads, args, km.smem_bytes,
                      km.cluster, stream=stream, timeout=30.0)
            torch.cuda.synchronize()
            err = (c.float() - ref).abs()
            bad = int((err > 0.02 * ref.abs() + 0.05 * rms).sum())
            bad += int(torch.isnan(c).sum())
            failed |= bad > 0
            ms_ours, ms_torch, ratio, low, high = time_pair(
                ours, theirs, opts.iters, opts.rounds)
            print(json.dumps({
                "kernel": name, "shape": [m, n, k], "grid": grid[0],
                "mismatches": bad, "max_abs_err": float(err.max()),
                "rms_ref": float(rms),
                "ms_tspipe": round(ms_ours, 4), "ms_torch": round(ms_torch, 4),
                "tflops_tspipe": round(flops / ms_ours / 1e9, 1),
                "tflops_torch": round(flops / ms_torch / 1e9, 1),
                "ratio": round(ratio, 3), "ratio_min": round(low, 3),
                "ratio_max": round(high, 3), "rounds": opts.rounds,
                "iters": opts.iters}), flush=True)
        torch.cuda.empty_cache()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
