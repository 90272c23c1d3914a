"""The CLC variant of CUTLASS's TS tutorial 4, kernel 2
(``gemm_cute_cluster_2sm`` with ``use_clc_dynamic_scheduler``): the work
queue is CLC-driven, a ClcFetchAsync pipeline of 2 stages (one 16-byte
try_cancel response each) that a scheduler warp (warp 6,
WorkScheduleTask) produces on the leader CTA (``acquire``,
``fetch_work_tile``, ``commit``) and every warp of both CTAs consumes at
the end of each tile; warp 7 pads the second warpgroup (Blackwell,
sm_100a, compile-only). The kernel takes no tile grid arguments: it is
launched with one cluster per 256 x 256 tile. The rest of the kernel is
examples/python/gemm_cute_cluster_2sm.py.

Run: ``python examples/python/gemm_cute_cluster_2sm_clc.py [out_dir]``.
"""

from __future__ import annotations

import gemm_cute_cluster_2sm

ARCH = gemm_cute_cluster_2sm.ARCH


def build(arch: str = ARCH, skip_validation: bool = False):
    """The TaskManager of the CLC variant (verified unless
    skip_validation)."""
    return gemm_cute_cluster_2sm.build(arch, skip_validation, clc=True)


if __name__ == "__main__":
    raise SystemExit(gemm_cute_cluster_2sm.main(clc=True))
