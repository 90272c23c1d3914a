"""The importer step of the crosscheck: every kernel case that real TS builds
is imported with ``tspipe.ts.from_ts`` and judged by tspipe again.

For each kernel case, the TS venv's interpreter (this file run as a script,
with the installed ``tspipe`` package made importable by links, never
installed there) builds TS's ``TaskManager`` from the case (ts_runner.py,
``skip_validation=True``: TS's own verdict is ts_runner's business), hands
the real TS objects to ``from_ts`` and judges the imported kernel with the
judge of the direct build (tspipe_runner.judge_kernel: the C++ verifiers,
``tspipe-allocate-smem``, the progress checker). It answers, one JSON line
per case::

  {"id": ..., "status": "imported", "verdict": {...}, "ir": {...}}
  {"id": ..., "status": "not built", "etype": ..., "message": ...}
                                  (TS raised, or took over the time limit)
  {"id": ..., "status": "not modeled", "message": ...}

The driver (:func:`check`, in tspipe's venv) compares each imported kernel
with the kernel tspipe_runner builds directly from the same case: the
verdicts (accept / reject and the set of rules reported) must be equal, and
so must the IR in the normal form of :func:`normal_form` (pipelines with
their configs and buffers; tasks with warp ranges, CTA, registers, the
resources they produce and consume; domain loop bounds; every bracket and
work step in order with the loop guard it runs under).

TS's ``TaskManager`` holds no launch shape (the block and the cluster are
launch arguments in TS), so the harness passes the case's ``num_warps`` and
``cluster`` to ``from_ts`` as a TS user passes them to the launch.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from typing import Dict, List, Optional

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

# ---------------------------------------------------------------------------
# The normal form of a tspipe module (both processes; tspipe only).

_BRACKETS = {
    "tspipe.producer_try_acquire": "try_acquire",
    "tspipe.producer_acquire": "acquire",
    "tspipe.producer_commit": "commit",
    "tspipe.producer_tail": "producer_tail",
    "tspipe.consumer_try_wait": "try_wait",
    "tspipe.consumer_wait": "wait",
    "tspipe.consumer_release": "release",
}
_STAGE_ACCESSORS = ("tspipe.stage_index", "tspipe.stage_buffer",
                    "tspipe.full_barrier", "tspipe.empty_barrier")
# Ops a work step of the direct build or a placeholder of the importer may
# consist of besides the accessors (they carry no schedule meaning).
_WORK_PLUMBING = ("tspipe.current_stage",)
_IMPORTED_WORK = re.compile(r"^// ts work: (\w+)\.(\w+)$")
_MARKER = re.compile(r"^// XMARK (\d+)$")


def _symbol(op, name: str) -> Optional[str]:
    attrs = op.attributes
    if name not in attrs:
        return None
    return str(attrs[name]).lstrip("@")


def _int_attr(op, name: str) -> Optional[int]:
    from tspipe import ir
    attrs = op.attributes
    if name not in attrs:
        return None
    return ir.IntegerAttr(attrs[name]).value


def _symbols(op, name: str) -> List[str]:
    from tspipe import ir
    attrs = op.attributes
    if name not in attrs:
        return []
    return [str(a).lstrip("@") for a in ir.ArrayAttr(attrs[name])]


def _constant(value) -> object:
    """An ``index`` Value's constant (an ``arith.constant``), else its
    printed form (a dynamic bound)."""
    from tspipe import ir
    owner = value.owner
    if isinstance(owner, ir.OpView):
        owner = owner.operation
    if isinstance(owner, ir.Operation) and owner.name == "arith.constant":
        return ir.IntegerAttr(owner.attributes["value"]).value
    return "dynamic"


def _stage_side(value) -> tuple:
    """(pipeline, side) of a ``!tspipe.stage`` Value."""
    from tspipe import ir
    owner = value.owner
    if isinstance(owner, ir.OpView):
        owner = owner.operation
    name = owner.name
    pipe = _symbol(owner, "pipeline")
    if name == "tspipe.producer_acquire":
        return pipe, "producer"
    if name == "tspipe.consumer_wait":
        return pipe, "consumer"
    if name == "tspipe.current_stage":
        role = ir.IntegerAttr(owner.attributes["role"]).value
        return pipe, "producer" if role == 0 else "consumer"
    return pipe, name


def _entries(ops, guard: str, out: List[list]):
    """Appends the entries of ``ops`` (a block's operations) to ``out``.

    A work step is one entry: the direct build's stage accessor, or the
    importer's placeholder (its PTX comment and the stage accessor that
    follows it)."""
    placeholder = None
    for op in ops:
        op = op.operation
        name = op.name
        if name in _BRACKETS:
            out.append([guard, _BRACKETS[name], _symbol(op, "pipeline")])
        elif name in _STAGE_ACCESSORS:
            pipe, side = _stage_side(op.operands[0])
            entry = [guard, f"{side}_work", pipe]
            if placeholder == entry:
                placeholder = None
                continue
            out.append(entry)
        elif name in _WORK_PLUMBING:
            continue
        elif name == "llvm.inline_asm":
            text = str(op.attributes["asm_string"]).strip('"')
            marker = _MARKER.match(text)
            imported = _IMPORTED_WORK.match(text)
            if marker:
                out.append([guard, "marker", int(marker.group(1))])
            elif imported and imported.group(2).startswith("xm"):
                out.append([guard, "marker", int(imported.group(2)[2:])])
            elif imported:
                side = ("producer" if imported.group(2).startswith("producer")
                        else "consumer")
                placeholder = [guard, f"{side}_work", imported.group(1)]
                out.append(placeholder)
                continue
            else:
                out.append([guard, "asm", text])
        elif name in ("tspipe.first_iter", "tspipe.last_iter"):
            _entries(op.regions[0].blocks[0].operations, name.split(".")[1],
                     out)
        else:
            out.append([guard, name])
        placeholder = None


def _task_parts(ops, task: dict, part: str = "head",
                in_tile: bool = False) -> str:
    """Fills ``task``'s head, loop and tail from a block's operations; a
    persistent task's ``tspipe.work_tile_loop`` (its queue and whether it
    has ``skip_if`` in ``task["tile_loop"]``) and its ``tspipe.skippable``
    parts are looked through, the steps beside the tile loop are head /
    tail entries. In the tile loop, values computed outside a tspipe op (a
    per-tile domain end, either builder's) are no entries. Returns the part
    the next operation belongs to."""
    # Consecutive plain operations go to _entries together, so that a
    # placeholder's comment and the stage accessor after it stay one entry.
    run: list = []

    def flush():
        if run:
            _entries(list(run), "always", task[part])
            run.clear()

    for child in ops:
        child = child.operation
        if in_tile and not child.name.startswith("tspipe.") and \
                len(child.results) > 0:
            continue
        if child.name not in ("tspipe.domain_loop", "tspipe.work_tile_loop",
                              "tspipe.skippable"):
            run.append(child)
            continue
        flush()
        if child.name == "tspipe.domain_loop":
            entries: List[list] = []
            _entries(child.regions[0].blocks[0].operations, "always",
                     entries)
            task["loop"] = {"bounds": [_constant(v) for v in child.operands],
                            "body": entries}
            part = "tail"
        elif child.name == "tspipe.work_tile_loop":
            task["tile_loop"] = {
                "queue": _symbol(child, "queue"),
                "skip_if": len(child.regions) > 1
                and len(child.regions[0].blocks) > 0
                and len(child.regions[1].blocks) > 0}
            part = _task_parts(child.regions[-1].blocks[0].operations, task,
                               part, True)
        elif child.name == "tspipe.skippable":
            part = _task_parts(child.regions[0].blocks[0].operations, task,
                               part, in_tile)
    flush()
    return part


def normal_form(module) -> Dict[str, object]:
    """The schedule of the module's ``tspipe.kernel`` as plain data (JSON):
    the kernel's warps and cluster, pipelines (name, config text,
    ``smem_bytes``, ``tmem_columns``; sorted by name), tasks (name, warps, CTA, registers,
    produces, consumes, domain bounds, and head / loop / tail entries
    ``[guard, what, pipeline]`` in order, a guard block flattened into its
    entries). Work steps of either builder read as ``producer_work`` /
    ``consumer_work`` on their pipeline."""
    kernels = []

    def find(op):
        for region in op.regions:
            for block in region.blocks:
                for child in block.operations:
                    child = child.operation
                    if child.name == "tspipe.kernel":
                        kernels.append(child)
                    else:
                        find(child)

    find(module.operation)
    if len(kernels) != 1:
        return {"kernels": len(kernels)}
    kernel = kernels[0]
    cluster = kernel.attributes["cluster_shape"] \
        if "cluster_shape" in kernel.attributes else None
    out = {"num_warps": _int_attr(kernel, "num_warps"),
           "cluster": str(cluster) if cluster is not None else None,
           "pipelines": [], "tasks": []}
    for op in kernel.regions[0].blocks[0].operations:
        op = op.operation
        if op.name == "tspipe.pipeline":
            out["pipelines"].append({
                "name": _symbol(op, "sym_name").strip('"'),
                "config": str(op.attributes["config"]),
                "smem_bytes": _int_attr(op, "smem_bytes"),
                "tmem_columns": _int_attr(op, "tmem_columns")})
        elif op.name == "tspipe.task":
            task = {"name": _symbol(op, "sym_name").strip('"'),
                    "warp_idx": _int_attr(op, "warp_idx"),
                    "num_warps": _int_attr(op, "num_warps"),
                    "cta": _int_attr(op, "run_only_on_cta_id"),
                    "registers": _int_attr(op, "num_registers"),
                    "produces": _symbols(op, "produces"),
                    "consumes": _symbols(op, "consumes"),
                    "head": [], "loop": None, "tail": []}
            _task_parts(op.regions[0].blocks[0].operations, task)
            out["tasks"].append(task)
        else:
            out.setdefault("other", []).append(op.name)
    # Declaration order only places the barriers: a CLC queue's pipeline is
    # declared where each front end meets the queue, so pipelines compare by
    # name.
    out["pipelines"].sort(key=lambda p: p["name"])
    return out


def _split_consumers(form: Dict[str, object]) -> set:
    """Pipelines some task waits on without releasing (TS's split consumer,
    for which TS sets ``advance_on_wait`` when the TaskManager is built:
    R66)."""
    out = set()
    for task in form.get("tasks", []):
        entries = task["head"] + (task["loop"] or {}).get("body", []) + task["tail"]
        waits = {e[2] for e in entries if e[1] == "wait"}
        releases = {e[2] for e in entries if e[1] == "release"}
        out |= waits - releases
    return out


def undo_r66(direct: Dict[str, object], imported: Dict[str, object]) -> int:
    """Where TS turned ``advance_on_wait`` on for a split consumer (R66; a
    direct build leaves that to ``tspipe-normalize``), the imported config
    is put back to the direct one. Returns how many configs it restored."""
    split = _split_consumers(direct)
    restored = 0
    for mine, theirs in zip(direct.get("pipelines", []),
                            imported.get("pipelines", [])):
        if mine["name"] != theirs["name"] or mine["name"] not in split:
            continue
        flagless = theirs["config"].replace(", advance_on_wait = true", "")
        if mine["config"] != theirs["config"] and mine["config"] == flagless:
            theirs["config"] = mine["config"]
            restored += 1
    return restored


def differences(direct: Dict[str, object], imported: Dict[str, object],
                path: str = "") -> List[str]:
    """Where two normal forms differ, as ``path: direct != imported``
    lines (empty when equal)."""
    if isinstance(direct, dict) and isinstance(imported, dict):
        out = []
        for key in list(dict.fromkeys(list(direct) + list(imported))):
            out += differences(direct.get(key), imported.get(key),
                               f"{path}.{key}" if path else str(key))
        return out
    if isinstance(direct, list) and isinstance(imported, list) \
            and len(direct) == len(imported) \
            and all(isinstance(x, dict) for x in direct + imported):
        out = []
        for i, (a, b) in enumerate(zip(direct, imported)):
            out += differences(a, b, f"{path}[{i}]")
        return out
    if direct != imported:
        return [f"{path}: {json.dumps(direct)} != {json.dumps(imported)}"]
    return []


# ---------------------------------------------------------------------------
# The TS side (run by the TS venv's interpreter).


def _domain_ends(case: dict) -> Dict[str, object]:
    """The tspipe form of each task's per-tile domain end ``a * m + b``
    (TS's ``get_domain`` is CuTe code from_ts cannot read: without it the
    importer's placeholder would give another trip count than the direct
    build), keyed by task name as ``from_ts(domain_end=)`` takes it."""
    import tspipe_runner as TP
    ends: Dict[str, object] = {}
    for task in case.get("tasks", []):
        end = (task.get("loop") or {}).get("end")
        if isinstance(end, dict) and "dyn" in end:
            a, b = end["dyn"]
            ends[task["name"]] = \
                lambda kernel, coords, a=a, b=b: TP.affine_end(a, b, coords)
    return ends


def import_case(case: dict) -> dict:
    """Builds the TaskManager of a kernel case with real TS, imports it with
    ``from_ts`` and judges the imported kernel (see the module docstring)."""
    import ts_runner
    import tspipe_runner as TP
    from tspipe.ts import from_ts

    try:
        # TS's checks run anyway (as warnings); its exhaustive interleaving
        # search is left out: the verdict is tspipe's here.
        _, manager = ts_runner._build_kernel(case, validate=False,
                                             exhaustive=False)
    except Exception as err:  # noqa: BLE001 - TS did not build it
        return {"status": "not built", "etype": type(err).__name__,
                "message": str(err)[:300]}
    try:
        kernel = from_ts(manager, arch=TP.ARCH, name="xk",
                         num_warps=case["num_warps"],
                         cluster=tuple(case["cluster"]), verify=False,
                         # The generated graphs list every resource without
                         # edges; the verdicts compared are the IR's.
                         dependency_graph=False,
                         domain_end=_domain_ends(case))
    except NotImplementedError as err:
        return {"status": "not modeled", "message": str(err)[:300]}
    except Exception as err:  # noqa: BLE001 - an importer rejection
        return {"status": "imported", "ir": None,
                "verdict": TP._rejection("schedule", err)}
    ir = normal_form(kernel.module)
    return {"status": "imported", "ir": ir, "verdict": TP.judge_kernel(kernel)}


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _serve() -> int:
    import signal
    import warnings

    # TS prints its validation findings as warnings; verdicts are data here.
    warnings.simplefilter("ignore")
    signal.signal(signal.SIGALRM, _alarm)
    limit = int(os.environ.get("CROSSCHECK_CASE_TIMEOUT", "20"))
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        result = {"id": case.get("id")}
        signal.alarm(limit)
        try:
            result.update(import_case(case))
        except _Timeout:
            result.update({"status": "not built",
                           "etype": "timeout", "message": f"over {limit} s"})
        except Exception as err:  # noqa: BLE001 - a harness failure is data
            result.update({"status": "crash", "etype": type(err).__name__,
                           "message": str(err)[:600]})
        finally:
            signal.alarm(0)
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()
    return 0


# ---------------------------------------------------------------------------
# The driver side (tspipe's venv).


def _package_links(folder: str) -> str:
    """Links to the installed tspipe package (and the LLVM library it loads)
    in ``folder``, for the TS interpreter's PYTHONPATH."""
    import tspipe
    site = os.path.dirname(os.path.dirname(os.path.abspath(tspipe.__file__)))
    for name in ("tspipe", "llvm"):
        if os.path.exists(os.path.join(site, name)):
            os.symlink(os.path.join(site, name), os.path.join(folder, name))
    return folder


