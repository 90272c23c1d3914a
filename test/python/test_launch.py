"""tspipe.launch: launch facts read from the IR's attributes (after
tspipe-allocate-smem), on a kernel built with the builder, and the
cross-check against the lowered kernel."""

from tspipe import passmanager
from tspipe.launch import compile_for_launch, kernel_facts
from tspipe.ts import (
    Agent,
    CooperativeGroup,
    Kernel,
    PipelineConfig,
    SignalingThreads,
)

G, T = CooperativeGroup, Agent.Thread


def cluster_kernel():
    # The consumer covers warpgroup 0 (R41: setmaxnreg takes whole
    # warpgroups); its CtaLeader release makes the leader arm the bytes of
    # both CTAs, so the bytes per warp and CTA are declared (R56).
    cfg = PipelineConfig.create_tma_async_pipeline_cfg(
        4, 4096, G(T, 1), G(T, 8), cta_layout_vmnk=(1, 2, 1, 1),
        consumer_signaling_threads=SignalingThreads.CtaLeader,
        num_bytes_per_warp_per_cta=2048)
    k = Kernel(num_warps=5, cluster=(2, 1, 1), name="clustered")
    ring = k.pipeline("ring", cfg, smem_bytes=4 * 4096)
    p = k.task("p", 4, 1, produces=[ring])
    with p.domain_loop(0, 4):
        p.acquire(ring)
        p.commit(ring)
    c = k.task("c", 0, 4, consumes=[ring], run_only_on_cta_id=0,
               num_registers=232)
    with c.domain_loop(0, 4):
        c.wait(ring)
        c.release(ring)
    return k


def allocated(kernel):
    module = kernel.build()
    with kernel.context:
        copy = module.operation.clone()
        passmanager.PassManager.parse(
            "builtin.module(tspipe-allocate-smem)").run(copy)
    return copy


def test_facts_from_attributes():
    (k,) = kernel_facts(allocated(cluster_kernel()))
    assert (k.name, k.warps, k.block_threads, k.cluster) == (
        "clustered", 5, 160, (2, 1, 1))
    assert k.smem_bytes >= 4 * 4096 + 4 * 16
    (p,) = k.pipelines
    assert (p.name, p.type, p.num_stages, p.num_bytes, p.barrier_bytes) == (
        "ring", "tma_async", 4, 4096, 64)
    assert p.producer_group == ("thread", 1) and p.consumer_group == ("thread", 8)
    assert p.cta_layout_vmnk == (1, 2, 1, 1) and p.smem_bytes == 4 * 4096
    assert p.barrier_offset is not None and p.buffer_offset is not None
    assert [(t.name, t.produces, t.consumes, t.cta, t.registers)
            for t in k.tasks] == [("p", ["ring"], [], None, None),
                                  ("c", [], ["ring"], 0, 232)]


def test_compile_for_launch_cross_checks_the_lowering():
    cfg = PipelineConfig.create_tma_async_pipeline_cfg(4, 4096, G(T, 1), G(T, 4))
    k = Kernel(num_warps=5, name="single")
    ring = k.pipeline("ring", cfg, smem_bytes=4 * 4096)
    p = k.task("p", 0, 1, produces=[ring])
    with p.domain_loop(0, 4):
        p.acquire(ring)
        p.commit(ring)
    c = k.task("c", 1, 4, consumes=[ring])
    with c.domain_loop(0, 4):
        c.wait(ring)
        c.release(ring)
    kernels, ptx, _ = compile_for_launch(k)
    (facts,) = kernels
    assert (facts.name, facts.block_threads) == ("single", 160)
    (text,) = ptx.values()
    assert ".entry single(" in text and ".target sm_90a" in text


def test_facts_need_allocation():
    k = cluster_kernel()
    module = k.build()
    try:
        kernel_facts(module.operation)
    except ValueError as err:
        assert "tspipe-allocate-smem" in str(err)
    else:
        raise AssertionError("no error without smem_bytes")
