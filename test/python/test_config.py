"""PipelineConfig: the seven TS factories and the config-time rules.

Each factory must have TS's keyword names and defaults (docs/Protocols.md,
Per-type protocols) and render the right ``#tspipe.config``. Each config rule
R1-R10 and R15 has a passing and a failing call; failures are reported by the
C++ verifier and arrive as PipelineConfigError (ValueError) or, where TS
raises TypeError (R1 non-SignalingThreads value, R4 non-int stride), as a
TypeError. Both carry the rule id.
"""

import dataclasses
import inspect

import numpy as np
import pytest

from tspipe.ts import (
    Agent,
    ConfigTypeError,
    CooperativeGroup,
    PipelineConfig,
    PipelineConfigError,
    PipelineOp,
    PipelineType,
    SignalingThreads,
)

G = CooperativeGroup
T = Agent.Thread
All = SignalingThreads.All
CtaLeader = SignalingThreads.CtaLeader
TaskWarpLeader = SignalingThreads.TaskWarpLeader
AsyncThread = PipelineOp.AsyncThread
AsyncLoad = PipelineOp.AsyncLoad
P = PipelineConfig


def expect_config_error(rule, call, *args, **kwargs):
    with pytest.raises(PipelineConfigError) as info:
        call(*args, **kwargs)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.rule == rule, err.message
    assert f"[{rule}]" in err.message
    return err


def expect_type_error(rule, call, *args, **kwargs):
    with pytest.raises(TypeError) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, ConfigTypeError)
    assert info.value.rule == rule
    return info.value


def tma_async(**overrides):
    kwargs = dict(num_stages=4, num_bytes=16384, producer_group=G(T, 1),
                  consumer_group=G(T, 4))
    kwargs.update(overrides)
    return P.create_tma_async_pipeline_cfg(**kwargs)


def tma_umma(**overrides):
    kwargs = dict(num_stages=8, num_bytes=32768, producer_group=G(T, 1),
                  consumer_group=G(T, 1), cta_layout_vmnk=(1, 1, 1, 1))
    kwargs.update(overrides)
    return P.create_tma_umma_pipeline_cfg(**kwargs)


def async_async(**overrides):
    kwargs = dict(num_stages=4, producer_group=G(T, 128),
                  consumer_group=G(T, 128), cta_layout_vmnk=(1, 1, 1, 1))
    kwargs.update(overrides)
    return P.create_async_async_pipeline_cfg(**kwargs)


# --------------------------------------------------------------------------
# Factory signatures: exactly TS's names, order and defaults.
# --------------------------------------------------------------------------

REQUIRED = inspect.Parameter.empty

SIGNATURES = {
    "create_async_async_pipeline_cfg": [
        ("num_stages", REQUIRED), ("producer_group", REQUIRED),
        ("consumer_group", REQUIRED), ("cta_layout_vmnk", REQUIRED),
        ("producer_signaling_threads", All), ("consumer_signaling_threads", All),
        ("barrier_ptr", None), ("producer_op", AsyncThread),
        ("advance_on_acquire", False), ("interleave_stride", 1)],
    "create_tma_async_pipeline_cfg": [
        ("num_stages", REQUIRED), ("num_bytes", REQUIRED),
        ("producer_group", REQUIRED), ("consumer_group", REQUIRED),
        ("cta_layout_vmnk", None), ("producer_signaling_threads", All),
        ("consumer_signaling_threads", All), ("barrier_ptr", None),
        ("advance_on_wait", False), ("interleave_stride", 1),
        ("num_bytes_per_warp_per_cta", None)],
    "create_tma_umma_pipeline_cfg": [
        ("num_stages", REQUIRED), ("num_bytes", REQUIRED),
        ("producer_group", REQUIRED), ("consumer_group", REQUIRED),
        ("cta_layout_vmnk", REQUIRED), ("producer_signaling_threads", All),
        ("consumer_signaling_threads", All), ("barrier_ptr", None),
        ("advance_on_wait", False), ("interleave_stride", 1),
        ("mcast_mode_mn", (1, 1)), ("num_bytes_per_warp_per_cta", None)],
    "create_umma_async_pipeline_cfg": [
        ("num_stages", REQUIRED), ("producer_group", REQUIRED),
        ("consumer_group", REQUIRED), ("cta_layout_vmnk", REQUIRED),
        ("producer_signaling_threads", All), ("consumer_signaling_threads", All),
        ("barrier_ptr", None), ("interleave_stride", 1)],
    "create_async_umma_pipeline_cfg": [
        ("num_stages", REQUIRED), ("producer_group", REQUIRED),
        ("consumer_group", REQUIRED), ("cta_layout_vmnk", REQUIRED),
        ("producer_signaling_threads", All), ("consumer_signaling_threads", All),
        ("consumer_wait_signaling_threads", None), ("producer_op", AsyncThread),
        ("barrier_ptr", None), ("advance_on_wait", False),
        ("advance_on_acquire", False), ("interleave_stride", 1)],
    "create_umma_umma_pipeline_cfg": [
        ("num_stages", REQUIRED), ("producer_group", REQUIRED),
        ("consumer_group", REQUIRED), ("cta_layout_vmnk", REQUIRED),
        ("producer_signaling_threads", All), ("consumer_signaling_threads", All),
        ("barrier_ptr", None)],
    "create_clc_fetch_async_pipeline_cfg": [
        ("num_stages", REQUIRED), ("num_bytes", REQUIRED),
        ("producer_group", REQUIRED), ("consumer_group", REQUIRED),
        ("cta_layout_vmnk", REQUIRED), ("producer_signaling_threads", CtaLeader),
        ("consumer_signaling_threads", All), ("barrier_ptr", None)],
}


