#!/usr/bin/env python3
"""Barrier latency and streaming bandwidth: tspipe kernels against CUDA twins.

On the GPU machine (tspipe's pure-Python runtime, cuda-python and torch):

    nvcc -cubin -gencode=arch=compute_90a,code=sm_90a -O3 \
        -o twins.cubin bench/twins.cu
    PYTHONPATH=python python3 bench/gpu_bench.py --kernels BK --examples EX \
        --twins twins.cubin --out RES

BK holds the cubins and launch JSON of bench/kernels/ (`python -m
tspipe.demo --examples bench/kernels --out BK --no-run`), EX those of the
multicast examples (`--only tma_mcast_2cta_m ...` over examples/). Every
tspipe kernel runs next to its twin (`twin_<name>` in twins.cubin, the same
protocol written by hand with inline PTX, bench/twins.cu), in the same
process, alternating, with the same grid, block and shared memory.

* latency: `pingpong_s{1,2,4}`, `tma_elect_s1`, `tma_mcast_elect_c2` on one
  CTA (one 2-CTA cluster for the last): the time of a launch of 2N
  iterations minus that of N iterations, over N (launch overhead cancels),
  median of the rounds; ns per iteration (a ping-pong iteration is a round
  trip, two hand-offs).
* stream: `tma_stream_s{S}_t{K}`, `async_load_s{S}_t{K}` for S in 2, 4, 8
  stages of K in 4, 8, 16 KiB, on 1 GiB per array (grid: SMs x the CTAs
  per SM both kernels fit); every output element checked (outputs start as
  NaN), then the median of 10 launches per round, GB/s = bytes read +
  written over time, next to a device-to-device copy of the same bytes.
* mcast: the four `tma_mcast_*` examples and their twins, the launch of the
  examples' bandwidth problem (examples/tma_mcast_4cta_mn.py), checked and
  timed the same way.

Writes RES/gpu_bench.json and RES/gpu_bench.md; prints the tables.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
import traceback
from pathlib import Path

import numpy as np
import torch

from tspipe.runtime import launcher as L

GIB_ELEMS = 256 * 1024 * 1024  # f32 per array: 1 GiB
TIMEOUT = 60.0


class Impl:
    """One kernel with its launch shape."""

    def __init__(self, module, name, block, smem, cluster=(1, 1, 1)):
        self.kernel = module.kernel(name)
        self.name, self.block, self.smem = name, block, smem
        self.cluster = tuple(cluster)
        self.kernel.allow_dynamic_smem(max(smem, 49152))

    def launch(self, grid, args):
        L.launch(self.kernel, grid, self.block, args, self.smem, self.cluster)

    def samples(self, grid, args, iters):
        return L.time_callable_samples(lambda: self.launch(grid, args),
                                       warmup=1, iters=iters, timeout=TIMEOUT)

    def ctas_per_sm(self):
        return self.kernel.max_active_ctas_per_sm(self.block, self.smem)


def tspipe_impl(folder: Path, name: str) -> Impl:
    meta = json.loads((folder / f"{name}.sm_90a.json").read_text())
    k = meta["kernels"][0]
    mod = L.Module.from_file(folder / f"{name}.sm_90a.cubin")
    return Impl(mod, k["name"], k["block_threads"], k["smem_bytes"],
                k["cluster"])


def twin_impl(twins, like: Impl, name: str, smem: int) -> Impl:
    return Impl(twins, f"twin_{name}", like.block, smem, like.cluster)


def latency(args, twins, rows, log):
    n = args.latency_iters
    x = torch.randn(1 << 20, device="cuda")
    for name in ("pingpong_s1", "pingpong_s2", "pingpong_s4", "tma_elect_s1",
                 "tma_mcast_elect_c2"):
        ts = tspipe_impl(args.kernels, name)
        tw = twin_impl(twins, ts, name, max(ts.smem, 256))
        grid = ts.cluster[0]
        per = {"tspipe": [], "twin": []}
        for _ in range(args.rounds):
            for label, impl in (("tspipe", ts), ("twin", tw)):
                def a(k):
                    return ((np.int64(k),) if name.startswith("pingpong")
                            else (x, np.int64(k)))
                t1 = statistics.median(impl.samples(grid, a(n), 3))
                t2 = statistics.median(impl.samples(grid, a(2 * n), 3))
                per[label].append((t2 - t1) * 1e6 / n)  # ns per iteration
        r = {"section": "latency", "kernel": name,
             "tspipe_ns": statistics.median(per["tspipe"]),
             "twin_ns": statistics.median(per["twin"]),
             "rounds_tspipe": per["tspipe"], "rounds_twin": per["twin"],
             "iters": n, "grid": grid, "cluster": list(ts.cluster)}
        r["ratio"] = r["tspipe_ns"] / r["twin_ns"]
        rows.append(r)
        log(f"latency {name:20} tspipe {r['tspipe_ns']:8.1f} ns  twin "
            f"{r['twin_ns']:8.1f} ns  tspipe/twin {r['ratio']:.3f}")


def check(y, ref, scale, what):
    """`ref`: the float32 result with a separate multiply and add; `scale`:
    |product| + |addend|. A fused multiply-add differs from `ref` by up to
    half an ulp of the product, which is large next to `ref` where the two
    terms cancel; hence the bound relative to `scale` (a few ulps)."""
    bad = ~torch.isfinite(y)
    if bool(bad.any()):
        return f"{what}: {int(bad.sum())} elements not written / not finite"
    err = (y - ref).abs()
    tol = 3e-7 * scale + 1e-30
    nbad = int((err > tol).sum())
    return f"{what}: {nbad} elements wrong" if nbad else "ok"


def time_pair(impls, grid, argv, copy_fn, rounds, launches):
    out = {k: [] for k in impls}
    out["copy"] = []
    for _ in range(rounds):
        for label, impl in impls.items():
            out[label].append(statistics.median(
                impl.samples(grid, argv, launches)))
        out["copy"].append(statistics.median(L.time_callable_samples(
            copy_fn, warmup=1, iters=launches, timeout=TIMEOUT)))
    return {k: statistics.median(v) for k, v in out.items()}


def stream(args, twins, rows, log):
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    cap = int(GIB_ELEMS * 1.05)
    x = torch.randn(cap, device="cuda") * 8
    y = torch.empty(cap, device="cuda")
    gen = np.random.default_rng(7)
    for kind in ("tma_stream", "async_load"):
        for s in (2, 4, 8):
            for kib in (4, 8, 16):
                name = f"{kind}_s{s}_t{kib}"
                ts = tspipe_impl(args.kernels, name)
                tw = twin_impl(twins, ts, name, ts.smem)
                elems = kib * 256
                ctas = min(ts.ctas_per_sm(), tw.ctas_per_sm())
                grid = sms * ctas
                per_cta = math.ceil(GIB_ELEMS // elems / grid)
                n = grid * per_cta * elems
                xs, ys = x[:n], y[:n]
                a = np.float32(gen.uniform(-3, 3))
                b = np.float32(gen.uniform(-3, 3))
                if kind == "tma_stream":
                    argv = (xs, ys, a, b, np.int64(per_cta))
                    ref = float(a) * xs + float(b)
                    scale = (float(a) * xs).abs() + abs(float(b))
                else:
                    argv = (xs, ys, np.int64(per_cta))
                    ref = xs * xs + 1.0
                    scale = xs * xs + 1.0
                status = {}
                for label, impl in (("tspipe", ts), ("twin", tw)):
                    ys.fill_(float("nan"))
                    impl.launch(grid, argv)
                    L.synchronize(None, TIMEOUT, what=impl.name)
                    status[label] = check(ys, ref, scale, label)
                del ref, scale
                t = time_pair({"tspipe": ts, "twin": tw}, grid, argv,
                              lambda: ys.copy_(xs), args.rounds, 10)
                gbs = {k: 8 * n / (v * 1e-3) / 1e9 for k, v in t.items()}
                r = {"section": "stream", "kernel": name, "stages": s,
                     "tile_kib": kib, "grid": grid, "ctas_per_sm": ctas,
                     "tiles_per_cta": per_cta, "elems": n, "ms": t,
                     "gbs": gbs, "check": status,
                     "ratio": gbs["tspipe"] / gbs["twin"],
                     "vs_copy": gbs["tspipe"] / gbs["copy"],
                     "twin_vs_copy": gbs["twin"] / gbs["copy"]}
                rows.append(r)
                log(f"stream {name:20} grid {grid:5} tspipe {gbs['tspipe']:6.0f}"
                    f" twin {gbs['twin']:6.0f} copy {gbs['copy']:6.0f} GB/s  "
                    f"ratio {r['ratio']:.3f}  check {status}")
    del x, y
    torch.cuda.empty_cache()


MCAST = {"tma_mcast_2cta_m": (2, 1, False, True),
         "tma_mcast_2cta_n": (1, 2, True, False),
         "tma_mcast_4cta_n": (1, 4, True, False),
         "tma_mcast_4cta_mn": (2, 2, True, True)}


def mcast(args, twins, rows, log):
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    part = 2048
    gen = np.random.default_rng(11)
    for name, (m, n, use_a, use_b) in MCAST.items():
        ts = tspipe_impl(args.examples, name)
        tw = twin_impl(twins, ts, name, ts.smem)
        t = m * n
        clusters = (sms // t) * max(1, ts.ctas_per_sm())
        steps = max(1, round(GIB_ELEMS / (clusters * t * part)))
        g = clusters * steps
        av = (torch.randn(g * m * part, device="cuda") * 8 if use_a
              else torch.zeros(4, device="cuda"))
        bv = (torch.randn(g * n * part, device="cuda") * 8 if use_b
              else torch.zeros(4, device="cuda"))
        yv = torch.empty(g * m * n * part, device="cuda")
        alpha = np.float32(gen.uniform(-3, 3))
        beta = np.float32(gen.uniform(-3, 3))
        p = av.view(g, m, 1, part) if use_a else bv.view(g, 1, n, part)
        q = bv.view(g, 1, n, part) if use_a and use_b else float(beta)
        ref = (float(alpha) * p + q).expand(g, m, n, part).reshape(-1)
        qa = q.abs() if torch.is_tensor(q) else abs(q)
        scale = ((float(alpha) * p).abs() + qa).expand(g, m, n,
                                                      part).reshape(-1)
        argv = (av, bv, yv, alpha, beta, np.int64(steps))
        grid = clusters * t
        status = {}
        for label, impl in (("tspipe", ts), ("twin", tw)):
            yv.fill_(float("nan"))
            impl.launch(grid, argv)
            L.synchronize(None, TIMEOUT, what=impl.name)
            status[label] = check(yv, ref, scale, label)
        del ref, scale
        traffic = (av.numel() + bv.numel() + yv.numel()) * 4
        half = traffic // 8  # f32 elements of a copy moving the same bytes
        src = torch.empty(half, device="cuda")
        dst = torch.empty(half, device="cuda")
        tm = time_pair({"tspipe": ts, "twin": tw}, grid, argv,
                       lambda: dst.copy_(src), args.rounds, 10)
        gbs = {k: traffic / (v * 1e-3) / 1e9 for k, v in tm.items()}
        r = {"section": "mcast", "kernel": name, "cluster": t,
             "clusters": clusters, "steps": steps, "bytes": traffic,
             "ms": tm, "gbs": gbs, "check": status,
             "ratio": gbs["tspipe"] / gbs["twin"],
             "vs_copy": gbs["tspipe"] / gbs["copy"],
             "twin_vs_copy": gbs["twin"] / gbs["copy"]}
        rows.append(r)
        log(f"mcast {name:18} clusters {clusters:4} tspipe {gbs['tspipe']:6.0f}"
            f" twin {gbs['twin']:6.0f} copy {gbs['copy']:6.0f} GB/s ratio "
            f"{r['ratio']:.3f} vs copy {r['vs_copy']:.2f}/{r['twin_vs_copy']:.2f}"
            f" check {status}")
        del av, bv, yv, src, dst
        torch.cuda.empty_cache()


def markdown(rows) -> str:
    out = []
    lat = [r for r in rows if r["section"] == "latency"]
    if lat:
        out += ["| kernel | tspipe ns / iteration | twin ns / iteration |"
                " tspipe / twin |", "|---|---:|---:|---:|"]
        out += [f"| {r['kernel']} | {r['tspipe_ns']:.1f} | {r['twin_ns']:.1f} "
                f"| {r['ratio']:.3f} |" for r in lat]
        out.append("")
    st = [r for r in rows if r["section"] == "stream"]
    if st:
        out += ["| kernel | stages | tile KiB | grid | tspipe GB/s | twin GB/s |"
                " copy GB/s | tspipe / twin | tspipe / copy | check |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        out += [f"| {r['kernel']} | {r['stages']} | {r['tile_kib']} | "
                f"{r['grid']} | {r['gbs']['tspipe']:.0f} | {r['gbs']['twin']:.0f}"
                f" | {r['gbs']['copy']:.0f} | {r['ratio']:.3f} | "
                f"{r['vs_copy']:.2f} | {r['check']['tspipe']} / "
                f"{r['check']['twin']} |" for r in st]
        out.append("")
    mc = [r for r in rows if r["section"] == "mcast"]
    if mc:
        out += ["| example | CTAs / cluster | clusters x steps | tspipe GB/s |"
                " twin GB/s | copy GB/s | tspipe / twin | tspipe / copy |"
                " twin / copy | check |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        out += [f"| {r['kernel']} | {r['cluster']} | {r['clusters']} x "
                f"{r['steps']} | {r['gbs']['tspipe']:.0f} | "
                f"{r['gbs']['twin']:.0f} | {r['gbs']['copy']:.0f} | "
                f"{r['ratio']:.3f} | {r['vs_copy']:.2f} | "
                f"{r['twin_vs_copy']:.2f} | {r['check']['tspipe']} / "
                f"{r['check']['twin']} |" for r in mc]
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=Path, required=True)
    ap.add_argument("--examples", type=Path)
    ap.add_argument("--twins", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--sections", default="latency,stream,mcast")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--latency-iters", type=int, default=50000)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.cuda.init()
    L.init()
    twins = L.Module.from_file(args.twins)
    rows: list[dict] = []
    logf = open(args.out / "gpu_bench.log", "a")

    def log(msg):
        print(msg, flush=True)
        logf.write(msg + "\n")
        logf.flush()

    info = {"device": torch.cuda.get_device_name(0),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "torch": torch.__version__}
    log(json.dumps(info))
    status = 0
    for sec in args.sections.split(","):
        fn = {"latency": latency, "stream": stream, "mcast": mcast}[sec]
        try:
            fn(args, twins, rows, log)
        except L.KernelTimeout as e:
            log(f"{sec}: HANG {e}")
            status = 1
            break
        except Exception:
            log(f"{sec}: FAILED\n{traceback.format_exc()}")
            status = 1
        (args.out / "gpu_bench.json").write_text(
            json.dumps({"info": info, "rows": rows}, indent=1))
        (args.out / "gpu_bench.md").write_text(markdown(rows))
    print(markdown(rows))
    return status


if __name__ == "__main__":
    sys.exit(main())
