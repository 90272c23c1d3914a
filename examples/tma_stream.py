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
from tspipe.runtime.harness import tiled_problems

KERNEL = "tma_stream"
BLOCK_THREADS = 160  # 5 warps
TILE_ELEMS = 4096  # float32 per tile (16 KiB)
PARAMS = [("x", "ptr"), ("y", "ptr"), ("a", "f32"), ("b", "f32"),
          ("tiles_per_cta", "i64")]
OUTPUTS = ["y"]

# Bandwidth runs stream about this many elements (1 GiB per array).
BANDWIDTH_ELEMS = 256 * 1024 * 1024


def problems(mode, ctx):
    # 8 tiles per CTA: more than the stages, the ring wraps and phases flip;
    # 37 x 7: odd grid, tile count not a multiple of the stage count;
    # 1024 x 1: fewer iterations than stages, the drain follows at once.
    return tiled_problems(mode, ctx, TILE_ELEMS,
                          check=[(None, 8), (37, 7), (1024, 1)],
                          sanitize=(4, 6), bandwidth_elems=BANDWIDTH_ELEMS)


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
