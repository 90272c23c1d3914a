"""Op builders of the ``tspipe`` dialect (generated from its ODS).

Every op of ``include/tspipe/Dialect/TSPipe/IR/TSPipeOps.td`` has a builder
class here (``KernelOp``, ``PipelineOp``, ``TaskOp``, ``DomainLoopOp``,
``ProducerAcquireOp``, ...) and the dialect's enums (``PipelineType``,
``Agent``, ``SignalingThreads``, ``PipelineOpKind``, ``Role``) are Python
enums. ``#tspipe.config<...>`` attributes are built from text with
``tspipe.ir.Attribute.parse`` (or through ``tspipe.ts.PipelineConfig``);
the C++ verifier checks them (rules R1-R10 and R15).

Importing this module needs the compiled extension.
"""

from ._tspipe_ops_gen import *  # noqa: F401,F403
from ._tspipe_ops_gen import _Dialect  # noqa: F401
from ._tspipe_enum_gen import *  # noqa: F401,F403
from .._mlir_libs._tspipe import register_dialect  # noqa: F401
