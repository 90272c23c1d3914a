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
from tspipe.runtime.harness import tiled_problems

KERNEL = "async_load"
BLOCK_THREADS = 128  # 4 warps
TILE_ELEMS = 1024  # float32 per tile (4 KiB)
PARAMS = [("x", "ptr"), ("y", "ptr"), ("tiles_per_cta", "i64")]
OUTPUTS = ["y"]

BANDWIDTH_ELEMS = 256 * 1024 * 1024


def problems(mode, ctx):
    # 16 tiles per CTA wrap the 4-stage ring; 41 x 25: odd grid and tile
    # count; 2048 x 1: fewer iterations than stages. Sanitize: small, still
    # wraps the ring several times.
    return tiled_problems(mode, ctx, TILE_ELEMS,
                          check=[(None, 16), (41, 25), (2048, 1)],
                          sanitize=(4, 10), bandwidth_elems=BANDWIDTH_ELEMS)


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
