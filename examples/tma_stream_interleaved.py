"""Launch spec for examples/tma_stream_interleaved.mlir.

Same signature and result as tma_stream (see examples/tma_stream.py), with 6
warps per CTA (two interleaved producer warps, four consumer warps) and an
even number of tiles per CTA (each producer warp loads every other tile).
"""

from pathlib import Path

from tspipe.runtime.harness import derived_spec, tiled_problem

derived_spec(globals(), Path(__file__).with_name("tma_stream.py"),
             KERNEL="tma_stream_interleaved", BLOCK_THREADS=192)
_base_problems = problems  # noqa: F821 (set by derived_spec)


def problems(mode, ctx):
    """tma_stream's problems with the tile count per CTA rounded up to even."""
    return [tiled_problem(mode, p["grid"][0],
                          p["tiles_per_cta"] + p["tiles_per_cta"] % 2,
                          TILE_ELEMS)  # noqa: F821
            for p in _base_problems(mode, ctx)]
