"""Launch spec for examples/umma_gemm_2cta.mlir (compile-only).

Kernel `umma_gemm_2cta(tmap_a, tmap_b, c, k_blocks)`: clusters of 4 CTAs
(cta_layout_vmnk = [2, 2, 1, 1]: two 2-CTA pairs along M), 6 warps per CTA
(TMA producer, MMA, four epilogue warps). Each pair's leader issues
tcgen05.mma.cta_group::2 of 256 x 256 x 16 into both CTAs' TMEM (256
columns allocated by the pair together); its full barrier receives both
CTAs' bytes (32768 per stage); B is multicast to both pairs. C = A x B^T
in f32 (A: M x K bf16 row-major, B: N x K bf16, K = 32 k_blocks,
N = 256 gridDim.y). `tmap_a` (box {32, 128}) and `tmap_b` (box {32, 64})
are the addresses of 64-byte aligned CUtensorMaps (bf16, 2-D, dims
{K, rows}, CU_TENSOR_MAP_SWIZZLE_64B); docs/blackwell-gemm.md.

Launch: grid (M / 128, N / 256), cluster (4, 1, 1), block 192 threads,
dynamic shared memory = the kernel's smem_bytes.

tcgen05 needs an sm_100a device: `make demo` lowers and assembles the
kernel for sm_100a and never runs it on other devices (MIN_ARCH).
"""

KERNEL = "umma_gemm_2cta"
BLOCK_THREADS = 192  # 6 warps
CLUSTER = (4, 1, 1)
PARAMS = [("tmap_a", "ptr"), ("tmap_b", "ptr"), ("c", "ptr"),
          ("k_blocks", "i64")]
OUTPUTS = ["c"]
MIN_ARCH = "sm_100a"
COMPILE_ONLY = True
