"""The tspipe side of the crosscheck: builds the cases of cases.py through
tspipe's public Python API (``tspipe.ts`` factories and the ``Kernel``
builder) and reports verdicts in the TS runner's format.

This is the only file that knows tspipe's front end; when the front end
changes, this adapter is what follows it. Run in tspipe's venv (it imports
the installed ``tspipe`` package); also usable as a script with the same
stdin/stdout protocol as ts_runner.py.
"""

from __future__ import annotations

import json
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import cases as C  # noqa: E402
import work_cases as W  # noqa: E402

ARCH = "sm_100a"


def _ts():
    from tspipe import ts
    return ts


def decode(value):
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
            return getattr(ts.PipelineOp, value["v"])
        if tag == "group":
            agent = value["agent"]
            agent = (agent["v"] if isinstance(agent, dict)
                     else getattr(ts.Agent, agent))
            return ts.CooperativeGroup(agent, decode(value["size"]))
        raise ValueError(f"unknown tag {tag}")
    return value


def make_config(factory, kwargs):
    ts = _ts()
    fn = getattr(ts.PipelineConfig, f"create_{factory}_pipeline_cfg")
    return fn(**{k: decode(v) for k, v in kwargs.items()})


class _Scopes:
    """Which builder blocks are open, so a work step can tell whether the
    stage of an earlier acquire/wait is still usable there."""

    def __init__(self):
        self.stack = [0]
        self.next = 1

    def push(self):
        self.stack.append(self.next)
        self.next += 1

    def pop(self):
        self.stack.pop()


def _guard_scope(task, s):
    """The builder scope of a loop guard step (cases.py, work_cases.py)."""
    kind = s["guard"]
    if kind == "first_iter":
        return task.first_iter()
    if kind == "last_iter":
        return task.last_iter()
    if kind == "every":
        return task.every(s["period"], s["start"])
    cond = task.kernel.arg(f"cond{s['key']}")
    return getattr(task, kind)(cond)


def _emit_steps(task, steps, scopes, stages):
    for s in steps:
        if "guard" in s:
            guard = _guard_scope(task, s)
            with guard:
                scopes.push()
                _emit_steps(task, s["body"], scopes, stages)
                scopes.pop()
            continue
        verb = s["op"]
        if verb in _WORK_STEPS:
            _WORK_STEPS[verb](task, stages)
            continue
        pipe = s["pipe"]
        if verb == "marker":
            # A PTX comment that ptx_compare.py cuts the brackets at.
            task.ptx_comment(f"XMARK {s['id']}")
        elif verb in ("acquire", "wait"):
            side = "producer" if verb == "acquire" else "consumer"
            stages[(pipe, side)] = (getattr(task, verb)(pipe), scopes.stack[-1])
        elif verb in ("producer_work", "consumer_work"):
            side = "producer" if verb == "producer_work" else "consumer"
            made = stages.get((pipe, side))
            if made is not None and made[1] in scopes.stack:
                made[0].index()
            else:
                task.current_stage(pipe, side).index()
        else:
            getattr(task, verb)(pipe)


def _clc_stage(task, stages, verb):
    return stages.get(("wq_clc", verb))


def _wq_open(verb):
    def emit(task, stages):
        if task.kernel._xc_wq == "clc":
            bracket = "acquire" if verb == "wq_acquire" else "wait"
            stages[("wq_clc", verb)] = getattr(task, bracket)("wq_clc")
    return emit


def _wq_close(verb):
    def emit(task, stages):
        if task.kernel._xc_wq == "clc":
            getattr(task, "commit" if verb == "wq_commit" else "release")("wq_clc")
    return emit


def _wq_fetch(task, stages):
    if task.kernel._xc_wq == "clc":
        stage = stages.get(("wq_clc", "wq_acquire"))
        if stage is None:
            stage = task.current_stage("wq_clc", "producer")
        task.fetch_work_tile("wq", stage)


def _wq_advance(task, stages):
    response = None
    if task.kernel._xc_wq == "clc":
        response = stages.get(("wq_clc", "wq_wait"))
    task.advance_work_tile("wq", response=response)


