"""Runs every compiled example found in an output folder on the GPU.

    PYTHONPATH=python python3 -m tspipe.runtime.run_examples out/

needs only `out/` (PTX, cubin and metadata JSON written by `make demo`),
`examples/*.py` (launch specs) and `python/tspipe/runtime` — no tspipe-opt and
no compiled bindings. For each `out/<example>.<arch>.json` built for this
device and with a spec `examples/<example>.py`, it runs the correctness
problems (every output element checked), then the bandwidth problems (timed
with CUDA events, compared with a device-to-device copy of the same bytes),
each example in its own process under a watchdog so that a hang or a
crashed context is reported and the other examples still run.

Results go to `results.json` and `results.md` in `--results` (default: the
output folder). Exit status: 0 all passed, 1 something
failed or hung, 2 no usable GPU.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["main", "discover"]


def discover(out_dir: Path, examples_dir: Path, only=None, arch=None):
    """(meta path, spec path or None, example, arch) for each metadata file."""
    found = []
    for meta_path in sorted(out_dir.glob("*.json")):
        try:
            d = json.loads(meta_path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(d, dict) or "example" not in d or \
                "kernels" not in d:
            continue
        if only and d["example"] not in only:
            continue
        if arch and d.get("arch") != arch:
            continue
        spec = examples_dir / f"{d['example']}.py"
        found.append((meta_path, spec if spec.exists() else None,
                      d["example"], d.get("arch")))
    return found


def _find_examples_dir(out_dir: Path, given: str | None) -> Path:
    if given:
        return Path(given)
    for cand in (Path.cwd() / "examples", out_dir.parent / "examples",
                 Path(__file__).resolve().parents[3] / "examples"):
        if cand.is_dir():
            return cand
    return Path("examples")


def _single(args) -> int:
    """Child mode: run one example, write its result JSON, exit."""
    from . import launcher as rt
    from .harness import run_example

    result_file = Path(args.result_file)

    def write(res):
        result_file.write_text(json.dumps(res, indent=2, default=str))

    modes = _modes(args.mode)
    try:
        res = run_example(args.single, args.spec, modes=modes,
                          timeout=args.timeout,
                          bandwidth_timeout=args.bandwidth_timeout,
                          seed=args.seed, prefer=args.prefer,
                          iters=args.iters, warmup=args.warmup,
                          check_bandwidth=not args.no_check_bandwidth,
                          copy_baseline=not args.no_copy_baseline)
        write(res)
        return 0 if res["status"] in ("pass", "skipped") else 1
    except rt.KernelTimeout as e:
        res = getattr(e, "result", {"status": "hang"})
        res["status"] = "hang"
        res["error"] = str(e)
        write(res)
        sys.stdout.flush()
        sys.stderr.flush()
        # The hung kernel cannot be cancelled; leave without tearing down.
        os._exit(3)
    except Exception as e:  # noqa: BLE001 - report everything
        import traceback
        res = getattr(e, "result", None) or {}
        res.setdefault("example", Path(args.single).stem.split(".")[0])
        res["status"] = "error"
        res["error"] = f"{type(e).__name__}: {e}"
        res["traceback"] = traceback.format_exc()
        write(res)
        print(res["traceback"], file=sys.stderr)
        return 1


def _modes(mode: str):
    return ("check", "bandwidth") if mode == "all" else (mode,)


def _run_child(meta_path: Path, spec: Path, args) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        result_file = Path(tmp) / "result.json"
        cmd = [sys.executable, "-m", "tspipe.runtime.run_examples",
               "--single", str(meta_path), "--spec", str(spec),
               "--result-file", str(result_file),
               "--mode", args.mode, "--timeout", str(args.timeout),
               "--bandwidth-timeout", str(args.bandwidth_timeout),
               "--seed", str(args.seed), "--prefer", args.prefer,
               "--iters", str(args.iters), "--warmup", str(args.warmup)]
        if args.no_check_bandwidth:
            cmd.append("--no-check-bandwidth")
        if args.no_copy_baseline:
            cmd.append("--no-copy-baseline")
        env = dict(os.environ)
        # The child must import this same tspipe package.
        pkg_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(
            [pkg_root] + [p for p in env.get("PYTHONPATH", "").split(
                os.pathsep) if p])
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, timeout=args.process_timeout, env=env,
                                  stdout=None, stderr=subprocess.PIPE,
                                  text=True)
            rc, err = proc.returncode, proc.stderr or ""
        except subprocess.TimeoutExpired as e:
            rc = None
            err = (e.stderr or b"").decode(errors="replace") \
                if isinstance(e.stderr, bytes) else (e.stderr or "")
        elapsed = time.perf_counter() - t0
        if result_file.exists():
            res = json.loads(result_file.read_text())
        else:
            res = {"status": "error"}
        if rc is None:
            res["status"] = "hang"
            res["error"] = (f"process killed after {args.process_timeout} s "
                            "(watchdog of the parent)")
        elif rc != 0 and res.get("status") == "pass":
            res["status"] = "error"
        if rc not in (0, None) and err:
            res["stderr_tail"] = err[-4000:]
            sys.stderr.write(err[-4000:])
        res["returncode"] = rc
        res["seconds"] = round(elapsed, 2)
        return res


def _markdown(report: dict) -> str:
    dev = report.get("device") or {}
    lines = [
        "# tspipe GPU example run",
        "",
        f"- device: {dev.get('name', '?')} ({dev.get('arch', '?')}, "
        f"{dev.get('sm_count', '?')} SMs), driver {dev.get('driver_version')}"
        f", cuda-python {dev.get('cuda_python')}",
        f"- host: {report.get('host')}, Python {report.get('python')}",
        f"- date: {report.get('date')}",
        "",
        "| example | kernel | arch | image | CTA threads | cluster | smem B "
        "| problem | grid | status | time ms | GB/s | copy GB/s | ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for ex in report["examples"]:
        probs = ex.get("problems") or [{}]
        for p in probs:
            t = p.get("time_ms", {}).get("median") if p.get("time_ms") \
                else None
            lines.append(
                "| {ex} | {k} | {a} | {img} | {bt} | {cl} | {sm} | {lab} | "
                "{grid} | {st} | {t} | {gb} | {cp} | {r} |".format(
                    ex=ex.get("example", "?"), k=ex.get("kernel", "?"),
                    a=ex.get("arch", "?"), img=ex.get("image", "-"),
                    bt=ex.get("block_threads", "?"),
                    cl="x".join(map(str, ex.get("cluster", []))) or "-",
                    sm=ex.get("smem_bytes", "?"),
                    lab=p.get("label", "-"),
                    grid="x".join(map(str, p.get("grid", []))) or "-",
                    st=p.get("status", ex.get("status")),
                    t=f"{t:.3f}" if t else "-",
                    gb=f"{p['gbps']:.1f}" if "gbps" in p else "-",
                    cp=f"{p['copy_gbps']:.1f}" if "copy_gbps" in p else "-",
                    r=f"{p['ratio_to_copy']:.2f}" if "ratio_to_copy" in p
                    else "-"))
    errors = [ex for ex in report["examples"]
              if ex.get("status") not in ("pass", "skipped")]
    if errors:
        lines += ["", "## Failures", ""]
        for ex in errors:
            lines.append(f"### {ex.get('example')}: {ex.get('status')}")
            lines.append("")
            msg = ex.get("error") or "\n".join(
                p.get("error", "") for p in ex.get("problems", [])
                if p.get("error"))
            lines += ["```", (msg or "(no message)").strip()[:4000], "```", ""]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tspipe.runtime.run_examples",
        description="Run compiled tspipe examples on the GPU and check them.")
    ap.add_argument("out_dir", nargs="?", default="out",
                    help="folder with <example>.<arch>.{ptx,cubin,json}")
    ap.add_argument("--examples", help="folder of launch specs "
                    "(default: ./examples or <out>/../examples)")
    ap.add_argument("--only", action="append", help="run only this example "
                    "(repeatable)")
    ap.add_argument("--mode", choices=("check", "bandwidth", "all",
                                       "sanitize"), default="all",
                    help="all = check then bandwidth; sanitize = small "
                    "checked problems, for compute-sanitizer")
    ap.add_argument("--results", help="folder for results.json/results.md "
                    "(default: the output folder)")
    ap.add_argument("--prefer", choices=("cubin", "ptx"), default="cubin",
                    help="image to load when both exist (PTX is JIT-compiled "
                    "by the driver)")
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="watchdog per correctness launch, seconds")
    ap.add_argument("--bandwidth-timeout", type=float, default=300.0)
    ap.add_argument("--process-timeout", type=float, default=540.0,
                    help="kill an example's process after this many seconds")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-check-bandwidth", action="store_true",
                    help="do not check outputs of the bandwidth problems")
    ap.add_argument("--no-copy-baseline", action="store_true")
    ap.add_argument("--no-subprocess", action="store_true",
                    help="run examples in this process (e.g. under "
                    "compute-sanitizer); a hang then ends the run")
    # child mode
    ap.add_argument("--single", help=argparse.SUPPRESS)
    ap.add_argument("--spec", help=argparse.SUPPRESS)
    ap.add_argument("--result-file", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.single:
        return _single(args)

    from . import launcher as rt

    out_dir = Path(args.out_dir)
    results_dir = Path(args.results or out_dir)
    results_dir.mkdir(parents=True, exist_ok=True)
    examples_dir = _find_examples_dir(out_dir, args.examples)

    report = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "host": platform.node(),
        "python": platform.python_version(),
        "out_dir": str(out_dir),
        "examples": [],
    }
    ok, why = rt.is_available()
    if not ok:
        print(f"no usable GPU: {why}")
        report["device"] = None
        report["status"] = "no-gpu"
        report["reason"] = why
        (results_dir / "results.json").write_text(json.dumps(report, indent=2))
        return 2
    info = rt.device_info()
    report["device"] = info.to_json()
    print(f"device: {info.name} ({info.arch}, {info.sm_count} SMs)")

    found = discover(out_dir, examples_dir, args.only)
    if not found:
        print(f"no example metadata in {out_dir}")
    status = 0
    for index, (meta_path, spec, example, arch) in enumerate(found, 1):
        from .harness import arch_runs_on
        if not arch or not arch_runs_on(arch, info.compute_capability):
            continue  # other targets (e.g. sm_100a PTX) cannot run here
        from .harness import load_spec
        if spec is not None and getattr(load_spec(spec), "COMPILE_ONLY",
                                        False):
            print(f"{example} ({arch}): compile-only launch spec; skipped")
            report["examples"].append({"example": example, "arch": arch,
                                       "status": "skipped",
                                       "reason": "compile-only"})
            continue
        if spec is None:
            print(f"{example} ({arch}): no launch spec in {examples_dir}; "
                  "skipped")
            report["examples"].append({"example": example, "arch": arch,
                                       "status": "skipped",
                                       "reason": "no launch spec"})
            continue
        # A progress line per example: bandwidth and sanitizer runs are long.
        print(f"== [{index}/{len(found)}] {example} ({arch})", flush=True)
        started = time.monotonic()
        if args.no_subprocess:
            res_file = Path(tempfile.mkstemp(suffix=".json")[1])
            args.single, args.spec, args.result_file = (str(meta_path),
                                                        str(spec),
                                                        str(res_file))
            _single(args)
            res = json.loads(res_file.read_text())
            res_file.unlink()
            args.single = None
        else:
            res = _run_child(meta_path, spec, args)
        print(f"   -> {res.get('status')} "
              f"({time.monotonic() - started:.1f} s)", flush=True)
        if res.get("status") not in ("pass", "skipped"):
            status = 1
        report["examples"].append(res)

    report["status"] = "pass" if status == 0 else "fail"
    (results_dir / "results.json").write_text(
        json.dumps(report, indent=2, default=str))
    md = _markdown(report)
    (results_dir / "results.md").write_text(md)
    print(md)
    print(f"results: {results_dir / 'results.json'}, "
          f"{results_dir / 'results.md'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
