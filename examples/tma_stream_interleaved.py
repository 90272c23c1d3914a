"""Launch spec for examples/tma_stream_interleaved.mlir.

Same signature and result as tma_stream (see examples/tma_stream.py), with 6
warps per CTA (two interleaved producer warps, four consumer warps) and an
even number of tiles per CTA (each producer warp loads every other tile).
"""

import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location(
    "tma_stream_spec", pathlib.Path(__file__).with_name("tma_stream.py"))
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)

KERNEL = "tma_stream_interleaved"
BLOCK_THREADS = 192  # 6 warps
TILE_ELEMS = _base.TILE_ELEMS
PARAMS = _base.PARAMS
OUTPUTS = _base.OUTPUTS
make_inputs = _base.make_inputs
expected = _base.expected
check = _base.check
traffic_bytes = _base.traffic_bytes


def problems(mode, ctx):
    """tma_stream's problems with the tile count per CTA rounded up to even."""
    out = []
    for p in _base.problems(mode, ctx):
        tiles = p["tiles_per_cta"] + p["tiles_per_cta"] % 2
        out.append(_base._problem(mode, p["grid"][0], tiles))
    return out