# Work-model steps (work_cases.py). A static queue's wait and release are
# no ops in tspipe (docs/python.md: they emit nothing, ts-semantics 2.8).
_WORK_STEPS = {
    "pdl_wait": lambda task, stages: task.pdl_wait(),
    "pdl_launch": lambda task, stages: task.pdl_launch_dependents(),
    "wq_acquire": _wq_open("wq_acquire"),
    "wq_fetch": _wq_fetch,
    "wq_commit": _wq_close("wq_commit"),
    "wq_wait": _wq_open("wq_wait"),
    "wq_advance": _wq_advance,
    "wq_release": _wq_close("wq_release"),
}


def _declare_work(kernel, desc):
    """The case's work queue and PDL pipelines (work_cases.py)."""
    ts = _ts()
    wq = desc.get("wq")
    kernel._xc_wq = wq["kind"] if wq else None
    if wq and wq["kind"] == "static":
        kernel.work_queue("wq", grid=list(wq["grid"]))
    elif wq:
        g = ts.CooperativeGroup
        cfg = ts.PipelineConfig.create_clc_fetch_async_pipeline_cfg(
            num_stages=wq["stages"], num_bytes=16,
            producer_group=g(ts.Agent.Thread, 1),
            consumer_group=g(ts.Agent.Thread, wq["consumers"]),
            cta_layout_vmnk=(desc["cluster"][0], 1, 1, 1))
        # One 16-byte try_cancel response a stage (R35).
        kernel.pipeline("wq_clc", cfg,
                        smem_bytes=16 * wq["stages"] if wq["stages"] > 0 else None)
        kernel.work_queue("wq", clc="wq_clc")
    deps = (desc.get("pdl") or {}).get("deps")
    if deps:
        kernel.set_pdl_pipelines(deps)


def _never_skip(*coords):
    from tspipe import ir
    from tspipe.dialects import arith
    return arith.constant(ir.IntegerType.get_signless(1), 0)


def _domain_end(task, end, coords):
    """The domain end: an int, or the per-tile ``a * m + b`` (an ``index``
    Value built from the tile's first coordinate)."""
    if not isinstance(end, dict):
        return end
    a, b = end["dyn"]
    if not coords:
        # Outside a tile loop: the value at tile 0, as TS probes it.
        return b
    with task.ops():
        return affine_end(a, b, coords)


def affine_end(a: int, b: int, coords):
    """``a * coords[0] + b`` as ``index`` ops at the current insertion
    point: a case's per-tile domain end (also what the import check hands
    ``from_ts`` as the tspipe form of TS's ``get_domain``)."""
    from tspipe import ir
    from tspipe.dialects import arith
    idx = ir.IndexType.get()
    scaled = arith.muli(coords[0], arith.constant(idx, a))
    return arith.addi(scaled, arith.constant(idx, b))


def _emit_task(task, t, scopes, stages):
    """A task's head, domain loop and tail (inside its tile loop, and there
    inside ``skippable()`` when the case asks)."""
    tile = t.get("tile")
    kernel = task.kernel
    if tile and kernel._xc_wq:
        skip = _never_skip if tile.get("skip") else None
        with task.work_tile_loop("wq", skip_if=skip) as coords:
            scopes.push()
            if tile.get("skippable"):
                with task.skippable():
                    scopes.push()
                    _emit_body(task, t, scopes, stages, coords)
                    scopes.pop()
            else:
                _emit_body(task, t, scopes, stages, coords)
            _emit_steps(task, [{"op": w} for w in tile["tail"]], scopes, stages)
            scopes.pop()
    else:
        _emit_body(task, t, scopes, stages, [])


def _emit_body(task, t, scopes, stages, coords):
    _emit_steps(task, t["head"], scopes, stages)
    loop = t["loop"]
    end = _domain_end(task, loop["end"], coords)
    with task.domain_loop(loop["start"], end, loop["step"]):
        scopes.push()
        _emit_steps(task, loop["body"], scopes, stages)
        scopes.pop()
    _emit_steps(task, t["tail"], scopes, stages)


