"""Lowering tspipe modules to PTX through the MLIR pass manager.

:func:`lower_to_ptx` takes module text, a ``tspipe.ir.Module`` or a
:class:`tspipe.ts.Kernel`, points the ``gpu.module`` s at ``arch`` when
one is given (MLIR's ``nvvm-attach-target``), runs the ``tspipe-to-nvvm``
pipeline and ``gpu-module-to-binary{format=isa}``, and returns the PTX text
stored in the resulting ``gpu.binary``. :func:`lower_module` is the one
compile path (the Python API, the tests and ``make demo``); for a module
with the same target it gives byte-identical PTX to ``tspipe-opt
--tspipe-to-nvvm --gpu-module-to-binary=format=isa`` (the -O level is the
NVVM target's own unless ``opt_level`` is given; test_compile.py checks).
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

The pipeline layer of the package: it works on ``builtin.module``
operations and imports nothing of the ``tspipe.ts`` front end (a Kernel is
lowered by its own ``to_ptx_all``, which comes back here). Needs the
compiled extension.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

from . import ir, passmanager
from ._mlir_libs import _tspipe
from .diagnostics import (
    ArchError,
    CompileError,
    ScheduleError,
    TSPipeError,
    error_from_mlir,
)
from .dialects import gpu
from .targets import SUPPORTED_ARCHS, check_arch, ptx_features
from .values import as_int

__all__ = ["lower_to_ptx", "lower_to_ptx_all", "lower_module",
           "lower_to_nvvm", "serialize", "attach_target",
           "attach_target_pipeline", "target_fields", "check_options",
           "CompileError", "ArchError", "SUPPORTED_ARCHS"]


def attach_target_pipeline(arch: str, features: Optional[str] = None,
                           opt_level: Optional[int] = None) -> str:
    """The ``nvvm-attach-target`` pass (MLIR's) that points every
    ``gpu.module`` at ``arch``, as a pass pipeline element.

    ``features`` defaults to the PTX ISA version of
    :func:`tspipe.targets.ptx_features`; ``opt_level`` None keeps the NVVM
    target's own default -O level -- the one ``tspipe-opt
    --gpu-module-to-binary`` uses for a ``#nvvm.target`` that names none, so
    both paths give the same PTX.
    """
    features = features if features is not None else ptx_features(arch)
    options = f"chip={arch}"
    if features:
        options += f" features={features}"
    if opt_level is not None:
        options += f" O={opt_level}"
    return f"nvvm-attach-target{{{options}}}"


def _pipelines(debug_hang_timeout: int):
    """``tspipe-to-nvvm``, then ``gpu-module-to-binary{format=isa}``: the
    same passes, with the same options, as ``tspipe-opt --tspipe-to-nvvm
    --gpu-module-to-binary=format=isa``."""
    lowering = "tspipe-to-nvvm"
    if debug_hang_timeout:
        lowering += f"{{debug-hang-timeout={int(debug_hang_timeout)}}}"
    return (f"builtin.module({lowering})",
            "builtin.module(gpu-module-to-binary{format=isa})")


# What `features` may hold to pass through the pass-option syntax of
# ``nvvm-attach-target{... features=...}`` unchanged (the option parser
# trims spaces and stops at braces and quotes). Whether the entries are PTX
# ISA versions the chip takes is the verifier's X7 (verifyNVVMTarget).
_FEATURE_CHARS = re.compile(r"[A-Za-z0-9_+\-.,]*")


def check_options(features, debug_hang_timeout, opt_level):
    """The compile options as ``(debug_hang_timeout, opt_level)`` ints.

    Raises TypeError for a value of the wrong Python type, ArchError (X7)
    for ``features`` the pass options cannot carry as written (the verifier
    checks the rest of X7), TSPipeError for a timeout or -O level out of
    range.
    """
    if features is not None and not isinstance(features, str):
        raise TypeError(f"features must be a str or None, got {features!r}")
    if features is not None and not _FEATURE_CHARS.fullmatch(features):
        raise ArchError(
            f"[X7] features = {features!r} is not a list of PTX ISA "
            f"versions; give '' or one '+ptxNN' (no spaces), e.g. '+ptx80' "
            f"for sm_90a")
    timeout = as_int(debug_hang_timeout)
    if timeout is None:
        raise TypeError(
            f"debug_hang_timeout must be an int, got {debug_hang_timeout!r}")
    if not 0 <= timeout < 2 ** 63:
        raise TSPipeError(
            f"debug_hang_timeout = {timeout} must be >= 0 (0: off) and fit in "
            f"a signed 64-bit integer; give the number of failed polls after "
            f"which a blocked wait traps, or 0")
    if opt_level is None:
        return timeout, None
    level = as_int(opt_level)
    if level is None:
        raise TypeError(f"opt_level must be an int or None, got {opt_level!r}")
    if not 0 <= level <= 3:
        raise TSPipeError(f"opt_level = {level} must be 0, 1, 2 or 3 (LLVM's "
                          f"-O levels), or None for the target's default")
    return timeout, level


def _top_level(module_op, name: str) -> List:
    return [o.operation for o in module_op.regions[0].blocks[0].operations
            if o.operation.name == name]


def target_fields(module_op) -> Dict[str, List[dict]]:
    """``{gpu.module name: [{chip, features, O}, ...]}``: the
    ``#nvvm.target`` s of every ``gpu.module`` of ``module_op`` (read through
    the C API), or of every ``gpu.binary``'s objects once serialized. Other
    targets are left out; a module without ``targets`` maps to ``[]``."""
    result: Dict[str, List[dict]] = {}
    for op in _top_level(module_op, "gpu.module"):
        name = ir.StringAttr(op.attributes["sym_name"]).value
        targets = (ir.ArrayAttr(op.attributes["targets"])
                   if "targets" in op.attributes else [])
        result[name] = [_tspipe.nvvm_target_fields(t) for t in targets
                        if _is_nvvm_target(t)]
    for op in _top_level(module_op, "gpu.binary"):
        name = ir.StringAttr(op.attributes["sym_name"]).value
        result[name] = [
            _tspipe.nvvm_target_fields(gpu.ObjectAttr(obj).target)
            for obj in ir.ArrayAttr(op.attributes["objects"])
            if _is_nvvm_target(gpu.ObjectAttr(obj).target)]
    return result


def _is_nvvm_target(attr) -> bool:
    try:
        _tspipe.nvvm_target_fields(attr)
    except TypeError:
        return False
    return True


def attach_target(module_op, arch: str, features: Optional[str] = None,
                  opt_level: Optional[int] = None, *,
                  only_untargeted: bool = False, verify: bool = True) -> None:
    """Points the ``gpu.module`` s of ``module_op`` (in its Context, which
    must be current) at ``arch`` with ``nvvm-attach-target``, replacing the
    targets they had (``only_untargeted``: only those without one).

    ``verify`` False leaves verifying the module to the caller (the front
    end verifies it itself, to list every failure). Raises ArchError (X7)
    when the new target fails the kernel verifier.
    """
    for op in _top_level(module_op, "gpu.module"):
        if "targets" in op.attributes and not only_untargeted:
            del op.attributes["targets"]
    pm = passmanager.PassManager.parse(
        "builtin.module(" + attach_target_pipeline(arch, features, opt_level)
        + ")")
    pm.enable_verifier(verify)
    try:
        pm.run(module_op)
    except ir.MLIRError as err:
        # The new targets are verified with the kernel (X7: a PTX version
        # the chip does not take).
        raise error_from_mlir(err, untagged=ArchError) from None


def lower_to_nvvm(module_op, debug_hang_timeout: int = 0) -> None:
    """Runs ``tspipe-to-nvvm`` on ``module_op`` in place (the progress
    checker included). Raises ScheduleError / PipelineConfigError /
    ArchError for a broken rule, CompileError for a failure to lower a
    verified module."""
    to_nvvm, _ = _pipelines(debug_hang_timeout)
    try:
        passmanager.PassManager.parse(to_nvvm).run(module_op)
    except ir.MLIRError as err:
        # A diagnostic naming a rule is the input's fault (ValueError);
        # anything else is a failure to lower a verified module.
        raise error_from_mlir(err, untagged=CompileError) from None


def serialize(module_op) -> Dict[str, str]:
    """Runs ``gpu-module-to-binary{format=isa}`` on an NVVM-level
    ``module_op`` in place; returns ``{gpu.module name: ptx}``. Raises
    CompileError when LLVM fails."""
    _, to_binary = _pipelines(0)
    try:
        passmanager.PassManager.parse(to_binary).run(module_op)
    except ir.MLIRError as err:
        raise error_from_mlir(err, untagged=CompileError) from None
    result: Dict[str, str] = {}
    for op in _top_level(module_op, "gpu.binary"):
        name = ir.StringAttr(op.attributes["sym_name"]).value
        for obj in ir.ArrayAttr(op.attributes["objects"]):
            result[name] = gpu.ObjectAttr(obj).object.decode("utf-8")
    return result


def prepare_targets(module_op, *, arch: Optional[str] = None,
                    features: Optional[str] = None,
                    opt_level: Optional[int] = None) -> None:
    """The targets :func:`lower_module` lowers for: with ``arch`` (or
    ``features`` / ``opt_level``) given, every ``gpu.module``'s targets are
    replaced by ``nvvm-attach-target``'s; otherwise the module's own are
    kept (checked against :data:`SUPPORTED_ARCHS`: a chip LLVM cannot
    select tspipe's instructions for ends in an LLVM fatal error) and a
    ``gpu.module`` without one gets sm_90a's. Raises TSPipeError (X9) for a
    module without a ``gpu.module``, ArchError (X7)."""
    modules = _top_level(module_op, "gpu.module")
    if not modules:
        raise TSPipeError("[X9] the module has no gpu.module to lower; put "
                          "the gpu.func (or the Kernel) in a gpu.module",
                          "X9")
    retarget = arch is not None or features is not None or opt_level is not None
    if not retarget:
        for targets in target_fields(module_op).values():
            for target in targets:
                check_arch(target["chip"])
    untargeted = [m for m in modules if "targets" not in m.attributes]
    if retarget or untargeted:
        attach_target(module_op, arch or "sm_90a", features, opt_level,
                      only_untargeted=not retarget)


def lower_module(module_op, *, arch: Optional[str] = None,
                 features: Optional[str] = None,
                 debug_hang_timeout: int = 0,
                 opt_level: Optional[int] = None) -> Dict[str, str]:
    """Lower a parsed or built ``builtin.module`` operation in place (in its
    own Context, which must be current); returns ``{gpu.module name: ptx}``.

    The one compile path: :func:`lower_to_ptx_all`, :meth:`Kernel.to_ptx`
    and ``make demo`` all come here: :func:`prepare_targets`,
    :func:`lower_to_nvvm`, :func:`serialize`. Raises like
    :func:`lower_to_ptx_all`.
    """
    prepare_targets(module_op, arch=arch, features=features,
                    opt_level=opt_level)
    lower_to_nvvm(module_op, debug_hang_timeout)
    return serialize(module_op)


def lower_to_ptx_all(module, arch: Optional[str] = None, *,
                     features: Optional[str] = None,
                     debug_hang_timeout: int = 0,
                     opt_level: Optional[int] = None) -> Dict[str, str]:
    """Lower every ``gpu.module`` of ``module``; returns ``{name: ptx}``.

    Args:
      module: module text, a ``tspipe.ir.Module`` (a copy is lowered), or a
        :class:`tspipe.ts.Kernel` (its :meth:`~tspipe.ts.Kernel.to_ptx_all`).
      arch: the SM architecture, one of :data:`SUPPORTED_ARCHS`
        (``"sm_90a"``, ``"sm_100a"``, ...); it replaces the targets the
        ``gpu.module`` s carry. None: a Kernel's own ``arch``; for text, the
        module's own targets (sm_90a where it has none).
      features: ``#nvvm.target`` features (default: by ``arch``).
      debug_hang_timeout: if > 0, blocking barrier waits trap after that many
        failed polls (``tspipe-to-nvvm{debug-hang-timeout=N}``).
      opt_level: LLVM optimization level for the PTX (0-3); None keeps the
        NVVM target's default, the level ``tspipe-opt`` uses, so that both
        give the same PTX.

    Raises:
      ArchError (ValueError): ``arch`` cannot run tspipe kernels (before
        anything is parsed or lowered).
      ScheduleError / PipelineConfigError (ValueError): the module does not
        parse or breaks a TS rule (as :meth:`tspipe.ts.Kernel.build`), or a
        pass reports a rule (e.g. R43, shared memory capacity).
      TSPipeError (ValueError): the module has no ``gpu.module``.
      CompileError (RuntimeError): lowering the verified module failed.
    """
    if arch is not None:
        arch = check_arch(arch)
    debug_hang_timeout, opt_level = check_options(features, debug_hang_timeout,
                                                  opt_level)
    options = dict(features=features, debug_hang_timeout=debug_hang_timeout,
                   opt_level=opt_level)
    if hasattr(module, "to_ptx_all"):
        # A tspipe.ts.Kernel: built, verified and lowered by its own method
        # (one target attachment, one progress check).
        return module.to_ptx_all(arch, **options)
    if isinstance(module, ir.Module):
        module = module.operation
    if isinstance(module, ir.Operation):
        with module.context, ir.Location.unknown():
            return lower_module(module.clone(), arch=arch, **options)
    if not isinstance(module, str):
        raise TypeError(
            f"module must be MLIR text, a tspipe.ir.Module or a Kernel, got "
            f"{type(module).__name__}")
    with ir.Context(), ir.Location.unknown():
        try:
            parsed = ir.Module.parse(module)
        except ir.MLIRError as err:
            # Parsing verifies: the same errors as Kernel.build.
            raise error_from_mlir(err, untagged=ScheduleError) from None
        return lower_module(parsed.operation, arch=arch, **options)


def lower_to_ptx(module, arch: Optional[str] = None, *, gpu_module: Optional[str] = None,
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
            f"[X9] the module has {len(ptx)} gpu.modules ({sorted(ptx)}); "
            f"pass gpu_module= to choose one", "X9")
    return next(iter(ptx.values()))
