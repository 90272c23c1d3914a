"""Launch spec for examples/python/hopper_gemm.py (see tspipe.runtime.harness).

Kernel ``hopper_gemm(a_map, b_map, c_map, c, m, n, kt, iters, pairs_m)``: 12 warps
per CTA (the TMA warp, three padding warps, two MMA warpgroups), clusters of
2 CTAs along M. C (M x N, bf16) = A (M x K, bf16, row-major) times B, given
as B^T (N x K, bf16, row-major). ``a_map`` / ``b_map`` are CUtensorMaps over
the buffers ``a`` and ``b`` (BUFFERS), ``c_map`` one over the output ``c``
(the TMA-store epilogue writes C through it), encoded from the tensor-map
types the IR declares. bf16 values travel as their uint16 bit patterns (numpy has no
bf16). The grid is 2 x G clusters; cluster c computes the tile pairs c, c +
G, ... (128 x 256 tiles, two along M per pair), ``iters`` = ceil(pairs / G)
x kt domain iterations.

Every element of C is checked against a float32 reference of the bf16
inputs within a bf16 tolerance; C starts as 0xFFFF (NaN), so a tile left
unwritten fails. The larger GEMM shapes and the timing against cuBLAS are
in bench/gemm_bench.py (torch on the GPU machine).

The constants below mirror examples/python/hopper_gemm.py.
"""

import math

import numpy as np

from tspipe.runtime.checks import CheckFailure

KERNEL = "hopper_gemm"
BLOCK_THREADS = 384  # 12 warps
TILE_M, TILE_N, CLUSTER_M = 128, 256, 2
STAGE_K = 64  # K per pipeline stage (one 64-wide slice); kt = K / 64
PARAMS = [("a_map", "tensormap"), ("b_map", "tensormap"),
          ("c_map", "tensormap"), ("c", "ptr"), ("m", "i32"), ("n", "i32"),
          ("kt", "i32"), ("iters", "i32"), ("pairs_m", "i32")]
BUFFERS = ["a", "b"]
OUTPUTS = ["c"]


def _problem(m, n, k, clusters):
    pairs = (m // (TILE_M * CLUSTER_M)) * (n // TILE_N)
    clusters = min(clusters, pairs)
    return {"label": f"{m}x{n}x{k}", "grid": (CLUSTER_M * clusters, 1, 1),
            "m": m, "n": n, "k": k,
            "iters": math.ceil(pairs / clusters) * (k // STAGE_K)}


def problems(mode, ctx):
    sms = ctx.get("sm_count") or 132
    if mode == "check":
        # One tile pair; several pairs per cluster with a partial last round
        # (7 pairs over 3 clusters); a full machine.
        return [_problem(256, 256, 128, 1), _problem(512, 1792, 512, 3),
                _problem(2048, 2048, 1024, sms // CLUSTER_M)]
    if mode == "sanitize":
        return [_problem(256, 256, 128, 1)]
    return []


def _bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bit patterns (round to nearest even)."""
    bits = x.astype(np.float32).view(np.uint32)
    rounding = ((bits >> 16) & 1) + np.uint32(0x7FFF)
    return ((bits + rounding) >> 16).astype(np.uint16)


def _bf16_values(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def make_inputs(rng, problem):
    m, n, k = problem["m"], problem["n"], problem["k"]
    a = _bf16_bits(rng.standard_normal((m, k), dtype=np.float32))
    b = _bf16_bits(rng.standard_normal((n, k), dtype=np.float32))
    return {"a": a, "b": b,
            "a_map": {"tensor": "a", "shape": (m, k)},
            "b_map": {"tensor": "b", "shape": (n, k)},
            "c_map": {"tensor": "c", "shape": (m, n)},
            "c": np.empty((m, n), np.uint16),
            "m": m, "n": n, "kt": k // STAGE_K, "iters": problem["iters"],
            "pairs_m": m // (TILE_M * CLUSTER_M)}


def expected(inputs):
    ref = _bf16_values(inputs["a"]) @ _bf16_values(inputs["b"]).T
    return {"c": ref}


def check(outputs, inputs):
    ref = expected(inputs)["c"]
    got = _bf16_values(outputs["c"])
    rms = float(np.sqrt(np.mean(ref * ref)))
    err = np.abs(got - ref)
    bad = ~(err <= 0.02 * np.abs(ref) + 0.05 * rms)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise CheckFailure(
            f"c: {int(bad.sum())} of {bad.size} elements off, first at "
            f"({i}, {j}): {got[i, j]} vs {ref[i, j]}")
    return {"elements": int(bad.size), "max_abs_err": float(err.max()),
            "rms_ref": rms}


def traffic_bytes(inputs):
    return inputs["a"].nbytes + inputs["b"].nbytes + inputs["c"].nbytes