# Keyword-only factory options that TS does not have: the scope of the
# pipeline's remote arrives, on the types whose lowering makes some.
TSPIPE_OPTIONS = {
    name: {"remote_arrive_scope"}
    for name in ("create_tma_async_pipeline_cfg",
                 "create_umma_async_pipeline_cfg",
                 "create_async_umma_pipeline_cfg",
                 "create_clc_fetch_async_pipeline_cfg")}


@pytest.mark.parametrize("factory", sorted(SIGNATURES))
def test_factory_signature_matches_ts(factory):
    params = inspect.signature(getattr(P, factory)).parameters
    got = [(name, p.default) for name, p in params.items()
           if p.kind is not p.KEYWORD_ONLY]
    assert got == SIGNATURES[factory]
    # tspipe's own options come after TS's parameters, keyword-only.
    extra = {name for name, p in params.items() if p.kind is p.KEYWORD_ONLY}
    assert extra == TSPIPE_OPTIONS.get(factory, set())
    import tspipe.ts as ts_mod
    assert getattr(ts_mod, factory) is getattr(P, factory)


def test_pipeline_config_fields_match_ts():
    names = [f.name for f in dataclasses.fields(P) if f.init]
    assert set(names) == {
        "num_stages", "num_bytes", "producer_group", "consumer_group",
        "pipeline_type", "barrier_ptr", "cta_layout_vmnk",
        "producer_signaling_threads", "consumer_signaling_threads",
        "consumer_wait_signaling_threads", "async_producer_op",
        "umma_consumer_producer_op", "advance_on_wait", "advance_on_acquire",
        "num_bytes_per_warp_per_cta", "mcast_mode_mn", "interleave_stride",
        # tspipe's own (not a #tspipe.config field: the pipeline op's).
        "remote_arrive_scope"}
    cfg = tma_async()
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.num_stages = 8


def test_vocabulary():
    assert int(SignalingThreads.All) == 1
    assert int(SignalingThreads.CtaLeader) == 2
    assert int(SignalingThreads.TaskWarpLeader) == 4
    assert len(PipelineType) == 7
    assert {op.name for op in PipelineOp} == {"AsyncThread", "AsyncLoad"}
    assert CooperativeGroup(Agent.Warp).size == 1
    # An agent that is not an Agent is a ValueError, as in TS 4.8.1.
    with pytest.raises(PipelineConfigError):
        CooperativeGroup("thread", 32)


# --------------------------------------------------------------------------
# Every factory builds the right text.
# --------------------------------------------------------------------------

