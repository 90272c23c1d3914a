"""Persistent kernels from Python: the builder's work queue and tile loop,
and TS's WorkQueue / work_tile_loop / skippable through TaskManager
(tspipe.ts.work_queue; rules R19-R22, R35; docs/python.md)."""

from dataclasses import dataclass

import pytest

import tspipe.ts as pl
from tspipe.dialects import arith
from tspipe.ts import Kernel, ScheduleError
from tspipe.ts.resources import MemoryResource, PipelineConfig
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

G = pl.CooperativeGroup
T = pl.Agent.Thread


def ring_cfg():
    return PipelineConfig.create_async_async_pipeline_cfg(2, G(T, 32),
                                                          G(T, 32), None)


def test_builder_static_queue_lowers():
    k = Kernel(2, name="persist")
    k.pipeline("ring", ring_cfg())
    k.work_queue("tiles", grid=[7, 3])
    for name, warp, side in (("load", 0, "p"), ("use", 1, "c")):
        t = k.task(name, warp, 1, **({"produces": ["ring"]} if side == "p"
                                     else {"consumes": ["ring"]}))
        with t.work_tile_loop("tiles") as (m, n):
            with t.domain_loop(0, 4, 1):
                if side == "p":
                    t.acquire("ring")
                    t.commit("ring")
                else:
                    t.wait("ring")
                    t.release("ring")
            t.advance_work_tile("tiles")
    text = str(k.build())
    assert "tspipe.work_queue @tiles grid(" in text
    assert text.count("tspipe.work_tile_loop @tiles") == 2
    ptx = k.to_ptx()
    # The tile stride: the CTAs launched.
    assert "%nctaid.x" in ptx


def test_builder_skip_if_builds_predicate():
    k = Kernel(1, name="skipper")
    k.pipeline("ring", ring_cfg())
    k.work_queue("tiles", grid=[8])
    t = k.task("t", 0, 1, produces=["ring"], consumes=["ring"])

    def odd(m):
        one = arith.constant(m.type, 1)
        return arith.cmpi(arith.CmpIPredicate.eq,
                          arith.remui(m, arith.constant(m.type, 2)), one)

    with t.work_tile_loop("tiles", skip_if=odd) as (m,):
        with t.skippable():
            with t.domain_loop(0, 4, 1):
                t.acquire("ring")
                t.commit("ring")
                t.wait("ring")
                t.release("ring")
        t.advance_work_tile("tiles")
    text = str(k.build())
    assert "skip_if" in text and "tspipe.skip_tile" in text
    assert "tspipe.skippable" in text
    k.to_ptx()


def test_builder_unknown_queue_is_R19():
    k = Kernel(1, name="noqueue")
    k.pipeline("ring", ring_cfg())
    t = k.task("t", 0, 1, produces=["ring"], consumes=["ring"])
    with pytest.raises(ScheduleError) as info:
        with t.work_tile_loop("tiles"):
            pass
    assert info.value.rule == "R19"


def test_builder_mixed_tasks_is_R35():
    k = Kernel(2, name="mixed")
    k.pipeline("ring", ring_cfg())
    k.work_queue("tiles", grid=[4])
    p = k.task("load", 0, 1, produces=["ring"])
    with p.work_tile_loop("tiles"):
        with p.domain_loop(0, 4, 1):
            p.acquire("ring")
            p.commit("ring")
        p.advance_work_tile("tiles")
    c = k.task("use", 1, 1, consumes=["ring"])
    with c.domain_loop(0, 4, 1):
        c.wait("ring")
        c.release("ring")
    with pytest.raises(ScheduleError) as info:
        k.build()
    assert "[R35]" in str(info.value)


@dataclass
class Ring(MemoryResource):
    pass


def ts_kernel(skip_consumer=False, consumer_skip=True):
    ring = Ring(name="ring", pipeline_config=ring_cfg())
    wq = pl.WorkQueue("tiles", grid=(6, 2))

    def skip_odd(m, n):
        one = arith.constant(m.type, 1)
        return arith.cmpi(arith.CmpIPredicate.eq,
                          arith.andi(m, one), one)

    @schedule
    def produce(r, q):
        with pl.work_tile_loop(q, skip_if=skip_odd) as wtl:
            with wtl.skippable():
                with domain_loop(0, 3, 1):
                    r.acquire(); r.producer_work(); r.commit()  # noqa: E702
            q.wait(); q.get_and_advance_work_tile(); q.release()  # noqa: E702

    @schedule
    def consume(r, q):
        with pl.work_tile_loop(q, skip_if=skip_odd if consumer_skip
                               else None) as wtl:
            if consumer_skip:
                with wtl.skippable():
                    with domain_loop(0, 3, 1):
                        r.wait(); r.consumer_work(); r.release()  # noqa: E702
            else:
                with domain_loop(0, 3, 1):
                    r.wait(); r.consumer_work(); r.release()  # noqa: E702
            q.wait(); q.get_and_advance_work_tile(); q.release()  # noqa: E702

    return TaskManager(
        [Task([wq], [ring], 0, 1, schedule=produce(ring, wq), name="p"),
         Task([ring, wq], [], 1, 1, schedule=consume(ring, wq), name="c")],
        {ring: []}, verbose=False)


def test_ts_static_work_queue_port():
    tm = ts_kernel()
    text = str(tm.module)
    assert "tspipe.work_queue @tiles grid(" in text
    assert text.count("tspipe.advance_work_tile @tiles") == 2
    assert "tspipe.skippable" in text
    assert "%nctaid.x" in tm.to_ptx()


def test_ts_skip_mismatch_is_a_hang():
    # The producer skips odd tiles, the consumer runs every tile: the
    # consumer waits for a stage no producer fills (R70).
    with pytest.raises(ScheduleError) as info:
        ts_kernel(consumer_skip=False)
    assert info.value.rule in ("R70", "R71"), str(info.value)


def test_ts_skip_if_not_callable_is_R21():
    wq = pl.WorkQueue("tiles", grid=(4,))

    @schedule
    def sched(q):
        with pl.work_tile_loop(q, skip_if=3):
            pass

    with pytest.raises(ScheduleError) as info:
        sched(wq)
    assert info.value.rule == "R21"


def test_work_queue_needs_grid_or_clc():
    with pytest.raises(TypeError):
        pl.WorkQueue("tiles")
