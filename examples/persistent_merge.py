"""Launch spec for examples/persistent_merge.mlir (see tspipe.runtime.harness).

Kernel `persistent_merge(x, w, y, num_tiles)`: the merge group of
merge_add.py in a persistent kernel. 4 warps per CTA; one static work
queue over `num_tiles` tiles of 4096 float32 (16 KiB); CTA c of a grid of
G handles tiles c, c + G, c + 2G, ..., each as 4 chunks of 1024 through
the merge group's two AsyncAsync members (4 stages each). The problems
launch fewer CTAs than tiles with an uneven last wave (num_tiles not a
multiple of G), and one grid with more CTAs than tiles (some CTAs get no
tile and only drain). Every element of `y` is checked.
"""

import numpy as np

from tspipe.runtime.checks import compare_exact

KERNEL = "persistent_merge"
BLOCK_THREADS = 128  # 4 warps
TILE_ELEMS = 4096  # float32 per tile (16 KiB): 4 chunks of 1024
PARAMS = [("x", "ptr"), ("w", "ptr"), ("y", "ptr"), ("num_tiles", "i64")]
OUTPUTS = ["y"]

BANDWIDTH_ELEMS = 128 * 1024 * 1024


def _problem(mode, grid, num_tiles):
    n = int(num_tiles) * TILE_ELEMS
    return {"label": f"{mode} n={n / 2**20:.2f}Mi grid={grid} "
                     f"tiles={num_tiles}",
            "grid": (int(grid), 1, 1), "num_tiles": int(num_tiles), "n": n}


def problems(mode, ctx):
    sms = ctx.get("sm_count") or 132
    if mode == "check":
        # 16 waves and a partial 17th on every SM; 7 CTAs over 45 tiles
        # (6 or 7 tiles per CTA, more than the 4 stages); 64 CTAs over 10
        # tiles (54 CTAs without a tile).
        return [_problem(mode, sms, 16 * sms + sms // 3),
                _problem(mode, 7, 45), _problem(mode, 64, 10)]
    if mode == "sanitize":
        return [_problem(mode, 4, 10)]
    if mode == "bandwidth":
        grid = sms * max(1, ctx.get("ctas_per_sm") or 1)
        return [_problem(mode, grid, BANDWIDTH_ELEMS // TILE_ELEMS)]
    return []


def make_inputs(rng, problem):
    n = problem["n"]
    return {
        "x": rng.standard_normal(n, dtype=np.float32),
        "w": rng.uniform(100.0, 200.0, n).astype(np.float32),
        "y": np.full(n, np.nan, np.float32),
        "num_tiles": np.int64(problem["num_tiles"]),
    }


def expected(inputs):
    return {"y": inputs["x"] + inputs["w"]}


def check(outputs, inputs):
    # One float32 addition per element; y starts as NaN, so a tile no CTA
    # handled fails too.
    return compare_exact("y", outputs["y"], expected(inputs)["y"])


def traffic_bytes(inputs):
    return sum(inputs[k].nbytes for k in ("x", "w", "y"))
