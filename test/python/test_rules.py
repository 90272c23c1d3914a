"""Kernel rules through the public front end: a representative subset.

Each case builds a small kernel with the TS-style factories and kernel
builder and checks which rule the C++ verifier reports (the full set, with
a passing and a failing case per rule, is in test/Dialect/TSPipe/).
"""

import pytest

from tspipe.ts import (
    Agent,
    CooperativeGroup,
    Kernel,
    PipelineConfig,
    PipelineConfigError,
    ScheduleError,
)

G = CooperativeGroup
T = Agent.Thread


def ring_cfg(consumer_warps=1, **overrides):
    kwargs = dict(num_stages=2, producer_group=G(T, 32),
                  consumer_group=G(T, 32 * consumer_warps),
                  cta_layout_vmnk=(1, 1, 1, 1))
    kwargs.update(overrides)
    return PipelineConfig.create_async_async_pipeline_cfg(**kwargs)


def kernel(num_warps=2, producer=True, consumer=True, commit=True,
           registers=(None, None)):
    """An AsyncAsync ring: a producer on warp 0, a consumer on warp 1."""
    k = Kernel(num_warps=num_warps, name="ring")
    ring = k.pipeline("ring", ring_cfg(consumer_warps=num_warps - 1))
    if producer:
        prod = k.task("prod", warp_idx=0, num_warps=1, produces=[ring],
                      num_registers=registers[0])
        with prod.domain_loop(0, 8, 1):
            prod.acquire(ring)
            if commit:
                prod.commit(ring)
    if consumer:
        cons = k.task("cons", warp_idx=1, num_warps=num_warps - 1,
                      consumes=[ring], num_registers=registers[1])
        with cons.domain_loop(0, 8, 1):
            cons.wait(ring)
            cons.release(ring)
    return k


def test_valid_ring_builds():
    kernel().build()


def test_acquire_without_commit_is_R33():
    # Field bug B20: a producer bracket that never commits.
    with pytest.raises(ScheduleError) as err:
        kernel(commit=False).build()
    assert err.value.rule == "R33"


def test_pipeline_without_producer_is_X6():
    # Field bug B20: a consumer waiting on a pipeline nobody fills.
    with pytest.raises(ScheduleError) as err:
        kernel(producer=False).build()
    assert err.value.rule == "X6"


def test_split_warpgroup_registers_is_R41():
    # Field bug B22: two register counts in one warpgroup.
    with pytest.raises(ScheduleError) as err:
        kernel(num_warps=4, registers=(40, 232)).build()
    assert err.value.rule == "R41"
    kernel(num_warps=4, registers=(232, 232)).build()


def test_every_failure_is_listed():
    # No producer commit (R33) and a warpgroup split (R41): both reported.
    with pytest.raises(ScheduleError) as err:
        kernel(num_warps=4, commit=False, registers=(40, 232)).build()
    rules = {d.rule for d in err.value.diagnostics}
    assert {"R33", "R41"} <= rules


def test_tma_bytes_not_multiple_of_16_is_X6():
    # Field bug B19, at the factory call.
    with pytest.raises(PipelineConfigError) as err:
        PipelineConfig.create_tma_async_pipeline_cfg(
            num_stages=2, num_bytes=100, producer_group=G(T, 1),
            consumer_group=G(T, 1))
    assert err.value.rule == "X6"
