"""Launch spec for examples/async_umma_gemm.mlir (compile-only).

Kernel `async_umma_gemm(a, b, c, k_blocks)`: 7 warps per CTA (two producer
warps storing the A/B blocks into a 3-stage AsyncUmma pipeline, one MMA
warp, four epilogue warps draining a one-stage UmmaAsync accumulator).

tcgen05 needs an sm_100a device: `make demo` lowers and assembles the
kernel for sm_100a and never runs it on other devices (MIN_ARCH); the
skeleton leaves the MMA instructions out, so there is no result to check.
"""

KERNEL = "async_umma_gemm"
BLOCK_THREADS = 224  # 7 warps
PARAMS = [("a", "ptr"), ("b", "ptr"), ("c", "ptr"), ("k_blocks", "i64")]
OUTPUTS = ["c"]
MIN_ARCH = "sm_100a"
COMPILE_ONLY = True
