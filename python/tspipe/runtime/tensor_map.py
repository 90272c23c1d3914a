"""CUtensorMaps for kernel parameters, built with cuda-python's
``cuTensorMapEncodeTiled`` from what the IR declares.

A kernel that issues ``nvgpu.tma.async.load`` / ``store`` takes each tensor
map as a ``__grid_constant__`` parameter: 128 bytes, 64-byte aligned
(``.param .align 64 .b8 name[128]`` in the PTX). The IR declares the tile
the map describes in the ``!nvgpu.tensormap.descriptor`` type of that
parameter (kept in the launch metadata as text): the shared-memory box
(``memref<128x64xbf16, 3>``: 128 rows of 64 bf16, outermost first), the
swizzle, the L2 promotion and the out-of-bounds fill. The host adds the
global tensor: its device address, its shape (outermost first) and, for a
non-contiguous tensor, its row strides in bytes.

:class:`TensorMap` holds the encoded map; :func:`pack_args` of the launcher
passes it by value. Nothing here needs a GPU until :meth:`TensorMap.encode`
calls the driver.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ._driver import call, driver

__all__ = ["TensorMapSpec", "TensorMap", "parse_tensor_map_type",
           "TENSOR_MAP_BYTES"]

TENSOR_MAP_BYTES = 128
TENSOR_MAP_ALIGN = 64

# CUtensorMapDataType of each MLIR element type (CUDA driver API).
_DATA_TYPES = {
    "ui8": "UINT8", "i8": "UINT8", "ui16": "UINT16", "i16": "UINT16",
    "ui32": "UINT32", "i32": "INT32", "ui64": "UINT64", "i64": "INT64",
    "f16": "FLOAT16", "f32": "FLOAT32", "f64": "FLOAT64", "bf16": "BFLOAT16",
    "tf32": "TFLOAT32",
}
_ELEMENT_BYTES = {"ui8": 1, "i8": 1, "ui16": 2, "i16": 2, "ui32": 4,
                  "i32": 4, "ui64": 8, "i64": 8, "f16": 2, "f32": 4,
                  "f64": 8, "bf16": 2, "tf32": 4}
_SWIZZLES = {"swizzle_none": "NONE", "swizzle_32b": "32B",
             "swizzle_64b": "64B", "swizzle_128b": "128B"}
_L2 = {"none": "NONE", "l2promo_64b": "L2_64B", "l2promo_128b": "L2_128B",
       "l2promo_256b": "L2_256B"}
_OOB = {"zero": "NONE", "nan": "NAN_REQUEST_ZERO_FMA"}

_TYPE_RE = re.compile(
    r"!nvgpu\.tensormap\.descriptor<\s*tensor\s*=\s*memref<([0-9x]+)x"
    r"([A-Za-z0-9]+)\s*,\s*3\s*>\s*,\s*swizzle\s*=\s*(\w+)\s*,\s*"
    r"l2promo\s*=\s*(\w+)\s*,\s*oob\s*=\s*(\w+)\s*,\s*interleave\s*=\s*"
    r"(\w+)\s*>")


@dataclass(frozen=True)
class TensorMapSpec:
    """What the IR declares of a tensor map: ``box`` (elements per
    dimension, outermost first), ``element`` (an MLIR element type name,
    e.g. ``bf16``), ``swizzle`` (``swizzle_128b`` ...), ``l2promo``, ``oob``
    (``zero`` or ``nan``), ``interleave`` (``none`` only)."""

    box: tuple
    element: str
    swizzle: str = "swizzle_none"
    l2promo: str = "none"
    oob: str = "zero"
    interleave: str = "none"

    @property
    def element_bytes(self) -> int:
        return _ELEMENT_BYTES[self.element]

    @property
    def box_bytes(self) -> int:
        """Bytes one copy of the box moves (the transaction bytes)."""
        return int(np.prod(self.box)) * self.element_bytes


def parse_tensor_map_type(text: str) -> TensorMapSpec:
    """The :class:`TensorMapSpec` of an ``!nvgpu.tensormap.descriptor<...>``
    type as MLIR prints it. Raises ValueError for another text, an element
    type without a CUtensorMap data type, or an interleaved layout (which
    nvgpu does not support)."""
    m = _TYPE_RE.fullmatch(text.strip())
    if not m:
        raise ValueError(f"not an !nvgpu.tensormap.descriptor type with a "
                         f"static shared-memory box: {text!r}")
    dims, element, swizzle, l2promo, oob, interleave = m.groups()
    if element not in _DATA_TYPES:
        raise ValueError(f"tensor map element type {element!r} has no "
                         f"CUtensorMapDataType; use one of "
                         f"{sorted(_DATA_TYPES)}")
    if interleave != "none":
        raise ValueError(f"interleaved tensor maps are not supported "
                         f"(interleave = {interleave})")
    for what, value, table in (("swizzle", swizzle, _SWIZZLES),
                               ("l2promo", l2promo, _L2), ("oob", oob, _OOB)):
        if value not in table:
            raise ValueError(f"tensor map {what} {value!r} is not one of "
                             f"{sorted(table)}")
    box = tuple(int(d) for d in dims.split("x"))
    return TensorMapSpec(box, element, swizzle, l2promo, oob, interleave)


class TensorMap:
    """An encoded CUtensorMap: 128 bytes in a 64-byte aligned host buffer,
    passed to a kernel by value (``launch(..., args=[tmap, ...])``)."""

    def __init__(self, raw: bytes | np.ndarray, spec: TensorMapSpec | None = None):
        raw = np.frombuffer(bytes(raw), dtype=np.uint8)
        if raw.size != TENSOR_MAP_BYTES:
            raise ValueError(f"a CUtensorMap is {TENSOR_MAP_BYTES} bytes, got "
                             f"{raw.size}")
        # Over-allocate and slice so the copy starts on a 64-byte boundary.
        store = np.zeros(TENSOR_MAP_BYTES + TENSOR_MAP_ALIGN, dtype=np.uint8)
        shift = (-store.ctypes.data) % TENSOR_MAP_ALIGN
        self._store = store
        self.bytes = store[shift:shift + TENSOR_MAP_BYTES]
        self.bytes[:] = raw
        self.spec = spec

    def holder(self) -> np.ndarray:
        """The 64-byte aligned 128 bytes the launch passes."""
        return self.bytes

    @classmethod
    def encode(cls, spec: TensorMapSpec | str, address: int,
               shape: Sequence[int], row_strides: Sequence[int] | None = None
               ) -> "TensorMap":
        """``cuTensorMapEncodeTiled`` of the global tensor at device
        ``address`` (an int, or an object with ``data_ptr()`` /
        ``__cuda_array_interface__``) of ``shape`` (elements, outermost
        first, rank of the box) with ``row_strides`` (bytes between
        consecutive indices of each outer dimension, outermost first;
        default: contiguous) for the box, element type and modes of
        ``spec`` (a TensorMapSpec or the IR's type text).

        Raises ValueError when the shape's rank differs from the box's or a
        stride is not a multiple of 16 (the driver's rule), CudaError when
        the driver rejects the map."""
        if isinstance(spec, str):
            spec = parse_tensor_map_type(spec)
        shape = [int(d) for d in shape]
        rank = len(spec.box)
        if len(shape) != rank:
            raise ValueError(f"tensor of rank {len(shape)} for a box of rank "
                             f"{rank} ({spec.box})")
        esize = spec.element_bytes
        if row_strides is None:
            # Contiguous: bytes between indices of dims 0 .. rank - 2.
            row_strides = [int(np.prod(shape[i + 1:])) * esize
                           for i in range(rank - 1)]
        row_strides = [int(s) for s in row_strides]
        if len(row_strides) != rank - 1:
            raise ValueError(f"{rank - 1} row strides expected, got "
                             f"{len(row_strides)}")
        for s in row_strides:
            if s % 16:
                raise ValueError(f"tensor map stride {s} bytes is not a "
                                 f"multiple of 16")
        address = _address_of(address)
        drv = driver()
        dt = getattr(drv.CUtensorMapDataType,
                     f"CU_TENSOR_MAP_DATA_TYPE_{_DATA_TYPES[spec.element]}")
        interleave = drv.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE
        swizzle = getattr(drv.CUtensorMapSwizzle,
                          f"CU_TENSOR_MAP_SWIZZLE_{_SWIZZLES[spec.swizzle]}")
        l2 = getattr(drv.CUtensorMapL2promotion,
                     f"CU_TENSOR_MAP_L2_PROMOTION_{_L2[spec.l2promo]}")
        oob = getattr(drv.CUtensorMapFloatOOBfill,
                      f"CU_TENSOR_MAP_FLOAT_OOB_FILL_{_OOB[spec.oob]}")
        # The driver lists dimensions innermost first.
        dims = [drv.cuuint64_t(d) for d in reversed(shape)]
        strides = [drv.cuuint64_t(s) for s in reversed(row_strides)]
        box = [drv.cuuint32_t(b) for b in reversed(spec.box)]
        elem_strides = [drv.cuuint32_t(1)] * rank
        tmap = call("cuTensorMapEncodeTiled", dt, rank, address, dims,
                    strides, box, elem_strides, interleave, swizzle, l2, oob)
        return cls(_tensor_map_bytes(tmap), spec)

    def __repr__(self):
        return f"TensorMap({self.spec})"


def _address_of(a) -> int:
    if isinstance(a, (int, np.integer)):
        return int(a)
    if hasattr(a, "data_ptr"):
        return int(a.data_ptr())
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        return int(cai["data"][0])
    ptr = getattr(a, "ptr", None)
    if ptr is not None:
        return int(ptr)
    raise TypeError(f"cannot take the device address of {type(a).__name__}")


def _tensor_map_bytes(tmap) -> bytes:
    """The 128 bytes of a cuda-python CUtensorMap (its ``opaque`` words)."""
    opaque = getattr(tmap, "opaque", None)
    if opaque is not None:
        return np.array(list(opaque), dtype=np.uint64).tobytes()
    if isinstance(tmap, (bytes, bytearray)):
        return bytes(tmap)
    raise TypeError(f"cannot read the bytes of {type(tmap).__name__}")
