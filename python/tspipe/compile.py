"""Lowering tspipe modules to PTX through the MLIR pass manager.

:func:`lower_to_ptx` takes a :class:`tspipe.ts.Kernel` (a copy of its
built module) or module text, points the ``gpu.module`` s at ``arch`` when
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

Needs the compiled extension.
"""

from __future__ import annotations

import importlib
import re
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

__all__ = ["lower_to_ptx", "lower_to_ptx_all", "lower_module",
           "attach_target_pipeline", "CompileError",
           "ArchError", "SUPPORTED_ARCHS"]


def attach_target_pipeline(arch: str, features: Optional[str] = None,
                           opt_level: Optional[int] = None) -> str:
    """The ``nvvm-attach-target`` pass (MLIR's) that points every
    ``gpu.module`` at ``arch``, as a pass pipeline element.

    ``features`` defaults to the PTX ISA version of
    :data:`tspipe.targets.PTX_FEATURES`; ``opt_level`` None keeps the NVVM
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


# `features` tspipe passes to ``#nvvm.target``: empty, or one ``+ptxNN``
# (the kernel verifier checks the version against the chip, rule X7).
_FEATURES = re.compile(r",*(\+ptx[0-9]{2,3})?,*")


def _check_options(features, debug_hang_timeout, opt_level):
    if features is not None and not isinstance(features, str):
        raise TypeError(f"features must be a str or None, got {features!r}")
    if features is not None and not _FEATURES.fullmatch(features):
        # LLVM's subtarget parser aborts the process on an entry without a
        # leading '+'/'-' (e.g. 'ptx80'), so this is checked first.
        raise ArchError(
            f"[X7] features = {features!r} is not a PTX ISA version; give "
            f"'' or one '+ptxNN', e.g. '+ptx80' for sm_90a (the chip goes "
            f"in arch, not in features)")
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


def _gpu_modules(op):
    return [o for o in op.regions[0].blocks[0].operations
            if o.operation.name == "gpu.module"]


def lower_module(module_op, *, arch: Optional[str] = None,
                 features: Optional[str] = None,
                 debug_hang_timeout: int = 0,
                 opt_level: Optional[int] = None,
                 lowered_facts: Optional[dict] = None) -> Dict[str, str]:
    """Lower a parsed or built ``builtin.module`` operation in place (in its
    own Context, which must be current); returns ``{gpu.module name: ptx}``.

    The one compile path: :func:`lower_to_ptx_all`, :meth:`Kernel.to_ptx`
    and ``make demo`` all come here. With ``arch`` (or ``features`` /
    ``opt_level``) given, every ``gpu.module``'s targets are replaced by
    ``nvvm-attach-target``'s; otherwise the module's own targets are used (a
    ``gpu.module`` without one gets sm_90a's). ``lowered_facts``, a dict,
    receives :func:`tspipe.launch.lowered_facts` of the NVVM-level module.
    Raises like :func:`lower_to_ptx_all`.
    """
    ir = importlib.import_module("tspipe.ir")
    passmanager = importlib.import_module("tspipe.passmanager")
    gpu = importlib.import_module("tspipe.dialects.gpu")
    modules = _gpu_modules(module_op)
    if not modules:
        raise TSPipeError("[X9] the module has no gpu.module to lower; put "
                          "the gpu.func (or the Kernel) in a gpu.module",
                          "X9")
    retarget = arch is not None or features is not None or opt_level is not None
    untargeted = [m for m in modules if "targets" not in m.operation.attributes]
    if not retarget:
        # A chip LLVM cannot select tspipe's instructions for ends in an LLVM
        # fatal error: check the module's own targets first (X7).
        for m in modules:
            if "targets" in m.operation.attributes:
                for target in ir.ArrayAttr(m.operation.attributes["targets"]):
                    chip = re.search(r'chip = "([^"]*)"', str(target))
                    if chip:
                        check_arch(chip.group(1))
    if retarget or untargeted:
        chip = arch or "sm_90a"
        for m in (modules if retarget else untargeted):
            if "targets" in m.operation.attributes:
                del m.operation.attributes["targets"]
        pm = passmanager.PassManager.parse(
            "builtin.module(" + attach_target_pipeline(chip, features, opt_level)
            + ")")
        try:
            pm.run(module_op)
        except ir.MLIRError as err:
            # The new targets are verified with the kernel (X7: a PTX
            # version the chip does not take).
            raise error_from_mlir(err, untagged=ArchError) from None
    try:
        to_nvvm, to_binary = _pipelines(debug_hang_timeout)
        passmanager.PassManager.parse(to_nvvm).run(module_op)
        if lowered_facts is not None:
            launch = importlib.import_module("tspipe.launch")
            lowered_facts.update(launch.lowered_facts(module_op))
        passmanager.PassManager.parse(to_binary).run(module_op)
    except ir.MLIRError as err:
        # A diagnostic naming a rule is the input's fault (ValueError);
        # anything else is a failure to lower a verified module.
        raise error_from_mlir(err, untagged=CompileError) from None
    result: Dict[str, str] = {}
    for op in module_op.regions[0].blocks[0].operations:
        if op.operation.name != "gpu.binary":
            continue
        name = ir.StringAttr(op.operation.attributes["sym_name"]).value
        for obj in ir.ArrayAttr(op.operation.attributes["objects"]):
            result[name] = gpu.ObjectAttr(obj).object.decode("utf-8")
    return result


def lower_to_ptx_all(module, arch: Optional[str] = None, *,
                     features: Optional[str] = None,
                     debug_hang_timeout: int = 0,
                     opt_level: Optional[int] = None) -> Dict[str, str]:
    """Lower every ``gpu.module`` of ``module``; returns ``{name: ptx}``.

    Args:
      module: a :class:`tspipe.ts.Kernel` (lowered from a copy of its built
        module), or module text.
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
    debug_hang_timeout, opt_level = _check_options(features, debug_hang_timeout,
                                                   opt_level)
    ir = importlib.import_module("tspipe.ir")
    options = dict(features=features, debug_hang_timeout=debug_hang_timeout,
                   opt_level=opt_level)
    if hasattr(module, "build") and hasattr(module, "module"):
        arch = arch or module.arch
        module.build(arch)
        with module.context, ir.Location.unknown():
            copy = module.module.operation.clone()
            return lower_module(copy, arch=arch, **options)
    if not isinstance(module, str):
        raise TypeError(
            f"module must be MLIR text or a Kernel, got {type(module).__name__}")
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
