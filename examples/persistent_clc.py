"""Launch spec for examples/persistent_clc.mlir (compile-only).

Kernel `persistent_clc(y)`: 2-CTA clusters of 3 warps (the CLC scheduler
task, two worker warps), one cluster launched per tile: the scheduler
cancels clusters not yet launched with cluster launch control and every
task of both CTAs takes the cancelled cluster's tile from the response.
Per tile `x`, `y[64 x + t] = x + 1` for t in [0, 64).

Cluster launch control needs an sm_100a device: `make demo` lowers and
assembles the kernel for sm_100a (ptxas) and never runs it on other
devices (MIN_ARCH).
"""

KERNEL = "persistent_clc"
BLOCK_THREADS = 96  # 3 warps
CLUSTER = (2, 1, 1)
PARAMS = [("y", "ptr")]
OUTPUTS = ["y"]
MIN_ARCH = "sm_100a"
COMPILE_ONLY = True
