"""Cluster kernels: the cluster shape reaches the PTX entry
(`.explicitcluster`, `.reqnctapercluster`) and the launch metadata, and the
TmaAsync multicast release lowers to remote arrives (docs/Protocols.md,
Clusters)."""

from pathlib import Path

from tspipe.launch import compile_for_launch
from tspipe.runtime.ptx import parse_entries
from tspipe.ts import Agent, CooperativeGroup, Kernel, PipelineConfig

G, T = CooperativeGroup, Agent.Thread
ROOT = Path(__file__).resolve().parents[2]


def multicast_kernel():
    # 2 x 2 CTAs, multicast along both modes: 3 arrivals per consumer warp.
    cfg = PipelineConfig.create_tma_async_pipeline_cfg(
        4, 4096, G(T, 1), G(T, 2 * 3), cta_layout_vmnk=(1, 2, 2, 1))
    k = Kernel(num_warps=3, cluster=(4, 1, 1), name="mcast")
    ring = k.pipeline("ring", cfg, smem_bytes=4 * 4096)
    p = k.task("p", 0, 1, produces=[ring])
    with p.domain_loop(0, 8):
        p.acquire(ring)
        p.commit(ring)
    c = k.task("c", 1, 2, consumes=[ring])
    with c.domain_loop(0, 8):
        c.wait(ring)
        c.release(ring)
    return k


def test_cluster_shape_reaches_ptx_and_metadata():
    kernels, ptx, _ = compile_for_launch(multicast_kernel())
    (facts,) = kernels
    assert facts.cluster == (4, 1, 1)
    (text,) = ptx.values()
    entry = parse_entries(text)["mcast"]
    assert entry.explicitcluster
    assert tuple(entry.reqnctapercluster) == (4, 1, 1)
    # Cluster-wide init, then releases to peer CTAs in the cluster form.
    assert "barrier.cluster.arrive.relaxed.aligned" in text
    assert "mapa.shared::cluster" in text
    assert "mbarrier.arrive.release.cluster.shared::cluster.b64" in text


def test_multicast_examples_require_their_cluster():
    for name, ctas in (("tma_mcast_2cta_n", 2), ("tma_mcast_2cta_m", 2),
                       ("tma_mcast_4cta_mn", 4), ("tma_mcast_4cta_n", 4)):
        source = (ROOT / "examples" / f"{name}.mlir").read_text()
        kernels, ptx, _ = compile_for_launch(source)
        (facts,) = kernels
        assert facts.cluster == (ctas, 1, 1), name
        (text,) = ptx.values()
        entry = parse_entries(text)[name]
        assert entry.explicitcluster, name
        assert tuple(entry.reqnctapercluster) == (ctas, 1, 1), name
        assert ("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
                "::bytes.multicast::cluster") in text, name
