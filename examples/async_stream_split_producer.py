"""Launch spec for examples/async_stream_split_producer.mlir.

Kernel `async_stream_split_producer(x, y, a, b, tiles_per_cta)`: 9 warps
per CTA (four warps that acquire and fill @ring and hand each stage through
@hand to one warp that commits it, four consumer warps); CTA i writes `y = a * x + b` for
the `tiles_per_cta` consecutive tiles of 4096 float32 starting at tile
`i * tiles_per_cta`.
"""

from pathlib import Path

import numpy as np

from tspipe.runtime.harness import derived_spec, tiled_problems

derived_spec(globals(), Path(__file__).with_name("tma_stream.py"),
             KERNEL="async_stream_split_producer", BLOCK_THREADS=288,
             TILE_ELEMS=4096)

PARAMS = [("x", "ptr"), ("y", "ptr"), ("a", "f32"), ("b", "f32"),
          ("tiles_per_cta", "i64")]


def problems(mode, ctx):
    # Odd tile counts: the acquiring warp's drain sees stages the consumers
    # released an odd number of times (it hung with the commit cursor);
    # 8 tiles wrap the 4-stage ring twice; 1 tile: one stage in flight.
    return tiled_problems(mode, ctx, TILE_ELEMS,
                          check=[(None, 8), (37, 3), (1024, 1), (64, 5)],
                          sanitize=(4, 3), bandwidth_elems=BANDWIDTH_ELEMS)


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
