"""Launch spec for examples/umma_gemm_2cta.mlir (compile-only).

Kernel `umma_gemm_2cta(tmap_a, tmap_b, c, k_blocks)`: clusters of 4 CTAs
(cta_layout_vmnk = [2, 2, 1, 1]: two 2-CTA pairs along M), 6 warps per CTA
(TMA producer, MMA, four epilogue warps). The pair leader's full barrier
receives both CTAs' bytes (32768 per stage); B is multicast to both pairs.
`tmap_a` and `tmap_b` are CUtensorMap descriptors passed by value.

tcgen05 needs an sm_100a device: `make demo` lowers and assembles the
kernel for sm_100a and never runs it on other devices (MIN_ARCH); the
skeleton leaves the MMA instructions out, so there is no result to check.
"""

KERNEL = "umma_gemm_2cta"
BLOCK_THREADS = 192  # 6 warps
CLUSTER = (4, 1, 1)
PARAMS = [("tmap_a", "ptr"), ("tmap_b", "ptr"), ("c", "ptr"),
          ("k_blocks", "i64")]
OUTPUTS = ["c"]
MIN_ARCH = "sm_100a"
COMPILE_ONLY = True
