"""`make demo`: compile every example to PTX, summarize it, run it on a GPU.

    python -m tspipe.demo [--examples examples] [--out out] [--arch sm_90a]

For each `examples/<name>.mlir` and each `examples/python/<name>.py` (a
kernel built in Python; its `build()` and `ARCH`):

1. in process (`tspipe.launch.compile_for_launch`): `tspipe-allocate-smem`
   and, from the ops' attributes, each kernel's launch metadata: warps,
   cluster shape, dynamic shared memory bytes, pipelines (type, stages,
   barrier bytes = 16 * stages, offsets) and tasks;
2. `tspipe.compile.lower_module` -- the compile path of the Python API and
   the tests: `tspipe-to-nvvm`, then `gpu-module-to-binary{format=isa}`; the
   PTX is written to `out/<name>.<arch>.ptx`, the metadata to
   `out/<name>.<arch>.json`;
3. `ptxas -arch=<arch>` (when found) assembles `out/<name>.<arch>.cubin`;
4. a summary table: pipelines, stages, barrier and smem bytes, and static
   counts of the mbarrier / TMA / cp.async / elect.sync instructions;
5. where a GPU is usable (cuda-python importable and a device found), every
   example with a launch spec `examples/<name>.py` runs and is checked
   element by element (`tspipe.runtime.run_examples`). Elsewhere, `out/`
   is ready to be carried to a GPU machine and run there with
   `PYTHONPATH=python python3 -m tspipe.runtime.run_examples out/`.

Needs the compiled bindings (the package as `make install` builds it) and
ptxas as a program. A progress line (`[i/n]`, seconds) is printed per
example.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import runpy
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from tspipe.runtime import ptx as ptxmod
from tspipe.runtime.meta import ExampleMeta, KernelMeta

__all__ = ["main", "compile_example", "find_tspipe_opt", "find_ptxas"]


class DemoError(RuntimeError):
    pass


# --------------------------------------------------------------------------
# Tools
# --------------------------------------------------------------------------

def find_tspipe_opt(explicit: str | None = None, root: Path | None = None
                    ) -> str:
    cands = [explicit, os.environ.get("TSPIPE_OPT")]
    root = root or Path.cwd()
    cands.append(str(root / "build" / "bin" / "tspipe-opt"))
    cands.append(str(Path(sys.prefix) / "bin" / "tspipe-opt"))
    cands.append(shutil.which("tspipe-opt"))
    for c in cands:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return c
    raise DemoError("tspipe-opt not found: build it (make, or cmake --build "
                    "build --target tspipe-opt), pass --tspipe-opt or set "
                    "TSPIPE_OPT")


def find_ptxas(explicit: str | None = None) -> str | None:
    cands = [explicit, os.environ.get("PTXAS"), shutil.which("ptxas")]
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if home:
            cands.append(str(Path(home) / "bin" / "ptxas"))
    # The nvidia-cuda-nvcc wheel (older layout nvidia/cuda_nvcc, CUDA 13
    # layout nvidia/cu13).
    for sp in {sysconfig.get_paths()["purelib"],
               sysconfig.get_paths()["platlib"]}:
        cands += sorted(glob.glob(os.path.join(sp, "nvidia", "*", "bin",
                                               "ptxas")))
    for c in cands:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return c
    return None


def _run(cmd: list[str], what: str) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        err = proc.stderr.strip().splitlines()
        if len(err) > 40:  # crash backtraces: the head says what happened
            err = err[:40] + [f"... ({len(err) - 40} more lines)"]
        raise DemoError(f"{what} failed (exit {proc.returncode}):\n  "
                        + " ".join(cmd) + "\n" + "\n".join(err))
    return proc.stdout


def _tool_version(exe: str) -> str:
    try:
        out = subprocess.run([exe, "--version"], capture_output=True,
                             text=True, timeout=30)
        lines = [ln for ln in (out.stdout + out.stderr).splitlines()
                 if ln.strip()]
        return lines[-1].strip() if lines else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def _git_describe(root: Path) -> str | None:
    try:
        sha = subprocess.run(["git", "-C", str(root), "rev-parse", "--short",
                              "HEAD"], capture_output=True, text=True,
                             timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status",
                                "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True,
                               timeout=10).stdout.strip()
        return (sha + ("-dirty" if dirty else "")) if sha else None
    except (OSError, subprocess.TimeoutExpired):
        return None


def assemble(ptxas: str, ptx_path: Path, arch: str) -> dict:
    """ptxas -arch=<arch> -v: writes the cubin next to the PTX; returns
    {ok, cubin, registers per kernel, info text}."""
    cubin = ptx_path.with_suffix(".cubin")
    cmd = [ptxas, f"-arch={arch}", "-v", "-o", str(cubin), str(ptx_path)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    info = (proc.stdout + proc.stderr).strip()
    res = {"ok": proc.returncode == 0, "command": " ".join(cmd),
           "info": info[-8000:]}
    if proc.returncode == 0:
        res["cubin"] = cubin.name
        regs = {}
        fn = None
        for line in info.splitlines():
            m = re.search(r"Compiling entry function '([^']+)'", line)
            if m:
                fn = m.group(1)
            m = re.search(r"Used (\d+) registers", line)
            if m and fn:
                regs[fn] = int(m.group(1))
        res["registers"] = regs
    elif cubin.exists():
        cubin.unlink()
    return res


# --------------------------------------------------------------------------
# Compiling one example
# --------------------------------------------------------------------------

def _pipeline_arg(debug_hang_timeout: int) -> str:
    if debug_hang_timeout:
        return f"tspipe-to-nvvm{{debug-hang-timeout={debug_hang_timeout}}}"
    return "tspipe-to-nvvm"


def compile_example(src: Path, out_dir: Path, ptxas: str | None,
                    archs: list[str] | None = None,
                    debug_hang_timeout: int = 0, log=print
                    ) -> list[ExampleMeta]:
    """Compiles one example in process (:func:`tspipe.launch.
    compile_for_launch`, the compile path of the Python API); returns the
    metadata of each PTX written."""
    from tspipe.launch import compile_for_launch

    out_dir.mkdir(parents=True, exist_ok=True)
    source = src.read_text()
    if src.suffix == ".py":
        source, default_arch = _python_example(src)
        archs = archs or [default_arch]
    metas = []
    for arch in (archs or [None]):
        kernels, ptx_by_module, _ = compile_for_launch(
            source, arch=arch, debug_hang_timeout=debug_hang_timeout,
            source_path=str(src) if src.suffix == ".mlir" else None)
        metas += _write_outputs(src, kernels, ptx_by_module, arch, out_dir,
                                ptxas, debug_hang_timeout, log)
    return metas


def _python_example(src: Path):
    """The kernel of ``examples/python/<name>.py`` (its ``build()``: a
    TaskManager or a Kernel) and its ``ARCH``."""
    sys.path.insert(0, str(src.parent))
    try:
        module = runpy.run_path(str(src), run_name=f"tspipe_demo_{src.stem}")
        built = module["build"]()
    finally:
        sys.path.remove(str(src.parent))
    kernel = getattr(built, "kernel", built)
    return kernel, module.get("ARCH", kernel.arch)


def _write_outputs(src: Path, kernels, ptx_by_module, arch, out_dir: Path,
                   ptxas, debug_hang_timeout: int, log) -> list[ExampleMeta]:
    """Writes the PTX, cubin and metadata JSON of one compiled example."""
    name = src.stem
    metas = []
    several_binaries = len(ptx_by_module) > 1
    for binary, ptx_text in ptx_by_module.items():
        entries = ptxmod.parse_entries(ptx_text)
        chip = ptxmod.target_of(ptx_text) or arch or "unknown"
        stem = f"{name}.{binary}.{chip}" if several_binaries \
            else f"{name}.{chip}"
        ptx_path = out_dir / f"{stem}.ptx"
        ptx_path.write_text(ptx_text)
        module_kernels = [k for k in kernels
                          if k.gpu_module in (None, binary)]
        known = {k.name for k in module_kernels}
        # Plain gpu.func kernels (no tspipe.kernel) still get an entry.
        for ename, e in entries.items():
            if ename not in known:
                threads = 1
                for v in (e.reqntid or ()):
                    threads *= v
                module_kernels.append(KernelMeta(
                    name=ename, gpu_module=binary, warps=0,
                    block_threads=threads if e.reqntid else 0,
                    smem_bytes=0))
        for k in module_kernels:
            e = entries.get(k.name)
            if e is None:
                raise DemoError(f"{name}: kernel @{k.name} is not an "
                                f"entry of the {chip} PTX")
            k.ptx_params = [{"name": p.name, "type": p.ptx_type,
                             "size": p.size} for p in e.params]
        ptxas_res = {"ok": None, "skipped": "ptxas not found"}
        if ptxas:
            ptxas_res = assemble(ptxas, ptx_path, chip)
            ptxas_res["version"] = _tool_version(ptxas)
        meta = ExampleMeta(
            example=name, arch=chip, source=str(src),
            ptx=ptx_path.name, cubin=ptxas_res.get("cubin"),
            kernels=module_kernels,
            ptx_counts=ptxmod.count_key_instructions(ptx_text),
            ptx_opcodes=ptxmod.opcode_histogram(ptx_text),
            ptxas=ptxas_res,
            tool={"compiler": "tspipe.compile.lower_module",
                  "pipeline": _pipeline_arg(debug_hang_timeout),
                  "features": ptxmod.ptx_version_of(ptx_text),
                  "debug_hang_timeout": debug_hang_timeout,
                  "git": _git_describe(src.resolve().parent),
                  "date": time.strftime("%Y-%m-%d %H:%M:%S")},
        )
        meta.save(out_dir / f"{stem}.json")
        metas.append(meta)
        status = ("ptxas ok" if ptxas_res["ok"] else
                  "ptxas FAILED" if ptxas_res["ok"] is False else
                  "ptxas skipped")
        log(f"  {ptx_path}  ({len(ptx_text.splitlines())} lines, "
            f"{status})")
        if ptxas_res["ok"] is False:
            log(ptxas_res["info"])
    return metas


# --------------------------------------------------------------------------
# Summary
# --------------------------------------------------------------------------

_COUNT_COLUMNS = [("mbarrier.init", "mbar.init"),
                  ("mbarrier.try_wait", "try_wait"),
                  ("mbarrier.arrive", "arrive"),
                  ("expect_tx", "expect_tx"),
                  ("cp.async", "cp.async"),
                  ("cp.async.bulk", "cp.async.bulk"),
                  ("elect.sync", "elect.sync")]


def summary_rows(metas: list[ExampleMeta]) -> list[list[str]]:
    rows = []
    for m in metas:
        counts = [str(m.ptx_counts.get(key, 0)) for key, _ in _COUNT_COLUMNS]
        ptxas = {True: "ok", False: "FAIL", None: "-"}[m.ptxas.get("ok")]
        for k in m.kernels:
            pipes = k.pipelines or [None]
            for i, p in enumerate(pipes):
                first = i == 0
                rows.append([
                    m.example if first else "",
                    k.name if first else "",
                    m.arch if first else "",
                    str(k.warps) if first else "",
                    "x".join(map(str, k.cluster)) if first else "",
                    p.name if p else "-",
                    p.type if p else "-",
                    str(p.num_stages) if p else "-",
                    str(p.barrier_bytes) if p else "-",
                    str(k.smem_bytes) if first else "",
                    *(counts if first else [""] * len(counts)),
                    ptxas if first else "",
                ])
    return rows


def format_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(header)]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in  # noqa: E731
                                       zip(r, widths)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), sep] + [line(r) for r in rows])


SUMMARY_HEADER = ["example", "kernel", "arch", "warps", "cluster",
                  "pipeline", "type", "stages", "barrier B", "smem B",
                  *[short for _, short in _COUNT_COLUMNS], "ptxas"]


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tspipe.demo",
        description="Compile the examples to PTX, summarize, run on a GPU.")
    ap.add_argument("--examples", default="examples",
                    help="folder of <name>.mlir examples (and <name>.py "
                    "launch specs)")
    ap.add_argument("--out", default="out", help="output folder")
    ap.add_argument("--only", action="append",
                    help="only this example (repeatable)")
    ap.add_argument("--arch", action="append",
                    help="retarget the gpu.modules to this chip (repeatable, "
                    "e.g. --arch sm_90a --arch sm_100a); default: the "
                    "targets written in each example")
    ap.add_argument("--tspipe-opt", help="accepted for compatibility; the "
                    "examples are compiled in process")
    ap.add_argument("--ptxas", help="ptxas executable")
    ap.add_argument("--no-ptxas", action="store_true")
    ap.add_argument("--debug-hang-timeout", type=int, default=0,
                    help="lower with bounded waits that trap after N polls")
    ap.add_argument("--no-run", action="store_true",
                    help="do not run on a GPU even if one is present")
    ap.add_argument("--run-mode", choices=("check", "bandwidth", "all"),
                    default="check",
                    help="what to run on a local GPU (default: check)")
    args = ap.parse_args(argv)

    examples_dir = Path(args.examples)
    out_dir = Path(args.out)
    sources = sorted(examples_dir.glob("*.mlir"))
    # Kernels written in Python (TS code ported by changing imports).
    sources += sorted(p for p in (examples_dir / "python").glob("*.py")
                      if not p.name.startswith("_"))
    if args.only:
        unknown = sorted(set(args.only) - {s.stem for s in sources})
        if unknown:
            print(f"no example named {', '.join(unknown)} in {examples_dir}; "
                  f"the examples are: {', '.join(s.stem for s in sources)}")
            return 1
        sources = [s for s in sources if s.stem in args.only]
    if not sources:
        print(f"no examples (*.mlir) in {examples_dir}")
        return 1
    ptxas = None if args.no_ptxas else find_ptxas(args.ptxas)
    print("compiler:   tspipe.compile (in process)")
    print(f"ptxas:      {ptxas or 'not found (PTX is not assembled)'}"
          + (f"  [{_tool_version(ptxas)}]" if ptxas else ""))

    failures = []
    metas: list[ExampleMeta] = []
    for index, src in enumerate(sources, 1):
        print(f"== [{index}/{len(sources)}] {src}", flush=True)
        started = time.monotonic()
        try:
            metas += compile_example(src, out_dir, ptxas, args.arch,
                                     args.debug_hang_timeout)
        except (DemoError, ValueError, RuntimeError) as e:
            # RuntimeError: tspipe.ts.errors.CompileError (not imported here,
            # so that the demo imports without the extension); every pipeline
            # type lowers, so it is a failure like the others.
            failures.append(src.stem)
            print(f"  FAILED: {e}")
        print(f"   ({time.monotonic() - started:.1f} s)", flush=True)
    for m in metas:
        if m.ptxas.get("ok") is False:
            failures.append(f"{m.example} ({m.arch}): ptxas")

    if metas:
        print()
        print(format_table(SUMMARY_HEADER, summary_rows(metas)))
        print()
        print("counts are static PTX instructions; 'arrive' includes "
              "arrive.expect_tx, 'cp.async' excludes the bulk (TMA) forms.")

    ran = None
    if not args.no_run and metas:
        from tspipe.runtime import launcher as rt
        ok, why = rt.is_available()
        if ok:
            print(f"\nGPU found ({why}): running the examples")
            from tspipe.runtime import run_examples
            ran = run_examples.main([str(out_dir), "--examples",
                                     str(examples_dir), "--mode",
                                     args.run_mode, "--results",
                                     str(out_dir)]
                                    + sum((["--only", s.stem]
                                           for s in sources), []))
            if ran != 0:
                failures.append("GPU run")
        else:
            print(f"\nno GPU here ({why}).")
            print(f"{out_dir}/ holds the PTX, cubins and launch metadata; on "
                  "a GPU machine run:\n  PYTHONPATH=python python3 -m "
                  f"tspipe.runtime.run_examples {out_dir}/")

    if failures:
        print(f"\nFAILED: {', '.join(failures)}")
        return 1
    print(f"\ndemo ok: {len(metas)} PTX module(s) in {out_dir}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
