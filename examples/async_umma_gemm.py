"""Launch spec for examples/async_umma_gemm.mlir (compile-only).

Kernel `async_umma_gemm(a, b, c, k_blocks)`: 7 warps per CTA (two producer
warps storing the pre-tiled A/B blocks, 128-byte swizzled, into a 3-stage
AsyncUmma pipeline, one MMA warp issuing tcgen05.mma of 128 x 128 x 16,
four epilogue warps reading the TMEM accumulator of a one-stage UmmaAsync
pipeline with tcgen05.ld). CTA t writes rows 128 t .. 128 t + 127 of the
128-column f32 matrix `c`; docs/blackwell-gemm.md.

Launch: grid = number of output tiles, block 224 threads, dynamic shared
memory = the kernel's smem_bytes.

tcgen05 needs an sm_100a device: `make demo` lowers and assembles the
kernel for sm_100a and never runs it on other devices (MIN_ARCH).
"""

KERNEL = "async_umma_gemm"
BLOCK_THREADS = 224  # 7 warps
PARAMS = [("a", "ptr"), ("b", "ptr"), ("c", "ptr"), ("k_blocks", "i64")]
OUTPUTS = ["c"]
MIN_ARCH = "sm_100a"
COMPILE_ONLY = True
