"""Launch spec for examples/python/tma_copy.py (see tspipe.runtime.harness).

Kernel `tma_copy(x, y)`: 8 warps per CTA (four store warps 0-3, the TMA
load warp 4, three padding warps); CTA i copies the `TILES_PER_CTA` = 8
consecutive tiles of 1024 float32 (4 KiB) starting at tile `i * 8` from `x`
to `y`, each tile through a stage of the 4-stage TmaAsync ring (bulk copy
into shared memory, 8 floats per store thread back out). The tile count per
CTA is fixed in the kernel, so the grid sets the size:
`n = grid * 8 * 1024`.

Every element of `y` must equal `x` bit for bit; `y` starts as NaN. The
values are distinct per tile, so a stage read in the wrong phase (a stale
or not-yet-filled tile) shows up as a mismatch.

The constants below mirror examples/python/tma_copy.py (the spec must load
where the compiled bindings cannot: test_launch_specs.py checks they agree).
"""

import numpy as np

from tspipe.runtime.checks import compare_exact
from tspipe.runtime.harness import fit_grid, tiled_problem

KERNEL = "tma_copy"
BLOCK_THREADS = 256  # 8 warps
TILE_ELEMS = 1024  # float32 per tile (4 KiB, one stage)
TILES_PER_CTA = 8  # fixed in the kernel; twice round the 4-stage ring
PARAMS = [("x", "ptr"), ("y", "ptr")]
OUTPUTS = ["y"]

# Bandwidth runs copy about this many elements (256 MiB per array).
BANDWIDTH_ELEMS = 64 * 1024 * 1024


def _problem(mode, grid):
    return tiled_problem(mode, grid, TILES_PER_CTA, TILE_ELEMS)


def problems(mode, ctx):
    sms = ctx.get("sm_count") or 132
    if mode == "check":
        # one CTA per SM (1.03Mi); 397: odd, several CTAs per SM (3.10Mi);
        # 1024 CTAs (8Mi). Each at least 1M elements.
        return [_problem(mode, fit_grid(g, ctx)) for g in (sms, 397, 1024)]
    if mode == "sanitize":
        return [_problem(mode, fit_grid(4, ctx))]
    if mode == "bandwidth":
        grid = BANDWIDTH_ELEMS // (TILES_PER_CTA * TILE_ELEMS)
        return [_problem(mode, fit_grid(grid, ctx))]
    return []


def make_inputs(rng, problem):
    n = problem["n"]
    x = rng.standard_normal(n, dtype=np.float32)
    x *= np.float32(8.0)
    return {"x": x, "y": np.empty(n, np.float32)}


def expected(inputs):
    return {"y": inputs["x"]}


def check(outputs, inputs):
    return compare_exact("y", outputs["y"], expected(inputs)["y"])


def traffic_bytes(inputs):
    return inputs["x"].nbytes + inputs["y"].nbytes