FACTORY_TEXT = [
    (lambda: P.create_async_async_pipeline_cfg(
        num_stages=2, producer_group=G(T, 32), consumer_group=G(T, 64),
        cta_layout_vmnk=None, producer_op=AsyncLoad),
     PipelineType.AsyncAsync,
     "#tspipe.config<async_async, num_stages = 2, producer_group = <thread, 32>, "
     "consumer_group = <thread, 64>, async_producer_op = async_load>"),
    (lambda: P.create_async_async_pipeline_cfg(
        4, G(T, 128), G(T, 128), (1, 1, 1, 1), interleave_stride=(2, 1, 1, 1),
        advance_on_acquire=True),
     PipelineType.AsyncAsync,
     "#tspipe.config<async_async, num_stages = 4, producer_group = <thread, 128>, "
     "consumer_group = <thread, 128>, advance_on_acquire = true, "
     "interleave_stride = [2, 1, 1, 1]>"),
    (lambda: P.create_tma_async_pipeline_cfg(
        num_stages=4, num_bytes=16384, producer_group=G(T, 1),
        consumer_group=G(T, 4), cta_layout_vmnk=(1, 2, 1, 1),
        consumer_signaling_threads=CtaLeader, num_bytes_per_warp_per_cta=4096),
     PipelineType.TmaAsync,
     "#tspipe.config<tma_async, num_stages = 4, num_bytes = 16384, "
     "producer_group = <thread, 1>, consumer_group = <thread, 4>, "
     "cta_layout_vmnk = [1, 2, 1, 1], consumer_signaling = cta_leader, "
     "num_bytes_per_warp_per_cta = 4096>"),
    (lambda: P.create_tma_umma_pipeline_cfg(
        num_stages=8, num_bytes=32768, producer_group=G(T, 1),
        consumer_group=G(T, 1), cta_layout_vmnk=(2, 1, 1, 1),
        producer_signaling_threads=CtaLeader | TaskWarpLeader,
        consumer_signaling_threads=CtaLeader, advance_on_wait=True,
        interleave_stride=(1, 1, 4, 1), mcast_mode_mn=(1, 0)),
     PipelineType.TmaUmma,
     "#tspipe.config<tma_umma, num_stages = 8, num_bytes = 32768, "
     "producer_group = <thread, 1>, consumer_group = <thread, 1>, "
     "cta_layout_vmnk = [2, 1, 1, 1], "
     "producer_signaling = cta_leader|task_warp_leader, "
     "consumer_signaling = cta_leader, advance_on_wait = true, "
     "interleave_stride = [1, 1, 4, 1], mcast_mode_mn = [1, 0]>"),
    (lambda: P.create_umma_async_pipeline_cfg(
        num_stages=2, producer_group=G(T, 1), consumer_group=G(T, 256),
        cta_layout_vmnk=(2, 1, 1, 1), producer_signaling_threads=CtaLeader,
        interleave_stride=(1, 1, 2, 2)),
     PipelineType.UmmaAsync,
     "#tspipe.config<umma_async, num_stages = 2, producer_group = <thread, 1>, "
     "consumer_group = <thread, 256>, cta_layout_vmnk = [2, 1, 1, 1], "
     "producer_signaling = cta_leader, interleave_stride = [1, 1, 2, 2]>"),
    (lambda: P.create_async_umma_pipeline_cfg(
        num_stages=4, producer_group=G(T, 128), consumer_group=G(T, 1),
        cta_layout_vmnk=(1, 1, 1, 1), consumer_wait_signaling_threads=CtaLeader,
        producer_op=AsyncLoad),
     PipelineType.AsyncUmma,
     "#tspipe.config<async_umma, num_stages = 4, producer_group = <thread, 128>, "
     "consumer_group = <thread, 1>, consumer_wait_signaling = cta_leader, "
     "umma_consumer_producer_op = async_load>"),
    (lambda: P.create_umma_umma_pipeline_cfg(
        num_stages=2, producer_group=G(T, 1), consumer_group=G(T, 1),
        cta_layout_vmnk=(1, 1, 1, 1)),
     PipelineType.UmmaUmma,
     "#tspipe.config<umma_umma, num_stages = 2, producer_group = <thread, 1>, "
     "consumer_group = <thread, 1>>"),
    (lambda: P.create_clc_fetch_async_pipeline_cfg(
        num_stages=1, num_bytes=16, producer_group=G(T, 1),
        consumer_group=G(T, 224), cta_layout_vmnk=(1, 2, 1, 1)),
     PipelineType.ClcFetchAsync,
     "#tspipe.config<clc_fetch_async, num_stages = 1, num_bytes = 16, "
     "producer_group = <thread, 1>, consumer_group = <thread, 224>, "
     "cta_layout_vmnk = [1, 2, 1, 1]>"),
]


@pytest.mark.parametrize("make,ptype,text", FACTORY_TEXT,
                         ids=[f"{t[1].name}-{i}" for i, t in enumerate(FACTORY_TEXT)])
