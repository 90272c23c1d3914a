"""Launch spec for examples/tma_stream_all_threads.mlir.

The kernel has the signature, launch shape and result of tma_stream (see
examples/tma_stream.py); only its consumer release form differs.
"""

import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location(
    "tma_stream_spec", pathlib.Path(__file__).with_name("tma_stream.py"))
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)

KERNEL = "tma_stream_all_threads"
BLOCK_THREADS = _base.BLOCK_THREADS
TILE_ELEMS = _base.TILE_ELEMS
PARAMS = _base.PARAMS
OUTPUTS = _base.OUTPUTS
problems = _base.problems
make_inputs = _base.make_inputs
expected = _base.expected
check = _base.check
traffic_bytes = _base.traffic_bytes
