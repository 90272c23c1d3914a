"""Persistent kernels built twice: with real TS (``cutlass.experimental.
task_scheduling`` 4.8.1, imported with ``tspipe.ts.from_ts``) and with
tspipe's own TS vocabulary (``tspipe.ts``). Run by TS's interpreter
(test_ts_import_work.py): for each case named on the command line it prints
one JSON line ``{"case", "imported", "native", "ptx_lines", "text"}``, the
skeletons being the tspipe ops of each module in nesting order (stage
accessors and work-step ops left out).

The shapes are those of CUTLASS's TS tutorials 3 and 4: a static queue with
``skip_if`` / ``skippable`` (``copy_persistent_skip_tile``), a per-tile
domain from a ``get_domain`` override (``copy_varlen_dynamic_domain``), PDL
points around the tile loop and an auxiliary step before it
(``gemm_cluster_2sm``'s load task), and the CLC-driven queue with its
scheduler task (its CLC variant); ``gemm2sm`` / ``gemm2sm_clc`` are the
whole of tutorial 4's kernel in TS's objects, compared with its port
(examples/python/gemm_cluster_2sm.py).
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import cutlass.pipeline as tpl
from cutlass.experimental.task_scheduling import domain_loop, schedule, work_tile_loop
from cutlass.experimental.task_scheduling.enums import SignalingThreads
from cutlass.experimental.task_scheduling.resources import (
    MemoryResource,
    PdlLaunchBarrier,
    PdlWaitBarrier,
    PipelineConfig,
    TileSchedulerConfig,
    WorkAttr,
    WorkQueue,
    consumer_work,
    producer_work,
)
from cutlass.experimental.task_scheduling.task import Task
from cutlass.experimental.task_scheduling.task_manager import TaskManager

import tspipe.ts as own
from tspipe import ir
from tspipe.dialects import arith
from tspipe.ts import from_ts
from tspipe.ts.resources import MemoryResource as OwnResource
from tspipe.ts.resources import PipelineConfig as OwnConfig
from tspipe.ts.schedule_builder import domain_loop as own_domain_loop
from tspipe.ts.schedule_builder import schedule as own_schedule
from tspipe.ts.task import Task as OwnTask
from tspipe.ts.task_manager import TaskManager as OwnManager

_SKIPPED = ("tspipe.stage_index", "tspipe.current_stage",
            "tspipe.stage_buffer", "tspipe.full_barrier",
            "tspipe.empty_barrier")


def skeleton(module) -> list:
    """The tspipe ops of ``module`` as ``"<indent><op> <symbols>"`` lines."""
    out = []

    def walk(op, depth):
        for region in op.regions:
            for block in region.blocks:
                for child in block.operations:
                    child = child.operation
                    if child.name.startswith("tspipe.") and \
                            child.name not in _SKIPPED:
                        attrs = child.attributes
                        syms = [str(attrs[a]) for a in
                                ("sym_name", "pipeline", "queue",
                                 "clc_pipeline") if a in attrs]
                        out.append("  " * depth + " ".join([child.name] + syms))
                    walk(child, depth + 1)

    walk(module.operation, 0)
    return out


def g(n):
    return tpl.CooperativeGroup(tpl.Agent.Thread, n)


def og(n):
    return own.CooperativeGroup(own.Agent.Thread, n)


def static_cfg(tiles):
    # The scheduler params as TS reads them (PersistentTileSchedulerParams
    # needs an MLIR context to be built on the CPU).
    return TileSchedulerConfig.create_static_persistent_tile_scheduler_params(
        tile_scheduler_params=types.SimpleNamespace(
            problem_shape_ntile_mnl=tiles))


# -- TS resources -------------------------------------------------------------

class Copy(MemoryResource):
    @producer_work
    def copy_tile_row(self, stage_info):
        pass


class SkipQueue(WorkQueue):
    def skip_work_tile_if(self, work_tile):
        return work_tile.tile_idx[0] >= 4


class Packed(MemoryResource):
    @consumer_work
    def load(self, stage_info):
        pass


class Padded(MemoryResource):
    @producer_work
    def store(self, stage_info):
        pass


class DynamicDomainTask(Task):
    def get_domain(self, tile_coord):
        return tile_coord[0] + 1


class Ring(MemoryResource):
    @producer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_load_state(self, stage_info):
        pass


# -- tspipe's resources -------------------------------------------------------

class OwnCopy(OwnResource):
    def copy_tile_row(self, stage_info):
        pass


class OwnPacked(OwnResource):
    def load(self, stage_info):
        pass


class OwnPadded(OwnResource):
    def store(self, stage_info):
        pass


class OwnRing(OwnResource):
    def init_load_state(self, stage_info):
        pass


def _never(*coords):
    return arith.constant(ir.IntegerType.get_signless(1), 0)


def _first_plus_one(kernel, coords):
    return arith.addi(coords[0], arith.constant(ir.IndexType.get(), 1))


def _bookkeeping(q):
    q.try_wait()
    q.wait()
    q.get_and_advance_work_tile()
    q.release()


# -- the cases: (TS manager, tspipe manager, arch) ----------------------------

def case_skip():
    wq = SkipQueue(tile_scheduler_config=static_cfg((6, 1, 1)),
                   name="WorkQueue")
    res = Copy(name="Copy")

    @schedule
    def s(c, q):
        with work_tile_loop(q, skip_if=SkipQueue.skip_work_tile_if) as w:
            with w.skippable(), domain_loop(0, 8, 1):
                c.copy_tile_row()
            _bookkeeping(q)

    ts_tm = TaskManager([Task([wq], [res], 0, 4, schedule=s(res, wq),
                              name="PersistentCopyTask")],
                        {res: [wq]}, verbose=False)
    owq = own.WorkQueue("WorkQueue", grid=(6, 1, 1))
    ores = OwnCopy(name="Copy")

    @own_schedule
    def os_(c, q):
        with own.work_tile_loop(q, skip_if=_never) as w:
            with w.skippable(), own_domain_loop(0, 8, 1):
                c.copy_tile_row()
            _bookkeeping(q)

    own_tm = OwnManager([OwnTask([owq], [ores], 0, 4, schedule=os_(ores, owq),
                                 name="PersistentCopyTask")],
                        {ores: [owq]}, verbose=False, name="skip")
    return ts_tm, own_tm, "sm_90a"


def case_varlen():
    wq = WorkQueue(tile_scheduler_config=static_cfg((8, 1, 1)),
                   name="WorkQueue")
    src, dst = Packed(name="In"), Padded(name="Out")

    @schedule
    def s(a, b, q):
        with work_tile_loop(q):
            with domain_loop(0, DynamicDomainTask.get_domain, 1):
                a.load()
                b.store()
            _bookkeeping(q)

    ts_tm = TaskManager([DynamicDomainTask(
        src_resources=[src, wq], dst_resources=[dst], warp_idx=0,
        num_warps=4, schedule=s(src, dst, wq), name="VarlenCopyTask")],
        {dst: [src, wq]}, verbose=False)
    owq = own.WorkQueue("WorkQueue", grid=(8, 1, 1))
    osrc, odst = OwnPacked(name="In"), OwnPadded(name="Out")

    @own_schedule
    def os_(a, b, q):
        with own.work_tile_loop(q):
            with own_domain_loop(0, _first_plus_one, 1):
                a.load()
                b.store()
            _bookkeeping(q)

    own_tm = OwnManager([OwnTask([osrc, owq], [odst], 0, 4,
                                 schedule=os_(osrc, odst, owq),
                                 name="VarlenCopyTask")],
                        {odst: [osrc, owq]}, verbose=False, name="varlen")
    return ts_tm, own_tm, "sm_90a"


def _pdl_schedules(domain, sched, wq_tiles):
    """The PDL case's two schedules in either vocabulary."""

    @sched
    def load(r, w, launch, q):
        w.wait_griddep()
        r.init_load_state()
        with wq_tiles(q):
            with domain(0, 4, 1):
                r.acquire()
                r.producer_work()
                r.commit()
            _bookkeeping(q)
        launch.launch_griddep()

    @sched
    def use(r, q):
        with wq_tiles(q):
            with domain(0, 4, 1) as d:
                r.wait()
                # A loop guard inside the tile loop's domain loop.
                with d.every(2, start=1):
                    r.consumer_work()
                r.release()
            _bookkeeping(q)

    return load, use


