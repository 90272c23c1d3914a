"""Verification and compile glue of :class:`tspipe.ts.Kernel`: its target
attached, the C++ verifiers run with every failure listed, the progress
checker, and the copy of the module the pipeline layer lowers.

Each step is done once per call: :meth:`Kernel.build` attaches the target
and verifies (and runs :func:`tspipe.progress.check_progress` unless told
not to); :meth:`Kernel.to_ptx_all` attaches the target with the compile
options and verifies, then lowers a copy with
:func:`tspipe.compile.lower_to_nvvm` -- whose ``tspipe-to-nvvm`` runs the
progress checker -- and :func:`tspipe.compile.serialize`.
"""

from __future__ import annotations

from typing import Dict, Optional

from .. import ir, passmanager
from ..compile import attach_target, check_options, lower_to_nvvm, serialize
from ..diagnostics import ScheduleError, diagnostics_of, error_from_mlir
from ..progress import check_progress as _check_progress

__all__ = ["attach_kernel_target", "verify_kernel", "lower_kernel"]


def attach_kernel_target(kernel, arch: str, features: Optional[str] = None,
                         opt_level: Optional[int] = None) -> None:
    """Attaches ``#nvvm.target`` for ``arch`` to the kernel's gpu.module with
    MLIR's ``nvvm-attach-target`` pass (:func:`tspipe.compile.attach_target`:
    the PTX ISA version of :func:`tspipe.targets.ptx_features` unless
    ``features`` is given; LLVM's default -O level unless ``opt_level`` is,
    as ``tspipe-opt`` uses for a target that names none). Not verified."""
    with kernel.context:
        attach_target(kernel.module.operation, arch, features, opt_level,
                      verify=False)


def _every_failure(kernel, first_error):
    """The exception for a failed verification, listing every failure:
    MLIR's verifier stops at the first failing op, so each pipeline and task
    is verified on its own as well and their diagnostics added."""
    diagnostics = diagnostics_of(first_error)
    for op in [p.op for p in kernel.pipelines] + [t.op for t in kernel.tasks]:
        try:
            op.operation.verify()
        except ir.MLIRError as err:
            diagnostics += diagnostics_of(err)
    seen, unique = set(), []
    for diag in diagnostics:
        if (diag.message, diag.location) not in seen:
            seen.add((diag.message, diag.location))
            unique.append(diag)
    error = error_from_mlir(first_error, untagged=ScheduleError)
    return type(error)(error.message, error.rule, error.location, unique)


def _check_allocation(kernel) -> None:
    """R43 (shared memory capacity): ``tspipe-allocate-smem`` on a copy of
    the verified module, so that ``build()`` / ``verify()`` report a kernel
    whose pipelines do not fit the target chip's shared memory, as
    ``to_ptx`` does. Raises ScheduleError."""
    with kernel.context, ir.Location.unknown():
        copy = kernel.module.operation.clone()
        try:
            passmanager.PassManager.parse(
                "builtin.module(tspipe-allocate-smem)").run(copy)
        except ir.MLIRError as err:
            raise error_from_mlir(err, untagged=ScheduleError) from None


def verify_kernel(kernel, arch: str, *, check_progress: bool = True,
                  features: Optional[str] = None,
                  opt_level: Optional[int] = None) -> None:
    """Attaches the target and runs the C++ verifiers (and, with
    ``check_progress``, the progress checker) on the kernel's module.
    Also checks shared memory capacity (R43, :func:`_check_allocation`).
    Raises ScheduleError / PipelineConfigError / ArchError (ValueError)
    listing every diagnostic."""
    attach_kernel_target(kernel, arch, features, opt_level)
    with kernel.context:
        try:
            kernel.module.operation.verify()
        except ir.MLIRError as err:
            raise _every_failure(kernel, err) from None
    _check_allocation(kernel)
    if check_progress:
        _check_progress(kernel.module.operation.get_asm(
            enable_debug_info=True)).raise_on_failure()


def lower_kernel(kernel, arch: str, *, features: Optional[str] = None,
                 debug_hang_timeout: int = 0,
                 opt_level: Optional[int] = None) -> Dict[str, str]:
    """``{gpu.module name: ptx}`` of the kernel for ``arch``: the target
    attached and the module verified once, a copy lowered and serialized
    (the progress checker runs in ``tspipe-to-nvvm``). Raises like
    :meth:`tspipe.ts.Kernel.build`, and CompileError (RuntimeError) when
    lowering the verified module fails."""
    debug_hang_timeout, opt_level = check_options(features, debug_hang_timeout,
                                                  opt_level)
    verify_kernel(kernel, arch, check_progress=False, features=features,
                  opt_level=opt_level)
    with kernel.context, ir.Location.unknown():
        copy = kernel.module.operation.clone()
        lower_to_nvvm(copy, debug_hang_timeout)
        return serialize(copy)
