"""tspipe: multi-stage mbarrier pipelines between warp-specialized tasks.

Subpackages and modules (all imported lazily, on first use):

* ``tspipe.ir``, ``tspipe.passmanager``, ``tspipe.dialects.tspipe`` (and
  ``tspipe.dialects.{gpu,nvvm,llvm,arith,scf,vector,func,memref,cf,index,
  builtin}``):
  MLIR's Python bindings bundled with the tspipe dialect. They need the
  compiled extension (``tspipe._mlir_libs``).
* ``tspipe.ts``: the front end in the vocabulary of CuTe DSL's Task
  Scheduling (``PipelineConfig`` and its seven factories, ``Kernel``, tasks and
  schedules), built with the MLIR builders and verified by the C++
  verifiers; its enums are the dialect's generated ones (needs the
  extension).
* ``tspipe.compile``: ``lower_to_ptx``, ``lower_module`` (needs the
  extension); ``tspipe.launch``: launch facts read from the IR's attributes.
* ``tspipe.progress``: ``check_progress``, the deadlock and credit-balance
  checker's verdict and pictures (needs the extension).
* ``tspipe.runtime``: pure-Python launch code (cuda-python); importable where
  the extension cannot be loaded.

Importing ``tspipe`` itself loads nothing compiled, so ``import tspipe.runtime``
works on a machine that has only the pure-Python parts.

The front-end names (``PipelineConfig``, ``CooperativeGroup``, ``Agent``,
``SignalingThreads``, ``PipelineOp``, ``PipelineType``, ``Kernel``,
``PipelineConfigError``, ``ScheduleError``) are also available as attributes of
``tspipe`` itself, resolved lazily from ``tspipe.ts``.
"""

import importlib as _importlib

__version__ = "0.1.0"

_SUBMODULES = frozenset(
    {"ir", "passmanager", "dialects", "rewrite", "ts", "compile", "runtime",
     "launch", "progress"}
)

_TS_NAMES = frozenset(
    {
        "Agent",
        "SignalingThreads",
        "PipelineOp",
        "PipelineType",
        "CooperativeGroup",
        "PipelineConfig",
        "TSPipeError",
        "PipelineConfigError",
        "ScheduleError",
        "ArchError",
        "ConfigTypeError",
        "Kernel",
        "Pipeline",
        "Task",
    }
)


def __getattr__(name):
    # PEP 562: resolve submodules and front-end names on first access only.
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    if name in _TS_NAMES:
        return getattr(_importlib.import_module(f"{__name__}.ts"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _SUBMODULES | _TS_NAMES)