def case_pdl():
    cfg = PipelineConfig.create_async_async_pipeline_cfg(2, g(32), g(32),
                                                         (1, 1, 1, 1))
    ring = Ring(name="ring", pipeline_config=cfg)
    wq = WorkQueue(tile_scheduler_config=static_cfg((5, 3, 1)),
                   name="WorkQueue")
    w, launch = PdlWaitBarrier(name="PdlWait"), PdlLaunchBarrier(
        name="PdlLaunch")
    load, use = _pdl_schedules(domain_loop, schedule, work_tile_loop)
    ts_tm = TaskManager(
        [Task([w, wq], [ring, launch], 0, 1,
              schedule=load(ring, w, launch, wq), name="load"),
         Task([ring, wq], [], 1, 1, schedule=use(ring, wq), name="use")],
        {ring: [w, wq], launch: []}, verbose=False)
    ocfg = OwnConfig.create_async_async_pipeline_cfg(2, og(32), og(32),
                                                     (1, 1, 1, 1))
    oring = OwnRing(name="ring", pipeline_config=ocfg)
    owq = own.WorkQueue("WorkQueue", grid=(5, 3, 1))
    ow, olaunch = own.PdlWaitBarrier(name="PdlWait"), own.PdlLaunchBarrier(
        name="PdlLaunch")
    oload, ouse = _pdl_schedules(own_domain_loop, own_schedule,
                                 own.work_tile_loop)
    own_tm = OwnManager(
        [OwnTask([ow, owq], [oring, olaunch], 0, 1,
                 schedule=oload(oring, ow, olaunch, owq), name="load"),
         OwnTask([oring, owq], [], 1, 1, schedule=ouse(oring, owq),
                 name="use")],
        {oring: [ow, owq], olaunch: []}, verbose=False, name="pdl")
    return ts_tm, own_tm, "sm_90a"


