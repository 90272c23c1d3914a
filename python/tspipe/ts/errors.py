"""The exceptions of the TS front end: :mod:`tspipe.diagnostics`, under the
name TS code and earlier tspipe releases import them by."""

from ..diagnostics import (  # noqa: F401
    ArchError,
    CompileError,
    ConfigTypeError,
    Diagnostic,
    PipelineConfigError,
    ScheduleError,
    TSPipeError,
    __all__,  # noqa: F401
    diagnostics_of,
    error_from_mlir,
    rule_of,
)
