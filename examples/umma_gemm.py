"""Launch spec for examples/umma_gemm.mlir (compile-only).

Kernel `umma_gemm(a, b, c, k_blocks)`: 6 warps per CTA (one TMA producer
warp, one MMA warp, four epilogue warps); CTA t computes output tile t
(128 x 128) over `k_blocks` K-blocks of 64 through a 4-stage TmaUmma
pipeline (32768 bytes per stage) and a one-stage UmmaAsync accumulator.

tcgen05 needs an sm_100a device: `make demo` lowers and assembles the
kernel for sm_100a and never runs it on other devices (MIN_ARCH), and the
skeleton leaves the MMA instructions out, so there is no result to check.
"""

KERNEL = "umma_gemm"
BLOCK_THREADS = 192  # 6 warps
PARAMS = [("a", "ptr"), ("b", "ptr"), ("c", "ptr"), ("k_blocks", "i64")]
OUTPUTS = ["c"]
MIN_ARCH = "sm_100a"
COMPILE_ONLY = True
