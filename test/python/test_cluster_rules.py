"""Cluster uniformity (X29) and CTA-pair routing (X5) from Python.

A domain end computed from the CTA's cluster rank on a multicast pipeline
(DeepGEMM PR 429) is a ScheduleError naming X29 in Python as in tspipe-opt;
`tspipe.dialects.tspipe.leader_full_barrier` builds the pair leader's full
barrier (`tspipe.full_barrier %s {pair_leader}`, triton PRs 9460, 9510).
"""

import pytest

from tspipe import ir
from tspipe.compile import lower_to_ptx
from tspipe.diagnostics import ScheduleError
from tspipe.dialects import tspipe as ts_ops

KERNEL = """
gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {{
  gpu.func @k(%n: index) kernel {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %end = arith.addi %n, {extra} : index
    tspipe.kernel warps(2) cluster([2, 1, 1]) {{
      tspipe.pipeline @stages config(<tma_async, num_stages = 2, num_bytes = 8192,
          producer_group = <thread, 1>, consumer_group = <thread, 2>,
          cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]>)
          smem_bytes(16384)
      tspipe.task @load warps(0, 1) produces [@stages] {{
        tspipe.domain_loop %i = %c0 to %end step %c1 {{
          %s = tspipe.producer_acquire @stages
          tspipe.producer_commit @stages
        }}
      }}
      tspipe.task @compute warps(1, 1) consumes [@stages] {{
        tspipe.domain_loop %i = %c0 to %end step %c1 {{
          %s = tspipe.consumer_wait @stages
          tspipe.consumer_release @stages
        }}
      }}
    }}
    gpu.return
  }}
}}
"""


def test_rank_dependent_trip_count_is_x29():
    with pytest.raises(ScheduleError) as info:
        lower_to_ptx(KERNEL.format(extra="%rank"))
    assert info.value.rule == "X29"
    assert "DeepGEMM PRs 415, 429" in str(info.value)


def test_uniform_trip_count_compiles():
    assert ".reqnctapercluster 2, 1, 1" in lower_to_ptx(
        KERNEL.format(extra="%c0"))


def test_leader_full_barrier_builder():
    text = KERNEL.format(extra="%c0").replace(
        "tma_async, num_stages = 2, num_bytes = 8192",
        "tma_umma, num_stages = 2, num_bytes = 8192").replace(
        "cta_layout_vmnk = [1, 1, 2, 1], mcast_mode_mn = [1, 0]",
        "cta_layout_vmnk = [2, 1, 1, 1], consumer_signaling = cta_leader, "
        "num_bytes_per_warp_per_cta = 4096").replace(
        "consumer_group = <thread, 2>", "consumer_group = <thread, 1>").replace(
        'chip = "sm_90a", features = "+ptx80"', 'chip = "sm_100a"')
    with ir.Context() as ctx, ir.Location.unknown():
        ts_ops.register_dialect(ctx)
        module = ir.Module.parse(text)
        acquires = []

        def find(op):
            if op.name == "tspipe.producer_acquire":
                acquires.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(find)
        (acquire,) = acquires
        with ir.InsertionPoint.after(acquire):
            ts_ops.leader_full_barrier(acquire.result)
        assert "{pair_leader} : !llvm.ptr<3>" in str(module)
        module.operation.verify()
