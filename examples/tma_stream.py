"""Launch spec for examples/tma_stream.mlir (see tspipe.runtime.harness).

Kernel `tma_stream(x, y, a, b, tiles_per_cta)`: 5 warps (one TMA producer
warp, four consumer warps) per CTA; CTA i streams the `tiles_per_cta`
consecutive tiles of 4096 float32 (16 KiB) starting at tile
`i * tiles_per_cta` through a TmaAsync pipeline and writes
`y = a * x + b`. The grid covers the arrays exactly:
`n = grid * tiles_per_cta * 4096`.

Dynamic shared memory and cluster shape come from the metadata JSON that
`make demo` writes next to the PTX.
"""

import numpy as np

from tspipe.runtime.checks import compare_fp32

KERNEL = "tma_stream"
BLOCK_THREADS = 160  # 5 warps
TILE_ELEMS = 4096  # float32 per tile (16 KiB)
PARAMS = [("x", "ptr"), ("y", "ptr"), ("a", "f32"), ("b", "f32"),
          ("tiles_per_cta", "i64")]
OUTPUTS = ["y"]

# Bandwidth runs stream about this many elements (1 GiB per array).
BANDWIDTH_ELEMS = 256 * 1024 * 1024


def _problem(mode, grid, tiles_per_cta):
    n = int(grid) * int(tiles_per_cta) * TILE_ELEMS
    return {"label": f"{mode} n={n / 2**20:.2f}Mi grid={grid} "
                     f"tiles/CTA={tiles_per_cta}",
            "grid": (int(grid), 1, 1), "tiles_per_cta": int(tiles_per_cta),
            "n": n}


def _fit(grid, ctx):
    """Rounds the grid up to a whole number of clusters."""
    c = (ctx.get("cluster") or (1, 1, 1))[0]
    return -(-grid // c) * c


def problems(mode, ctx):
    sms = ctx.get("sm_count") or 132
    if mode == "check":
        return [
            # more tiles per CTA than stages: the ring wraps, phases flip
            _problem("check", _fit(sms, ctx), 8),
            # odd grid, tile count not a multiple of the stage count
            _problem("check", _fit(37, ctx), 7),
            # one tile per CTA: fewer iterations than stages, drain at once
            _problem("check", _fit(1024, ctx), 1),
        ]
    if mode == "sanitize":
        # small, for compute-sanitizer; still wraps the ring several times
        return [_problem("sanitize", _fit(4, ctx), 6)]
    if mode == "bandwidth":
        # One full wave of resident CTAs, each streaming an equal share.
        grid = _fit(sms * max(1, ctx.get("ctas_per_sm") or 1), ctx)
        tiles = max(1, round(BANDWIDTH_ELEMS / (grid * TILE_ELEMS)))
        return [_problem("bandwidth", grid, tiles)]
    return []


def make_inputs(rng, problem):
    n = problem["n"]
    x = rng.standard_normal(n, dtype=np.float32)
    x *= np.float32(8.0)
    return {
        "x": x,
        "y": np.empty(n, np.float32),
        "a": np.float32(rng.uniform(-3.0, 3.0)),
        "b": np.float32(rng.uniform(-3.0, 3.0)),
        "tiles_per_cta": np.int64(problem["tiles_per_cta"]),
    }


def expected(inputs):
    x, a, b = inputs["x"], inputs["a"], inputs["b"]
    separate = a * x + b  # float32 multiply, then float32 add
    fused = (np.float64(a) * x.astype(np.float64) + np.float64(b)).astype(
        np.float32)  # one rounding, as an FMA gives
    return {"y": [separate, fused]}


def check(outputs, inputs):
    return compare_fp32("y", outputs["y"], expected(inputs)["y"], max_ulps=1)


def traffic_bytes(inputs):
    return inputs["x"].nbytes + inputs["y"].nbytes
