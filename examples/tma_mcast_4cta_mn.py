"""Launch spec for examples/tma_mcast_4cta_mn.mlir, and the shared spec of
the TmaAsync multicast examples (tma_mcast_*.py call `make_spec`).

Kernel `<name>(a, b, y, alpha, beta, tiles)`: 5 warps per CTA (one TMA
producer warp, four consumer warps), clusters of T = M * N CTAs launched as
(T, 1, 1); cluster rank r = m + M * n is CTA (m, n). Cluster c works through
`tiles` steps; step g = c * tiles + i gives CTA (m, n)

* with multicast of A (mcast_mode_mn[0]): the 2048-float tile A[g, m],
  shared by the N CTAs of row m, each copying one slice and multicasting it;
* with multicast of B (mcast_mode_mn[1]): the tile B[g, n], shared by the M
  CTAs of column n;

and CTA (m, n) writes y[g, m, n, :] = alpha * A[g, m] + B[g, n] (both),
alpha * A[g, m] + beta (A only) or alpha * B[g, n] + beta (B only). Every
output element depends on data that peer CTAs copied into this CTA's shared
memory, so a wrong barrier count, byte count or release target shows up as a
wrong element or a hang.

Dynamic shared memory and cluster shape come from the metadata JSON.
"""

import numpy as np

from tspipe.runtime.checks import compare_fp32

PART = 2048  # float32 per tile part (8 KiB)
BANDWIDTH_ELEMS = 256 * 1024 * 1024


def make_spec(ns, kernel, m, n, use_a, use_b):
    """Fills the launch spec namespace `ns` for the multicast kernel
    `kernel` on an M x N cluster, A and/or B multicast."""
    t = m * n

    def problem(mode, clusters, tiles):
        return {"label": f"{mode} clusters={clusters} x {t} CTAs "
                         f"tiles/cluster={tiles}",
                "grid": (clusters * t, 1, 1), "clusters": clusters,
                "tiles": tiles}

    def problems(mode, ctx):
        sms = ctx.get("sm_count") or 132
        full = max(1, sms // t)
        if mode == "check":
            # more steps than stages (phases flip), an odd cluster count
            # with a step count not a multiple of the stages, and fewer
            # steps than stages (the drain follows at once); each >= 1M
            # output elements.
            return [problem(mode, full, 8), problem(mode, 37, 7),
                    problem(mode, 512 // t * 4, 1)]
        if mode == "sanitize":
            return [problem(mode, 2, 6)]
        if mode == "bandwidth":
            clusters = full * max(1, ctx.get("ctas_per_sm") or 1)
            steps = max(1, round(BANDWIDTH_ELEMS / (clusters * t * PART)))
            return [problem(mode, clusters, steps)]
        return []

    def make_inputs(rng, prob):
        g = prob["clusters"] * prob["tiles"]
        a = (rng.standard_normal(g * m * PART, dtype=np.float32) * 8
             if use_a else np.zeros(4, np.float32))
        b = (rng.standard_normal(g * n * PART, dtype=np.float32) * 8
             if use_b else np.zeros(4, np.float32))
        return {"a": a, "b": b, "y": np.empty(g * m * n * PART, np.float32),
                "alpha": np.float32(rng.uniform(-3.0, 3.0)),
                "beta": np.float32(rng.uniform(-3.0, 3.0)),
                "tiles": np.int64(prob["tiles"])}

    def expected(inputs):
        g = inputs["y"].size // (m * n * PART)
        alpha, beta = inputs["alpha"], inputs["beta"]
        if use_a:
            a = inputs["a"].reshape(g, m, 1, PART)
        if use_b:
            b = inputs["b"].reshape(g, 1, n, PART)
        p = a if use_a else b
        q = b if use_a and use_b else beta
        separate = np.broadcast_to(alpha * p + q, (g, m, n, PART))
        fused = (np.float64(alpha) * p.astype(np.float64)
                 + np.asarray(q, np.float64)).astype(np.float32)
        fused = np.broadcast_to(fused, (g, m, n, PART))
        return {"y": [separate.reshape(-1), fused.reshape(-1)]}

    def check(outputs, inputs):
        return compare_fp32("y", outputs["y"], expected(inputs)["y"],
                            max_ulps=1)

    def traffic_bytes(inputs):
        return inputs["a"].nbytes + inputs["b"].nbytes + inputs["y"].nbytes

    ns.update(
        KERNEL=kernel, BLOCK_THREADS=160,
        PARAMS=[("a", "ptr"), ("b", "ptr"), ("y", "ptr"), ("alpha", "f32"),
                ("beta", "f32"), ("tiles", "i64")],
        OUTPUTS=["y"], problems=problems, make_inputs=make_inputs,
        expected=expected, check=check, traffic_bytes=traffic_bytes)


make_spec(globals(), "tma_mcast_4cta_mn", 2, 2, True, True)
