"""Launch spec for examples/umma_gemm.mlir (compile-only).

Kernel `umma_gemm(tmap_a, tmap_b, c, k_blocks)`: 6 warps per CTA (one TMA
producer warp, one MMA warp, four epilogue warps); CTA (x, y) computes the
f32 output tile of 128 x 128 at rows 128 x, columns 128 y of
C = A x B^T (A: M x K bf16 row-major, B: N x K bf16, K = 64 k_blocks,
N = 128 gridDim.y) with tcgen05.mma through a 4-stage TmaUmma pipeline
(32768 bytes per stage) and a one-stage UmmaAsync accumulator in 128 TMEM
columns. `tmap_a` and `tmap_b` are the addresses of 64-byte aligned
CUtensorMaps (bf16, 2-D, dims {K, rows}, box {64, 128},
CU_TENSOR_MAP_SWIZZLE_128B); docs/blackwell-gemm.md.

Launch: grid (M / 128, N / 128), block 192 threads, dynamic shared memory =
the kernel's smem_bytes (plus 1 KiB of static shared memory ptxas reports).

tcgen05 needs an sm_100a device: `make demo` lowers and assembles the
kernel for sm_100a and never runs it on other devices (MIN_ARCH).
"""

KERNEL = "umma_gemm"
BLOCK_THREADS = 192  # 6 warps
PARAMS = [("tmap_a", "ptr"), ("tmap_b", "ptr"), ("c", "ptr"),
          ("k_blocks", "i64")]
OUTPUTS = ["c"]
MIN_ARCH = "sm_100a"
COMPILE_ONLY = True
