"""TS's ``enums`` module path (``tspipe.ts.enums``): the vocabulary enums
and the schedule enums tspipe accepts."""

from .resources import PipelineGroupMode, WorkAttr  # noqa: F401
from .vocabulary import Agent, PipelineOp, PipelineType, SignalingThreads  # noqa: F401

__all__ = ["Agent", "PipelineOp", "PipelineType", "SignalingThreads",
           "PipelineGroupMode", "WorkAttr"]
