"""A stand-in for cuda-python's driver module, for testing tspipe.runtime on
machines without a GPU.

It keeps "device memory" in numpy buffers, reads launch parameters through the
`void**` array the runtime packs (so argument packing is really exercised),
and runs registered Python functions in place of kernels. Host addresses are
read with ctypes.string_at / memmove: this is the test's model of memory,
not a binding of libcuda.
"""

from __future__ import annotations

import ctypes
import enum
import types

import numpy as np

from tspipe.runtime import ptx as ptxmod


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_OUT_OF_MEMORY = 2
    CUDA_ERROR_INVALID_IMAGE = 200
    CUDA_ERROR_INVALID_PTX = 218
    CUDA_ERROR_NOT_FOUND = 500
    CUDA_ERROR_NOT_READY = 600
    CUDA_ERROR_ILLEGAL_ADDRESS = 700
    CUDA_ERROR_LAUNCH_FAILED = 719


OK = CUresult.CUDA_SUCCESS


class CUdeviceptr(int):
    pass


class CUstream(int):
    pass


class _Handle:
    def __init__(self, **kw):
        self.__dict__.update(kw)


CUdevice_attribute = types.SimpleNamespace(
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR="cc_major",
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR="cc_minor",
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT="sms",
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN="smem_optin",
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR="smem_sm",
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE="l2",
)
CUfunction_attribute = types.SimpleNamespace(
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES="max_dyn_smem",
    CU_FUNC_ATTRIBUTE_NUM_REGS="num_regs",
)
CUjit_option = types.SimpleNamespace(
    CU_JIT_ERROR_LOG_BUFFER="log", CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES="size")
CUstream_flags = types.SimpleNamespace(CU_STREAM_NON_BLOCKING=1)
CUevent_flags = types.SimpleNamespace(CU_EVENT_DEFAULT=0,
                                      CU_EVENT_DISABLE_TIMING=2)
CUlaunchAttributeID = types.SimpleNamespace(
    CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION="cluster",
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION="pdl")


class CUlaunchAttribute:
    def __init__(self):
        self.id = None
        self.value = types.SimpleNamespace(
            clusterDim=types.SimpleNamespace(x=0, y=0, z=0),
            programmaticStreamSerializationAllowed=0)


class CUlaunchConfig:
    def __init__(self):
        self.attrs = []
        self.numAttrs = 0


def _enum(name, members):
    return enum.IntEnum(name, {m: i for i, m in enumerate(members)})


CUtensorMapDataType = _enum("CUtensorMapDataType", [
    "CU_TENSOR_MAP_DATA_TYPE_UINT8", "CU_TENSOR_MAP_DATA_TYPE_UINT16",
    "CU_TENSOR_MAP_DATA_TYPE_UINT32", "CU_TENSOR_MAP_DATA_TYPE_INT32",
    "CU_TENSOR_MAP_DATA_TYPE_UINT64", "CU_TENSOR_MAP_DATA_TYPE_INT64",
    "CU_TENSOR_MAP_DATA_TYPE_FLOAT16", "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
    "CU_TENSOR_MAP_DATA_TYPE_FLOAT64", "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
    "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ", "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32",
    "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ"])
CUtensorMapInterleave = _enum("CUtensorMapInterleave", [
    "CU_TENSOR_MAP_INTERLEAVE_NONE", "CU_TENSOR_MAP_INTERLEAVE_16B",
    "CU_TENSOR_MAP_INTERLEAVE_32B"])
CUtensorMapSwizzle = _enum("CUtensorMapSwizzle", [
    "CU_TENSOR_MAP_SWIZZLE_NONE", "CU_TENSOR_MAP_SWIZZLE_32B",
    "CU_TENSOR_MAP_SWIZZLE_64B", "CU_TENSOR_MAP_SWIZZLE_128B"])
CUtensorMapL2promotion = _enum("CUtensorMapL2promotion", [
    "CU_TENSOR_MAP_L2_PROMOTION_NONE", "CU_TENSOR_MAP_L2_PROMOTION_L2_64B",
    "CU_TENSOR_MAP_L2_PROMOTION_L2_128B",
    "CU_TENSOR_MAP_L2_PROMOTION_L2_256B"])
CUtensorMapFloatOOBfill = _enum("CUtensorMapFloatOOBfill", [
    "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE",
    "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"])


class cuuint64_t(int):
    pass


class cuuint32_t(int):
    pass


