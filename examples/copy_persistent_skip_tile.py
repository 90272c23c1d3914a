"""Launch spec for examples/python/copy_persistent_skip_tile.py (see
tspipe.runtime.harness).

Kernel `copy_persistent_skip_tile(a, b, logical_tiles, launch_tiles)`: 4
warps per CTA; a static work queue over `launch_tiles` tiles, of which the
first `logical_tiles` are the 128-column slices of the `ROWS x (128 *
logical_tiles)` fp16 matrices `a` and `b` and the rest are overlaunched ids
the queue's skip_if skips. CTA c of a grid of G walks tiles c, c + G, ...;
each tile copies its slice row by row (thread t: column 128 * tile + t).
The problems launch fewer CTAs than tiles with an uneven last wave, with
and without overlaunched tiles, and more CTAs than tiles (CTAs without a
tile). The matrices are handled as their fp16 bit patterns (uint16); `b`
starts with every bit set and no input element has that pattern, so an
element no tile copied (or a skipped tile that copied out of bounds into
`b`'s slack) fails. Every element of `b` is checked.

The constants below mirror examples/python/copy_persistent_skip_tile.py
(test_persistent_tutorials.py checks they agree).
"""

import numpy as np

from tspipe.runtime.checks import compare_exact

KERNEL = "copy_persistent_skip_tile"
BLOCK_THREADS = 128  # 4 warps
TILE_COLS = 128
ROWS = 64
PARAMS = [("a", "ptr"), ("b", "ptr"), ("logical_tiles", "i32"),
          ("launch_tiles", "i32")]
OUTPUTS = ["b"]


def _problem(mode, grid, logical, overlaunch):
    n = ROWS * TILE_COLS * int(logical)
    return {"label": f"{mode} n={n / 2**20:.2f}Mi grid={grid} "
                     f"tiles={logical}+{overlaunch}",
            "grid": (int(grid), 1, 1), "logical_tiles": int(logical),
            "launch_tiles": int(logical) + int(overlaunch), "n": n}


def problems(mode, ctx):
    sms = ctx.get("sm_count") or 132
    if mode == "check":
        # 8 waves and a third on every SM with 4 overlaunched tiles; 7 CTAs
        # over 45 + 4 tiles; 64 CTAs over 10 tiles and none overlaunched.
        return [_problem(mode, sms, 8 * sms + sms // 3, 4),
                _problem(mode, 7, 45, 4), _problem(mode, 64, 10, 0)]
    if mode == "sanitize":
        return [_problem(mode, 3, 5, 2)]
    if mode == "bandwidth":
        grid = sms * max(1, ctx.get("ctas_per_sm") or 1)
        return [_problem(mode, grid, 4096, 0)]
    return []


def make_inputs(rng, problem):
    n = problem["n"]
    return {
        "a": rng.integers(0, 0xFFFF, n, dtype=np.uint16),
        "b": np.full(n, 0xFFFF, np.uint16),
        "logical_tiles": np.int32(problem["logical_tiles"]),
        "launch_tiles": np.int32(problem["launch_tiles"]),
    }


def expected(inputs):
    return {"b": inputs["a"].copy()}


def check(outputs, inputs):
    # A copy of bit patterns: every element equal.
    return compare_exact("b", outputs["b"], expected(inputs)["b"])


def traffic_bytes(inputs):
    return inputs["a"].nbytes + inputs["b"].nbytes
