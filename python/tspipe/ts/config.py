"""``PipelineConfig``: TS's frozen config dataclass, validated by C++.

A config is rendered as ``#tspipe.config<...>`` text and parsed in an MLIR
context; the attribute's C++ verifier applies the config-time rules R1-R10 and
R15 (docs/Rules.md) and names the rule in its diagnostic, which becomes
a :class:`~tspipe.ts.errors.PipelineConfigError`. Python only checks Python
types (``TypeError`` where TS raises one: R1, R4) and that integers fit the
IR's 64-bit fields (``PipelineConfigError`` naming the field). Integers may be
``int`` or numpy integers (stored as ``int``); ``bool`` is rejected, as in TS.

Units: ``num_stages`` in stages (full/empty mbarrier pairs), ``num_bytes`` and
``num_bytes_per_warp_per_cta`` in bytes (transaction bytes one stage expects),
cooperative-group sizes in agents (threads for ``Agent.Thread``),
``cta_layout_vmnk`` in CTAs per mode (V, M, N, L), strides in stages.
"""

from __future__ import annotations

import dataclasses
import importlib
import threading
from typing import Any, Optional, Sequence, Tuple, Union

from .checks import as_int, int64_problem
from .errors import (
    ConfigTypeError,
    PipelineConfigError,
    caller_location,
    error_from_mlir,
)
from .vocabulary import (
    CooperativeGroup,
    PipelineOp,
    PipelineType,
    SignalingThreads,
)

__all__ = [
    "PipelineConfig",
    "create_async_async_pipeline_cfg",
    "create_tma_async_pipeline_cfg",
    "create_tma_umma_pipeline_cfg",
    "create_umma_async_pipeline_cfg",
    "create_async_umma_pipeline_cfg",
    "create_umma_umma_pipeline_cfg",
    "create_clc_fetch_async_pipeline_cfg",
]

_All = SignalingThreads.All
_CtaLeader = SignalingThreads.CtaLeader
_AsyncThread = PipelineOp.AsyncThread

# Pipeline types whose factories require a cluster layout (R10).
_NEEDS_LAYOUT = frozenset(
    {
        PipelineType.TmaUmma,
        PipelineType.UmmaAsync,
        PipelineType.AsyncUmma,
        PipelineType.UmmaUmma,
        PipelineType.ClcFetchAsync,
    }
)

IntOrTuple = Union[int, Tuple[int, ...]]


def _ir():
    """``tspipe.ir``, imported on first use (needs the compiled extension)."""
    return importlib.import_module("tspipe.ir")


_context_lock = threading.Lock()
_validation_context = None


def validation_context():
    """A process-wide ``tspipe.ir.Context`` used to validate configs."""
    global _validation_context
    with _context_lock:
        if _validation_context is None:
            _validation_context = _ir().Context()
        return _validation_context


