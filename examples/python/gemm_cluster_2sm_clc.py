"""The CLC variant of CUTLASS's TS tutorial 4 (``gemm_cluster_2sm`` with
``use_clc_dynamic_scheduler``): the work queue is CLC-driven, a
ClcFetchAsync pipeline of 2 stages (one 16-byte try_cancel response each)
that a scheduler warp (warp 7, WorkScheduleTask) produces on the leader CTA
(``acquire``, ``fetch_work_tile``, ``commit``) and every warp of both CTAs
consumes at the end of each tile (Blackwell, sm_100a, compile-only). The
rest of the kernel is examples/python/gemm_cluster_2sm.py.

Run: ``python examples/python/gemm_cluster_2sm_clc.py [out_dir]``.
"""

from __future__ import annotations

import gemm_cluster_2sm

ARCH = gemm_cluster_2sm.ARCH


def build(arch: str = ARCH, skip_validation: bool = False):
    """The TaskManager of the CLC variant (verified unless
    skip_validation)."""
    return gemm_cluster_2sm.build(arch, skip_validation, clc=True)


if __name__ == "__main__":
    raise SystemExit(gemm_cluster_2sm.main(clc=True))
