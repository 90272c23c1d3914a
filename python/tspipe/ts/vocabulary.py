"""TS vocabulary: agents, cooperative groups, signaling threads, pipeline ops
and pipeline types (docs/Protocols.md). Pure Python.

Each enum member knows its spelling in tspipe IR (``ir_name``), which is what
``#tspipe.config<...>`` and ``#tspipe.group<...>`` use.
"""

from __future__ import annotations

import dataclasses
import enum

from .checks import as_int, int64_problem
from .errors import ConfigTypeError, PipelineConfigError, caller_location

__all__ = [
    "Agent",
    "SignalingThreads",
    "PipelineOp",
    "PipelineType",
    "CooperativeGroup",
]


class Agent(enum.Enum):
    """Who arrives on a barrier in a :class:`CooperativeGroup` (CuTe's Agent).

    The mbarrier arrive count CuTe derives from a group is ``size`` for
    ``Thread``, ``32 * size`` for ``Warp``; ``ThreadBlock`` and
    ``ThreadBlockCluster`` depend on the launch shape. TS's count rules
    compare the raw ``size`` with arrival counts, so ``Thread`` groups (size =
    number of arriving threads) are the consistent choice (docs/Protocols.md, Cooperative groups and arrive counts).
    """

    Thread = "thread"
    Warp = "warp"
    ThreadBlock = "thread_block"
    ThreadBlockCluster = "thread_block_cluster"

    @property
    def ir_name(self) -> str:
        """The keyword in ``#tspipe.group<agent, size>``."""
        return self.value


class SignalingThreads(enum.IntFlag):
    """Which threads of a task issue a pipeline's barrier operations (docs/Protocols.md, Signaling threads).

    ``All`` (every thread of the task), ``CtaLeader`` (only CTAs whose cluster
    rank is a multiple of V; CLC producers: rank 0), ``TaskWarpLeader`` (TMA
    producers: only the first warp of each producer task arms the full
    barrier). Valid values (rule R1): ``All``, ``CtaLeader``,
    ``TaskWarpLeader``, ``CtaLeader | TaskWarpLeader``; ``All`` combines with
    nothing. Combinations are checked by the C++ verifier.
    """

    All = 1
    CtaLeader = 2
    TaskWarpLeader = 4

    @property
    def ir_name(self) -> str:
        """``all``, ``cta_leader``, ``cta_leader|task_warp_leader``, ...

        Bits without a name are spelled ``bit<N>`` and an empty flag ``none``;
        the C++ parser rejects both with rule R1.
        """
        value = int(self)
        if value == 0:
            return "none"
        names = []
        for bit, name in ((1, "all"), (2, "cta_leader"), (4, "task_warp_leader")):
            if value & bit:
                names.append(name)
                value &= ~bit
        position = 0
        while value:
            if value & 1:
                names.append(f"bit{position}")
            value >>= 1
            position += 1
        return "|".join(names)


class PipelineOp(enum.Enum):
    """How an async-thread producer arrives on the full barrier (docs/Protocols.md, AsyncAsync and AsyncUmma).

    ``AsyncThread``: every producer thread does ``mbarrier.arrive``.
    ``AsyncLoad``: every producer thread does
    ``cp.async.mbarrier.arrive.noinc`` (completes when its earlier cp.async
    copies land). Only AsyncAsync (``async_producer_op``, R2) and AsyncUmma
    (``umma_consumer_producer_op``, R3) may use ``AsyncLoad``.
    """

    AsyncThread = "async_thread"
    AsyncLoad = "async_load"

    @property
    def ir_name(self) -> str:
        return self.value


class PipelineType(enum.Enum):
    """The seven TS pipeline types: which unit fills and which drains a stage.

    ============= ===================================== =====================
    type          producer (full barrier)               consumer (empty)
    ============= ===================================== =====================
    AsyncAsync    threads (arrive / cp.async arrive)    threads
    TmaAsync      TMA (expect_tx ``num_bytes``)         threads
    TmaUmma       TMA (expect_tx ``num_bytes``)         tcgen05 MMA commit
    UmmaAsync     tcgen05 MMA commit                    threads
    AsyncUmma     threads (arrive / cp.async arrive)    tcgen05 MMA commit
    UmmaUmma      tcgen05 commit                        tcgen05 commit
    ClcFetchAsync cluster launch control (16 B/stage)   threads
    ============= ===================================== =====================
    """

    AsyncAsync = "async_async"
    TmaAsync = "tma_async"
    TmaUmma = "tma_umma"
    UmmaAsync = "umma_async"
    AsyncUmma = "async_umma"
    UmmaUmma = "umma_umma"
    ClcFetchAsync = "clc_fetch_async"

    @property
    def ir_name(self) -> str:
        return self.value


@dataclasses.dataclass(frozen=True)
class CooperativeGroup:
    """CuTe's ``CooperativeGroup(agent, size=1)``: the arrivals a barrier expects.

    Args:
      agent: an :class:`Agent`.
      size: number of agents (threads for ``Agent.Thread``, warps for
        ``Agent.Warp``): an ``int`` (numpy integers accepted, ``bool`` not)
        greater than 0 (rule R8, checked here).

    Raises:
      ConfigTypeError (a TypeError): ``agent`` is not an :class:`Agent`, or
        ``size`` is not an ``int`` (``bool`` rejected).
      PipelineConfigError (a ValueError, rule R8): ``size`` is not > 0 (or
        does not fit in 64 bits).
    """

    agent: Agent
    size: int = 1

    def __post_init__(self):
        if not isinstance(self.agent, Agent):
            raise ConfigTypeError(
                f"[R8] CooperativeGroup agent must be an Agent "
                f"(Thread, Warp, ThreadBlock, ThreadBlockCluster), got "
                f"{self.agent!r}",
                rule="R8",
            )
        size = as_int(self.size)
        if size is None:
            raise ConfigTypeError(
                f"[R8] CooperativeGroup size must be an int, got {self.size!r}",
                rule="R8",
            )
        object.__setattr__(self, "size", size)
        problem = int64_problem("CooperativeGroup size", size)
        if problem is None and size <= 0:
            # The C++ verifier's text for #tspipe.group (R8).
            problem = (f"cooperative group size must be greater than 0, got "
                       f"{size}; give the number of {self.agent.ir_name}s that "
                       f"arrive")
        if problem is not None:
            raise PipelineConfigError(f"[R8] {problem}", "R8",
                                      caller_location())

    def to_ir(self) -> str:
        """The ``<agent, size>`` body of ``#tspipe.group``."""
        return f"<{self.agent.ir_name}, {self.size}>"
