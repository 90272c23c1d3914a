"""The builds of the Hopper GEMM (examples/python/hopper_gemm.py) that
bench/gemm_bench.py compares, and their compilation on the CPU machine.

    python bench/gemm_variants.py OUT [--only NAME ...]

writes ``OUT/<kernel>.sm_90a.{ptx,cubin,json}`` for every variant (the
files ``make demo`` writes for the default build, through the same
compile path, ``tspipe.demo``), assembled with ptxas where it is found.
``VARIANTS`` (kernel name -> build options and what the launch needs) is
plain data, read by gemm_bench.py on the GPU machine without the compiled
extension.

Variants (``build()`` options; docs/gemm.md):

* ``hopper_gemm``: the default, 4 stages of K 64, TMA-store epilogue with
  two 4 KiB buffers per warpgroup, CTA-scope stage releases, each stage
  released one iteration after its wait (the deferred release: the next
  stage's MMAs are in flight while the stage's own retire), raster groups
  of 8 tile pairs along M;
* ``hopper_gemm_drain``: the default with the drained release (every
  stage's MMAs waited for, ``wgmma.wait_group 0``, before its release in
  the same iteration);
* ``hopper_gemm_k128x2``: 2 stages of K 128 (two 64-wide sub-slices),
  deferred release; ``hopper_gemm_k128x2_drain``: the same drained (the
  stage shape and release of the earlier record);
* ``hopper_gemm_g32``: raster groups of 32 tile pairs (the whole M extent
  of the 4096 and 8192 shapes: the tile order of the earlier record);
* ``hopper_gemm_c3``: three epilogue buffers per warpgroup;
* ``hopper_gemm_regs``: the register epilogue (each thread stores its bf16
  pairs);
* ``hopper_gemm_cluster_release``: the default with cluster-scope releases;
* ``hopper_gemm_nn``: B stored K x N (transposed B, ``nvgpu.warpgroup.mma``
  with transpose-B), 4 stages of K 64, deferred release.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCH = "sm_90a"

# name -> build() options, K per stage (kt = K / stage_k) and the layout of
# B ("t": N x K row-major, "n": K x N row-major).
VARIANTS = {
    "hopper_gemm": {"build": {}, "stage_k": 64, "b_layout": "t"},
    "hopper_gemm_drain": {"build": {"release": "drain"}, "stage_k": 64,
                          "b_layout": "t"},
    "hopper_gemm_k128x2": {"build": {"k_sub": 2, "num_stages": 2},
                           "stage_k": 128, "b_layout": "t"},
    "hopper_gemm_k128x2_drain": {
        "build": {"k_sub": 2, "num_stages": 2, "release": "drain"},
        "stage_k": 128, "b_layout": "t"},
    "hopper_gemm_g32": {"build": {"group_m": 32}, "stage_k": 64,
                        "b_layout": "t"},
    "hopper_gemm_c3": {"build": {"c_bufs": 3}, "stage_k": 64,
                       "b_layout": "t"},
    "hopper_gemm_regs": {"build": {"epilogue": "registers"},
                         "stage_k": 64, "b_layout": "t"},
    "hopper_gemm_cluster_release": {
        "build": {"remote_arrive_scope": "cluster"},
        "stage_k": 64, "b_layout": "t"},
    "hopper_gemm_nn": {"build": {"b_layout": "n"}, "stage_k": 64,
                       "b_layout": "n"},
}


def _example():
    """examples/python/hopper_gemm.py as a module."""
    import importlib.util
    folder = ROOT / "examples" / "python"
    sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location("hopper_gemm_variants",
                                                  folder / "hopper_gemm.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # for its dataclasses
    spec.loader.exec_module(module)
    return module


def compile_variants(out: Path, names, log=print) -> int:
    """Compiles the variants ``names`` into ``out``; returns the number of
    failures (a build error, a name that does not match the options, or
    ptxas rejecting the PTX)."""
    from tspipe import demo
    from tspipe.launch import compile_for_launch

    gemm = _example()
    ptxas = demo.find_ptxas()
    failures = 0
    for name in names:
        options = VARIANTS[name]["build"]
        built = gemm.build(**options)
        if built.kernel.name != name:
            log(f"{name}: build({options}) names its kernel "
                f"{built.kernel.name!r}")
            failures += 1
            continue
        kernels, ptx_by_module, _ = compile_for_launch(built.kernel, arch=ARCH)
        # The outputs are named after the kernel, as make demo names them
        # after the example (the stem of this path).
        src = ROOT / "examples" / "python" / f"{name}.py"
        metas = demo._write_outputs(src, kernels,
                                    ptx_by_module, ARCH, out, ptxas, 0, log)
        failures += sum(1 for m in metas if m.ptxas.get("ok") is False)
    return failures


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out", type=Path)
    p.add_argument("--only", nargs="*", choices=sorted(VARIANTS),
                   default=list(VARIANTS))
    opts = p.parse_args(argv)
    opts.out.mkdir(parents=True, exist_ok=True)
    return 1 if compile_variants(opts.out, opts.only) else 0


if __name__ == "__main__":
    sys.exit(main())
