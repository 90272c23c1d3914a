"""tspipe: multi-stage mbarrier pipelines between warp-specialized tasks.

Subpackages and modules:

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
* ``tspipe.diagnostics``: the exceptions (rule id, message, Python line) and
  the conversion of MLIR diagnostics into them; ``tspipe.values``: checks of
  Python values; ``tspipe.targets``: the chips tspipe compiles for.
* ``tspipe.compile``: ``lower_to_ptx``, ``lower_module`` (needs the
  extension); ``tspipe.launch``: launch facts read from the IR's attributes.
* ``tspipe.progress``: ``check_progress``, the deadlock and credit-balance
  checker's verdict and pictures (needs the extension).
* ``tspipe.runtime``: pure-Python launch code (cuda-python); importable where
  the extension cannot be loaded.

Importing ``tspipe`` itself loads nothing (the package's ``__init__`` imports
no module), so ``import tspipe.runtime`` works on a machine that has only the
pure-Python parts. The front-end names (``PipelineConfig``, ``Kernel``, the
exceptions, ...) are imported from ``tspipe.ts``.

Layers (each imports only those before it; test_package_layering.py checks
it): ``tspipe.diagnostics``, ``tspipe.values``, ``tspipe.targets`` ->
``tspipe.compile``, ``tspipe.progress``, ``tspipe.launch`` (functions on
``builtin.module`` operations) -> ``tspipe.ts`` (the front end) ->
``tspipe.demo``; ``tspipe.runtime`` stands alone.
"""

__version__ = "0.1.0"
