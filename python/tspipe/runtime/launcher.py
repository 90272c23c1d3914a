"""Loading PTX / cubin and launching kernels through cuda-python's driver API.

Everything goes through `cuda.bindings.driver` (or the older `cuda.cuda`);
launch arguments are packed with numpy (one small host buffer per argument
and a `void*[]` array of their addresses), never with ctypes bindings to
libcuda.

    from tspipe import runtime as rt
    mod = rt.Module.from_ptx(open("out/tma_stream.sm_90a.ptx").read())
    k = mod.kernel("tma_stream")
    x = rt.DeviceArray.from_numpy(xs)
    y = rt.DeviceArray.empty(xs.shape, np.float32)
    rt.launch(k, grid=(132, 1, 1), block=(160, 1, 1),
              args=[x, y, np.float32(2), np.float32(1), np.int64(8)],
              smem_bytes=65664, timeout=10.0)
    ys = y.to_numpy()

The context is the device's primary context (the one PyTorch and CuPy use),
made current on first use.
"""

from __future__ import annotations

import math
import os
import statistics
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from . import ptx as _ptx
from ._driver import CudaError, CudaUnavailable, call, driver

__all__ = [
    "CudaError",
    "CudaUnavailable",
    "KernelTimeout",
    "DeviceInfo",
    "is_available",
    "init",
    "device_info",
    "Module",
    "Kernel",
    "DeviceArray",
    "Stream",
    "launch",
    "launch_attributes",
    "synchronize",
    "time_kernel",
    "time_kernel_samples",
    "time_callable_samples",
    "pack_args",
]

# Dynamic shared memory above this needs an explicit opt-in per function.
_DEFAULT_SMEM_LIMIT = 48 * 1024

# Set once a watchdog fired: frees (which synchronize) are skipped after it.
_hung = False


class KernelTimeout(CudaError):
    """Work on a stream did not finish within the watchdog's time limit.

    The kernel is most likely hung (a barrier that never completes); the
    context cannot be recovered: report, then end the process."""

    def __init__(self, seconds: float, what: str = ""):
        global _hung
        _hung = True  # from now on, never call anything that synchronizes
        super().__init__("TSPIPE_WATCHDOG_TIMEOUT", None, "synchronize",
                         f"{what or 'stream'} did not complete within "
                         f"{seconds:g} s (kernel hung?)")
        self.seconds = seconds


# --------------------------------------------------------------------------
# Context and device
# --------------------------------------------------------------------------

@dataclass
class DeviceInfo:
    ordinal: int
    name: str
    compute_capability: tuple[int, int]
    sm_count: int
    max_smem_per_block_optin: int
    max_smem_per_sm: int
    l2_bytes: int
    global_mem_bytes: int
    driver_version: int
    cuda_python: str

    @property
    def arch(self) -> str:
        major, minor = self.compute_capability
        suffix = "a" if major >= 9 else ""
        return f"sm_{major}{minor}{suffix}"

    def to_json(self) -> dict:
        d = dict(self.__dict__)
        d["compute_capability"] = list(self.compute_capability)
        d["arch"] = self.arch
        return d


_ctx_lock = threading.Lock()
_ctx = None
_device = None
_ordinal = 0
_device_info: DeviceInfo | None = None


def init(ordinal: int | None = None):
    """Initializes the driver and makes device `ordinal`'s primary context
    current (once per process; later calls only make it current again on the
    calling thread). Returns the context handle."""
    global _ctx, _device, _ordinal
    if ordinal is None:
        ordinal = int(os.environ.get("TSPIPE_DEVICE", "0"))
    with _ctx_lock:
        if _ctx is None:
            call("cuInit", 0)
            count = call("cuDeviceGetCount")
            if count == 0:
                raise CudaUnavailable("the driver reports no CUDA device")
            _device = call("cuDeviceGet", ordinal)
            _ordinal = ordinal
            _ctx = call("cuDevicePrimaryCtxRetain", _device)
        call("cuCtxSetCurrent", _ctx)
    return _ctx