def _clc_schedules(domain, sched, wq_tiles):

    @sched
    def load(r, q):
        with wq_tiles(q):
            with domain(0, 4, 1):
                r.acquire()
                r.producer_work()
                r.commit()
            _bookkeeping(q)

    @sched
    def use(r, q):
        with wq_tiles(q):
            with domain(0, 4, 1):
                r.wait()
                r.consumer_work()
                r.release()
            _bookkeeping(q)

    @sched
    def scheduler(q):
        with wq_tiles(q):
            with domain(0, 0, 1):
                pass
            q.try_acquire()
            q.acquire()
            q.fetch_work_tile()
            q.commit()
            _bookkeeping(q)

    return load, use, scheduler


def case_clc():
    cfg = PipelineConfig.create_async_async_pipeline_cfg(2, g(32), g(32),
                                                         (1, 1, 1, 1))
    ring = Ring(name="ring", pipeline_config=cfg)
    ccfg = PipelineConfig.create_clc_fetch_async_pipeline_cfg(
        num_stages=2, num_bytes=16, producer_group=g(1),
        consumer_group=g(96), cta_layout_vmnk=(1, 1, 1, 1),
        producer_signaling_threads=SignalingThreads.CtaLeader,
        consumer_signaling_threads=SignalingThreads.All)
    tsc = TileSchedulerConfig.create_clc_dynamic_persistent_tile_scheduler_params(
        tile_scheduler_params=types.SimpleNamespace(), response_ptr=None)
    wq = WorkQueue(tile_scheduler_config=tsc, pipeline_config=ccfg,
                   name="WorkQueue")
    load, use, scheduler = _clc_schedules(domain_loop, schedule,
                                          work_tile_loop)
    ts_tm = TaskManager(
        [Task([wq], [ring], 0, 1, schedule=load(ring, wq), name="load"),
         Task([ring, wq], [], 1, 1, schedule=use(ring, wq), name="use"),
         Task([wq], [wq], 2, 1, schedule=scheduler(wq), name="sched")],
        {ring: [wq], wq: [wq]}, verbose=False)
    ocfg = OwnConfig.create_async_async_pipeline_cfg(2, og(32), og(32),
                                                     (1, 1, 1, 1))
    occfg = OwnConfig.create_clc_fetch_async_pipeline_cfg(
        num_stages=2, num_bytes=16, producer_group=og(1),
        consumer_group=og(96), cta_layout_vmnk=(1, 1, 1, 1),
        producer_signaling_threads=own.SignalingThreads.CtaLeader,
        consumer_signaling_threads=own.SignalingThreads.All)
    oring = OwnRing(name="ring", pipeline_config=ocfg)
    owq = own.WorkQueue("WorkQueue", pipeline_config=occfg)
    oload, ouse, osched = _clc_schedules(own_domain_loop, own_schedule,
                                         own.work_tile_loop)
    own_tm = OwnManager(
        [OwnTask([owq], [oring], 0, 1, schedule=oload(oring, owq),
                 name="load"),
         OwnTask([oring, owq], [], 1, 1, schedule=ouse(oring, owq),
                 name="use"),
         OwnTask([owq], [owq], 2, 1, schedule=osched(owq), name="sched")],
        {oring: [owq], owq: [owq]}, verbose=False, name="clc",
        arch="sm_100a")
    return ts_tm, own_tm, "sm_100a"


