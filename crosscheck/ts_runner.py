"""The TS side of the crosscheck: run by the TS venv's interpreter.

Reads cases (JSON, one per line, see cases.py) on stdin and writes one JSON
verdict per line on stdout::

  {"id": ..., "verdict": "accept" | "reject" | "timeout" | "crash",
   "stage": "decode" | "factory" | "schedule" | "manager",
   "etype": "ValueError", "message": "...", "where": ["_verify_..", ...]}

``where`` lists the names of TS's own functions on the traceback, innermost
last, so the driver can tell which TS check rejected the case.

A config case is judged by TS's factory; a kernel case by the factories, the
schedule builder, ``Task`` and ``TaskManager`` validation (every check, the
credit simulator and the exhaustive interleaving checker). Nothing is traced.

``--ptx DIR`` mode instead compiles each kernel case to PTX on the CPU
(``CUTE_DSL_KEEP=ptx``) and writes ``{"id", "ptx": path}``; see
ptx_compare.py. Requires nvidia-cutlass-dsl==4.8.1 (requirements-ts.txt).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
import signal
import sys
import traceback

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)

import cases as C  # noqa: E402

_TS = None


def _ts():
    """TS's modules, imported once (about 1 s)."""
    global _TS
    if _TS is None:
        from dataclasses import dataclass

        import cutlass.pipeline as pl
        from cutlass.experimental.task_scheduling import (domain_loop,
                                                          schedule, when_false,
                                                          when_true,
                                                          work_tile_loop)
        from cutlass.experimental.task_scheduling.enums import \
            TileSchedulerType
        from cutlass.experimental.task_scheduling.enums import SignalingThreads
        from cutlass.experimental.task_scheduling.memory import (
            SmemAllocation, SmemAllocator)
        from cutlass.experimental.task_scheduling.resources import (
            MemoryResource, PdlLaunchBarrier, PdlWaitBarrier, PipelineConfig,
            TileSchedulerConfig, WorkQueue)
        from cutlass.experimental.task_scheduling.task import Task
        from cutlass.experimental.task_scheduling.task_manager import \
            TaskManager

        @dataclass(eq=False)
        class Buffer(MemoryResource):
            """A pipelined shared-memory ring of ``smem_bytes`` data bytes (a
            class attribute: a dataclass field would change the resource's
            traced structure)."""

            smem_bytes = 0

            def get_smem_requirements(self):
                if not self.smem_bytes:
                    return []
                if not hasattr(self, "_data"):
                    self._data = SmemAllocation(f"{self.name}_data",
                                                self.smem_bytes, 16)
                return [self._data]


        class NS:
            pass

        ns = NS()
        ns.pl, ns.SignalingThreads = pl, SignalingThreads
        ns.PipelineConfig, ns.Buffer = PipelineConfig, Buffer
        ns.SmemAllocator, ns.Task, ns.TaskManager = SmemAllocator, Task, TaskManager
        ns.schedule, ns.domain_loop = schedule, domain_loop
        ns.work_tile_loop, ns.when_true, ns.when_false = \
            work_tile_loop, when_true, when_false
        ns.WorkQueue, ns.TileSchedulerConfig = WorkQueue, TileSchedulerConfig
        ns.TileSchedulerType = TileSchedulerType
        ns.PdlWaitBarrier, ns.PdlLaunchBarrier = PdlWaitBarrier, PdlLaunchBarrier
        _TS = ns
    return _TS


def decode(value):
    """A JSON-encoded value (cases.py) as TS's Python value."""
    ts = _ts()
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict) and "$" in value:
        tag = value["$"]
        if tag == "tuple":
            return tuple(decode(v) for v in value["v"])
        if tag == "raw":
            return value["v"]
        if tag == "sig":
            return ts.SignalingThreads(value["v"])
        if tag == "op":
            return getattr(ts.pl.PipelineOp, value["v"])
        if tag == "group":
            agent = value["agent"]
            agent = (agent["v"] if isinstance(agent, dict)
                     else getattr(ts.pl.Agent, agent))
            return ts.pl.CooperativeGroup(agent, decode(value["size"]))
        raise ValueError(f"unknown tag {tag}")
    return value


def make_config(factory, kwargs):
    ts = _ts()
    fn = getattr(ts.PipelineConfig, f"create_{factory}_pipeline_cfg")
    return fn(**{k: decode(v) for k, v in kwargs.items()})


