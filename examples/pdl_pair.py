"""Launch spec for examples/pdl_pair.mlir (see tspipe.runtime.harness).

Two kernels on one stream: `pdl_write(x, tiles_per_cta)` (4 warps) fills x
with x[e] = (e mod 1021) * 0.5, then `pdl_read(x, y, tiles_per_cta)`
(5 warps, a TmaAsync ring) launched as a programmatic dependent launch
waits for it with griddepcontrol.wait and writes y = 2 * x + 1. x is
uploaded as NaN: an element read before @pdl_write's store landed makes y
NaN and fails the check. Every element of y is compared (exact: the
values are small multiples of 0.5).
"""

import numpy as np

from tspipe.runtime.checks import compare_fp32
from tspipe.runtime.harness import tiled_problems

KERNEL = "pdl_read"
BLOCK_THREADS = 160  # 5 warps
TILE_ELEMS = 4096  # float32 per tile (16 KiB)
PARAMS = [("x", "ptr"), ("y", "ptr"), ("tiles_per_cta", "i64")]
OUTPUTS = ["y"]
# The grid launched first on the same stream, and its parameters.
BEFORE = [("pdl_write", ["x", "tiles_per_cta"])]
# pdl_read is launched with PROGRAMMATIC_STREAM_SERIALIZATION.
PDL = True


def problems(mode, ctx):
    if mode == "bandwidth":
        return []
    # One CTA per SM with 8 tiles each (the ring wraps, phases flip), an
    # odd grid with 7, and many CTAs with 1 (the reader's CTAs start while
    # the writer's are still resident).
    return tiled_problems(mode, ctx, TILE_ELEMS,
                          check=[(None, 8), (37, 7), (1024, 1)],
                          sanitize=(4, 6), bandwidth_elems=0)


def make_inputs(rng, problem):
    n = problem["n"]
    return {
        "x": np.full(n, np.nan, np.float32),
        "y": np.empty(n, np.float32),
        "tiles_per_cta": np.int64(problem["tiles_per_cta"]),
    }


def expected(inputs):
    n = inputs["x"].size
    x = (np.arange(n, dtype=np.int64) % 1021).astype(np.float32) * \
        np.float32(0.5)
    return {"y": [np.float32(2) * x + np.float32(1)]}


def check(outputs, inputs):
    return compare_fp32("y", outputs["y"], expected(inputs)["y"], max_ulps=0)


def traffic_bytes(inputs):
    return 3 * inputs["x"].nbytes
