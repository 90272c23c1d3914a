"""Cluster uniformity (X29) from Python (docs/Rules.md, X29).

A domain end computed from the CTA's cluster rank on a multicast pipeline
(DeepGEMM PR 429: the CTAs of a cluster run different trip counts) is a
ScheduleError naming X29 at build(), as in tspipe-opt; the same kernel
with an end every CTA shares builds.
"""

import pytest

from tspipe import ir
from tspipe.dialects import arith, nvvm
from tspipe.ts import Agent, Kernel, PipelineConfig, ScheduleError
from tspipe.ts import CooperativeGroup as G

T = Agent.Thread


def _kernel(rank_in_end):
    k = Kernel(num_warps=2, cluster=(2, 1, 1), args=[("n", "index")],
               name="cluster_trips")
    index = ir.IndexType.get(context=k.context)

    def end():
        if not rank_in_end:
            return k.arg("n")
        rank = nvvm.read_ptx_sreg_cluster_ctarank(
            ir.IntegerType.get_signless(32))
        return arith.addi(k.arg("n"), arith.index_cast(index, rank))

    n = k.prologue(end)
    cfg = PipelineConfig.create_tma_async_pipeline_cfg(
        2, 8192, G(T, 1), G(T, 2), cta_layout_vmnk=(1, 1, 2, 1))
    stages = k.pipeline("stages", cfg, smem_bytes=2 * 8192)
    load = k.task("load", 0, 1, produces=[stages])
    with load.domain_loop(0, n):
        load.acquire(stages)
        load.commit(stages)
    compute = k.task("compute", 1, 1, consumes=[stages])
    with compute.domain_loop(0, n):
        compute.wait(stages)
        compute.release(stages)
    return k


def test_rank_dependent_trip_count_is_x29():
    with pytest.raises(ScheduleError) as info:
        _kernel(rank_in_end=True).build()
    assert info.value.rule == "X29"
    assert "DeepGEMM PRs 415, 429" in str(info.value)


def test_shared_trip_count_builds():
    _kernel(rank_in_end=False).build()