def is_available() -> tuple[bool, str]:
    """(True, device name) when a CUDA device can be used from this process,
    else (False, why not). Never raises."""
    try:
        init()
        return True, device_info().name
    except BaseException as e:  # noqa: BLE001 - any failure means "no"
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        reason = getattr(e, "reason", None) or f"{type(e).__name__}: {e}"
        return False, reason.strip().splitlines()[0] if reason else "unknown"


def _attr(name: str, default: int = 0) -> int:
    drv = driver()
    try:
        return int(call("cuDeviceGetAttribute",
                        getattr(drv.CUdevice_attribute, name), _device))
    except (CudaError, AttributeError):
        return default


def device_info() -> DeviceInfo:
    """Facts about the current device (initializes the driver if needed)."""
    global _device_info
    init()
    if _device_info is not None:
        return _device_info
    raw = call("cuDeviceGetName", 256, _device)
    name = bytes(raw).split(b"\0", 1)[0].decode(errors="replace").strip()
    modname = getattr(driver(), "__name__", "?")
    try:
        if modname.startswith("cuda.bindings"):
            import cuda.bindings as _cb  # noqa: PLC0415
            cp_version = f"cuda-bindings {_cb.__version__}"
        else:
            import cuda as _cuda  # noqa: PLC0415
            cp_version = f"{modname} {getattr(_cuda, '__version__', '?')}"
    except (ImportError, AttributeError):
        cp_version = modname
    _device_info = DeviceInfo(
        ordinal=_ordinal,
        name=name,
        compute_capability=(
            _attr("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR"),
            _attr("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR")),
        sm_count=_attr("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT"),
        max_smem_per_block_optin=_attr(
            "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"),
        max_smem_per_sm=_attr(
            "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR"),
        l2_bytes=_attr("CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE"),
        global_mem_bytes=int(call("cuDeviceTotalMem", _device)),
        driver_version=int(call("cuDriverGetVersion")),
        cuda_python=str(cp_version),
    )
    return _device_info


# --------------------------------------------------------------------------
# Modules and kernels
# --------------------------------------------------------------------------

class Module:
    """A loaded CUDA module (from PTX text, which the driver JIT-compiles, or
    from a cubin). Keeps the PTX text when it has it, so that kernels can
    check their launch arguments against the entry's parameters."""

    def __init__(self, handle, ptx_text: str | None = None, origin: str = ""):
        self.handle = handle
        self.ptx_text = ptx_text
        self.origin = origin
        self.entries = _ptx.parse_entries(ptx_text) if ptx_text else {}
        self._kernels: dict[str, Kernel] = {}

    @classmethod
    def from_ptx(cls, text: str | bytes, origin: str = "<ptx>") -> "Module":
        if isinstance(text, bytes):
            text = text.decode()
        image = np.frombuffer(text.encode() + b"\0", dtype=np.uint8).copy()
        return cls(_load_image(image, origin), text, origin)

    @classmethod
    def from_cubin(cls, data: bytes, ptx_text: str | None = None,
                   origin: str = "<cubin>") -> "Module":
        image = np.frombuffer(bytes(data), dtype=np.uint8).copy()
        return cls(_load_image(image, origin), ptx_text, origin)

    @classmethod
    def from_file(cls, path: str | os.PathLike,
                  ptx_path: str | os.PathLike | None = None) -> "Module":
        """Loads `.ptx` text or a `.cubin`; for a cubin, `ptx_path` (default:
        the same name with `.ptx`) supplies the parameter lists if present."""
        path = Path(path)
        if path.suffix == ".ptx":
            return cls.from_ptx(path.read_text(), str(path))
        ptx_file = Path(ptx_path) if ptx_path else path.with_suffix(".ptx")
        ptx_text = ptx_file.read_text() if ptx_file.exists() else None
        return cls.from_cubin(path.read_bytes(), ptx_text, str(path))

    def kernel(self, name: str) -> "Kernel":
        if name not in self._kernels:
            init()
            handle = call("cuModuleGetFunction", self.handle, name.encode())
            self._kernels[name] = Kernel(self, name, handle,
                                         self.entries.get(name))
        return self._kernels[name]

    def unload(self):
        if self.handle is not None:
            try:
                call("cuModuleUnload", self.handle)
            finally:
                self.handle = None


