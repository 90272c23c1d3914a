"""Tensor-map kernel arguments of the TS-style front end.

``Kernel(args=[("a_map", TensorMapArg(box=(128, 64), element="bf16",
swizzle="swizzle_128b")), ...])`` declares a parameter that holds a
CUtensorMap: in the ``gpu.func`` an ``!llvm.ptr`` argument with
``llvm.byval = !llvm.array<128 x i8>``, ``llvm.align = 64`` and
``nvvm.grid_constant`` once lowered (a 128-byte, 64-byte aligned
``__grid_constant__`` parameter in the PTX, read in place: the kernel lists
the positions in its ``tspipe.grid_constants`` attribute, and
``tspipe-to-nvvm`` marks the lowered arguments), and, as argument
attributes, ``tspipe.tensor_map`` = the ``!nvgpu.tensormap.descriptor``
type it stands for and ``tspipe.arg_name``. That type is what the
host builds the map from (``tspipe.runtime.tensor_map``, through the launch
metadata) and what :func:`tensor_map` gives a work step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

from .. import ir

__all__ = ["TensorMapArg", "tensor_map", "TENSOR_MAP_ATTR"]

TENSOR_MAP_ATTR = "tspipe.tensor_map"


@dataclass(frozen=True)
class TensorMapArg:
    """A tensor-map parameter: the shared-memory ``box`` one copy moves
    (elements, outermost first; the innermost extent times the element size
    must equal the swizzle span when swizzled), its ``element`` type name,
    ``swizzle`` (``swizzle_none``, ``swizzle_32b``, ``swizzle_64b``,
    ``swizzle_128b``), ``l2promo`` and ``oob`` (``zero`` / ``nan``)."""

    box: Tuple[int, ...]
    element: str = "bf16"
    swizzle: str = "swizzle_128b"
    l2promo: str = "none"
    oob: str = "zero"

    def type_text(self) -> str:
        dims = "x".join(str(int(d)) for d in self.box)
        return (f"!nvgpu.tensormap.descriptor<tensor = memref<{dims}x"
                f"{self.element}, 3>, swizzle = {self.swizzle}, l2promo = "
                f"{self.l2promo}, oob = {self.oob}, interleave = none>")

    def ir_type(self):
        """The ``!nvgpu.tensormap.descriptor`` type (in the current
        Context)."""
        return ir.Type.parse(self.type_text())

    def arg_type(self):
        """The ``gpu.func`` argument type: a generic ``!llvm.ptr``."""
        return ir.Type.parse("!llvm.ptr")

    def arg_attrs(self, name: str):
        """The attributes of argument ``name`` (see the module docstring)."""
        return ir.DictAttr.get({
            "tspipe.arg_name": ir.StringAttr.get(name),
            TENSOR_MAP_ATTR: ir.TypeAttr.get(self.ir_type()),
        })


def tensor_map(kernel, name: str):
    """The tensor map of argument ``name`` as its ``!nvgpu.tensormap.
    descriptor`` Value, built at the current insertion point (in a work
    step) by the conversion bridge. Raises KeyError when ``name`` is not a
    tensor-map argument."""
    from .nvgpu_bridge import tensor_map_value
    spec = kernel.tensor_map_args.get(name)
    if spec is None:
        raise KeyError(f"{name!r} is not a tensor-map argument of kernel "
                       f"{kernel.name!r} (declare it with TensorMapArg)")
    return tensor_map_value(kernel.arg(name), spec.ir_type())
