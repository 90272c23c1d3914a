"""tspipe.runtime: load and launch compiled tspipe kernels on a GPU.

Pure Python on top of cuda-python's driver API (`cuda.bindings.driver`, or
`cuda.cuda` for older cuda-python) and numpy. It does not import the compiled
`tspipe` extension, so it runs on a machine that only has the PTX / cubin and
metadata written by `make demo`:

    PYTHONPATH=python python3 -m tspipe.runtime.run_examples out/

cuda-python is loaded on first use; importing this package never needs it.
"""

from ._driver import CudaError, CudaUnavailable
from .checks import CheckFailure, compare_exact, compare_fp32
from .launcher import (
    DeviceArray,
    DeviceInfo,
    Kernel,
    KernelTimeout,
    Module,
    Stream,
    device_info,
    init,
    is_available,
    launch,
    pack_args,
    synchronize,
    time_callable_samples,
    time_kernel,
    time_kernel_samples,
)
from .meta import ExampleMeta, KernelMeta, PipelineMeta

__all__ = [
    "CudaError",
    "CudaUnavailable",
    "KernelTimeout",
    "CheckFailure",
    "compare_exact",
    "compare_fp32",
    "DeviceArray",
    "DeviceInfo",
    "Kernel",
    "Module",
    "Stream",
    "device_info",
    "init",
    "is_available",
    "launch",
    "pack_args",
    "synchronize",
    "time_callable_samples",
    "time_kernel",
    "time_kernel_samples",
    "ExampleMeta",
    "KernelMeta",
    "PipelineMeta",
]
