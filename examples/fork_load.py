"""Launch spec for examples/fork_load.mlir (see tspipe.runtime.harness).

Kernel `fork_load(x, y, z, a, b, tiles_per_cta)`: 5 warps per CTA. Warp 0
issues one bulk copy per tile of `x` into a static shared buffer that both
members of a fork group of two TmaAsync rings (4 stages, one shared full
barrier armed with the common 8192 bytes once) hand to their consumers;
warps 1-2 write `y = a * x`, warps 3-4 `z = x + b`, both from the same
stage. CTA i handles the `tiles_per_cta` consecutive tiles of 2048 float32
(8 KiB) starting at tile `i * tiles_per_cta`; the grid covers the arrays
exactly: `n = grid * tiles_per_cta * 2048`. A barrier armed with the sum
of the members' bytes (2 x 8192) never completes: the kernel times out.
"""

import numpy as np

from tspipe.runtime.checks import compare_exact
from tspipe.runtime.harness import tiled_problems

KERNEL = "fork_load"
BLOCK_THREADS = 160  # 5 warps
TILE_ELEMS = 2048  # float32 per tile and per stage (8 KiB)
PARAMS = [("x", "ptr"), ("y", "ptr"), ("z", "ptr"),
          ("a", "f32"), ("b", "f32"), ("tiles_per_cta", "i64")]
OUTPUTS = ["y", "z"]

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
        "y": np.empty(n, np.float32),
        "z": np.empty(n, np.float32),
        "a": np.float32(rng.uniform(-3.0, 3.0)),
        "b": np.float32(rng.uniform(-3.0, 3.0)),
        "tiles_per_cta": np.int64(problem["tiles_per_cta"]),
    }


def expected(inputs):
    # One float32 multiply (y) and one float32 add (z) per element.
    return {"y": inputs["a"] * inputs["x"], "z": inputs["x"] + inputs["b"]}


def check(outputs, inputs):
    want = expected(inputs)
    parts = [compare_exact(name, outputs[name], want[name])
             for name in OUTPUTS]
    return {"name": "+".join(OUTPUTS),
            "elements": sum(p["elements"] for p in parts),
            "mismatches": sum(p["mismatches"] for p in parts),
            "outputs": parts}


def traffic_bytes(inputs):
    return sum(inputs[k].nbytes for k in ("x", "y", "z"))
