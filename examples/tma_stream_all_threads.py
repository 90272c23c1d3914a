"""Launch spec for examples/tma_stream_all_threads.mlir.

The kernel has the signature, launch shape and result of tma_stream (see
examples/tma_stream.py); only its consumer release form differs.
"""

from pathlib import Path

from tspipe.runtime.harness import derived_spec

derived_spec(globals(), Path(__file__).with_name("tma_stream.py"),
             KERNEL="tma_stream_all_threads")
