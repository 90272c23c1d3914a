"""Launch spec for examples/python/merge_copy.py (see tspipe.runtime.harness).

Kernel `merge_copy(a, b, da, db)`: 8 warps per CTA (four store warps 0-3,
load warps 4 (A) and 5 (B), two padding warps). CTA i copies the
`NUM_ITERS` = 8 consecutive tiles of 512 float32 (2 KiB) starting at tile
`i * 8` of `a` to `da` and of `b` to `db`: tile A through a 4-stage
AsyncAsync ring (32 threads load and store, then arrive), tile B through a
4-stage TmaAsync ring (one bulk copy); the store warps wait on both and
release both with one Merge-group release. The tile count per CTA is fixed
in the kernel, so the grid sets the size: `n = grid * 8 * 512` per array.

Every element of `da` must equal `a` and of `db` equal `b`, bit for bit;
both start as NaN. `a` and `b` hold different values, so a stage of one
ring read through the other's barrier, or in the wrong phase, shows up.

The constants mirror examples/python/merge_copy.py (test_launch_specs.py
checks they agree).
"""

import numpy as np

from tspipe.runtime.checks import compare_exact
from tspipe.runtime.harness import fit_grid, tiled_problem

KERNEL = "merge_copy"
BLOCK_THREADS = 256  # 8 warps
TILE_ELEMS = 512  # float32 per tile and per stage of each ring (2 KiB)
TILES_PER_CTA = 8  # NUM_ITERS, fixed in the kernel
PARAMS = [("a", "ptr"), ("b", "ptr"), ("da", "ptr"), ("db", "ptr")]
OUTPUTS = ["da", "db"]

# Bandwidth runs copy about this many elements per input (128 MiB each).
BANDWIDTH_ELEMS = 32 * 1024 * 1024


def _problem(mode, grid):
    return tiled_problem(mode, grid, TILES_PER_CTA, TILE_ELEMS)


def problems(mode, ctx):
    sms = ctx.get("sm_count") or 132
    if mode == "check":
        # n per array: 2 CTAs per SM (1.03Mi); 601: odd (2.35Mi); 2048
        # CTAs (8Mi). Each at least 1M elements per array.
        return [_problem(mode, fit_grid(g, ctx))
                for g in (2 * sms, 601, 2048)]
    if mode == "sanitize":
        return [_problem(mode, fit_grid(4, ctx))]
    if mode == "bandwidth":
        grid = BANDWIDTH_ELEMS // (TILES_PER_CTA * TILE_ELEMS)
        return [_problem(mode, fit_grid(grid, ctx))]
    return []


def make_inputs(rng, problem):
    n = problem["n"]
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.uniform(100.0, 200.0, n).astype(np.float32)
    return {"a": a, "b": b, "da": np.empty(n, np.float32),
            "db": np.empty(n, np.float32)}


def expected(inputs):
    return {"da": inputs["a"], "db": inputs["b"]}


def check(outputs, inputs):
    want = expected(inputs)
    parts = [compare_exact(name, outputs[name], want[name])
             for name in OUTPUTS]
    return {"name": "+".join(OUTPUTS),
            "elements": sum(p["elements"] for p in parts),
            "mismatches": sum(p["mismatches"] for p in parts),
            "outputs": parts}


def traffic_bytes(inputs):
    return sum(inputs[k].nbytes for k in ("a", "b", "da", "db"))
