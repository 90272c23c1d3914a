"""A pipeline's remote-arrive scope from Python (docs/Protocols.md,
Remote-arrive scope): PipelineConfig.remote_arrive_scope becomes the
``remote_arrive_scope`` of the ``tspipe.pipeline``, absent by default, and
chooses the scope of the cluster release in the PTX."""

import dataclasses

import pytest

from tspipe.ts import (
    Agent,
    ConfigTypeError,
    CooperativeGroup,
    Kernel,
    PipelineConfig,
    RemoteArriveScope,
)

G = CooperativeGroup
T = Agent.Thread


def mcast_cfg(scope=None):
    """TmaAsync across a 2-CTA cluster along M, multicast along N (both CTAs
    in each other's multicast set); lane 0 of each of 2 consumer warps of
    each CTA releases."""
    cfg = PipelineConfig.create_tma_async_pipeline_cfg(
        4, 8192, G(T, 1), G(T, 4), (1, 2, 1, 1), remote_arrive_scope=scope)
    return dataclasses.replace(cfg, mcast_mode_mn=(0, 1))


def cluster_kernel(scope=None):
    k = Kernel(num_warps=3, cluster=(2, 1, 1))
    ring = k.pipeline("ring", mcast_cfg(scope), smem_bytes=32768)
    load = k.task("load", 0, 1, produces=[ring])
    use = k.task("use", 1, 2, consumes=[ring])
    with load.domain_loop(0, 8):
        load.acquire(ring)
        load.commit(ring)
    with use.domain_loop(0, 8):
        use.wait(ring)
        use.release(ring)
    return k


def test_default_is_absent_and_cluster_scope():
    k = cluster_kernel()
    assert "remote_arrive_scope(" not in k.to_mlir()
    ptx = k.to_ptx("sm_90a")
    assert "mbarrier.arrive.release.cluster.shared::cluster.b64" in ptx


@pytest.mark.parametrize("scope,text,release", [
    (RemoteArriveScope.Cta, "remote_arrive_scope(cta)",
     # .release and .cta are the instruction's defaults.
     "mbarrier.arrive.shared::cluster.b64"),
    (RemoteArriveScope.Cluster, "remote_arrive_scope(cluster)",
     "mbarrier.arrive.release.cluster.shared::cluster.b64"),
])
def test_scope_reaches_the_op_and_the_ptx(scope, text, release):
    k = cluster_kernel(scope)
    assert text in k.to_mlir()
    ptx = k.to_ptx("sm_90a")
    assert release in ptx
    if scope == RemoteArriveScope.Cta:
        assert "mbarrier.arrive.release.cluster" not in ptx


def test_scope_is_not_a_config_field():
    # The attribute text is TS's config; the scope lives on the op.
    cfg = mcast_cfg(RemoteArriveScope.Cta)
    assert "remote_arrive_scope" not in str(cfg)
    assert PipelineConfig.from_attr(cfg._attr).remote_arrive_scope is None
    assert cfg != mcast_cfg()


@pytest.mark.parametrize("bad", ["cta", 0, True])
def test_scope_must_be_the_enum(bad):
    with pytest.raises(ConfigTypeError, match="remote_arrive_scope"):
        mcast_cfg(bad)
