"""Lowering tspipe modules to PTX through the MLIR pass manager.

:func:`lower_to_ptx` parses a module (text, or anything with ``to_mlir()``
such as a :class:`tspipe.ts.Kernel`), points every ``gpu.module`` at the NVVM
target of ``arch``, runs the ``tspipe-to-nvvm`` pipeline and
``gpu-module-to-binary{format=isa}``, and returns the PTX text stored in the
resulting ``gpu.binary``. No GPU, CUDA toolkit or ``ptxas`` is needed (PTX is
produced by LLVM's NVPTX backend). PTX is tied to its architecture: compile
once per ``arch`` (``sm_90a`` for Hopper, ``sm_100a`` for Blackwell).

Needs the compiled extension.
"""

from __future__ import annotations

import importlib
from typing import Dict, Optional

from .ts.errors import CompileError, error_from_mlir
from .ts.kernel import ptx_features

__all__ = ["lower_to_ptx", "lower_to_ptx_all", "nvvm_target", "CompileError"]


def nvvm_target(arch: str = "sm_90a", features: Optional[str] = None,
                opt_level: int = 3) -> str:
    """The ``#nvvm.target<...>`` text for ``arch`` (e.g. ``sm_90a``).

    ``features`` defaults to the PTX ISA version the architecture needs
    (``+ptx80`` for sm_90a, ``+ptx86`` for sm_100a); ``opt_level`` is LLVM's
    -O level used when serializing.
    """
    features = features if features is not None else ptx_features(arch)
    text = f'#nvvm.target<O = {opt_level}, chip = "{arch}"'
    if features:
        text += f', features = "{features}"'
    return text + ">"


def _pipeline(debug_hang_timeout: int) -> str:
    lowering = "tspipe-to-nvvm"
    if debug_hang_timeout:
        lowering += f"{{debug-hang-timeout={int(debug_hang_timeout)}}}"
    return f"builtin.module({lowering}, gpu-module-to-binary{{format=isa}})"


def lower_to_ptx_all(module, arch: str = "sm_90a", *,
                     features: Optional[str] = None,
                     debug_hang_timeout: int = 0,
                     opt_level: int = 3) -> Dict[str, str]:
    """Lower every ``gpu.module`` of ``module``; returns ``{name: ptx}``.

    Args:
      module: module text, or an object with ``to_mlir(arch)`` (a Kernel).
      arch: the SM architecture (``"sm_90a"``, ``"sm_100a"``, ...). It
        replaces the targets the ``gpu.module`` s carry.
      features: ``#nvvm.target`` features (default: by ``arch``).
      debug_hang_timeout: if > 0, blocking barrier waits trap after that many
        failed polls (``tspipe-to-nvvm{debug-hang-timeout=N}``).
      opt_level: LLVM optimization level for the PTX.

    Raises:
      ScheduleError / PipelineConfigError (ValueError): the module breaks a
        TS rule (verified before lowering).
      CompileError (RuntimeError): parsing or lowering failed otherwise.
    """
    ir = importlib.import_module("tspipe.ir")
    passmanager = importlib.import_module("tspipe.passmanager")
    gpu = importlib.import_module("tspipe.dialects.gpu")

    text = module.to_mlir(arch) if hasattr(module, "to_mlir") else str(module)
    with ir.Context() as ctx, ir.Location.unknown():
        try:
            parsed = ir.Module.parse(text)
        except ir.MLIRError as err:
            raise error_from_mlir(err, untagged=CompileError) from None
        target = ir.Attribute.parse(nvvm_target(arch, features, opt_level))
        found = False
        for op in parsed.body.operations:
            if op.operation.name == "gpu.module":
                op.operation.attributes["targets"] = ir.ArrayAttr.get([target])
                found = True
        if not found:
            raise CompileError("the module has no gpu.module to lower")
        try:
            pm = passmanager.PassManager.parse(_pipeline(debug_hang_timeout))
            pm.run(parsed.operation)
        except ir.MLIRError as err:
            raise error_from_mlir(err, untagged=CompileError) from None

        result: Dict[str, str] = {}
        for op in parsed.body.operations:
            if op.operation.name != "gpu.binary":
                continue
            name = ir.StringAttr(op.operation.attributes["sym_name"]).value
            objects = ir.ArrayAttr(op.operation.attributes["objects"])
            for obj in objects:
                result[name] = gpu.ObjectAttr(obj).object.decode("utf-8")
        return result


def lower_to_ptx(module, arch: str = "sm_90a", *, gpu_module: Optional[str] = None,
                 **options) -> str:
    """Lower a tspipe module to PTX for ``arch``; returns the PTX text.

    Runs ``tspipe-to-nvvm`` then ``gpu-module-to-binary{format=isa}`` and
    extracts the PTX from the ``gpu.binary``'s object attribute. With more
    than one ``gpu.module``, name the one to return with ``gpu_module``.
    ``options`` are those of :func:`lower_to_ptx_all` (``features``,
    ``debug_hang_timeout``, ``opt_level``).

    Raises ScheduleError / PipelineConfigError (TS rules), CompileError
    (anything else), KeyError (no ``gpu_module`` of that name).
    """
    ptx = lower_to_ptx_all(module, arch, **options)
    if gpu_module is not None:
        if gpu_module not in ptx:
            raise KeyError(f"no gpu.module named {gpu_module!r}; have {sorted(ptx)}")
        return ptx[gpu_module]
    if len(ptx) != 1:
        raise CompileError(
            f"the module has {len(ptx)} gpu.modules ({sorted(ptx)}); pass gpu_module=")
    return next(iter(ptx.values()))
