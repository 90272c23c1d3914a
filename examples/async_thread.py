"""Launch spec for examples/async_thread.mlir.

The kernel has the signature, launch shape and result of async_load (see
examples/async_load.py); only its producer (plain loads and stores, then an
mbarrier arrive) differs.
"""

from pathlib import Path

from tspipe.runtime.harness import derived_spec

derived_spec(globals(), Path(__file__).with_name("async_load.py"),
             KERNEL="async_thread")