def test_factory_text(make, ptype, text, ctx):
    import tspipe.ir as ir

    cfg = make()
    assert cfg.pipeline_type is ptype
    assert str(cfg) == text
    assert cfg.ir_body == text[len("#tspipe.config"):]
    attr = cfg.to_attr(ctx)
    assert attr == ir.Attribute.parse(text)
    assert str(attr) == text


def test_factory_fields():
    cfg = P.create_async_umma_pipeline_cfg(
        4, G(T, 128), G(T, 1), (1, 1, 1, 1), producer_op=AsyncLoad,
        barrier_ptr=object())
    assert cfg.num_bytes == 0
    assert cfg.umma_consumer_producer_op is AsyncLoad
    assert cfg.async_producer_op is AsyncThread
    clc = P.create_clc_fetch_async_pipeline_cfg(2, 16, G(T, 1), G(T, 32), [1, 1, 1, 1])
    assert clc.producer_signaling_threads is CtaLeader
    assert clc.cta_layout_vmnk == (1, 1, 1, 1)  # lists are stored as tuples
    assert tma_async(interleave_stride=2).strides == (2, 2, 2, 2)
    assert tma_async().barrier_bytes == 64


def test_replace_revalidates():
    cfg = tma_async()
    assert dataclasses.replace(cfg, num_stages=8).num_stages == 8
    expect_config_error("R9", dataclasses.replace, cfg, num_stages=0)


def test_error_carries_cxx_message_and_python_location():
    err = expect_config_error("R5", tma_async, num_stages=6, interleave_stride=4)
    assert "must evenly divide num_stages=6" in err.message
    assert __file__.rsplit("/", 1)[-1] in err.location
    assert err.diagnostics and err.diagnostics[0].rule == "R5"
    assert str(err).startswith("[R5]")


# --------------------------------------------------------------------------
# Config rules: one passing and one failing call each.
# --------------------------------------------------------------------------

def test_r1_signaling_threads():
    assert tma_async(producer_signaling_threads=CtaLeader | TaskWarpLeader)
    assert async_async(consumer_signaling_threads=CtaLeader)
    expect_config_error("R1", tma_async, producer_signaling_threads=All | CtaLeader)
    expect_config_error("R1", async_async,
                        consumer_signaling_threads=SignalingThreads(0))
    # A plain int is not a SignalingThreads value: TypeError, like TS.
    expect_type_error("R1", tma_async, consumer_signaling_threads=2)
    expect_type_error("R1", P.create_async_umma_pipeline_cfg, 4, G(T, 128),
                      G(T, 1), (1, 1, 1, 1), consumer_wait_signaling_threads=1)


def test_r2_async_producer_op():
    assert async_async(producer_op=AsyncLoad).async_producer_op is AsyncLoad
    cfg = tma_async()
    expect_config_error("R2", dataclasses.replace, cfg, async_producer_op=AsyncLoad)
    expect_config_error(
        "R2", P, num_stages=2, num_bytes=0, producer_group=G(T, 1),
        consumer_group=G(T, 1), pipeline_type=PipelineType.UmmaAsync,
        cta_layout_vmnk=(1, 1, 1, 1), async_producer_op=AsyncLoad)


def test_r3_umma_consumer_producer_op():
    cfg = P.create_async_umma_pipeline_cfg(
        4, G(T, 128), G(T, 1), (1, 1, 1, 1), producer_op=AsyncLoad)
    assert cfg.umma_consumer_producer_op is AsyncLoad
    umma = P.create_umma_umma_pipeline_cfg(2, G(T, 1), G(T, 1), (1, 1, 1, 1))
    expect_config_error("R3", dataclasses.replace, umma,
                        umma_consumer_producer_op=AsyncLoad)


def test_r4_interleave_stride_shape():
    assert tma_async(num_stages=8, interleave_stride=4)
    assert tma_umma(interleave_stride=(1, 1, 4, 1), advance_on_wait=True)
    expect_config_error("R4", tma_async, interleave_stride=(2, 2))
    expect_config_error("R4", tma_async, interleave_stride=0)
    expect_config_error("R4", tma_umma, interleave_stride=(1, 1, 0, 1))
    expect_type_error("R4", tma_async, interleave_stride=True)
    expect_type_error("R4", tma_async, interleave_stride=(1, 1, 2.0, 1))


