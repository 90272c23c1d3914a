"""Launch spec for examples/merge_add.mlir (see tspipe.runtime.harness).

Kernel `merge_add(x, w, y, tiles_per_cta)`: 4 warps per CTA, warp 0 stages
tiles of `x` and warp 1 tiles of `w` through the two AsyncAsync members of
a merge group (4 stages each, one shared empty barrier array), warps 2-3
wait on both members, write `y = x + w` and release the stage of both with
one group release. CTA i handles the `tiles_per_cta` consecutive tiles of
1024 float32 (4 KiB) starting at tile `i * tiles_per_cta`; the grid covers
the arrays exactly: `n = grid * tiles_per_cta * 1024`.

`x` and `w` hold values of different ranges, so a stage of one member read
in place of the other's, or in the wrong phase, shows up.
"""

import numpy as np

from tspipe.runtime.checks import compare_exact
from tspipe.runtime.harness import tiled_problems

KERNEL = "merge_add"
BLOCK_THREADS = 128  # 4 warps
TILE_ELEMS = 1024  # float32 per tile (4 KiB)
PARAMS = [("x", "ptr"), ("w", "ptr"), ("y", "ptr"), ("tiles_per_cta", "i64")]
OUTPUTS = ["y"]

BANDWIDTH_ELEMS = 128 * 1024 * 1024


def problems(mode, ctx):
    # 16 tiles per CTA wrap the 4-stage rings; 41 x 25: odd grid and tile
    # count; 2048 x 1: fewer iterations than stages.
    return tiled_problems(mode, ctx, TILE_ELEMS,
                          check=[(None, 16), (41, 25), (2048, 1)],
                          sanitize=(4, 10), bandwidth_elems=BANDWIDTH_ELEMS)


def make_inputs(rng, problem):
    n = problem["n"]
    return {
        "x": rng.standard_normal(n, dtype=np.float32),
        "w": rng.uniform(100.0, 200.0, n).astype(np.float32),
        "y": np.empty(n, np.float32),
        "tiles_per_cta": np.int64(problem["tiles_per_cta"]),
    }


def expected(inputs):
    return {"y": inputs["x"] + inputs["w"]}


def check(outputs, inputs):
    # One float32 addition per element, the same in numpy and on the GPU.
    return compare_exact("y", outputs["y"], expected(inputs)["y"])


def traffic_bytes(inputs):
    return sum(inputs[k].nbytes for k in ("x", "w", "y"))