class CUtensorMap:
    """The driver's 128-byte map; here its words record the encoding:
    [address, rank, data type, swizzle, dims..., strides..., box...]."""

    def __init__(self, words):
        self.opaque = list(words) + [0] * (16 - len(words))


class FakeDriver:
    """Attributes mirror the names of cuda.bindings.driver."""

    CUtensorMapDataType = CUtensorMapDataType
    CUtensorMapInterleave = CUtensorMapInterleave
    CUtensorMapSwizzle = CUtensorMapSwizzle
    CUtensorMapL2promotion = CUtensorMapL2promotion
    CUtensorMapFloatOOBfill = CUtensorMapFloatOOBfill
    cuuint64_t = cuuint64_t
    cuuint32_t = cuuint32_t

    CUresult = CUresult
    CUdeviceptr = CUdeviceptr
    CUstream = CUstream
    CUdevice_attribute = CUdevice_attribute
    CUfunction_attribute = CUfunction_attribute
    CUjit_option = CUjit_option
    CUstream_flags = CUstream_flags
    CUevent_flags = CUevent_flags
    CUlaunchAttributeID = CUlaunchAttributeID
    CUlaunchAttribute = CUlaunchAttribute
    CUlaunchConfig = CUlaunchConfig

    def __init__(self, kernels=None, cc=(9, 0), sms=132):
        self.kernels = dict(kernels or {})  # name -> fn(launch)
        self.cc = cc
        self.sms = sms
        self.mem: dict[int, np.ndarray] = {}
        self.next_ptr = 0x7000_0000
        self.calls: list[tuple] = []
        self.launches: list[dict] = []
        self.hung = False
        self.func_attrs: dict = {}

    # -- context ---------------------------------------------------------
    def cuInit(self, flags):
        return (OK,)

    def cuDeviceGetCount(self):
        return (OK, 1)

    def cuDeviceGet(self, ordinal):
        return (OK, ordinal)

    def cuDevicePrimaryCtxRetain(self, dev):
        return (OK, _Handle(dev=dev))

    def cuCtxSetCurrent(self, ctx):
        return (OK,)

    def cuDeviceGetName(self, n, dev):
        return (OK, b"Fake H200" + b"\0" * (n - 9))

    def cuDeviceGetAttribute(self, attr, dev):
        vals = {"cc_major": self.cc[0], "cc_minor": self.cc[1],
                "sms": self.sms, "smem_optin": 232448,
                "smem_sm": 233472, "l2": 60 << 20}
        return (OK, vals[attr])

    def cuDeviceTotalMem(self, dev):
        return (OK, 141 << 30)

    def cuDriverGetVersion(self):
        return (OK, 13000)

    # -- modules -------------------------------------------------------
    def cuModuleLoadDataEx(self, image, n, opts, vals):
        text = ctypes.string_at(image).decode()
        if ".entry" not in text:
            msg = b"ptxas fatal: not PTX\0"
            vals[0][:len(msg)] = msg
            return (CUresult.CUDA_ERROR_INVALID_PTX, None)
        return (OK, _Handle(entries=ptxmod.parse_entries(text)))

    def cuModuleGetFunction(self, module, name):
        name = name.decode()
        if name not in module.entries:
            return (CUresult.CUDA_ERROR_NOT_FOUND, None)
        return (OK, _Handle(name=name, entry=module.entries[name]))

    def cuModuleUnload(self, module):
        return (OK,)

    def cuFuncSetAttribute(self, fn, attr, value):
        self.func_attrs[(fn.name, attr)] = value
        return (OK,)

    def cuFuncGetAttribute(self, attr, fn):
        return (OK, 32)

    def cuOccupancyMaxActiveBlocksPerMultiprocessor(self, fn, threads, smem):
        return (OK, max(0, min(2048 // threads, 232448 // max(smem, 1))))

    # -- memory --------------------------------------------------------
    def cuMemAlloc(self, n):
        ptr = self.next_ptr
        self.next_ptr += (n + 255) // 256 * 256 + 256
        self.mem[ptr] = np.zeros(n, np.uint8)
        return (OK, CUdeviceptr(ptr))

    def cuMemFree(self, ptr):
        self.mem.pop(int(ptr), None)
        return (OK,)

    def buffer(self, ptr) -> np.ndarray:
        return self.mem[int(ptr)]

    def cuMemcpyHtoD(self, dst, src, n):
        ctypes.memmove(self.buffer(dst).ctypes.data, src, n)
        return (OK,)

    def cuMemcpyDtoH(self, dst, src, n):
        ctypes.memmove(dst, self.buffer(src).ctypes.data, n)
        return (OK,)

    def cuMemcpyDtoDAsync(self, dst, src, n, stream):
        self.buffer(dst)[:n] = self.buffer(src)[:n]
        return (OK,)

    def cuMemsetD8(self, ptr, value, n):
        self.buffer(ptr)[:n] = value
        return (OK,)

    def cuMemsetD32(self, ptr, value, n):
        self.buffer(ptr)[:4 * n].view(np.uint32)[:] = value
        return (OK,)

    # -- streams and events --------------------------------------------
    def cuStreamCreate(self, flags):
        return (OK, CUstream(1))

    def cuStreamDestroy(self, s):
        return (OK,)

    def cuEventCreate(self, flags):
        return (OK, _Handle(done=False))

    def cuEventRecord(self, ev, stream):
        ev.done = not self.hung
        return (OK,)

    def cuEventQuery(self, ev):
        return (OK,) if ev.done else (CUresult.CUDA_ERROR_NOT_READY,)

    def cuEventSynchronize(self, ev):
        return (OK,)

    def cuEventElapsedTime(self, a, b):
        return (OK, 0.5)

    def cuEventDestroy(self, ev):
        return (OK,)

    # -- tensor maps ---------------------------------------------------
    def cuTensorMapEncodeTiled(self, dtype, rank, address, dims, strides,
                               box, elem_strides, interleave, swizzle, l2,
                               oob):
        self.calls.append(("cuTensorMapEncodeTiled", dtype, rank, address,
                           list(dims), list(strides), list(box)))
        if (len(dims) != rank or len(strides) != rank - 1
                or len(box) != rank or any(int(s) % 16 for s in strides)
                or any(not 0 < int(b) <= 256 for b in box)):
            return (CUresult.CUDA_ERROR_INVALID_VALUE, None)
        words = [int(address), int(rank), int(dtype), int(swizzle)]
        words += [int(d) for d in dims] + [int(s) for s in strides]
        words += [int(b) for b in box]
        return (OK, CUtensorMap(words[:16]))

    # -- launches ------------------------------------------------------
    def _read_params(self, fn, params_addr):
        entry = fn.entry
        n = len(entry.params)
        addrs = np.frombuffer(ctypes.string_at(params_addr, 8 * n),
                              dtype=np.uint64)
        values = []
        for p, a in zip(entry.params, addrs):
            raw = ctypes.string_at(int(a), p.size)
            if p.ptx_type.endswith("]"):  # an aggregate by value (b8[128])
                values.append(raw)
                continue
            dtype = {"f32": np.float32, "f64": np.float64, "u64": np.uint64,
                     "b64": np.uint64, "s64": np.int64, "u32": np.uint32,
                     "b32": np.uint32, "s32": np.int32}[p.ptx_type]
            values.append(np.frombuffer(raw, dtype=dtype)[0])
        return values

    def _launch(self, fn, grid, block, smem, params, cluster, pdl=False):
        if smem > 48 * 1024 and self.func_attrs.get(
                (fn.name, "max_dyn_smem"), 0) < smem:
            return (CUresult.CUDA_ERROR_INVALID_VALUE,)
        values = self._read_params(fn, params)
        launch = {"name": fn.name, "grid": grid, "block": block,
                  "smem": smem, "cluster": cluster, "args": values,
                  "pdl": pdl}
        self.launches.append(launch)
        impl = self.kernels.get(fn.name)
        if impl is not None:
            res = impl(self, launch)
            if res == "hang":
                self.hung = True
            elif res:
                return (res,)
        return (OK,)

    def cuLaunchKernel(self, fn, gx, gy, gz, bx, by, bz, smem, stream,
                       params, extra):
        return self._launch(fn, (gx, gy, gz), (bx, by, bz), smem, params,
                            None)

    def cuLaunchKernelEx(self, cfg, fn, params, extra):
        cluster = None
        pdl = False
        for a in cfg.attrs[:cfg.numAttrs]:
            if a.id == "cluster":
                cd = a.value.clusterDim
                cluster = (cd.x, cd.y, cd.z)
            elif a.id == "pdl":
                pdl = bool(a.value.programmaticStreamSerializationAllowed)
            else:
                return (CUresult.CUDA_ERROR_INVALID_VALUE,)
        return self._launch(fn, (cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ),
                            (cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ),
                            cfg.sharedMemBytes, params, cluster, pdl)

    def f32(self, ptr, n):
        return self.buffer(ptr)[:4 * n].view(np.float32)


# --------------------------------------------------------------------------
# Python stand-ins for the example kernels (what they compute)
# --------------------------------------------------------------------------

def stream_kernel(drv, launch):
    """tma_stream: y = a * x + b over grid * tiles_per_cta tiles of 4096."""
    x, y, a, b, tpc = launch["args"]
    n = launch["grid"][0] * int(tpc) * 4096
    drv.f32(y, n)[:] = a * drv.f32(x, n) + b


def async_load_kernel(drv, launch):
    """async_load: y = x * x + 1 over grid * tiles_per_cta tiles of 1024."""
    x, y, tpc = launch["args"]
    n = launch["grid"][0] * int(tpc) * 1024
    xs = drv.f32(x, n)
    drv.f32(y, n)[:] = xs * xs + np.float32(1.0)


def lazy_stream_kernel(drv, launch):
    """A wrong tma_stream: skips the last tile of every CTA."""
    x, y, a, b, tpc = launch["args"]
    tpc = int(tpc)
    for cta in range(launch["grid"][0]):
        lo = cta * tpc * 4096
        hi = lo + (tpc - 1) * 4096
        drv.f32(y, hi)[lo:hi] = a * drv.f32(x, hi)[lo:hi] + b


def tma_copy_kernel(drv, launch):
    """tma_copy: y = x over grid * 8 tiles of 1024 float32."""
    x, y = launch["args"]
    n = launch["grid"][0] * 8 * 1024
    drv.f32(y, n)[:] = drv.f32(x, n)


def merge_copy_kernel(drv, launch):
    """merge_copy: da = a, db = b over grid * 8 tiles of 512 float32."""
    a, b, da, db = launch["args"]
    n = launch["grid"][0] * 8 * 512
    drv.f32(da, n)[:] = drv.f32(a, n)
    drv.f32(db, n)[:] = drv.f32(b, n)


def stale_merge_copy_kernel(drv, launch):
    """A wrong merge_copy: on the second lap of the 4-stage B ring the store
    warps read the stage before it is refilled (iterations 4-7 of every CTA
    store the tile of iteration i - 4)."""
    merge_copy_kernel(drv, launch)
    a, b, da, db = launch["args"]
    n = launch["grid"][0] * 8 * 512
    src, dst = drv.f32(b, n), drv.f32(db, n)
    for cta in range(launch["grid"][0]):
        first = cta * 8 * 512
        dst[first + 4 * 512:first + 8 * 512] = src[first:first + 4 * 512]


def hang_kernel(drv, launch):
    return "hang"


def pdl_write_kernel(drv, launch):
    """pdl_write: x[e] = (e mod 1021) * 0.5 over grid * tiles_per_cta
    tiles of 4096."""
    x, tpc = launch["args"]
    n = launch["grid"][0] * int(tpc) * 4096
    drv.f32(x, n)[:] = (np.arange(n) % 1021).astype(np.float32) * \
        np.float32(0.5)


def pdl_read_kernel(drv, launch):
    """pdl_read: y = 2 * x + 1, launched with programmatic stream
    serialization after the pdl_write of the same x (else it fails with an
    invalid value, as a reader that would run before its writer)."""
    x, y, tpc = launch["args"]
    before = drv.launches[-2] if len(drv.launches) > 1 else None
    if not launch.get("pdl") or before is None or \
            before["name"] != "pdl_write" or before["args"][0] != x:
        return CUresult.CUDA_ERROR_INVALID_VALUE
    n = launch["grid"][0] * int(tpc) * 4096
    drv.f32(y, n)[:] = np.float32(2) * drv.f32(x, n) + np.float32(1)


def examples_driver():
    """Factory for TSPIPE_FAKE_CUDA_DRIVER=<this file>:examples_driver."""
    return FakeDriver(kernels={"tma_stream": stream_kernel,
                               "async_load": async_load_kernel,
                               "tma_copy": tma_copy_kernel,
                               "merge_copy": merge_copy_kernel,
                               "pdl_write": pdl_write_kernel,
                               "pdl_read": pdl_read_kernel,
                               "hang": hang_kernel})


def hanging_stream_driver():
    """tma_stream never finishes."""
    return FakeDriver(kernels={"tma_stream": hang_kernel,
                               "async_load": async_load_kernel})
