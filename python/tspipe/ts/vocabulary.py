"""TS vocabulary: agents, cooperative groups, signaling threads, pipeline ops
and pipeline types (docs/Protocols.md).

The enums are the dialect's generated ODS enums (``str(member)`` is the IR
keyword); importing this module loads the compiled extension.
"""

from __future__ import annotations

import dataclasses
import threading

from .. import ir
from .._mlir_libs import _tspipe
from ..diagnostics import (
    ConfigTypeError,
    PipelineConfigError,
    caller_location,
    caller_location_object,
    collect_diagnostics,
)
from ..dialects import _tspipe_enum_gen as _ods
from ..values import as_int, int64_problem

__all__ = [
    "Agent",
    "SignalingThreads",
    "PipelineOp",
    "PipelineType",
    "RemoteArriveScope",
    "CooperativeGroup",
]


# The enums are the ones generated from the dialect's ODS (TSPipeEnums.td):
# one definition, in C++'s values, with TS's member names. TS's
# ``PipelineOp`` is the dialect's ``PipelineOpKind``.
#
#   Agent            Thread, Warp, ThreadBlock, ThreadBlockCluster. The
#                    mbarrier arrive count CuTe derives from a group is
#                    ``size`` for Thread, ``32 * size`` for Warp
#                    (docs/Protocols.md, Cooperative groups and arrive counts).
#   SignalingThreads All (1), CtaLeader (2), TaskWarpLeader (4): which threads
#                    of a task issue a pipeline's barrier operations; the
#                    valid combinations (R1) are checked by the C++ verifier.
#   PipelineOp       AsyncThread (mbarrier.arrive), AsyncLoad
#                    (cp.async.mbarrier.arrive.noinc); R2 / R3 in C++.
#   PipelineType     the seven TS pipeline types (docs/Protocols.md).
#   RemoteArriveScope  Cta, Cluster: the memory scope of a pipeline's remote
#                    arrives (not TS's; docs/Protocols.md, Remote-arrive
#                    scope).
Agent = _ods.Agent
SignalingThreads = _ods.SignalingThreads
PipelineOp = _ods.PipelineOpKind
PipelineType = _ods.PipelineType
RemoteArriveScope = _ods.RemoteArriveScope


@dataclasses.dataclass(frozen=True)
class CooperativeGroup:
    """CuTe's ``CooperativeGroup(agent, size=1)``: the arrivals a barrier expects.

    Args:
      agent: an :class:`Agent`.
      size: number of agents (threads for ``Agent.Thread``, warps for
        ``Agent.Warp``): an ``int`` (numpy integers accepted, ``bool`` not)
        greater than 0 (rule R8, checked here).

    Raises:
      PipelineConfigError (a ValueError, rule R8): ``agent`` is not an
        :class:`Agent` (``"Thread"`` included), ``size`` is a ``bool``, is
        not > 0 or does not fit in 64 bits -- TS 4.8.1 raises ValueError for
        the agent, for ``False`` and for sizes <= 0 too (it accepts ``True``
        as 1; tspipe does not).
      ConfigTypeError (a TypeError): ``size`` is not an integer (TS 4.8.1
        accepts e.g. 1.5; tspipe does not).
    """

    agent: Agent
    size: int = 1

    def __post_init__(self):
        if not isinstance(self.agent, Agent):
            raise PipelineConfigError(
                f"[R8] CooperativeGroup agent must be an Agent "
                f"(Agent.Thread, Agent.Warp, Agent.ThreadBlock, "
                f"Agent.ThreadBlockCluster), got {self.agent!r}",
                "R8", caller_location())
        if type(self.size).__name__ in ("bool", "bool_"):
            raise PipelineConfigError(
                f"[R8] CooperativeGroup size must be an int greater than 0, "
                f"got {self.size!r}; give the number of {self.agent}s "
                f"that arrive", "R8", caller_location())
        size = as_int(self.size)
        if size is None:
            raise ConfigTypeError(
                f"[R8] CooperativeGroup size must be an int, got {self.size!r}",
                rule="R8",
            )
        object.__setattr__(self, "size", size)
        problem = int64_problem("CooperativeGroup size", size)
        if problem is not None:
            raise PipelineConfigError(f"[R8] {problem}", "R8",
                                      caller_location())
        # R8 (size > 0) is the C++ verifier's: build the attribute.
        self.to_attr(validation_context())

    def to_attr(self, ctx):
        """``#tspipe.group<agent, size>`` in ``ctx`` through the C API.
        Raises PipelineConfigError (R8) with the C++ verifier's text."""
        with collect_diagnostics(ctx) as diags, ctx, \
                caller_location_object(ctx):
            attr = _tspipe.group_attr(int(self.agent), self.size)
        if attr is None:
            first = diags[0] if diags else None
            message = first.message if first else "[R8] invalid cooperative group"
            raise PipelineConfigError(message, "R8", caller_location(), diags)
        return attr


_context_lock = threading.Lock()
_validation_context = None


def validation_context():
    """A process-wide ``tspipe.ir.Context`` in which configs and groups are
    validated by the C++ verifiers."""
    global _validation_context
    with _context_lock:
        if _validation_context is None:
            _validation_context = ir.Context()
        return _validation_context
