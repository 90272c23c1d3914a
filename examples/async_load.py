"""Launch spec for examples/async_load.mlir (see tspipe.runtime.harness).

Kernel `async_load(x, y, tiles_per_cta)`: 4 warps per CTA, two producer
warps filling stages with `cp.async` (AsyncAsync pipeline, `async_load`
producer op), two consumer warps; CTA i handles the `tiles_per_cta`
consecutive tiles of 1024 float32 (4 KiB) starting at tile
`i * tiles_per_cta` and writes `y = x * x + 1`. The grid covers the arrays
exactly: `n = grid * tiles_per_cta * 1024`.
"""

import numpy as np

from tspipe.runtime.checks import compare_fp32

KERNEL = "async_load"
BLOCK_THREADS = 128  # 4 warps
TILE_ELEMS = 1024  # float32 per tile (4 KiB)
PARAMS = [("x", "ptr"), ("y", "ptr"), ("tiles_per_cta", "i64")]
OUTPUTS = ["y"]

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
            _problem("check", _fit(sms, ctx), 16),
            _problem("check", _fit(41, ctx), 25),
            _problem("check", _fit(2048, ctx), 1),
        ]
    if mode == "sanitize":
        # small, for compute-sanitizer; still wraps the ring several times
        return [_problem("sanitize", _fit(4, ctx), 10)]
    if mode == "bandwidth":
        grid = _fit(sms * max(1, ctx.get("ctas_per_sm") or 1), ctx)
        tiles = max(1, round(BANDWIDTH_ELEMS / (grid * TILE_ELEMS)))
        return [_problem("bandwidth", grid, tiles)]
    return []


def make_inputs(rng, problem):
    n = problem["n"]
    x = rng.standard_normal(n, dtype=np.float32)
    x *= np.float32(16.0)
    return {
        "x": x,
        "y": np.empty(n, np.float32),
        "tiles_per_cta": np.int64(problem["tiles_per_cta"]),
    }


def expected(inputs):
    x = inputs["x"]
    separate = x * x + np.float32(1.0)
    xd = x.astype(np.float64)
    fused = (xd * xd + 1.0).astype(np.float32)
    return {"y": [separate, fused]}


def check(outputs, inputs):
    return compare_fp32("y", outputs["y"], expected(inputs)["y"], max_ulps=1)


def traffic_bytes(inputs):
    return inputs["x"].nbytes + inputs["y"].nbytes
