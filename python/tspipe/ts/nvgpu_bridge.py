"""The conversion bridge between tspipe stages and upstream MLIR's nvgpu ops.

Work steps may issue ``nvgpu.tma.async.load`` / ``nvgpu.tma.async.store``
and ``nvgpu.warpgroup.*`` on a stage. Those ops take memrefs, an
``!nvgpu.mbarrier.group`` and ``!nvgpu.tensormap.descriptor`` values, while a
stage hands out ``!llvm.ptr<3>`` addresses (``tspipe.stage_buffer``,
``tspipe.full_barrier``) and a kernel argument is an ``!llvm.ptr``. The
functions here wrap an address into the value nvgpu expects: the LLVM form
of that value (a memref descriptor, or the pointer itself for a tensor map)
built with ``llvm.insertvalue`` and turned into the nvgpu / memref type by
``builtin.unrealized_conversion_cast``. ``convert-nvgpu-to-nvvm`` (part of
``tspipe-to-nvvm``) converts the nvgpu ops to the same LLVM form, and the
casts cancel (``reconcile-unrealized-casts``). Rules X5 and X6 follow a
stage's full barrier through this bridge to the TMA copies that complete on
it (docs/gemm.md).

Every function builds at the current insertion point (inside a work step).
"""

from __future__ import annotations

from typing import Optional, Sequence

from .. import ir
from ..dialects import builtin, llvm

__all__ = [
    "shared_memref_type",
    "warpgroup_descriptor_type",
    "accumulator_type",
    "memref_at",
    "mbarrier_group_at",
    "tensor_map_value",
    "tensor_map_type",
    "accumulator_struct",
    "wgmma_shape",
]


def _i64(value: int):
    from ..dialects import arith
    return arith.constant(ir.IntegerType.get_signless(64), value)


def _descriptor_type(rank: int, address_space: int):
    ptr = f"!llvm.ptr<{address_space}>" if address_space else "!llvm.ptr"
    if rank == 0:
        return ir.Type.parse(f"!llvm.struct<({ptr}, {ptr}, i64)>")
    return ir.Type.parse(f"!llvm.struct<({ptr}, {ptr}, i64, "
                         f"!llvm.array<{rank} x i64>, "
                         f"!llvm.array<{rank} x i64>)>")


def _element(name: str):
    return {"bf16": ir.BF16Type.get, "f16": ir.F16Type.get,
            "f32": ir.F32Type.get}[name]()


def shared_memref_type(shape: Sequence[int], element: str = "bf16"):
    """``memref<shape x element, 3>`` (shared memory, identity layout)."""
    return ir.MemRefType.get(list(shape), _element(element),
                             memory_space=ir.IntegerAttr.get(
                                 ir.IntegerType.get_signless(64), 3))


def warpgroup_descriptor_type(shape: Sequence[int], element: str = "bf16"):
    """``!nvgpu.warpgroup.descriptor<tensor = memref<shape x element, 3>>``:
    the wgmma operand one ``nvgpu.warpgroup.mma`` reads (A: M x K, B:
    K x N)."""
    memref = shared_memref_type(shape, element)
    return ir.Type.parse(
        f"!nvgpu.warpgroup.descriptor<tensor = {memref}>")


def accumulator_type(rows: int, cols: int):
    """``!nvgpu.warpgroup.accumulator<fragmented = vector<rows x cols x
    f32>>``."""
    return ir.Type.parse(
        f"!nvgpu.warpgroup.accumulator<fragmented = "
        f"vector<{int(rows)}x{int(cols)}xf32>>")