def _ts_frames(tb):
    names = []
    for frame in traceback.extract_tb(tb):
        if (os.sep + "cutlass" + os.sep) in frame.filename:
            names.append(frame.name)
    return names


def _rejection(stage, err):
    return {"verdict": "reject", "stage": stage, "etype": type(err).__name__,
            "message": str(err)[:600], "where": _ts_frames(err.__traceback__)}


def _build_kernel(desc, validate=True, exhaustive=True):
    """Builds (and, with ``validate``, validates) the TaskManager of a kernel
    case. Returns ``(stage, TaskManager)``; raises with ``stage`` set.
    TS runs its checks even without ``validate`` (as warnings);
    ``exhaustive=False`` leaves out the exhaustive interleaving search, which
    takes minutes on some kernels."""
    ts = _ts()
    resources = {}
    stage = "factory"
    try:
        base = (_marked_class(desc)
                if any(s.get("op") == "marker" for t in desc["tasks"]
                       for s in _all_steps(t)) else ts.Buffer)
        for pipe in desc["pipelines"]:
            cfg = make_config(pipe["factory"], pipe["kwargs"])
            cls = base
            if pipe.get("smem_bytes"):
                cls = dataclass(eq=False)(type("SizedBuffer", (cls,), {
                    "smem_bytes": pipe["smem_bytes"]}))
            resources[pipe["name"]] = cls(name=pipe["name"],
                                          pipeline_config=cfg)
        graph_edges = _add_work_resources(desc, resources)
        stage = "schedule"
        tasks = []
        for t in desc["tasks"]:
            extra = _work_resources_of(t)
            used = list(dict.fromkeys(
                t["produces"] + t["consumes"] +
                [s["pipe"] for s in _all_steps(t) if "pipe" in s] +
                extra["src"] + extra["dst"]))
            task_cls = _task_class(t)
            sched = _make_schedule(t, used, task_cls)
            src = [resources[n] for n in t["consumes"] + extra["src"]]
            dst = [resources[n] for n in t["produces"] + extra["dst"]]
            kwargs = {}
            if t.get("registers") is not None:
                kwargs["num_registers"] = t["registers"]
            if t.get("cta") is not None:
                kwargs["run_only_on_cta_id"] = t["cta"]
            tasks.append(task_cls(src, dst, t["warp_idx"], t["num_warps"],
                                  schedule=sched(*[resources[n] for n in used]),
                                  name=t["name"], **kwargs))
        stage = "manager"
        smem = ts.SmemAllocator()
        for r in resources.values():
            smem.add_resource(r)
        smem.compute_layout()
        graph = {r: [resources[d] for d in graph_edges.get(n, [])]
                 for n, r in resources.items()}
        manager = ts.TaskManager(tasks, graph,
                                 verbose=False, skip_validation=not validate,
                                 smem_allocator=smem,
                                 exhaustive_deadlock_race_check=exhaustive)
        return stage, manager
    except Exception as err:  # noqa: BLE001 - every TS rejection is a verdict
        err.crosscheck_stage = stage
        raise


def _all_steps(task):
    out = []

    def walk(steps):
        for s in steps:
            if "guard" in s:
                walk(s["body"])
            else:
                out.append(s)
    walk(task["head"])
    walk(task["loop"]["body"])
    walk(task["tail"])
    return out


# Work-model steps (work_cases.py): (resource name, method).
_WORK_STEPS = {"pdl_wait": ("pdl_wait", "wait_griddep"),
               "pdl_launch": ("pdl_launch", "launch_griddep"),
               "wq_acquire": ("wq", "acquire"),
               "wq_fetch": ("wq", "fetch_work_tile"),
               "wq_commit": ("wq", "commit"),
               "wq_wait": ("wq", "wait"),
               "wq_advance": ("wq", "get_and_advance_work_tile"),
               "wq_release": ("wq", "release")}