# -- CUTLASS's TS tutorial 4 (gemm_cluster_2sm) with TS's objects ---------------

class GemmAb(MemoryResource):
    @consumer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_tile_coords(self, stage_info):
        pass

    @consumer_work
    def compute_coords(self, stage_info):
        pass


class GemmSmem(MemoryResource):
    def __init__(self, size, **kwargs):
        super().__init__(**kwargs)
        from cutlass.experimental.task_scheduling.memory import SmemAllocation
        self._alloc = SmemAllocation(f"smem_{kwargs['name']}", size)

    def get_smem_requirements(self):
        return [self._alloc]

    @producer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_load_state(self, stage_info):
        pass

    @consumer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_descriptors(self, stage_info):
        pass

    @producer_work
    def tma_load(self, stage_info):
        pass

    @consumer_work
    def build_desc(self, stage_info):
        pass


class GemmTmem(MemoryResource):
    def __init__(self, columns, **kwargs):
        super().__init__(**kwargs)
        from cutlass.experimental.task_scheduling.memory import TmemAllocation
        self._alloc = TmemAllocation("tmem_acc", columns)

    def get_tmem_requirements(self):
        return [self._alloc]

    @producer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_accumulator_state(self, stage_info):
        pass

    @producer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_work_tile_state(self, stage_info):
        pass

    @consumer_work(work_attrs=WorkAttr.AUXILIARY)
    def init_store_state(self, stage_info):
        pass

    @producer_work
    def mma(self, stage_info):
        pass

    @consumer_work
    def load_subtile(self, stage_info):
        pass


class GemmD(MemoryResource):
    @producer_work
    def store(self, stage_info):
        pass


