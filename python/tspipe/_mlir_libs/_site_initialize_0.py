"""Site initializer picked up by ``tspipe._mlir_libs`` (see its ``__init__``).

Every ``tspipe.ir.Context`` gets the tspipe dialect and the upstream dialects
a tspipe kernel lives in; the tspipe passes and the upstream passes of the
``tspipe-to-nvvm`` pipeline are registered once, so that
``tspipe.passmanager.PassManager.parse`` can name them.
"""

from ._tspipe import register_dialects, register_passes  # noqa: F401

register_passes()