def _add_work_resources(desc, resources):
    """The kernel's WorkQueue and PDL barriers (work_cases.py) added to
    ``resources``; returns the dependency-graph edges {name: [upstream]}."""
    ts = _ts()
    wq = desc.get("wq")
    if wq and wq["kind"] == "static":
        # TS's validation never reads the scheduler's parameters; the grid
        # is kept for an importer that does.
        from types import SimpleNamespace
        m, n = wq["grid"]
        params = SimpleNamespace(problem_shape_ntile_mnl=(m, n, 1),
                                 cluster_shape_mn=(1, 1))
        resources["wq"] = ts.WorkQueue(
            ts.TileSchedulerConfig(ts.TileSchedulerType.StaticPersistent,
                                   params), name="wq")
    elif wq:
        g = ts.pl.CooperativeGroup
        layout = (desc["cluster"][0], 1, 1, 1)
        cfg = ts.PipelineConfig.create_clc_fetch_async_pipeline_cfg(
            num_stages=wq["stages"], num_bytes=16,
            producer_group=g(ts.pl.Agent.Thread, 1),
            consumer_group=g(ts.pl.Agent.Thread, wq["consumers"]),
            cta_layout_vmnk=layout)
        resources["wq"] = ts.WorkQueue(
            ts.TileSchedulerConfig(ts.TileSchedulerType.ClcDynamicPersistent,
                                   None), name="wq", pipeline_config=cfg)
    steps = [s.get("op") for t in desc["tasks"] for s in _work_steps(t)]
    edges = {}
    if desc.get("pdl") is not None or "pdl_wait" in steps:
        resources["pdl_wait"] = ts.PdlWaitBarrier(name="pdl_wait")
        for dep in (desc.get("pdl") or {}).get("deps", []):
            edges[dep] = ["pdl_wait"]
    if "pdl_launch" in steps:
        resources["pdl_launch"] = ts.PdlLaunchBarrier(name="pdl_launch")
    return edges


def _work_steps(task):
    return (task.get("pre", []) + _all_steps(task) + task.get("post", []) +
            [{"op": w} for w in (task.get("tile") or {}).get("tail", [])])


def _work_resources_of(task):
    """The work-model resources a task reads (src) and fills (dst)."""
    ops = {s.get("op") for s in _work_steps(task)}
    src, dst = [], []
    if task.get("tile") or ops & {"wq_wait", "wq_advance", "wq_release"}:
        src.append("wq")
    if ops & {"wq_acquire", "wq_fetch", "wq_commit"}:
        dst.append("wq")
    if "pdl_wait" in ops:
        src.append("pdl_wait")
    if "pdl_launch" in ops:
        dst.append("pdl_launch")
    return {"src": src, "dst": dst}


def _task_class(task):
    """``Task``, or a subclass whose ``get_domain`` is the task's per-tile
    domain end ``a * m + b`` (work_cases.py)."""
    ts = _ts()
    end = task["loop"]["end"]
    if not isinstance(end, dict):
        return ts.Task
    a, b = end["dyn"]

    def get_domain(self, tile_coord):
        return a * tile_coord[0] + b
    return type("DynTask", (ts.Task,), {"get_domain": get_domain})


def _skip_never(work_queue, work_tile):
    return False


def _make_schedule(task, used, task_cls=None):
    ts = _ts()
    loop = task["loop"]
    tile = task.get("tile")
    end = loop["end"]
    if isinstance(end, dict):
        end = task_cls.get_domain

    def emit(proxies, steps, handle=None):
        for s in steps:
            if "guard" in s:
                kind = s["guard"]
                if kind == "first_iter":
                    guard = handle.first_iter()
                elif kind == "last_iter":
                    guard = handle.last_iter()
                elif kind == "every":
                    guard = handle.every(s["period"], start=s["start"])
                else:
                    guard = getattr(ts, kind)(None, key=("xc", s["key"]))
                with guard:
                    emit(proxies, s["body"], handle)
                continue
            if s["op"] == "marker":
                getattr(proxies[s["pipe"]], f"xm{s['id']}")()
                continue
            if s["op"] in _WORK_STEPS:
                name, method = _WORK_STEPS[s["op"]]
                getattr(proxies[name], method)()
                continue
            getattr(proxies[s["pipe"]], s["op"])()

    def inner(proxies):
        emit(proxies, task["head"])
        with ts.domain_loop(loop["start"], end, loop["step"]) as d:
            emit(proxies, loop["body"], d)
        emit(proxies, task["tail"])

    def body(*rs):
        proxies = dict(zip(used, rs))
        emit(proxies, task.get("pre", []))
        if tile:
            skip = _skip_never if tile.get("skip") else None
            with ts.work_tile_loop(proxies["wq"], skip_if=skip) as wtl:
                if tile.get("skippable"):
                    with wtl.skippable():
                        inner(proxies)
                else:
                    inner(proxies)
                emit(proxies, [{"op": w} for w in tile["tail"]])
        else:
            inner(proxies)
        emit(proxies, task.get("post", []))

    body.__name__ = f"schedule_{task['name']}"
    return ts.schedule(body)