def test_r5_stride_divides_num_stages():
    assert tma_async(num_stages=8, interleave_stride=4)
    expect_config_error("R5", tma_async, num_stages=6, interleave_stride=4)
    expect_config_error("R5", tma_umma, num_stages=6,
                        interleave_stride=(1, 1, 4, 4))


def test_r6_asymmetric_producer_strides():
    assert async_async(interleave_stride=(2, 1, 1, 1), advance_on_acquire=True)
    expect_config_error("R6", async_async, interleave_stride=(2, 1, 1, 1))


def test_r7_asymmetric_consumer_strides():
    assert tma_umma(interleave_stride=(1, 1, 4, 1), advance_on_wait=True)
    expect_config_error("R7", tma_umma, interleave_stride=(1, 1, 4, 1))
    expect_config_error("R7", tma_async, num_stages=8,
                        interleave_stride=(1, 1, 4, 1))
    # TS 4.8.1's TmaAsync factory takes advance_on_wait.
    assert tma_async(num_stages=8, interleave_stride=(1, 1, 4, 1),
                     advance_on_wait=True).advance_on_wait


def test_r8_cooperative_group_size():
    assert tma_async(consumer_group=G(T, 128)).consumer_group.size == 128
    # R8 is checked when the group is made, with the C++ verifier's text.
    err = expect_config_error("R8", G, T, 0)
    assert "must be greater than 0, got 0" in err.message
    assert __file__.rsplit("/", 1)[-1] in err.location
    expect_config_error("R8", G, Agent.Warp, -1)
    # A config cannot be given a bad group: the group never exists.
    with pytest.raises(PipelineConfigError):
        tma_async(consumer_group=G(T, 0))


def test_r9_stages_and_bytes():
    assert tma_async(num_stages=2, num_bytes=8192)
    expect_config_error("R9", async_async, num_stages=0)
    expect_config_error("R9", tma_async, num_bytes=-1)


def test_r10_cluster_layout():
    assert tma_umma(cta_layout_vmnk=(2, 1, 1, 1))
    assert tma_async(cta_layout_vmnk=None)  # TmaAsync may omit it
    expect_config_error("R10", tma_umma, cta_layout_vmnk=(2, 1, 1))
    expect_config_error("R10", tma_umma, cta_layout_vmnk=None)
    expect_config_error("R10", P.create_clc_fetch_async_pipeline_cfg,
                        2, 16, G(T, 1), G(T, 32), None)
    expect_type_error("R10", tma_umma, cta_layout_vmnk=(2, 1, 1, 1.0))


def test_r15_mcast_mode():
    assert tma_umma(mcast_mode_mn=(1, 0)).mcast_mode_mn == (1, 0)
    assert tma_umma(mcast_mode_mn=(0, 1))
    expect_config_error("R15", tma_umma, mcast_mode_mn=(0, 0))
    expect_config_error("R15", tma_umma, mcast_mode_mn=(2, 1))


# --------------------------------------------------------------------------
# Integers: the IR's 64-bit fields, numpy integers, bool.
# --------------------------------------------------------------------------

BIG = 2 ** 70


@pytest.mark.parametrize("rule,field,call,kwargs", [
    ("R9", "num_stages", tma_async, dict(num_stages=BIG)),
    ("R9", "num_stages", tma_async, dict(num_stages=-BIG)),
    ("R9", "num_bytes", tma_async, dict(num_bytes=BIG)),
    ("R9", "num_bytes_per_warp_per_cta", tma_async,
     dict(num_bytes_per_warp_per_cta=BIG)),
    ("R4", "interleave_stride", tma_async, dict(interleave_stride=BIG)),
    ("R4", "interleave_stride", tma_umma, dict(interleave_stride=(1, 1, BIG, 1))),
    ("R10", "cta_layout_vmnk", tma_umma, dict(cta_layout_vmnk=(1, BIG, 1, 1))),
    ("R15", "mcast_mode_mn", tma_umma, dict(mcast_mode_mn=(BIG, 1))),
])
def test_int_fields_out_of_int64_range_name_the_field(rule, field, call, kwargs):
    err = expect_config_error(rule, call, **kwargs)
    assert field in err.message
    assert "64-bit" in err.message
    assert "integer value too large" not in err.message


