"""Launch spec for examples/python/copy_varlen_dynamic_domain.py (see
tspipe.runtime.harness).

Kernel `copy_varlen_dynamic_domain(a, b, offsets, num_segments, max_len)`:
4 warps per CTA; a static work queue over `num_segments` tiles, one per
segment; the tile of segment i copies `offsets[i + 1] - offsets[i]`
float32 from `a[offsets[i]:]` to row i of the `num_segments x max_len`
array `b`, thread t taking elements t, t + 128, ... (the per-tile dynamic
domain). Segment lengths are random in [1, max_len] (max_len above two
CTA-widths, so threads run up to three iterations and some none). `b` is
handled as its bit patterns (uint32) and starts with every bit set: the
padding of each row must stay so (a write past a segment's end fails) and
every element of each segment must equal `a`'s. Every element of `b` is
checked. The problems launch fewer CTAs than segments with an uneven last
wave and more CTAs than segments.

The constants below mirror examples/python/copy_varlen_dynamic_domain.py
(test_persistent_tutorials.py checks they agree).
"""

import numpy as np

from tspipe.runtime.checks import compare_exact

KERNEL = "copy_varlen_dynamic_domain"
BLOCK_THREADS = 128  # 4 warps
PARAMS = [("a", "ptr"), ("b", "ptr"), ("offsets", "ptr"),
          ("num_segments", "i32"), ("max_len", "i32")]
OUTPUTS = ["b"]
MAX_LEN = 300


def _problem(mode, grid, segments, max_len=MAX_LEN):
    return {"label": f"{mode} segments={segments} max_len={max_len} "
                     f"grid={grid}",
            "grid": (int(grid), 1, 1), "num_segments": int(segments),
            "max_len": int(max_len)}


def problems(mode, ctx):
    sms = ctx.get("sm_count") or 132
    if mode == "check":
        return [_problem(mode, sms, 8 * sms + sms // 3),
                _problem(mode, 7, 45), _problem(mode, 64, 10)]
    if mode == "sanitize":
        return [_problem(mode, 3, 7)]
    if mode == "bandwidth":
        grid = sms * max(1, ctx.get("ctas_per_sm") or 1)
        return [_problem(mode, grid, 65536, 512)]
    return []


def make_inputs(rng, problem):
    n, width = problem["num_segments"], problem["max_len"]
    lengths = rng.integers(1, width + 1, n)
    offsets = np.zeros(n + 1, np.int32)
    offsets[1:] = np.cumsum(lengths)
    return {
        "a": rng.standard_normal(int(offsets[-1]), dtype=np.float32),
        "b": np.zeros(n * width, np.uint32),
        "offsets": offsets,
        "num_segments": np.int32(n),
        "max_len": np.int32(width),
    }


def expected(inputs):
    n, width = int(inputs["num_segments"]), int(inputs["max_len"])
    offsets, a = inputs["offsets"], inputs["a"].view(np.uint32)
    b = np.full(n * width, 0xFFFFFFFF, np.uint32)
    for i in range(n):
        length = int(offsets[i + 1] - offsets[i])
        b[i * width:i * width + length] = a[offsets[i]:offsets[i + 1]]
    return {"b": b}


def check(outputs, inputs):
    return compare_exact("b", outputs["b"], expected(inputs)["b"])


def traffic_bytes(inputs):
    return inputs["a"].nbytes * 2 + inputs["offsets"].nbytes
