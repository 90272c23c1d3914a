"""GPU check of the kernels on which TS 4.8.1 and tspipe disagree
(test/gpu/ts_verdicts.mlir; docs/gpu-runs.md, TS verdicts on the GPU).

Here (tspipe installed), lower every kernel to PTX with the progress check
off and a debug hang timeout::

    .venv/bin/python test/gpu/run_ts_verdicts.py build out/ts_verdicts

On the GPU machine (PYTHONPATH=python; no tspipe-opt needed)::

    PYTHONPATH=python python3 test/gpu/run_ts_verdicts.py run out/ts_verdicts

Each kernel runs in its own process (a trap spoils the CUDA context), on
one CTA, under a watchdog. Expected: the kernels tspipe rejects
(split_release, warp_lane_hang) trap after printing where they hung; the
kernels it accepts (warp_lane_balanced, domain_lanes_balanced) complete. Exit status 0 when every
kernel does what tspipe's verdict says.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# name: (warps, stages, tspipe's verdict). Dynamic shared memory: the
# stages' full and empty mbarriers, 8 bytes each (no data buffers).
KERNELS = {
    "split_release": (3, 1, "hang"),
    "warp_lane_hang": (5, 4, "hang"),
    "warp_lane_balanced": (3, 2, "completes"),
    "domain_lanes_balanced": (4, 2, "completes"),
}

# Polls before a blocking wait gives up (about 4 s on an H200).
HANG_TIMEOUT = 1000000


def build(out_dir):
    from tspipe import ir, passmanager
    from tspipe.dialects import gpu

    os.makedirs(out_dir, exist_ok=True)
    text = open(os.path.join(HERE, "ts_verdicts.mlir")).read()
    for chunk in text.split("// -----"):
        with ir.Context(), ir.Location.unknown():
            module = ir.Module.parse(chunk)
            passmanager.PassManager.parse(
                "builtin.module(tspipe-to-nvvm{debug-hang-timeout=%d "
                "check-progress=0})" % HANG_TIMEOUT).run(module.operation)
            passmanager.PassManager.parse(
                "builtin.module(gpu-module-to-binary{format=isa})").run(
                    module.operation)
            for op in module.body.operations:
                if op.operation.name != "gpu.binary":
                    continue
                name = ir.StringAttr(op.operation.attributes["sym_name"]).value
                for obj in ir.ArrayAttr(op.operation.attributes["objects"]):
                    ptx = gpu.ObjectAttr(obj).object.decode("utf-8")
                    with open(os.path.join(out_dir, name + ".ptx"), "w") as f:
                        f.write(ptx)
                    print(f"wrote {name}.ptx")


def run_one(path, name):
    """Child process: launch one kernel; prints a JSON outcome."""
    import numpy as np  # noqa: F401  (the launcher packs numpy scalars)
    from tspipe.runtime import launcher as rt

    warps, stages, _ = KERNELS[name]
    kernel = rt.Module.from_ptx(open(path).read(), origin=path).kernel(name)
    try:
        rt.launch(kernel, grid=(1, 1, 1), block=(32 * warps, 1, 1),
                  smem_bytes=16 * stages, timeout=60.0)
        outcome = "completes"
    except rt.KernelTimeout:
        outcome = "silent hang"
    except rt.CudaError as e:
        outcome = f"hang (trapped: {e})"
    print(json.dumps({"kernel": name, "outcome": outcome}), flush=True)


def run(out_dir):
    failures = 0
    for name, (_, _, expected) in KERNELS.items():
        path = os.path.join(out_dir, name + ".ptx")
        proc = subprocess.run([sys.executable, __file__, "one", path, name],
                              capture_output=True, text=True, timeout=120)
        lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
        outcome = json.loads(lines[-1])["outcome"] if lines else \
            f"no result (exit {proc.returncode})"
        ok = outcome.startswith(expected)
        failures += not ok
        hangs = [l for l in proc.stdout.splitlines() if "tspipe: hang" in l]
        print(f"{'PASS' if ok else 'FAIL'} {name}: expected {expected}, got "
              f"{outcome}")
        for line in sorted(set(hangs)):
            print(f"    {line}")
        if proc.stderr.strip():
            print("    stderr: " + proc.stderr.strip()[-500:])
    return 1 if failures else 0


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "build":
        build(sys.argv[2])
    elif mode == "run":
        sys.exit(run(sys.argv[2]))
    elif mode == "one":
        run_one(sys.argv[2], sys.argv[3])
    else:
        sys.exit(f"unknown mode {mode!r}: build, run or one")
