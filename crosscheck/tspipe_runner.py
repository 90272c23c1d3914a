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


def _emit_steps(task, steps, scopes, stages):
    for s in steps:
        if "guard" in s:
            guard = task.first_iter() if s["guard"] == "first_iter" else task.last_iter()
            with guard:
                scopes.push()
                _emit_steps(task, s["body"], scopes, stages)
                scopes.pop()
            continue
        pipe, verb = s["pipe"], s["op"]
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


def build_kernel(desc, arch=ARCH):
    """A ``tspipe.ts.Kernel`` for the kernel case ``desc`` (not verified)."""
    ts = _ts()
    kernel = ts.Kernel(num_warps=desc["num_warps"], cluster=tuple(desc["cluster"]),
                       name="xk", arch=arch)
    for pipe in desc["pipelines"]:
        kernel.pipeline(pipe["name"], make_config(pipe["factory"], pipe["kwargs"]),
                        smem_bytes=pipe.get("smem_bytes"))
    for t in desc["tasks"]:
        task = kernel.task(t["name"], t["warp_idx"], t["num_warps"],
                           produces=t["produces"], consumes=t["consumes"],
                           run_only_on_cta_id=t.get("cta"),
                           num_registers=t.get("registers"))
        scopes, stages = _Scopes(), {}
        _emit_steps(task, t["head"], scopes, stages)
        loop = t["loop"]
        with task.domain_loop(loop["start"], loop["end"], loop["step"]):
            scopes.push()
            _emit_steps(task, loop["body"], scopes, stages)
            scopes.pop()
        _emit_steps(task, t["tail"], scopes, stages)
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