def judge(case):
    """The verdict of one case (a dict, see the module docstring)."""
    if case["kind"] == "config":
        try:
            make_config(case["factory"], case["kwargs"])
        except Exception as err:  # noqa: BLE001
            return _rejection("factory", err)
        return {"verdict": "accept", "stage": "factory"}
    try:
        _build_kernel(case)
    except Exception as err:  # noqa: BLE001
        return _rejection(getattr(err, "crosscheck_stage", "manager"), err)
    return {"verdict": "accept", "stage": "manager"}


class _Timeout(BaseException):
    """Raised by SIGPROF when TS runs past the per-case CPU-time limit. Not an
    ``Exception``: TS's checks and ``judge``'s verdict handler must not
    catch it as a rejection (TS's exhaustive checker can run that long)."""


def _alarm(signum, frame):
    raise _Timeout()


def _marked_class(desc):
    """A Buffer subclass with one auxiliary work method per marker step of
    ``desc`` (``xm<id>``), each emitting the PTX comment ``// XMARK <id>``."""
    from dataclasses import dataclass

    from cutlass.experimental.task_scheduling import (WorkAttr,
                                                      consumer_work,
                                                      producer_work)
    ts = _ts()
    methods = {}
    for t in desc["tasks"]:
        for s in _all_steps(t):
            if s.get("op") != "marker":
                continue
            mark = s["id"]
            deco = producer_work if s.get("side") == "producer" else consumer_work

            method = _marker_method(mark)
            method.__name__ = method.__qualname__ = f"xm{mark}"
            methods[f"xm{mark}"] = deco(work_attrs=WorkAttr.AUXILIARY)(method)
    return dataclass(eq=False)(type("MarkedBuffer", (ts.Buffer,), methods))


def _marker_method(mark):
    def method(self, stage_info):
        _emit_marker_text(mark)
    return method


def _emit_marker_text(mark):
    from cutlass._mlir.dialects import llvm
    llvm.inline_asm(None, [], f"// XMARK {mark}", "", has_side_effects=True)


def compile_ptx(case, out_dir, arch):
    """Traces the kernel case and compiles it to PTX text (``CUTE_DSL_KEEP``
    must be ``ptx`` and ``CUTE_DSL_DUMP_DIR`` set before TS is imported).

    Steps ``{"op": "marker", "pipe": P, "side": S, "id": n}`` become
    ``// XMARK n`` comments."""
    import cutlass.cute as cute

    ts_warps = case["num_warps"]
    cluster = list(case.get("cluster", [1, 1, 1]))

    @cute.kernel
    def kernel():
        _, manager = _build_kernel(case, validate=False)
        manager.setup_resources_and_tasks()
        manager.run()

    @cute.jit
    def host():
        kernel().launch(grid=cluster, block=[32 * ts_warps, 1, 1],
                        cluster=cluster)

    compiled = cute.compile(host)
    ptx = compiled.artifacts.PTX
    if ptx and "\n" not in ptx and os.path.exists(ptx):
        with open(ptx) as f:
            return f.read()
    return ptx


def main(argv):
    ptx_dir = None
    if len(argv) > 1 and argv[1] == "--ptx":
        ptx_dir = argv[2]
    # The limit is CPU seconds of this process (ITIMER_PROF), not wall time:
    # a loaded machine must not turn a slow verdict into a timeout.
    signal.signal(signal.SIGPROF, _alarm)
    limit = float(os.environ.get("CROSSCHECK_CASE_TIMEOUT", "30"))
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        result = {"id": case.get("id")}
        signal.setitimer(signal.ITIMER_PROF, limit)
        try:
            if ptx_dir:
                result["ptx"] = compile_ptx(case, ptx_dir, case.get("arch"))
                result["verdict"] = "compiled"
            else:
                result.update(judge(case))
        except _Timeout:
            result.update({"verdict": "timeout"})
        except Exception as err:  # noqa: BLE001 - a runner failure is data too
            result.update({"verdict": "crash", "etype": type(err).__name__,
                           "message": str(err)[:600],
                           "where": _ts_frames(err.__traceback__)})
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
