"""Launch spec for examples/tma_stream_split_wait.mlir.

The kernel has the signature and result of tma_stream (see
examples/tma_stream.py): `y = a * x + b` over `tiles_per_cta` tiles of 4096
float32 per CTA. Its consumer side is split over a waiting warp and four
releasing warps (6 warps, 192 threads per CTA).
"""

from pathlib import Path

from tspipe.runtime.harness import derived_spec

derived_spec(globals(), Path(__file__).with_name("tma_stream.py"),
             KERNEL="tma_stream_split_wait", BLOCK_THREADS=192)