def _load_image(image: np.ndarray, origin: str):
    init()
    drv = driver()
    log = bytearray(16384)
    try:
        opts = [drv.CUjit_option.CU_JIT_ERROR_LOG_BUFFER,
                drv.CUjit_option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES]
        res, *rest = drv.cuModuleLoadDataEx(image.ctypes.data, len(opts),
                                            opts, [log, len(log)])
    except TypeError:
        # Bindings that do not take a writable log buffer: load without it.
        res, *rest = drv.cuModuleLoadData(image.ctypes.data)
    if int(res) != 0:
        text = bytes(log).split(b"\0", 1)[0].decode(errors="replace")
        from ._driver import result_name
        raise CudaError(result_name(res), int(res), "cuModuleLoadDataEx",
                        f"loading {origin}" + (f"\nJIT log:\n{text}" if text
                                               else ""))
    return rest[0]


class Kernel:
    """A kernel (CUfunction) of a loaded Module."""

    def __init__(self, module: Module, name: str, handle,
                 entry: _ptx.PtxEntry | None):
        self.module = module
        self.name = name
        self.handle = handle
        self.entry = entry
        self._smem_optin = _DEFAULT_SMEM_LIMIT

    def attribute(self, name: str) -> int:
        """A CU_FUNC_ATTRIBUTE_* value, e.g. ``"NUM_REGS"``."""
        drv = driver()
        attr = getattr(drv.CUfunction_attribute, f"CU_FUNC_ATTRIBUTE_{name}")
        return int(call("cuFuncGetAttribute", attr, self.handle))

    def allow_dynamic_smem(self, nbytes: int):
        """Opts the kernel in to `nbytes` of dynamic shared memory (needed
        above 48 KiB)."""
        if nbytes <= self._smem_optin:
            return
        drv = driver()
        call("cuFuncSetAttribute", self.handle,
             drv.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
             int(nbytes))
        self._smem_optin = int(nbytes)

    def max_active_ctas_per_sm(self, block_threads: int,
                               smem_bytes: int) -> int:
        self.allow_dynamic_smem(smem_bytes)
        return int(call("cuOccupancyMaxActiveBlocksPerMultiprocessor",
                        self.handle, int(block_threads), int(smem_bytes)))

    def check_args(self, args: Sequence) -> None:
        """Compares the argument count and sizes with the PTX entry (when the
        module has PTX text); raises TypeError on a mismatch."""
        if self.entry is None:
            return
        params = self.entry.params
        if len(args) != len(params):
            raise TypeError(
                f"kernel {self.name} takes {len(params)} parameters "
                f"({', '.join(p.ptx_type for p in params)}), got {len(args)} "
                "arguments")
        for i, (a, p) in enumerate(zip(args, params)):
            size = _arg_nbytes(a)
            if size != p.size:
                raise TypeError(
                    f"kernel {self.name} parameter {i} ({p.name}) is "
                    f".{p.ptx_type} ({p.size} bytes); argument {i} packs to "
                    f"{size} bytes ({type(a).__name__})")

    def __repr__(self):
        return f"<Kernel {self.name} of {self.module.origin}>"


# --------------------------------------------------------------------------
# Device memory
# --------------------------------------------------------------------------

