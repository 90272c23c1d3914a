"""Launch spec for examples/async_stream_split_acquire.mlir.

Kernel `async_stream_split_acquire(x, y, a, b, pairs_per_cta)`: 8 warps
(four filling warps that acquire two stages before committing either, four
consumer warps) per CTA; CTA i writes `y = a * x + b` for the
`2 * pairs_per_cta` consecutive tiles of 4096 float32 starting at tile
`i * 2 * pairs_per_cta`. A problem's "tiles" are pairs of tiles here
(8192 float32 each), so `n = grid * pairs_per_cta * 8192`.
"""

from pathlib import Path

import numpy as np

from tspipe.runtime.harness import derived_spec, tiled_problems

derived_spec(globals(), Path(__file__).with_name("tma_stream.py"),
             KERNEL="async_stream_split_acquire", BLOCK_THREADS=256,
             TILE_ELEMS=8192)

PARAMS = [("x", "ptr"), ("y", "ptr"), ("a", "f32"), ("b", "f32"),
          ("pairs_per_cta", "i64")]


def problems(mode, ctx):
    # 4 pairs = 8 tiles per CTA: the 4-stage ring wraps twice; 37 x 3: odd
    # grid; 1024 x 1: one pair, the two acquires before any commit at once.
    return tiled_problems(mode, ctx, TILE_ELEMS,
                          check=[(None, 4), (37, 3), (1024, 1)],
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
        "pairs_per_cta": np.int64(problem["tiles_per_cta"]),
    }
