"""GPU check of the debug hang timeout (run on a GPU machine).

    PYTHONPATH=python python3 test/gpu/run_hang.py out/hang_domain_mismatch.sm_90a.ptx

The PTX comes from test/gpu/hang_domain_mismatch.mlir lowered with
`--tspipe-to-nvvm="debug-hang-timeout=N check-progress=0"` (the progress
checker would reject it first): its consumer waits for one stage more
than its producer fills, so that blocking wait gives up. The expected outcome is a launch that fails with a
trap (CUDA_ERROR_LAUNCH_FAILED or CUDA_ERROR_ILLEGAL_INSTRUCTION) well
within the watchdog, after the kernel printed which task, pipeline, barrier,
stage and phase it hung on. A silent hang (KernelTimeout) or a normal
completion is a failure. Exit status 0 on the expected outcome.
"""

import sys

import numpy as np

from tspipe.runtime import launcher as rt


# Dynamic shared memory of the kernel: 2 stages x (full + empty) mbarriers of
# 8 bytes (the `smem_bytes` tspipe-allocate-smem sets on its tspipe.kernel).
SMEM_BYTES = 32


def main(path):
    kernel = rt.Module.from_ptx(open(path).read(), origin=path).kernel(
        "hang_domain_mismatch")
    y = rt.DeviceArray.empty(1, np.float32)
    try:
        rt.launch(kernel, grid=(1, 1, 1), block=(64, 1, 1),
                  args=[y, np.int64(8)], smem_bytes=SMEM_BYTES, timeout=60.0)
    except rt.KernelTimeout:
        print("FAIL: the kernel hung silently (watchdog fired)")
        return 1
    except rt.CudaError as e:
        print(f"PASS: the kernel trapped instead of hanging: {e}")
        return 0
    print("FAIL: the kernel completed although its consumer waits for a stage nobody fills")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
