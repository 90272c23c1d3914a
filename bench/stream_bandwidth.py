#!/usr/bin/env python3
"""Bandwidth of the tma_stream example next to baselines doing the same work.

Runs on the GPU machine with only `out/` (from `make demo`), `examples/` and
`python/tspipe/runtime`:

    PYTHONPATH=python python3 bench/stream_bandwidth.py out/ \
        --sizes 16M,64M,256M --md results/stream_bandwidth.md

For each size it times, in the same process and on the same (legacy default)
stream with CUDA events:

* `tma_stream` (y = a*x + b through a TmaAsync pipeline), launched with the
  metadata's block, dynamic smem and cluster, one full wave of CTAs;
* `torch.add(b, x, alpha=a, out=y)` — one elementwise kernel (if PyTorch is
  installed);
* a CuPy ElementwiseKernel `y = a * x + b` (if CuPy is installed);
* `cuMemcpyDtoD` of the same bytes (a copy roofline).

Bandwidth counts bytes read plus bytes written (8 bytes per element). The
tma_stream output is checked element by element (up to `--check-limit`
elements; beyond, a strided sample). Reports GB/s and the ratio of tma_stream
to each baseline as a markdown table (and JSON next to it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "python") not in sys.path:
    sys.path.insert(0, str(ROOT / "python"))

from tspipe import runtime as rt  # noqa: E402
from tspipe.runtime.harness import arch_runs_on, load_spec  # noqa: E402
from tspipe.runtime.meta import ExampleMeta  # noqa: E402


def parse_size(s: str) -> int:
    s = s.strip().upper()
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if s and s[-1] in mult:
        return int(float(s[:-1]) * mult[s[-1]])
    return int(s)


def find_meta(out_dir: Path, example: str, cc) -> Path:
    for p in sorted(out_dir.glob(f"{example}.*.json")):
        d = json.loads(p.read_text())
        if d.get("example") == example and arch_runs_on(d.get("arch", ""), cc):
            return p
    raise SystemExit(f"no {example} metadata for this device in {out_dir} "
                     "(run `make demo` first and carry out/)")


def load_module(meta_path: Path, meta: ExampleMeta, prefer: str):
    folder = meta_path.parent
    if prefer == "cubin" and meta.cubin and (folder / meta.cubin).exists():
        return rt.Module.from_file(folder / meta.cubin, folder / meta.ptx), \
            "cubin"
    return rt.Module.from_file(folder / meta.ptx), "ptx"


def stats(samples):
    return {"median_ms": statistics.median(samples), "min_ms": min(samples),
            "max_ms": max(samples), "samples": len(samples)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", nargs="?", default="out")
    ap.add_argument("--examples", default=str(ROOT / "examples"))
    ap.add_argument("--sizes", default="4M,16M,64M,256M",
                    help="elements per array, comma-separated (K/M/G = "
                    "2^10/2^20/2^30)")
    ap.add_argument("--ctas-per-sm", type=int, default=0,
                    help="CTAs per SM in the grid (default: occupancy)")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--check-limit", type=parse_size, default=parse_size("256M"))
    ap.add_argument("--prefer", choices=("cubin", "ptx"), default="cubin")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--no-cupy", action="store_true")
    ap.add_argument("--md", help="markdown output (default: "
                    "bench/stream_bandwidth.md)")
    ap.add_argument("--json", help="JSON output (default: next to --md)")
    args = ap.parse_args(argv)

    ok, why = rt.is_available()
    if not ok:
        print(f"no usable GPU: {why}")
        return 2
    info = rt.device_info()
    out_dir = Path(args.out_dir)
    meta_path = find_meta(out_dir, "tma_stream", info.compute_capability)
    meta = ExampleMeta.load(meta_path)
    spec = load_spec(Path(args.examples) / "tma_stream.py")
    km = meta.kernel(spec.KERNEL)
    module, image = load_module(meta_path, meta, args.prefer)
    kernel = module.kernel(spec.KERNEL)
    block = (km.block_threads, 1, 1)
    occ = kernel.max_active_ctas_per_sm(km.block_threads, km.smem_bytes)
    per_sm = args.ctas_per_sm or max(1, occ)
    grid_x = info.sm_count * per_sm
    cl = km.cluster[0] * km.cluster[1] * km.cluster[2]
    grid_x -= grid_x % max(1, km.cluster[0])
    print(f"device {info.name} ({info.arch}, {info.sm_count} SMs); "
          f"tma_stream from {image}: {km.block_threads} threads, "
          f"{km.smem_bytes} B smem, cluster {km.cluster}, occupancy "
          f"{occ} CTA/SM, grid {grid_x}")

    torch = cupy = None
    if not args.no_torch:
        try:
            import torch  # noqa: F401
            if not torch.cuda.is_available():
                torch = None
        except ImportError:
            torch = None
    if not args.no_cupy:
        try:
            import cupy  # noqa: F401
        except ImportError:
            cupy = None
    cupy_kernel = None
    if cupy is not None:
        cupy_kernel = cupy.ElementwiseKernel(
            "float32 x, float32 a, float32 b", "float32 y", "y = a * x + b",
            "tspipe_bench_axpb")

    rng = np.random.default_rng(1)
    rows = []
    for target in [parse_size(s) for s in args.sizes.split(",") if s]:
        tiles = max(1, round(target / (grid_x * spec.TILE_ELEMS)))
        prob = {"label": "bench", "grid": (grid_x, 1, 1),
                "tiles_per_cta": tiles,
                "n": grid_x * tiles * spec.TILE_ELEMS}
        inputs = spec.make_inputs(rng, prob)
        n = prob["n"]
        traffic = spec.traffic_bytes(inputs)
        a, b = inputs["a"], inputs["b"]
        x = rt.DeviceArray.from_numpy(inputs["x"])
        y = rt.DeviceArray.empty(n, np.float32)
        y.fill_u32(0x7FC00000)  # NaN: unwritten elements fail the check
        kargs = [x, y, np.float32(a), np.float32(b), np.int64(tiles)]
        row = {"elements": n, "bytes": traffic, "grid": grid_x,
               "tiles_per_cta": tiles}
        t0 = time.perf_counter()
        s = rt.time_kernel_samples(kernel, prob["grid"], block, kargs,
                                   km.smem_bytes, km.cluster,
                                   warmup=args.warmup, iters=args.iters,
                                   timeout=args.timeout)
        row["tspipe"] = stats(s)
        got = y.to_numpy()
        if n > args.check_limit:
            step = n // args.check_limit + 1
            sub = {"x": inputs["x"][::step], "a": a, "b": b,
                   "y": got[::step]}
            spec.check({"y": got[::step]}, sub)
            row["checked"] = f"every {step}th element"
        else:
            spec.check({"y": got}, inputs)
            row["checked"] = "all elements"
        # copy roofline: same bytes read and written
        src = rt.DeviceArray(n * 4, np.uint8)
        dst = rt.DeviceArray(n * 4, np.uint8)
        s = rt.time_callable_samples(lambda: dst.copy_from_device(src),
                                     warmup=args.warmup, iters=args.iters,
                                     timeout=args.timeout)
        row["copy"] = stats(s)
        src.free()
        dst.free()
        if torch is not None:
            xt = torch.from_numpy(inputs["x"]).cuda()
            yt = torch.empty_like(xt)
            bt = torch.tensor(float(b), dtype=torch.float32, device="cuda")
            s = rt.time_callable_samples(
                lambda: torch.add(bt, xt, alpha=float(a), out=yt),
                warmup=args.warmup, iters=args.iters, timeout=args.timeout)
            torch.cuda.synchronize()
            row["torch"] = stats(s)
            del xt, yt, bt
            torch.cuda.empty_cache()
        if cupy_kernel is not None:
            xc = cupy.asarray(inputs["x"])
            yc = cupy.empty_like(xc)
            s = rt.time_callable_samples(
                lambda: cupy_kernel(xc, np.float32(a), np.float32(b), yc),
                warmup=args.warmup, iters=args.iters, timeout=args.timeout)
            cupy.cuda.runtime.deviceSynchronize()
            row["cupy"] = stats(s)
            del xc, yc
            cupy.get_default_memory_pool().free_all_blocks()
        for key in ("tspipe", "copy", "torch", "cupy"):
            if key in row:
                row[key]["gbps"] = traffic / (row[key]["median_ms"] * 1e6)
        x.free()
        y.free()
        row["seconds"] = round(time.perf_counter() - t0, 2)
        rows.append(row)
        print(f"n={n / 2**20:.1f}Mi: tspipe {row['tspipe']['gbps']:.0f} GB/s"
              + "".join(f", {k} {row[k]['gbps']:.0f} GB/s"
                        for k in ("torch", "cupy", "copy") if k in row))

    md_path = Path(args.md) if args.md else (
        ROOT / "bench" / "stream_bandwidth.md")
    json_path = Path(args.json) if args.json else md_path.with_suffix(".json")
    md_path.parent.mkdir(parents=True, exist_ok=True)
    base = [k for k in ("torch", "cupy", "copy") if any(k in r for r in rows)]
    lines = [
        "# tma_stream bandwidth",
        "",
        f"Device {info.name} ({info.arch}, {info.sm_count} SMs), driver "
        f"{info.driver_version}, cuda-python {info.cuda_python}; "
        f"{time.strftime('%Y-%m-%d %H:%M')}. tma_stream: {image}, "
        f"{km.block_threads} threads/CTA, {km.smem_bytes} B dynamic smem, "
        f"grid {grid_x} ({per_sm} CTA/SM). Median of {args.iters} launches "
        "(CUDA events); bytes = read + written.",
        "",
        "| elements | bytes | tma_stream ms | tma_stream GB/s | "
        + " | ".join(f"{k} GB/s" for k in base) + " | "
        + " | ".join(f"ratio vs {k}" for k in base) + " | checked |",
        "|" + "---|" * (4 + 2 * len(base) + 1),
    ]
    for r in rows:
        t = r["tspipe"]
        cells = [f"{r['elements'] / 2**20:.1f}Mi",
                 f"{r['bytes'] / 2**20:.0f} MiB",
                 f"{t['median_ms']:.3f}", f"{t['gbps']:.0f}"]
        cells += [f"{r[k]['gbps']:.0f}" if k in r else "-" for k in base]
        cells += [f"{t['gbps'] / r[k]['gbps']:.2f}" if k in r else "-"
                  for k in base]
        cells.append(r["checked"])
        lines.append("| " + " | ".join(cells) + " |")
    md_path.write_text("\n".join(lines) + "\n")
    json_path.write_text(json.dumps({"device": info.to_json(),
                                     "image": image, "grid": grid_x,
                                     "cluster": list(km.cluster),
                                     "cluster_ctas": cl,
                                     "smem_bytes": km.smem_bytes,
                                     "rows": rows}, indent=2))
    print("\n".join(lines))
    print(f"\nwrote {md_path} and {json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