class DeviceArray:
    """A linear device allocation (cuMemAlloc) with a numpy shape and dtype.

    Passed as a kernel argument it becomes its 64-bit device address."""

    def __init__(self, shape, dtype=np.uint8):
        init()
        self.shape = tuple(shape) if isinstance(shape, Iterable) else (shape,)
        self.dtype = np.dtype(dtype)
        self.nbytes = int(math.prod(self.shape)) * self.dtype.itemsize
        self._ptr = call("cuMemAlloc", max(self.nbytes, 1))
        self.ptr = int(self._ptr)

    @classmethod
    def empty(cls, shape, dtype=np.float32) -> "DeviceArray":
        return cls(shape, dtype)

    @classmethod
    def zeros(cls, shape, dtype=np.float32) -> "DeviceArray":
        a = cls(shape, dtype)
        a.fill_bytes(0)
        return a

    @classmethod
    def from_numpy(cls, host: np.ndarray) -> "DeviceArray":
        host = np.ascontiguousarray(host)
        a = cls(host.shape, host.dtype)
        a.copy_from(host)
        return a

    @property
    def size(self) -> int:
        return int(math.prod(self.shape))

    def copy_from(self, host: np.ndarray):
        host = np.ascontiguousarray(host)
        if host.nbytes != self.nbytes:
            raise ValueError(f"host array has {host.nbytes} bytes, device "
                             f"array {self.nbytes}")
        call("cuMemcpyHtoD", self._ptr, host.ctypes.data, self.nbytes)

    def copy_to(self, host: np.ndarray):
        if not host.flags.c_contiguous or host.nbytes != self.nbytes:
            raise ValueError("destination must be C-contiguous with "
                             f"{self.nbytes} bytes")
        call("cuMemcpyDtoH", host.ctypes.data, self._ptr, self.nbytes)
        return host

    def to_numpy(self) -> np.ndarray:
        host = np.empty(self.shape, self.dtype)
        return self.copy_to(host)

    def fill_bytes(self, value: int):
        call("cuMemsetD8", self._ptr, int(value) & 0xFF, self.nbytes)

    def fill_u32(self, bits: int):
        """Fills with a 32-bit pattern (e.g. a NaN sentinel for float32)."""
        if self.nbytes % 4:
            raise ValueError("size is not a multiple of 4 bytes")
        call("cuMemsetD32", self._ptr, int(bits) & 0xFFFFFFFF,
             self.nbytes // 4)

    def copy_from_device(self, other: "DeviceArray", nbytes: int | None = None,
                         stream: "Stream | None" = None):
        n = self.nbytes if nbytes is None else int(nbytes)
        call("cuMemcpyDtoDAsync", self._ptr, other._ptr, n,
             _stream_handle(stream))

    def free(self):
        if getattr(self, "_ptr", None) is not None:
            ptr, self._ptr = self._ptr, None
            if not _hung:  # cuMemFree would wait for the hung kernel
                call("cuMemFree", ptr)

    def __del__(self):
        try:
            self.free()
        except Exception:  # noqa: BLE001 - interpreter shutdown, dead context
            pass

    def __repr__(self):
        return (f"<DeviceArray 0x{self.ptr:x} shape={self.shape} "
                f"dtype={self.dtype}>")


# --------------------------------------------------------------------------
# Streams, events, watchdog
# --------------------------------------------------------------------------

class Stream:
    """A non-blocking stream. `None` anywhere a stream is taken means the
    legacy default stream (the one PyTorch and CuPy use by default)."""

    def __init__(self):
        init()
        drv = driver()
        self.handle = call("cuStreamCreate",
                           int(drv.CUstream_flags.CU_STREAM_NON_BLOCKING))

    def synchronize(self, timeout: float | None = None):
        synchronize(self, timeout)

    def destroy(self):
        if self.handle is not None:
            h, self.handle = self.handle, None
            call("cuStreamDestroy", h)


def _stream_handle(stream):
    if stream is None:
        return driver().CUstream(0)
    if isinstance(stream, Stream):
        return stream.handle
    if isinstance(stream, int):
        return driver().CUstream(stream)
    return stream  # a CUstream already


def _event(flags=None):
    drv = driver()
    if flags is None:
        flags = drv.CUevent_flags.CU_EVENT_DEFAULT
    return call("cuEventCreate", int(flags))


def _wait_event(event, timeout: float | None, what: str):
    """Waits for `event` by polling, so that a hang is reported after
    `timeout` seconds instead of blocking forever."""
    drv = driver()
    if timeout is None:
        call("cuEventSynchronize", event)
        return
    not_ready = int(drv.CUresult.CUDA_ERROR_NOT_READY)
    deadline = time.monotonic() + timeout
    delay = 1e-5
    while True:
        (res,) = drv.cuEventQuery(event)
        code = int(res)
        if code == 0:
            return
        if code != not_ready:
            from ._driver import result_name
            raise CudaError(result_name(res), code, "cuEventQuery",
                            f"while waiting for {what}")
        if time.monotonic() > deadline:
            raise KernelTimeout(timeout, what)
        time.sleep(delay)
        delay = min(delay * 2, 0.01)


def synchronize(stream=None, timeout: float | None = 60.0,
                what: str = "stream"):
    """Waits for all work queued on `stream` (None: the legacy default stream).
    With `timeout` (seconds) a watchdog raises KernelTimeout instead of waiting
    forever; `timeout=None` blocks."""
    init()
    ev = _event(driver().CUevent_flags.CU_EVENT_DISABLE_TIMING)
    try:
        call("cuEventRecord", ev, _stream_handle(stream))
        _wait_event(ev, timeout, what)
    finally:
        try:
            call("cuEventDestroy", ev)
        except CudaError:
            pass


# --------------------------------------------------------------------------
# Argument packing and launch
# --------------------------------------------------------------------------

def _arg_holder(a) -> np.ndarray:
    holder = getattr(a, "holder", None)
    if callable(holder):  # a TensorMap: 128 bytes by value, 64-aligned
        return holder()
    if isinstance(a, DeviceArray):
        return np.array([a.ptr], dtype=np.uint64)
    if isinstance(a, np.generic):
        return np.array([a], dtype=a.dtype)
    if isinstance(a, np.ndarray) and a.ndim == 0:
        return a.reshape(1).copy()
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:  # torch / cupy / numba device arrays
        return np.array([cai["data"][0]], dtype=np.uint64)
    try:
        drv = driver()
        if isinstance(a, drv.CUdeviceptr):
            return np.array([int(a)], dtype=np.uint64)
    except CudaUnavailable:
        pass
    if isinstance(a, (bool, int, float)):
        raise TypeError(
            f"kernel argument {a!r} is a Python {type(a).__name__}: pass a "
            "numpy scalar (np.float32, np.int32, np.int64, ...) so that its "
            "PTX type is explicit")
    raise TypeError(f"cannot pass {type(a).__name__} as a kernel argument")


def _arg_nbytes(a) -> int:
    return int(_arg_holder(a).nbytes)


def pack_args(args: Sequence):
    """Packs launch arguments: returns (holders, params) where `params` is a
    uint64 array of the holders' addresses (the driver's `void**`). Keep both
    alive until the launch call returns."""
    holders = [_arg_holder(a) for a in args]
    params = np.array([h.ctypes.data for h in holders] or [0],
                      dtype=np.uint64)
    return holders, params


def _dim3(v) -> tuple[int, int, int]:
    if isinstance(v, (int, np.integer)):
        return (int(v), 1, 1)
    t = tuple(int(x) for x in v)
    if not 1 <= len(t) <= 3:
        raise ValueError(f"bad dimensions {v!r}")
    return t + (1,) * (3 - len(t))


def launch(kernel: Kernel, grid, block, args: Sequence = (),
           smem_bytes: int = 0, cluster=(1, 1, 1), stream=None,
           timeout: float | None = None, pdl: bool = False):
    """Launches `kernel` on `grid` x `block` with dynamic shared memory
    `smem_bytes` and, when `cluster` is not (1, 1, 1), that cluster shape
    (cuLaunchKernelEx with a CLUSTER_DIMENSION attribute).

    With `pdl` the launch may begin before the grid launched before it on
    `stream` has completed (programmatic dependent launch:
    cuLaunchKernelEx with the PROGRAMMATIC_STREAM_SERIALIZATION attribute
    set); the kernel must wait for that grid with `griddepcontrol.wait`
    (tspipe.pdl_wait) before it touches what that grid writes, and it
    starts once every CTA of that grid has run
    `griddepcontrol.launch_dependents` or exited.

    `args` are DeviceArrays (passed as device addresses), numpy scalars
    (packed by their numpy type), objects with `__cuda_array_interface__`
    or `tspipe.runtime.tensor_map.TensorMap`s (a `__grid_constant__`
    CUtensorMap, passed by value).

    Asynchronous, unless `timeout` is given: then it waits for the stream with
    a watchdog and raises KernelTimeout after `timeout` seconds."""
    init()
    drv = driver()
    grid, block, cluster = _dim3(grid), _dim3(block), _dim3(cluster)
    kernel.check_args(args)
    if any(g % c for g, c in zip(grid, cluster)):
        raise ValueError(f"grid {grid} is not a multiple of cluster {cluster}")
    if smem_bytes > _DEFAULT_SMEM_LIMIT:
        kernel.allow_dynamic_smem(smem_bytes)
    holders, params = pack_args(args)
    hstream = _stream_handle(stream)
    if cluster == (1, 1, 1) and not pdl:
        call("cuLaunchKernel", kernel.handle, *grid, *block, int(smem_bytes),
             hstream, params.ctypes.data, 0)
    else:
        attrs = launch_attributes(cluster, pdl)
        cfg = drv.CUlaunchConfig()
        cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = grid
        cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = block
        cfg.sharedMemBytes = int(smem_bytes)
        cfg.hStream = hstream
        cfg.attrs = attrs
        cfg.numAttrs = len(attrs)
        call("cuLaunchKernelEx", cfg, kernel.handle, params.ctypes.data, 0)
    del holders
    if timeout is not None:
        synchronize(stream, timeout, what=f"kernel {kernel.name}")


def launch_attributes(cluster=(1, 1, 1), pdl: bool = False) -> list:
    """The CUlaunchAttribute list of a cuLaunchKernelEx launch: the cluster
    shape (CLUSTER_DIMENSION) unless it is (1, 1, 1), and programmatic
    stream serialization (PROGRAMMATIC_STREAM_SERIALIZATION = 1) with
    `pdl`."""
    drv = driver()
    cluster = _dim3(cluster)
    attrs = []
    if cluster != (1, 1, 1):
        attr = drv.CUlaunchAttribute()
        attr.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attr.value.clusterDim.x, attr.value.clusterDim.y, \
            attr.value.clusterDim.z = cluster
        attrs.append(attr)
    if pdl:
        attr = drv.CUlaunchAttribute()
        attr.id = drv.CUlaunchAttributeID.\
            CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
        attr.value.programmaticStreamSerializationAllowed = 1
        attrs.append(attr)
    return attrs


def time_callable_samples(fn, warmup: int = 2, iters: int = 10, stream=None,
                          timeout: float | None = 120.0) -> list[float]:
    """Runs `fn()` (which must enqueue its GPU work on `stream`) `warmup` times,
    then `iters` times between CUDA events; returns each iteration's time in
    milliseconds."""
    init()
    hstream = _stream_handle(stream)
    for _ in range(warmup):
        fn()
    synchronize(stream, timeout, what="warm-up")
    events = [(_event(), _event()) for _ in range(iters)]
    try:
        for start, end in events:
            call("cuEventRecord", start, hstream)
            fn()
            call("cuEventRecord", end, hstream)
        _wait_event(events[-1][1], timeout, "timed iterations")
        return [float(call("cuEventElapsedTime", s, e)) for s, e in events]
    finally:
        for s, e in events:
            for ev in (s, e):
                try:
                    call("cuEventDestroy", ev)
                except CudaError:
                    pass


def time_kernel_samples(kernel: Kernel, grid, block, args: Sequence = (),
                        smem_bytes: int = 0, cluster=(1, 1, 1), stream=None,
                        warmup: int = 2, iters: int = 10,
                        timeout: float | None = 120.0) -> list[float]:
    """Per-launch times (ms) of `iters` launches, measured with CUDA events."""
    return time_callable_samples(
        lambda: launch(kernel, grid, block, args, smem_bytes, cluster, stream),
        warmup=warmup, iters=iters, stream=stream, timeout=timeout)


def time_kernel(kernel: Kernel, grid, block, args: Sequence = (),
                smem_bytes: int = 0, cluster=(1, 1, 1), stream=None,
                warmup: int = 2, iters: int = 10,
                timeout: float | None = 120.0) -> float:
    """Median time of one launch in milliseconds (CUDA events)."""
    return statistics.median(time_kernel_samples(
        kernel, grid, block, args, smem_bytes, cluster, stream, warmup, iters,
        timeout))