def test_group_size_out_of_int64_range():
    err = expect_config_error("R8", G, T, 2 ** 63)
    assert "CooperativeGroup size" in err.message
    # Within int64, the mbarrier's largest arrival count (2^20 - 1) bounds
    # a group: 32 x size of a warp group must not wrap past the count rules.
    assert G(T, 2 ** 20 - 1).size == 2 ** 20 - 1
    err = expect_config_error("R8", G, T, 2 ** 63 - 1)
    assert "1048575 arrivals" in err.message
    err = expect_config_error("R8", G, Agent.Warp, 2 ** 59 + 1)
    assert "give at most 32767 warps" in err.message


def test_numpy_integers_are_ints():
    i = np.int64
    group = G(T, np.int32(4))
    assert group == G(T, 4) and type(group.size) is int
    cfg = P.create_tma_async_pipeline_cfg(
        i(4), np.uint32(16384), G(T, i(1)), group, cta_layout_vmnk=None,
        interleave_stride=i(2), num_bytes_per_warp_per_cta=i(4096))
    assert cfg == tma_async(interleave_stride=2, num_bytes_per_warp_per_cta=4096)
    assert str(cfg) == str(tma_async(interleave_stride=2,
                                     num_bytes_per_warp_per_cta=4096))
    for value in (cfg.num_stages, cfg.num_bytes, cfg.interleave_stride,
                  cfg.num_bytes_per_warp_per_cta):
        assert type(value) is int
    umma = tma_umma(num_stages=i(8), cta_layout_vmnk=(i(2), i(1), i(1), i(1)),
                    interleave_stride=(i(1), i(1), i(4), i(1)),
                    advance_on_wait=True, mcast_mode_mn=[i(1), i(0)])
    assert umma.cta_layout_vmnk == (2, 1, 1, 1)
    assert umma.mcast_mode_mn == (1, 0)
    assert all(type(v) is int for v in umma.cta_layout_vmnk + umma.strides)
    assert P.create_async_async_pipeline_cfg(
        np.int16(2), G(T, 32), G(T, 32), np.array([1, 1, 1, 1]).tolist())
    # Rules still apply to numpy values.
    expect_config_error("R9", tma_async, num_stages=np.int64(0))
    expect_config_error("R5", tma_async, num_stages=i(6), interleave_stride=i(4))


def test_bool_is_not_an_int():
    # A bool group size is a ValueError (TS: False is a size of 0).
    expect_config_error("R8", G, T, True)
    expect_config_error("R8", G, T, np.bool_(True))
    expect_type_error("R4", tma_async, interleave_stride=np.bool_(True))
    with pytest.raises(ConfigTypeError):
        tma_async(num_stages=True)
    with pytest.raises(ConfigTypeError):
        tma_async(num_stages=np.bool_(True))
    with pytest.raises(ConfigTypeError):
        tma_async(num_bytes=4096.0)


# --------------------------------------------------------------------------
# Agreement with TS 4.8.1 at the factory call (each case measured with real
# TS: same exception class).
# --------------------------------------------------------------------------

def test_ts_agreement_tma_async_advance_on_wait():
    # Same keyword and position as TS's factory (after barrier_ptr).
    cfg = P.create_tma_async_pipeline_cfg(4, 64, G(T, 1), G(T, 1), None,
                                          SignalingThreads.All,
                                          SignalingThreads.All, None, True)
    assert cfg.advance_on_wait is True


def test_ts_agreement_interleave_stride_shapes():
    # A list is a TypeError in TS, whatever its length.
    expect_type_error("R4", tma_async, interleave_stride=[1, 1, 1, 1])
    expect_type_error("R4", tma_async, interleave_stride=[1, 1])
    # A tuple of another length than 4 is a ValueError in TS.
    expect_config_error("R4", tma_async, interleave_stride=(1, 1, 1))
    expect_config_error("R4", tma_async, interleave_stride=(1,))
    assert tma_async(interleave_stride=(1, 1, 1, 1)).strides == (1, 1, 1, 1)


def test_ts_agreement_cooperative_group_and_producer_op():
    for call in (lambda: CooperativeGroup("Thread", 2),
                 lambda: CooperativeGroup(Agent.Warp, False),
                 lambda: CooperativeGroup(1, 2)):
        with pytest.raises(ValueError) as info:
            call()
        assert info.value.rule == "R8"
    expect_config_error("R2", P.create_async_async_pipeline_cfg, 4, G(T, 1),
                        G(T, 1), None, producer_op=1)
    expect_config_error("R3", P.create_async_umma_pipeline_cfg, 4, G(T, 1),
                        G(T, 1), (1, 1, 1, 1), producer_op=1)
