"""Lowering tspipe modules to PTX through the MLIR pass manager.

:func:`lower_to_ptx` parses a module (text, or anything with ``to_mlir()``
such as a :class:`tspipe.ts.Kernel`), points every ``gpu.module`` at the NVVM
target of ``arch``, runs the ``tspipe-to-nvvm`` pipeline and
``gpu-module-to-binary{format=isa}``, and returns the PTX text stored in the
resulting ``gpu.binary`` -- the same PTX as ``tspipe-opt --tspipe-to-nvvm
--gpu-module-to-binary=format=isa`` for a module whose target is the same.
No GPU, CUDA toolkit or ``ptxas`` is needed (PTX is produced by LLVM's NVPTX
backend). PTX is tied to its architecture: compile once per ``arch``
(``sm_90a`` for Hopper, ``sm_100a`` for Blackwell; see
:data:`SUPPORTED_ARCHS`).

Errors: every mistake in the input is a ``ValueError`` --
:class:`~tspipe.ts.errors.ArchError` (unsupported ``arch``, checked before
anything reaches LLVM), :class:`~tspipe.ts.errors.PipelineConfigError` /
:class:`~tspipe.ts.errors.ScheduleError` (the module does not parse or
verify, or a pass reports a TS rule; the same exceptions as
:meth:`tspipe.ts.Kernel.build`), :class:`~tspipe.ts.errors.TSPipeError` (no
``gpu.module``, an ambiguous one). :class:`CompileError` (a ``RuntimeError``)
is kept for failures to lower a verified module (a construct the lowering
does not implement, an LLVM failure).

Needs the compiled extension.
"""

from __future__ import annotations

import importlib
from typing import Dict, Optional

from .ts.checks import SUPPORTED_ARCHS, as_int, check_arch
from .ts.errors import (
    ArchError,
    CompileError,
    ScheduleError,
    TSPipeError,
    error_from_mlir,
)
from .ts.kernel import ptx_features

__all__ = ["lower_to_ptx", "lower_to_ptx_all", "nvvm_target", "CompileError",
           "ArchError", "SUPPORTED_ARCHS"]


def nvvm_target(arch: str = "sm_90a", features: Optional[str] = None,
                opt_level: int = 3) -> str:
    """The ``#nvvm.target<...>`` text for ``arch`` (e.g. ``sm_90a``).

    ``features`` defaults to the PTX ISA version the architecture needs
    (``+ptx80`` for sm_90a, ``+ptx86`` for sm_100a); ``opt_level`` is LLVM's
    -O level used when serializing. Only builds the text: which chips can be
    lowered to is checked by :func:`lower_to_ptx`.
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


def _check_options(features, debug_hang_timeout, opt_level):
    if features is not None and not isinstance(features, str):
        raise TypeError(f"features must be a str or None, got {features!r}")
    timeout = as_int(debug_hang_timeout)
    if timeout is None:
        raise TypeError(
            f"debug_hang_timeout must be an int, got {debug_hang_timeout!r}")
    if not 0 <= timeout < 2 ** 63:
        raise ValueError(
            f"debug_hang_timeout = {timeout} must be >= 0 (0: off) and fit in "
            f"a signed 64-bit integer")
    level = as_int(opt_level)
    if level is None:
        raise TypeError(f"opt_level must be an int, got {opt_level!r}")
    if not 0 <= level <= 3:
        raise ValueError(f"opt_level = {level} must be 0, 1, 2 or 3")
    return timeout, level


def lower_to_ptx_all(module, arch: str = "sm_90a", *,
                     features: Optional[str] = None,
                     debug_hang_timeout: int = 0,
                     opt_level: int = 3) -> Dict[str, str]:
    """Lower every ``gpu.module`` of ``module``; returns ``{name: ptx}``.

    Args:
      module: module text, or an object with ``to_mlir(arch)`` (a Kernel).
      arch: the SM architecture, one of :data:`SUPPORTED_ARCHS`
        (``"sm_90a"``, ``"sm_100a"``, ...). It replaces the targets the
        ``gpu.module`` s carry.
      features: ``#nvvm.target`` features (default: by ``arch``).
      debug_hang_timeout: if > 0, blocking barrier waits trap after that many
        failed polls (``tspipe-to-nvvm{debug-hang-timeout=N}``).
      opt_level: LLVM optimization level for the PTX (0-3).

    Raises:
      ArchError (ValueError): ``arch`` cannot run tspipe kernels (before
        anything is parsed or lowered).
      ScheduleError / PipelineConfigError (ValueError): the module does not
        parse or breaks a TS rule (as :meth:`tspipe.ts.Kernel.build`), or a
        pass reports a rule (e.g. R43, shared memory capacity).
      TSPipeError (ValueError): the module has no ``gpu.module``.
      CompileError (RuntimeError): lowering the verified module failed.
    """
    arch = check_arch(arch)
    debug_hang_timeout, opt_level = _check_options(features, debug_hang_timeout,
                                                   opt_level)
    ir = importlib.import_module("tspipe.ir")
    passmanager = importlib.import_module("tspipe.passmanager")
    gpu = importlib.import_module("tspipe.dialects.gpu")

    text = module.to_mlir(arch) if hasattr(module, "to_mlir") else module
    if not isinstance(text, str):
        raise TypeError(
            f"module must be MLIR text or have to_mlir() (a Kernel), got "
            f"{type(module).__name__}")
    with ir.Context() as ctx, ir.Location.unknown():
        try:
            parsed = ir.Module.parse(text)
        except ir.MLIRError as err:
            # Parsing verifies: the same errors as Kernel.build.
            raise error_from_mlir(err, untagged=ScheduleError) from None
        target = ir.Attribute.parse(nvvm_target(arch, features, opt_level))
        found = False
        for op in parsed.body.operations:
            if op.operation.name == "gpu.module":
                op.operation.attributes["targets"] = ir.ArrayAttr.get([target])
                found = True
        if not found:
            raise TSPipeError("the module has no gpu.module to lower; put the "
                              "gpu.func (or the Kernel) in a gpu.module")
        try:
            pm = passmanager.PassManager.parse(_pipeline(debug_hang_timeout))
            pm.run(parsed.operation)
        except ir.MLIRError as err:
            # A diagnostic naming a rule is the input's fault (ValueError);
            # anything else is a failure to lower a verified module.
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

    Raises ArchError, ScheduleError / PipelineConfigError (TS rules, IR that
    does not parse or verify), TSPipeError (no gpu.module, or several and no
    ``gpu_module``) -- all ValueError --, KeyError (no ``gpu_module`` of that
    name), CompileError (RuntimeError: lowering a verified module failed).
    """
    ptx = lower_to_ptx_all(module, arch, **options)
    if gpu_module is not None:
        if gpu_module not in ptx:
            raise KeyError(f"no gpu.module named {gpu_module!r}; have {sorted(ptx)}")
        return ptx[gpu_module]
    if len(ptx) != 1:
        raise TSPipeError(
            f"the module has {len(ptx)} gpu.modules ({sorted(ptx)}); pass "
            f"gpu_module= to choose one")
    return next(iter(ptx.values()))