def memref_at(pointer, memref_type, strides: Optional[Sequence[int]] = None):
    """A memref of ``memref_type`` (static shape, shared memory, address
    space 3) whose data starts at ``pointer`` (``!llvm.ptr<3>``, e.g. a
    stage buffer plus a byte offset). ``strides`` (elements) default to the
    row-major strides of the shape. Raises ValueError for a dynamic shape."""
    if isinstance(memref_type, str):
        memref_type = ir.Type.parse(memref_type)
    memref_type = ir.MemRefType(memref_type)
    shape = list(memref_type.shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"memref_at needs a static shape, got {memref_type}")
    if strides is None:
        strides, running = [], 1
        for dim in reversed(shape):
            strides.insert(0, running)
            running *= dim
    desc_type = _descriptor_type(len(shape), 3)
    desc = llvm.mlir_poison(desc_type)
    desc = llvm.insertvalue(desc, pointer, [0])
    desc = llvm.insertvalue(desc, pointer, [1])
    desc = llvm.insertvalue(desc, _i64(0), [2])
    for i, (dim, stride) in enumerate(zip(shape, strides)):
        desc = llvm.insertvalue(desc, _i64(dim), [3, i])
        desc = llvm.insertvalue(desc, _i64(stride), [4, i])
    return builtin.unrealized_conversion_cast([memref_type], [desc])


def mbarrier_group_at(pointer):
    """The ``!nvgpu.mbarrier.group<memorySpace = 3>`` of the one mbarrier at
    ``pointer`` (a stage's ``full_barrier()``), for ``nvgpu.tma.async.load
    ... , %group[%c0]``."""
    group_type = ir.Type.parse("!nvgpu.mbarrier.group<memorySpace = 3>")
    desc_type = _descriptor_type(1, 3)
    desc = llvm.mlir_poison(desc_type)
    desc = llvm.insertvalue(desc, pointer, [0])
    desc = llvm.insertvalue(desc, pointer, [1])
    desc = llvm.insertvalue(desc, _i64(0), [2])
    desc = llvm.insertvalue(desc, _i64(1), [3, 0])
    desc = llvm.insertvalue(desc, _i64(1), [4, 0])
    return builtin.unrealized_conversion_cast([group_type], [desc])


def tensor_map_type(box: Sequence[int], element: str = "bf16",
                    swizzle: str = "swizzle_128b", l2promo: str = "none",
                    oob: str = "zero"):
    """``!nvgpu.tensormap.descriptor`` of a tile of ``box`` (outermost
    first, e.g. ``[128, 64]``: 128 rows of 64 elements) of ``element`` in
    shared memory with ``swizzle``."""
    dims = "x".join(str(int(d)) for d in box)
    return ir.Type.parse(
        f"!nvgpu.tensormap.descriptor<tensor = memref<{dims}x{element}, 3>, "
        f"swizzle = {swizzle}, l2promo = {l2promo}, oob = {oob}, "
        f"interleave = none>")


def tensor_map_value(pointer, map_type):
    """The tensor map a kernel argument points to (a 64-byte aligned
    ``__grid_constant__`` CUtensorMap, ``!llvm.ptr``) as a value of
    ``map_type`` (see :func:`tensor_map_type`)."""
    if isinstance(map_type, str):
        map_type = ir.Type.parse(map_type)
    return builtin.unrealized_conversion_cast([map_type], [pointer])


def accumulator_struct(accumulator, rows: int, cols: int):
    """The LLVM form of a ``!nvgpu.warpgroup.accumulator<fragmented =
    vector<rows x cols x f32>>``: a struct of rows / 64 structs of
    cols / 2 f32 each (the registers of one thread, in the PTX fragment
    order of wgmma's D matrix)."""
    inner = "!llvm.struct<(" + ", ".join(["f32"] * (cols // 2)) + ")>"
    outer = ir.Type.parse("!llvm.struct<(" +
                          ", ".join([inner] * (rows // 64)) + ")>")
    return builtin.unrealized_conversion_cast([outer], [accumulator])


def wgmma_shape(m: int, n: int, k: int):
    """``#nvvm.shape<m = m, n = n, k = k>``, the shape attribute of
    ``nvvm.wgmma.mma_async`` (for a work step that issues wgmma itself,
    e.g. with a scale-d operand ``nvgpu.warpgroup.mma`` does not expose).
    The NVVM verifier checks the shape against the operand types."""
    return ir.Attribute.parse(
        f"#nvvm.shape<m = {int(m)}, n = {int(n)}, k = {int(k)}>")