def _tutorial4(clc: bool):
    """The TS objects of gemm_cluster_2sm (examples/python/gemm_cluster_2sm.py
    gives its constants and schedules in tspipe's vocabulary)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"
                           / "python"))
    import gemm_cluster_2sm as port
    from cutlass.experimental.task_scheduling.memory import SmemAllocator, TmemAllocator

    layout = port.CTA_LAYOUT_VMNK
    warps = 7 + (1 if clc else 0)
    padding = (warps + 3) // 4 * 4 - warps

    def ab(per_cta):
        return PipelineConfig.create_tma_umma_pipeline_cfg(
            num_stages=port.AB_STAGES, num_bytes=per_cta * port.NUM_MMA_CTAS,
            producer_group=g(1), consumer_group=g(port.NUM_PAIRS),
            cta_layout_vmnk=layout,
            consumer_signaling_threads=SignalingThreads.CtaLeader,
            num_bytes_per_warp_per_cta=per_cta)

    gmem_ab = GemmAb(name="GmemAb")
    smem_a = GemmSmem(port.A_BYTES_PER_CTA * port.AB_STAGES, name="SmemA",
                      pipeline_config=ab(port.A_BYTES_PER_CTA))
    smem_b = GemmSmem(port.B_BYTES_PER_CTA * port.AB_STAGES, name="SmemB",
                      pipeline_config=ab(port.B_BYTES_PER_CTA))
    pdl_wait = PdlWaitBarrier(name="PdlWait")
    pdl_launch = PdlLaunchBarrier(name="PdlLaunch")
    tmem_c = GemmTmem(port.TMEM_COLUMNS, name="TmemC",
                      pipeline_config=PipelineConfig.create_umma_async_pipeline_cfg(
                          num_stages=port.ACC_STAGES, producer_group=g(1),
                          consumer_group=g(port.NUM_EPILOGUE_WARPS * 32
                                           * port.NUM_MMA_CTAS),
                          cta_layout_vmnk=layout,
                          producer_signaling_threads=SignalingThreads.CtaLeader))
    gmem_d = GemmD(name="GmemD")
    if clc:
        ccfg = PipelineConfig.create_clc_fetch_async_pipeline_cfg(
            num_stages=port.NUM_SCHEDULER_STAGES, num_bytes=16,
            producer_group=g(1),
            consumer_group=g(32 * port.CLUSTER_SIZE * (warps + padding)),
            cta_layout_vmnk=layout,
            producer_signaling_threads=SignalingThreads.CtaLeader,
            consumer_signaling_threads=SignalingThreads.All)
        tsc = TileSchedulerConfig.\
            create_clc_dynamic_persistent_tile_scheduler_params(
                tile_scheduler_params=types.SimpleNamespace(),
                response_ptr=None)
        wq = WorkQueue(tile_scheduler_config=tsc, pipeline_config=ccfg,
                       name="WorkQueue")
    else:
        wq = WorkQueue(tile_scheduler_config=static_cfg((4, 4, 1)),
                       name="WorkQueue")
    smem = SmemAllocator()
    smem.add_resource(smem_a)
    smem.add_resource(smem_b)
    smem.compute_layout()
    tmem = TmemAllocator()
    tmem.add_resource(tmem_c)
    tmem.compute_layout()

    @schedule
    def load_a(gm, sm, wait, launch, q):
        wait.wait_griddep()
        sm.init_load_state()
        with work_tile_loop(q):
            gm.init_tile_coords()
            with domain_loop(0, port.NUM_K_TILES, 1):
                gm.compute_coords()
                sm.try_acquire()
                sm.acquire()
                sm.tma_load()
                sm.commit()
            _bookkeeping(q)
        launch.launch_griddep()

    @schedule
    def load_b(gm, sm, q):
        sm.init_load_state()
        with work_tile_loop(q):
            gm.init_tile_coords()
            with domain_loop(0, port.NUM_K_TILES, 1):
                gm.compute_coords()
                sm.try_acquire()
                sm.acquire()
                sm.tma_load()
                sm.commit()
            _bookkeeping(q)

    @schedule
    def mma(sa, sb, acc, q):
        sa.init_descriptors()
        sb.init_descriptors()
        acc.init_accumulator_state()
        with work_tile_loop(q):
            acc.init_work_tile_state()
            acc.try_acquire()
            acc.acquire()
            with domain_loop(0, port.NUM_K_TILES, 1):
                sa.try_wait()
                sb.try_wait()
                sa.wait()
                sb.wait()
                sa.build_desc()
                sb.build_desc()
                acc.mma()
                sa.release()
                sb.release()
            acc.commit()
            _bookkeeping(q)

    @schedule
    def store(acc, gd, q):
        acc.init_store_state()
        with work_tile_loop(q):
            with domain_loop(0, port.NUM_K_TILES, 1):
                pass
            acc.try_wait()
            acc.wait()
            for _ in range(port.SUBTILES):
                acc.load_subtile()
                gd.store()
            acc.release()
            _bookkeeping(q)

    @schedule
    def pad(q):
        with work_tile_loop(q):
            with domain_loop(0, port.NUM_K_TILES, 1):
                pass
            _bookkeeping(q)

    @schedule
    def scheduler(q):
        with work_tile_loop(q):
            with domain_loop(0, 0, 1):
                pass
            q.try_acquire()
            q.acquire()
            q.fetch_work_tile()
            q.commit()
            _bookkeeping(q)

    tasks = [
        Task([gmem_ab, pdl_wait, wq], [smem_a, pdl_launch], 4, 1,
             schedule=load_a(gmem_ab, smem_a, pdl_wait, pdl_launch, wq),
             num_registers=40, name="LoadATask"),
        Task([gmem_ab, wq], [smem_b], 5, 1,
             schedule=load_b(gmem_ab, smem_b, wq), num_registers=40,
             name="LoadBTask"),
        Task([smem_a, smem_b, wq], [tmem_c], 6, 1,
             schedule=mma(smem_a, smem_b, tmem_c, wq), num_registers=40,
             name="MmaTask"),
        Task([tmem_c, wq], [gmem_d], 0, port.NUM_EPILOGUE_WARPS,
             schedule=store(tmem_c, gmem_d, wq), num_registers=160,
             name="StoreTask"),
    ]
    if padding:
        tasks.append(Task([wq], [], warps, padding, schedule=pad(wq),
                          num_registers=40, name="PaddingTask"))
    if clc:
        tasks.append(Task([wq], [wq], warps - 1, 1, schedule=scheduler(wq),
                          num_registers=40, name="WorkScheduleTask"))
    graph = {pdl_launch: [], smem_a: [gmem_ab, pdl_wait, wq],
             smem_b: [gmem_ab, wq], tmem_c: [smem_a, smem_b, wq],
             gmem_d: [tmem_c, wq]}
    if clc:
        graph[wq] = [wq]
    # TS's own checks run; its exhaustive interleaving search (a million
    # states here, minutes) is left out.
    ts_tm = TaskManager(tasks, graph, smem_allocator=smem,
                        tmem_allocator=tmem, verbose=False,
                        exhaustive_deadlock_race_check=False)
    return ts_tm, port.build(clc=clc), "sm_100a"


def case_gemm2sm():
    return _tutorial4(False)


def case_gemm2sm_clc():
    return _tutorial4(True)


def errors():
    """What ``from_ts`` does not model, each a NotImplementedError: two
    work queues, a domain start that is not an int."""
    out = {}
    q1 = WorkQueue(tile_scheduler_config=static_cfg((2, 1, 1)), name="Q1")
    q2 = WorkQueue(tile_scheduler_config=static_cfg((2, 1, 1)), name="Q2")
    res = Copy(name="Copy")

    @schedule
    def s(c, q):
        with work_tile_loop(q):
            with domain_loop(0, 2, 1):
                c.copy_tile_row()
            _bookkeeping(q)

    # TS's TaskManager refuses two queues itself: its tasks, as a manager.
    tm = types.SimpleNamespace(
        tasks=[Task([q1], [res], 0, 1, schedule=s(res, q1), name="a"),
               Task([q2], [res], 1, 1, schedule=s(res, q2), name="b")],
        resource_dependency_graph={res: [q1, q2]})
    try:
        from_ts(tm, dependency_graph=False)
    except NotImplementedError as err:
        out["two_queues"] = str(err)

    class Runtime:
        """A start TS holds as a traced value."""

    @schedule
    def t(c, q):
        with work_tile_loop(q):
            with domain_loop(Runtime(), 2, 1):
                c.copy_tile_row()
            _bookkeeping(q)

    tm = TaskManager([Task([q1], [res], 0, 1, schedule=t(res, q1), name="a")],
                     {res: [q1]}, verbose=False, skip_validation=True)
    try:
        from_ts(tm)
    except NotImplementedError as err:
        out["dynamic_start"] = str(err)
    out["case"] = "errors"
    return out


def overrides():
    """``from_ts`` given the tspipe forms of TS's runtime code: the skip
    predicate, the per-tile domain end and the static grid."""
    ts_tm, _, arch = case_skip()

    def below_four(m, n, l):
        return arith.cmpi(arith.CmpIPredicate.uge, m,
                          arith.constant(ir.IndexType.get(), 4))

    skip = from_ts(ts_tm, arch=arch, name="skip_given", skip_if=below_four,
                   grid=(9, 1, 1))
    ts_tm, _, arch = case_varlen()
    varlen = from_ts(ts_tm, arch=arch, name="varlen_given",
                     domain_end={"VarlenCopyTask": _first_plus_one})
    return {"case": "overrides", "skip": str(skip.module),
            "varlen": str(varlen.module),
            "ptx_lines": len(skip.to_ptx(arch).splitlines())
            + len(varlen.to_ptx(arch).splitlines())}


def _tile_shape(form) -> list:
    """Per task of crosscheck's normal form: the tile loop, the domain
    bounds and the head / tail steps (work steps left out: the importer's
    placeholders stand where the direct build has none)."""
    def steps(entries):
        return [e[1] for e in entries if not e[1].endswith("_work")]
    return [[t["name"], t.get("tile_loop"), (t["loop"] or {}).get("bounds"),
             steps(t["head"]), steps(t["tail"])] for t in form["tasks"]]


def main(names) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]
                           / "crosscheck"))
    from import_check import normal_form

    for name in names:
        if name in ("overrides", "errors"):
            print(json.dumps(globals()[name]()))
            continue
        ts_tm, own_tm, arch = globals()[f"case_{name}"]()
        kernel = from_ts(ts_tm, arch=arch, name=name)
        ptx = kernel.to_ptx(arch)
        print(json.dumps({
            "case": name, "imported": skeleton(kernel.module),
            "native": skeleton(own_tm.module),
            "shape_imported": _tile_shape(normal_form(kernel.module)),
            "shape_native": _tile_shape(normal_form(own_tm.module)),
            "ptx_lines": len(ptx.splitlines()),
            "text": str(kernel.module)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