def build_kernel(desc, arch=ARCH):
    """A ``tspipe.ts.Kernel`` for the kernel case ``desc`` (not verified)."""
    ts = _ts()
    keys = W.cond_keys(desc)
    kernel = ts.Kernel(num_warps=desc["num_warps"], cluster=tuple(desc["cluster"]),
                       name="xk", arch=arch,
                       args=[(f"cond{k}", "i1") for k in range(max(keys) + 1)]
                       if keys else ())
    for pipe in desc["pipelines"]:
        kernel.pipeline(pipe["name"], make_config(pipe["factory"], pipe["kwargs"]),
                        smem_bytes=pipe.get("smem_bytes"))
    _declare_work(kernel, desc)
    for t in desc["tasks"]:
        produces, consumes = list(t["produces"]), list(t["consumes"])
        if kernel._xc_wq == "clc":
            ops = {s.get("op") for s in W.all_steps(t)}
            if ops & {"wq_acquire", "wq_fetch", "wq_commit"}:
                produces.append("wq_clc")
            if t.get("tile") or ops & {"wq_wait", "wq_release"}:
                consumes.append("wq_clc")
        task = kernel.task(t["name"], t["warp_idx"], t["num_warps"],
                           produces=produces, consumes=consumes,
                           run_only_on_cta_id=t.get("cta"),
                           num_registers=t.get("registers"))
        scopes, stages = _Scopes(), {}
        _emit_steps(task, t.get("pre", []), scopes, stages)
        _emit_task(task, t, scopes, stages)
        _emit_steps(task, t.get("post", []), scopes, stages)
    return kernel


def _rejection(stage, err):
    return {"verdict": "reject", "stage": stage, "etype": type(err).__name__,
            "rule": getattr(err, "rule", None),
            "rules": sorted({d.rule or "-" for d in getattr(err, "diagnostics", ())}),
            "message": str(getattr(err, "message", err))[:600]}


def _allocate_smem(module):
    """Runs tspipe-allocate-smem (rule R43) on a verified module."""
    from tspipe import passmanager
    with module.context:
        pm = passmanager.PassManager.parse("builtin.module(tspipe-allocate-smem)")
        pm.run(module.operation)


def judge(case):
    """The verdict of one case: config by its factory; kernel by the
    factories, the builder and :func:`judge_kernel`."""
    if case["kind"] == "config":
        try:
            make_config(case["factory"], case["kwargs"])
        except Exception as err:  # noqa: BLE001 - every rejection is a verdict
            return _rejection("factory", err)
        return {"verdict": "accept", "stage": "factory"}
    stage = "factory"
    try:
        for pipe in case["pipelines"]:
            make_config(pipe["factory"], pipe["kwargs"])
        stage = "schedule"
        kernel = build_kernel(case)
    except Exception as err:  # noqa: BLE001
        return _rejection(stage, err)
    return judge_kernel(kernel)


def judge_kernel(kernel):
    """The verdict of a built ``tspipe.ts.Kernel``: ``Kernel.build()``
    (every C++ verifier), ``tspipe-allocate-smem`` (R43) and the progress
    checker (``tspipe.progress``: R70, R71, X8, as ``Kernel.verify()`` runs
    it). Also judges kernels that ``from_ts`` imported (import_check.py)."""
    from tspipe import ir
    stage = "manager"
    try:
        module = kernel.build(check_progress=False)
        stage = "allocate-smem"
        try:
            _allocate_smem(module)
        except ir.MLIRError as err:
            from tspipe.ts.errors import error_from_mlir
            raise error_from_mlir(err) from None
        stage = "progress"
        from tspipe.progress import check_progress
        check_progress(module).raise_on_failure()
    except Exception as err:  # noqa: BLE001
        return _rejection(stage, err)
    return {"verdict": "accept", "stage": "manager"}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        result = {"id": case.get("id")}
        result.update(judge(case))
        sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