def _int_list(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _tag(rule: Optional[str]) -> str:
    return f"[{rule}] " if rule else ""


def _range_error(field: str, value: int, rule: Optional[str]):
    """PipelineConfigError if ``value`` does not fit the IR's int64 field."""
    problem = int64_problem(field, value)
    if problem is not None:
        raise PipelineConfigError(_tag(rule) + problem, rule, caller_location())


def _as_int_tuple(field: str, value, rule: Optional[str]) -> Tuple[int, ...]:
    if not isinstance(value, (tuple, list)):
        raise ConfigTypeError(
            f"{_tag(rule)}{field} must be a tuple of ints, got {value!r}",
            rule=rule,
        )
    entries = []
    for entry in value:
        number = as_int(entry)
        if number is None:
            raise ConfigTypeError(
                f"{_tag(rule)}{field} entries must be ints (not bool), got "
                f"{entry!r} in {value!r}",
                rule=rule,
            )
        _range_error(f"{field} entry", number, rule)
        entries.append(number)
    return tuple(entries)


@dataclasses.dataclass(frozen=True)
class PipelineConfig:
    """Every field of TS's ``PipelineConfig`` (docs/Protocols.md, PipelineConfig fields).

    Prefer the seven ``create_*_pipeline_cfg`` factories, which set
    ``pipeline_type`` and the type's defaults like TS. Constructing one
    (directly, through a factory, or with ``dataclasses.replace``) validates
    it with the C++ verifier of ``#tspipe.config``.

    Fields:
      num_stages: stages in the ring (each a full and an empty mbarrier, 16
        bytes of shared memory per stage); > 0 (R9).
      num_bytes: transaction bytes one stage's full barrier expects (TMA,
        CLC: 16); 0 for the types without transactions; >= 0 (R9).
      producer_group, consumer_group: :class:`CooperativeGroup` s; their
        sizes are the arrive counts of the full / empty barriers; > 0 (R8).
      pipeline_type: a :class:`PipelineType`.
      barrier_ptr: accepted for TS compatibility and ignored; barrier storage
        is placed by the ``tspipe-allocate-smem`` pass. Not part of the IR.
      cta_layout_vmnk: the cluster decomposition ``(V, M, N, L)`` in CTAs, a
        tuple of 4 ints with V in {1, 2} (R10), or None. None means
        ``(1, 1, 1, 1)`` for AsyncAsync and TmaAsync; the other types require
        a layout (R10).
      producer_signaling_threads, consumer_signaling_threads:
        :class:`SignalingThreads` (R1).
      consumer_wait_signaling_threads: :class:`SignalingThreads` overriding
        the consumer side for wait/try_wait, or None (R1).
      async_producer_op: :class:`PipelineOp`; ``AsyncLoad`` only for
        AsyncAsync (R2).
      umma_consumer_producer_op: :class:`PipelineOp`; ``AsyncLoad`` only for
        AsyncUmma (R3).
      advance_on_wait, advance_on_acquire: split consumer / producer cursors;
        required when the wait/release (R7) or acquire/commit (R6) strides
        differ.
      num_bytes_per_warp_per_cta: per-warp, per-CTA TMA bytes (R56), or None.
      mcast_mode_mn: TMA multicast along (M, N): (1, 0), (0, 1) or (1, 1)
        (R15).
      interleave_stride: an int, or 4 ints ``(producer_acquire,
        producer_commit, consumer_wait, consumer_release)``; each >= 1 (R4)
        and dividing ``num_stages`` (R5).

    Raises:
      PipelineConfigError (ValueError): the C++ verifier rejected the config;
        ``.rule`` is the TS rule id (e.g. ``"R5"``), ``.message`` the C++ text.
      ConfigTypeError (TypeError): a field has the wrong Python type; R1 for a
        signaling value that is not a :class:`SignalingThreads`, R4 for a
        stride that is not an ``int`` (or is a ``bool``).

    ``str(config)`` is the canonical IR text (``#tspipe.config<...>``, fields
    at their default omitted); :meth:`to_attr` gives the attribute.
    """

    num_stages: int
    num_bytes: int
    producer_group: CooperativeGroup
    consumer_group: CooperativeGroup
    pipeline_type: PipelineType
    barrier_ptr: Any = None
    cta_layout_vmnk: Optional[Tuple[int, int, int, int]] = None
    producer_signaling_threads: SignalingThreads = _All
    consumer_signaling_threads: SignalingThreads = _All
    consumer_wait_signaling_threads: Optional[SignalingThreads] = None
    async_producer_op: PipelineOp = _AsyncThread
    umma_consumer_producer_op: PipelineOp = _AsyncThread
    advance_on_wait: bool = False
    advance_on_acquire: bool = False
    num_bytes_per_warp_per_cta: Optional[int] = None
    mcast_mode_mn: Tuple[int, int] = (1, 1)
    interleave_stride: IntOrTuple = 1
    _ir_text: str = dataclasses.field(
        default="", init=False, repr=False, compare=False
    )

    # -- validation -------------------------------------------------------

    def __post_init__(self):
        self._check_types()
        text = self._render()
        ir = _ir()
        ctx = validation_context()
        try:
            attr = ir.Attribute.parse(text, context=ctx)
        except ir.MLIRError as err:
            error = error_from_mlir(err, config_only=True)
            # The C++ location points into the rendered text; the user's
            # factory call is more useful.
            raise type(error)(error.message, error.rule, caller_location(),
                              error.diagnostics) from None
        object.__setattr__(self, "_ir_text", str(attr))

    def _set(self, name, value):
        object.__setattr__(self, name, value)

    def _check_types(self):
        # Integers: int or a numpy integer (normalized to int), not bool, and
        # within the IR's int64 fields (R9: the C++ parser would reject a
        # larger literal without naming the field).
        for name in ("num_stages", "num_bytes"):
            value = as_int(getattr(self, name))
            if value is None:
                raise ConfigTypeError(
                    f"{name} must be an int, got {getattr(self, name)!r}"
                )
            _range_error(name, value, "R9")
            self._set(name, value)
        for name in ("producer_group", "consumer_group"):
            if not isinstance(getattr(self, name), CooperativeGroup):
                raise ConfigTypeError(
                    f"[R8] {name} must be a CooperativeGroup, got "
                    f"{getattr(self, name)!r}",
                    rule="R8",
                )
        if not isinstance(self.pipeline_type, PipelineType):
            raise ConfigTypeError(
                f"pipeline_type must be a PipelineType, got {self.pipeline_type!r}"
            )
        # R1: signaling values must be SignalingThreads members/combinations.
        for name in ("producer_signaling_threads", "consumer_signaling_threads",
                     "consumer_wait_signaling_threads"):
            value = getattr(self, name)
            if value is None and name == "consumer_wait_signaling_threads":
                continue
            if not isinstance(value, SignalingThreads):
                raise ConfigTypeError(
                    f"[R1] {name} must be a SignalingThreads value, got {value!r}",
                    rule="R1",
                )
        # R2 / R3: the producer ops must be PipelineOp members.
        for name, rule in (("async_producer_op", "R2"),
                           ("umma_consumer_producer_op", "R3")):
            value = getattr(self, name)
            if not isinstance(value, PipelineOp):
                raise ConfigTypeError(
                    f"[{rule}] {name} must be PipelineOp.AsyncThread or "
                    f"PipelineOp.AsyncLoad, got {value!r}",
                    rule=rule,
                )
        for name in ("advance_on_wait", "advance_on_acquire"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigTypeError(
                    f"{name} must be a bool, got {getattr(self, name)!r}"
                )
        if self.num_bytes_per_warp_per_cta is not None:
            value = as_int(self.num_bytes_per_warp_per_cta)
            if value is None:
                raise ConfigTypeError(
                    "num_bytes_per_warp_per_cta must be an int or None, got "
                    f"{self.num_bytes_per_warp_per_cta!r}"
                )
            _range_error("num_bytes_per_warp_per_cta", value, "R9")
            self._set("num_bytes_per_warp_per_cta", value)
        if self.cta_layout_vmnk is not None:
            self._set(
                "cta_layout_vmnk",
                _as_int_tuple("cta_layout_vmnk", self.cta_layout_vmnk, "R10"),
            )
        self._set(
            "mcast_mode_mn", _as_int_tuple("mcast_mode_mn", self.mcast_mode_mn, "R15")
        )
        # R4: an int, or a tuple of ints; bool is rejected (TypeError like TS).
        stride = self.interleave_stride
        if isinstance(stride, (tuple, list)):
            self._set(
                "interleave_stride",
                _as_int_tuple("interleave_stride", stride, "R4"),
            )
        elif as_int(stride) is None:
            raise ConfigTypeError(
                f"[R4] interleave_stride must be an int or a tuple of 4 ints "
                f"(producer_acquire, producer_commit, consumer_wait, "
                f"consumer_release), got {stride!r}",
                rule="R4",
            )
        else:
            _range_error("interleave_stride", as_int(stride), "R4")
            self._set("interleave_stride", as_int(stride))

    def _render(self) -> str:
        """The ``#tspipe.config<...>`` text of every field (defaults too)."""
        parts = [
            self.pipeline_type.ir_name,
            f"num_stages = {self.num_stages}",
            f"num_bytes = {self.num_bytes}",
            f"producer_group = {self.producer_group.to_ir()}",
            f"consumer_group = {self.consumer_group.to_ir()}",
        ]
        if self.cta_layout_vmnk is not None:
            parts.append(f"cta_layout_vmnk = {_int_list(self.cta_layout_vmnk)}")
        elif self.pipeline_type in _NEEDS_LAYOUT:
            # No layout for a type that needs one: an empty layout makes the
            # C++ verifier report R10.
            parts.append("cta_layout_vmnk = []")
        parts.append(
            f"producer_signaling = {self.producer_signaling_threads.ir_name}"
        )
        parts.append(
            f"consumer_signaling = {self.consumer_signaling_threads.ir_name}"
        )
        if self.consumer_wait_signaling_threads is not None:
            parts.append(
                "consumer_wait_signaling = "
                f"{self.consumer_wait_signaling_threads.ir_name}"
            )
        parts.append(f"async_producer_op = {self.async_producer_op.ir_name}")
        parts.append(
            f"umma_consumer_producer_op = {self.umma_consumer_producer_op.ir_name}"
        )
        parts.append(f"advance_on_wait = {str(self.advance_on_wait).lower()}")
        parts.append(f"advance_on_acquire = {str(self.advance_on_acquire).lower()}")
        if isinstance(self.interleave_stride, tuple):
            parts.append(f"interleave_stride = {_int_list(self.interleave_stride)}")
        else:
            parts.append(f"interleave_stride = {self.interleave_stride}")
        if self.num_bytes_per_warp_per_cta is not None:
            parts.append(
                f"num_bytes_per_warp_per_cta = {self.num_bytes_per_warp_per_cta}"
            )
        parts.append(f"mcast_mode_mn = {_int_list(self.mcast_mode_mn)}")
        return "#tspipe.config<" + ", ".join(parts) + ">"

    # -- IR ---------------------------------------------------------------

    def __str__(self) -> str:
        """The canonical ``#tspipe.config<...>`` text (as the C++ prints it)."""
        return self._ir_text

    @property
    def ir_body(self) -> str:
        """The text without the ``#tspipe.config`` prefix (``<tma_async, ...>``),
        the form ``tspipe.pipeline ... config(...)`` prints."""
        return self._ir_text[len("#tspipe.config"):]

    def to_attr(self, ctx=None):
        """The config as a ``tspipe.ir.Attribute`` in ``ctx``.

        ``ctx`` defaults to the current context (``with tspipe.ir.Context():``).
        """
        ir = _ir()
        if ctx is None:
            ctx = ir.Context.current
        return ir.Attribute.parse(self._ir_text, context=ctx)

    # -- derived values ---------------------------------------------------

    @property
    def strides(self) -> Tuple[int, int, int, int]:
        """(producer_acquire, producer_commit, consumer_wait,
        consumer_release) strides in stages."""
        stride = self.interleave_stride
        if isinstance(stride, tuple):
            return tuple(stride)  # type: ignore[return-value]
        return (stride, stride, stride, stride)

    @property
    def barrier_bytes(self) -> int:
        """Shared memory of the barrier ring: ``16 * num_stages`` bytes."""
        return 16 * self.num_stages

    # -- the seven TS factories (docs/Protocols.md, Per-type protocols) -------------------

    @staticmethod
    def create_async_async_pipeline_cfg(
        num_stages,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_All,
        consumer_signaling_threads=_All,
        barrier_ptr=None,
        producer_op=_AsyncThread,
        advance_on_acquire=False,
        interleave_stride=1,
    ) -> "PipelineConfig":
        """AsyncAsync: threads produce, threads consume (docs/Protocols.md, AsyncAsync).

        ``num_bytes`` is 0. ``producer_op`` (``AsyncThread`` or ``AsyncLoad``
        for cp.async producers) becomes ``async_producer_op``.
        ``cta_layout_vmnk`` (4 CTA counts or None) is kept for the kernel's
        cluster checks. Raises :class:`PipelineConfigError` (R1, R4-R10) or
        ``TypeError`` (R1, R4); see :class:`PipelineConfig`.
        """
        return PipelineConfig(
            num_stages=num_stages,
            num_bytes=0,
            producer_group=producer_group,
            consumer_group=consumer_group,
            pipeline_type=PipelineType.AsyncAsync,
            barrier_ptr=barrier_ptr,
            cta_layout_vmnk=cta_layout_vmnk,
            producer_signaling_threads=producer_signaling_threads,
            consumer_signaling_threads=consumer_signaling_threads,
            async_producer_op=producer_op,
            advance_on_acquire=advance_on_acquire,
            interleave_stride=interleave_stride,
        )

    @staticmethod
    def create_tma_async_pipeline_cfg(
        num_stages,
        num_bytes,
        producer_group,
        consumer_group,
        cta_layout_vmnk=None,
        producer_signaling_threads=_All,
        consumer_signaling_threads=_All,
        barrier_ptr=None,
        interleave_stride=1,
        num_bytes_per_warp_per_cta=None,
    ) -> "PipelineConfig":
        """TmaAsync: TMA produces ``num_bytes`` bytes per stage, threads consume
        (docs/Protocols.md, TmaAsync).

        There is no ``advance_on_wait`` parameter (as in TS), so asymmetric
        consumer strides fail with R7; ``mcast_mode_mn`` stays (1, 1).
        ``cta_layout_vmnk`` None means a single CTA. Raises
        :class:`PipelineConfigError` (R1, R4, R5, R7-R10) or ``TypeError``.
        """
        return PipelineConfig(
            num_stages=num_stages,
            num_bytes=num_bytes,
            producer_group=producer_group,
            consumer_group=consumer_group,
            pipeline_type=PipelineType.TmaAsync,
            barrier_ptr=barrier_ptr,
            cta_layout_vmnk=cta_layout_vmnk,
            producer_signaling_threads=producer_signaling_threads,
            consumer_signaling_threads=consumer_signaling_threads,
            interleave_stride=interleave_stride,
            num_bytes_per_warp_per_cta=num_bytes_per_warp_per_cta,
        )

    @staticmethod
    def create_tma_umma_pipeline_cfg(
        num_stages,
        num_bytes,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_All,
        consumer_signaling_threads=_All,
        barrier_ptr=None,
        advance_on_wait=False,
        interleave_stride=1,
        mcast_mode_mn=(1, 1),
        num_bytes_per_warp_per_cta=None,
    ) -> "PipelineConfig":
        """TmaUmma: TMA produces ``num_bytes`` bytes per stage (all V CTAs of a
        2-CTA pair), tcgen05 MMA consumes (docs/Protocols.md, TmaUmma).

        ``cta_layout_vmnk`` is required (R10). ``mcast_mode_mn`` is (1, 0),
        (0, 1) or (1, 1) (R15). Raises :class:`PipelineConfigError` (R1, R4,
        R5, R7-R10, R15) or ``TypeError``.
        """
        return PipelineConfig(
            num_stages=num_stages,
            num_bytes=num_bytes,
            producer_group=producer_group,
            consumer_group=consumer_group,
            pipeline_type=PipelineType.TmaUmma,
            barrier_ptr=barrier_ptr,
            cta_layout_vmnk=cta_layout_vmnk,
            producer_signaling_threads=producer_signaling_threads,
            consumer_signaling_threads=consumer_signaling_threads,
            advance_on_wait=advance_on_wait,
            interleave_stride=interleave_stride,
            mcast_mode_mn=mcast_mode_mn,
            num_bytes_per_warp_per_cta=num_bytes_per_warp_per_cta,
        )

    @staticmethod
    def create_umma_async_pipeline_cfg(
        num_stages,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_All,
        consumer_signaling_threads=_All,
        barrier_ptr=None,
        interleave_stride=1,
    ) -> "PipelineConfig":
        """UmmaAsync: tcgen05 MMA produces (e.g. a TMEM accumulator), threads
        consume (docs/Protocols.md, UmmaAsync). ``num_bytes`` is 0; ``cta_layout_vmnk`` is required
        (R10). Raises :class:`PipelineConfigError` or ``TypeError``.
        """
        return PipelineConfig(
            num_stages=num_stages,
            num_bytes=0,
            producer_group=producer_group,
            consumer_group=consumer_group,
            pipeline_type=PipelineType.UmmaAsync,
            barrier_ptr=barrier_ptr,
            cta_layout_vmnk=cta_layout_vmnk,
            producer_signaling_threads=producer_signaling_threads,
            consumer_signaling_threads=consumer_signaling_threads,
            interleave_stride=interleave_stride,
        )

    @staticmethod
    def create_async_umma_pipeline_cfg(
        num_stages,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_All,
        consumer_signaling_threads=_All,
        consumer_wait_signaling_threads=None,
        producer_op=_AsyncThread,
        barrier_ptr=None,
        advance_on_wait=False,
        advance_on_acquire=False,
        interleave_stride=1,
    ) -> "PipelineConfig":
        """AsyncUmma: threads (or cp.async, ``producer_op=AsyncLoad``) produce,
        tcgen05 MMA consumes (docs/Protocols.md, AsyncUmma). ``producer_op`` becomes
        ``umma_consumer_producer_op`` (R3). ``num_bytes`` is 0;
        ``cta_layout_vmnk`` is required (R10). Raises
        :class:`PipelineConfigError` or ``TypeError``.
        """
        return PipelineConfig(
            num_stages=num_stages,
            num_bytes=0,
            producer_group=producer_group,
            consumer_group=consumer_group,
            pipeline_type=PipelineType.AsyncUmma,
            barrier_ptr=barrier_ptr,
            cta_layout_vmnk=cta_layout_vmnk,
            producer_signaling_threads=producer_signaling_threads,
            consumer_signaling_threads=consumer_signaling_threads,
            consumer_wait_signaling_threads=consumer_wait_signaling_threads,
            umma_consumer_producer_op=producer_op,
            advance_on_wait=advance_on_wait,
            advance_on_acquire=advance_on_acquire,
            interleave_stride=interleave_stride,
        )

    @staticmethod
    def create_umma_umma_pipeline_cfg(
        num_stages,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_All,
        consumer_signaling_threads=_All,
        barrier_ptr=None,
    ) -> "PipelineConfig":
        """UmmaUmma: tcgen05 (MMA or UTCCP) produces and consumes (docs/Protocols.md, UmmaUmma).
        ``num_bytes`` is 0; no interleave or advance flags;
        ``cta_layout_vmnk`` is required (R10). Raises
        :class:`PipelineConfigError` or ``TypeError``.
        """
        return PipelineConfig(
            num_stages=num_stages,
            num_bytes=0,
            producer_group=producer_group,
            consumer_group=consumer_group,
            pipeline_type=PipelineType.UmmaUmma,
            barrier_ptr=barrier_ptr,
            cta_layout_vmnk=cta_layout_vmnk,
            producer_signaling_threads=producer_signaling_threads,
            consumer_signaling_threads=consumer_signaling_threads,
        )

    @staticmethod
    def create_clc_fetch_async_pipeline_cfg(
        num_stages,
        num_bytes,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_CtaLeader,
        consumer_signaling_threads=_All,
        barrier_ptr=None,
    ) -> "PipelineConfig":
        """ClcFetchAsync: cluster launch control fetches a work tile (a
        ``num_bytes`` = 16-byte response per stage), threads consume (docs/Protocols.md, ClcFetchAsync).
        The producer signals from CTA 0 (``CtaLeader`` by default);
        ``cta_layout_vmnk`` is required (R10). Raises
        :class:`PipelineConfigError` or ``TypeError``.
        """
        return PipelineConfig(
            num_stages=num_stages,
            num_bytes=num_bytes,
            producer_group=producer_group,
            consumer_group=consumer_group,
            pipeline_type=PipelineType.ClcFetchAsync,
            barrier_ptr=barrier_ptr,
            cta_layout_vmnk=cta_layout_vmnk,
            producer_signaling_threads=producer_signaling_threads,
            consumer_signaling_threads=consumer_signaling_threads,
        )


# Module-level spellings of the factories.
create_async_async_pipeline_cfg = PipelineConfig.create_async_async_pipeline_cfg
create_tma_async_pipeline_cfg = PipelineConfig.create_tma_async_pipeline_cfg
create_tma_umma_pipeline_cfg = PipelineConfig.create_tma_umma_pipeline_cfg
create_umma_async_pipeline_cfg = PipelineConfig.create_umma_async_pipeline_cfg
create_async_umma_pipeline_cfg = PipelineConfig.create_async_umma_pipeline_cfg
create_umma_umma_pipeline_cfg = PipelineConfig.create_umma_umma_pipeline_cfg
create_clc_fetch_async_pipeline_cfg = (
    PipelineConfig.create_clc_fetch_async_pipeline_cfg
)