def _verdict_key(verdict: dict) -> tuple:
    if verdict.get("verdict") == "accept":
        return ("accept",)
    return (verdict.get("verdict"), tuple(verdict.get("rules") or ()))


def _direct_form(case: dict):
    import tspipe_runner as TP
    try:
        return normal_form(TP.build_kernel(case).module)
    except Exception:  # noqa: BLE001 - a build error: verdicts only
        return None


def check(cases: List[dict], tp_results: Dict[str, dict], ts_python: str) -> dict:
    """Imports every kernel case through real TS and compares (see the module
    docstring). ``tp_results``: tspipe_runner.judge's verdict of each case
    by id. Returns ``{"kernels", "imported", "not built", "not modeled":
    {reason: count}, "mismatches": [...], "crashes": [...]}``."""
    kernels = [c for c in cases if c["kind"] == "kernel"]
    stats = {"kernels": len(kernels), "imported": 0, "not built": 0,
             "not modeled": {}, "mismatches": [], "crashes": [],
             "accepted": 0, "rejected": 0, "r66": 0, "timeouts": 0}
    if not kernels:
        return stats
    with tempfile.TemporaryDirectory(prefix="tspipe-import-") as links:
        env = dict(os.environ, PYTHONPATH=_package_links(links))
        env.setdefault("CUTE_DSL_ARCH", "sm_100a")
        proc = subprocess.Popen([ts_python, os.path.abspath(__file__)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True, bufsize=1, env=env)

        def feed():
            for case in kernels:
                proc.stdin.write(json.dumps(case) + "\n")
            proc.stdin.close()

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        results = []
        for _ in kernels:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("the importer runner (TS venv) exited")
            results.append(json.loads(line))
        writer.join()
        proc.wait(timeout=60)
    for case, result in zip(kernels, results):
        status = result["status"]
        if status == "not built":
            stats["timeouts" if result.get("etype") == "timeout"
                  else "not built"] += 1
            continue
        if status == "not modeled":
            reason = re.sub(r"'[^']*'", "'...'", result["message"])
            stats["not modeled"][reason] = stats["not modeled"].get(reason, 0) + 1
            continue
        if status == "crash":
            stats["crashes"].append({"id": case["id"], **result})
            continue
        stats["imported"] += 1
        direct = tp_results[case["id"]]
        imported = result["verdict"]
        stats["accepted" if imported["verdict"] == "accept" else "rejected"] += 1
        problems = []
        if _verdict_key(direct) != _verdict_key(imported):
            problems.append(f"verdict: direct {_verdict_key(direct)} != "
                            f"imported {_verdict_key(imported)}")
        form = _direct_form(case)
        if form is not None and result["ir"] is not None:
            stats["r66"] += undo_r66(form, result["ir"])
            problems += differences(form, result["ir"])
        elif (form is None) != (result["ir"] is None):
            problems.append("one side did not build: direct "
                            f"{'built' if form else 'failed'}, imported "
                            f"{'built' if result['ir'] else 'failed'}")
        if problems:
            stats["mismatches"].append({"id": case["id"], "case": case,
                                        "problems": problems,
                                        "direct": direct, "imported": imported})
    return stats


def summary_line(stats: dict) -> str:
    """One line: kernels round-tripped, mismatches, what was not imported."""
    not_modeled = sum(stats["not modeled"].values())
    return (
        f"importer: {stats['imported']} kernels round-tripped "
        f"({stats['accepted']} accepted, {stats['rejected']} rejected), "
        f"{len(stats['mismatches'])} mismatches; {stats['not built']} not "
        f"built by TS; {not_modeled} not modeled"
        + (": " + "; ".join(f"{n} x {reason}" for reason, n in
                            sorted(stats["not modeled"].items()))
           if not_modeled else "")
        + (f"; {stats['timeouts']} over the time limit in TS"
           if stats.get("timeouts") else "")
        + (f"; {len(stats['crashes'])} runner crashes" if stats["crashes"]
           else "") + ".")


def report_lines(stats: dict) -> List[str]:
    """The importer section of docs/crosscheck.md."""
    lines = ["## Importer round trip", "",
             "Every kernel that real TS builds (its `TaskManager` with "
             "`skip_validation=True`) is imported with "
             "`tspipe.ts.from_ts` from the real TS objects and judged by "
             "tspipe (`crosscheck/import_check.py`); the verdict (accept, or "
             "reject with the same rules) and the IR (pipelines, configs, "
             "buffers, tasks, warp ranges, loops, brackets, work steps, "
             "guards) must equal those of the kernel tspipe builds directly "
             "from the case.", ""]
    lines.append(summary_line(stats))
    if stats["r66"]:
        lines += ["", f"In {stats['r66']} imported pipeline(s) TS had set "
                      "`advance_on_wait` for a split consumer when the "
                      "`TaskManager` was built (R66); the direct build leaves "
                      "that to `tspipe-normalize`, so the comparison takes "
                      "the two configs as equal there."]
    for m in stats["mismatches"][:10]:
        lines += ["", f"- mismatch `{m['id']}`:", ""]
        lines += [f"  - {p}" for p in m["problems"][:8]]
    for c in stats["crashes"][:5]:
        lines += ["", f"- runner crash `{c['id']}`: {c.get('etype')}: "
                      f"{c.get('message', '')[:200]}"]
    return lines


if __name__ == "__main__":
    sys.exit(_serve())
