"""Launch spec for examples/async_thread.mlir.

The kernel has the signature, launch shape and result of async_load (see
examples/async_load.py); only its producer (plain loads and stores, then an
mbarrier arrive) differs.
"""

import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location(
    "async_load_spec", pathlib.Path(__file__).with_name("async_load.py"))
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)

KERNEL = "async_thread"
BLOCK_THREADS = _base.BLOCK_THREADS
TILE_ELEMS = _base.TILE_ELEMS
PARAMS = _base.PARAMS
OUTPUTS = _base.OUTPUTS
problems = _base.problems
make_inputs = _base.make_inputs
expected = _base.expected
check = _base.check
traffic_bytes = _base.traffic_bytes
