"""``PipelineConfig``: TS's frozen config dataclass, validated by C++.

A config becomes a ``#tspipe.config`` attribute through the C API
(``tspipe-c/Attributes.h``, field by field, no IR text); the attribute's C++
verifier applies the config-time rules R1-R10 and R15 (docs/Rules.md) and
names the rule in each diagnostic, which becomes a
:class:`~tspipe.ts.errors.PipelineConfigError` listing them.
:meth:`PipelineConfig.from_attr` reads an attribute back. Python only checks Python
types (``TypeError`` where TS raises one: R1, R4) and that integers fit the
IR's 64-bit fields (``PipelineConfigError`` naming the field). Integers may be
``int`` or numpy integers (stored as ``int``); ``bool`` is rejected (stricter
than TS 4.8.1, whose factories store ``True`` as given).

Units: ``num_stages`` in stages (full/empty mbarrier pairs), ``num_bytes`` and
``num_bytes_per_warp_per_cta`` in bytes (transaction bytes one stage expects),
cooperative-group sizes in agents (threads for ``Agent.Thread``),
``cta_layout_vmnk`` in CTAs per mode (V, M, N, L), strides in stages.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional, Sequence, Tuple, Union

from .. import ir
from .._mlir_libs import _tspipe
from ..diagnostics import (
    ConfigTypeError,
    PipelineConfigError,
    caller_location,
    caller_location_object,
    collect_diagnostics,
)
from ..values import as_int, int64_problem
from .vocabulary import (
    Agent,
    CooperativeGroup,
    PipelineOp,
    PipelineType,
    RemoteArriveScope,
    SignalingThreads,
    validation_context,
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
_AsyncThread = PipelineOp.AsyncThread


def _needs_layout(pipeline_type: PipelineType) -> bool:
    """TS's factory has no default ``cta_layout_vmnk`` for the type (R10),
    as the pipeline-type table of the C++ side says."""
    return _tspipe.pipeline_type_facts(int(pipeline_type))["needs_cta_layout"]


def _default_producer_signaling(pipeline_type: PipelineType) -> SignalingThreads:
    """The producer signaling TS's factory defaults to for the type (the
    C++ pipeline-type table)."""
    facts = _tspipe.pipeline_type_facts(int(pipeline_type))
    return SignalingThreads(facts["default_producer_signaling"])


IntOrTuple = Union[int, Tuple[int, ...]]


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
      remote_arrive_scope: a :class:`RemoteArriveScope` (``Cta`` or
        ``Cluster``), or None for tspipe's default, ``Cluster``: the memory
        scope of the release each remote arrive of the pipeline carries (an
        arrive on another CTA's barrier: a cluster consumer's release, a
        remote arm, a pair-leader arrive; docs/Protocols.md, Remote-arrive
        scope). Not a TS field and not part of ``#tspipe.config``: it becomes
        the ``remote_arrive_scope`` of the ``tspipe.pipeline``, and
        :meth:`from_attr` leaves it None.

    Raises:
      PipelineConfigError (ValueError): the C++ verifier rejected the config;
        ``.rule`` is the TS rule id (e.g. ``"R5"``), ``.message`` the C++ text.
      ConfigTypeError (TypeError): a field has the wrong Python type
        (``remote_arrive_scope`` not a :class:`RemoteArriveScope` or None); R1 for a
        signaling value that is not a :class:`SignalingThreads`, R4 for a
        stride that is not an ``int`` or a tuple (a list or a ``bool``
        included, as TS 4.8.1). A producer op that is not a
        :class:`PipelineOp` (R2, R3) and a stride tuple whose length is not 4
        (R4) are :class:`PipelineConfigError` (ValueError), as in TS 4.8.1.

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
    remote_arrive_scope: Optional[RemoteArriveScope] = None
    _attr: Any = dataclasses.field(
        default=None, init=False, repr=False, compare=False
    )

    # -- validation -------------------------------------------------------

    def __post_init__(self):
        self._check_types()
        # The C++ verifier of #tspipe.config decides (rules R1-R10, R15);
        # its diagnostics become a PipelineConfigError at the factory call.
        attr = self._build_attr(validation_context())
        object.__setattr__(self, "_attr", attr)

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
        # R2 / R3: the producer ops must be PipelineOp members (ValueError,
        # as TS 4.8.1 raises for e.g. producer_op=1).
        for name, rule in (("async_producer_op", "R2"),
                           ("umma_consumer_producer_op", "R3")):
            value = getattr(self, name)
            if not isinstance(value, PipelineOp):
                raise PipelineConfigError(
                    f"[{rule}] {name} must be PipelineOp.AsyncThread or "
                    f"PipelineOp.AsyncLoad, got {value!r}",
                    rule, caller_location())
        if self.remote_arrive_scope is not None and not isinstance(
                self.remote_arrive_scope, RemoteArriveScope):
            raise ConfigTypeError(
                f"remote_arrive_scope must be RemoteArriveScope.Cta, "
                f"RemoteArriveScope.Cluster or None, got "
                f"{self.remote_arrive_scope!r}"
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
        # R4: an int, or a tuple of exactly 4 ints. As in TS 4.8.1, a list
        # (any length) or a bool is a TypeError and a tuple of another length
        # a ValueError.
        stride = self.interleave_stride
        if isinstance(stride, tuple):
            if len(stride) != 4:
                raise PipelineConfigError(
                    f"[R4] interleave_stride as a tuple must have 4 entries "
                    f"(producer_acquire, producer_commit, consumer_wait, "
                    f"consumer_release), got {len(stride)}: {stride!r}; pass "
                    f"an int for one stride everywhere",
                    "R4", caller_location())
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

    def _fields(self, ctx) -> dict:
        """Every field in the form of the C API (``_tspipe.config_attr``)."""
        layout = self.cta_layout_vmnk
        if layout is None:
            # TS's factories default the layout only for AsyncAsync and
            # TmaAsync; an empty layout makes the C++ verifier report R10.
            layout = () if _needs_layout(self.pipeline_type) else (1, 1, 1, 1)
        stride = self.interleave_stride
        wait = self.consumer_wait_signaling_threads
        with ctx, caller_location_object(ctx):
            groups = [_tspipe.group_attr(int(g.agent), g.size)
                      for g in (self.producer_group, self.consumer_group)]
        return {
            "pipeline_type": int(self.pipeline_type),
            "num_stages": self.num_stages,
            "num_bytes": self.num_bytes,
            "producer_group": groups[0],
            "consumer_group": groups[1],
            "cta_layout_vmnk": list(layout),
            "producer_signaling": int(self.producer_signaling_threads),
            "consumer_signaling": int(self.consumer_signaling_threads),
            "consumer_wait_signaling": None if wait is None else int(wait),
            "async_producer_op": int(self.async_producer_op),
            "umma_consumer_producer_op": int(self.umma_consumer_producer_op),
            "advance_on_wait": self.advance_on_wait,
            "advance_on_acquire": self.advance_on_acquire,
            "interleave_stride": list(stride) if isinstance(stride, tuple)
            else [stride],
            "num_bytes_per_warp_per_cta": self.num_bytes_per_warp_per_cta,
            "mcast_mode_mn": list(self.mcast_mode_mn),
        }

    def _build_attr(self, ctx):
        """The ``#tspipe.config`` attribute in ``ctx`` through the C API.

        Raises PipelineConfigError listing the C++ verifier's diagnostics."""
        with collect_diagnostics(ctx) as diags:
            fields = self._fields(ctx)
            attr = None
            if fields["producer_group"] is not None and \
                    fields["consumer_group"] is not None:
                with ctx, caller_location_object(ctx):
                    attr = _tspipe.config_attr(fields)
        if attr is None:
            first = next((d for d in diags if d.rule), diags[0] if diags else None)
            if first is None:
                # A group that is None: no #tspipe.group to build (R8).
                raise PipelineConfigError(
                    "[R8] invalid pipeline config: producer_group and "
                    "consumer_group must be CooperativeGroups", "R8",
                    caller_location())
            raise PipelineConfigError(first.message, first.rule,
                                      caller_location(), diags)
        return attr

    # -- IR ---------------------------------------------------------------

    def __str__(self) -> str:
        """The canonical ``#tspipe.config<...>`` text (as the C++ prints it)."""
        return str(self._attr)

    @property
    def ir_body(self) -> str:
        """The text without the ``#tspipe.config`` prefix (``<tma_async, ...>``),
        the form ``tspipe.pipeline ... config(...)`` prints."""
        return str(self._attr)[len("#tspipe.config"):]

    def to_attr(self, ctx=None):
        """The config as a ``tspipe.ir.Attribute`` in ``ctx`` (built through
        the C API, verified by C++).

        ``ctx`` defaults to the current context (``with tspipe.ir.Context():``).
        """
        if ctx is None:
            ctx = ir.Context.current
        if ctx is validation_context():
            return self._attr
        return self._build_attr(ctx)

    @classmethod
    def from_attr(cls, attr) -> "PipelineConfig":
        """The config a ``#tspipe.config`` attribute holds (every field read
        through the C API). Raises TypeError for another attribute."""
        f = _tspipe.config_fields(attr)

        def group(g):
            agent, size = _tspipe.group_fields(g)
            return CooperativeGroup(Agent(agent), size)

        stride = f["interleave_stride"]
        wait = f["consumer_wait_signaling"]
        return cls(
            num_stages=f["num_stages"],
            num_bytes=f["num_bytes"],
            producer_group=group(f["producer_group"]),
            consumer_group=group(f["consumer_group"]),
            pipeline_type=PipelineType(f["pipeline_type"]),
            cta_layout_vmnk=tuple(f["cta_layout_vmnk"]),
            producer_signaling_threads=SignalingThreads(f["producer_signaling"]),
            consumer_signaling_threads=SignalingThreads(f["consumer_signaling"]),
            consumer_wait_signaling_threads=None if wait is None
            else SignalingThreads(wait),
            async_producer_op=PipelineOp(f["async_producer_op"]),
            umma_consumer_producer_op=PipelineOp(f["umma_consumer_producer_op"]),
            advance_on_wait=f["advance_on_wait"],
            advance_on_acquire=f["advance_on_acquire"],
            num_bytes_per_warp_per_cta=f["num_bytes_per_warp_per_cta"],
            mcast_mode_mn=tuple(f["mcast_mode_mn"]),
            interleave_stride=stride[0] if len(stride) == 1 else tuple(stride),
        )

    # -- derived values ---------------------------------------------------

    @property
    def strides(self) -> Tuple[int, int, int, int]:
        """(producer_acquire, producer_commit, consumer_wait,
        consumer_release) strides in stages, as the C++ side reads them."""
        return tuple(_tspipe.config_facts(self._attr)["strides"])

    @property
    def barrier_bytes(self) -> int:
        """Shared memory of the barrier ring in bytes (a full and an empty
        8-byte mbarrier per stage), as the allocation reserves it."""
        return _tspipe.config_facts(self._attr)["barrier_bytes"]

    # -- the seven TS factories (docs/Protocols.md, Per-type protocols) -------------------

    @staticmethod
    def create_async_async_pipeline_cfg(
        num_stages,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_default_producer_signaling(
            PipelineType.AsyncAsync),
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
        producer_signaling_threads=_default_producer_signaling(
            PipelineType.TmaAsync),
        consumer_signaling_threads=_All,
        barrier_ptr=None,
        advance_on_wait=False,
        interleave_stride=1,
        num_bytes_per_warp_per_cta=None,
        *,
        remote_arrive_scope=None,
    ) -> "PipelineConfig":
        """TmaAsync: TMA produces ``num_bytes`` bytes per stage, threads consume
        (docs/Protocols.md, TmaAsync).

        ``advance_on_wait`` splits the consumer cursor (needed when the wait
        and release strides differ, R7), with TS 4.8.1's keyword and
        position; ``mcast_mode_mn`` stays (1, 1). ``cta_layout_vmnk`` None
        means a single CTA. Raises :class:`PipelineConfigError` (R1, R4, R5,
        R7-R10) or ``TypeError``.
        ``remote_arrive_scope``: the scope of the pipeline's remote arrives
        (see :class:`PipelineConfig`).
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
            advance_on_wait=advance_on_wait,
            interleave_stride=interleave_stride,
            num_bytes_per_warp_per_cta=num_bytes_per_warp_per_cta,
            remote_arrive_scope=remote_arrive_scope,
        )

    @staticmethod
    def create_tma_umma_pipeline_cfg(
        num_stages,
        num_bytes,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_default_producer_signaling(
            PipelineType.TmaUmma),
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
        producer_signaling_threads=_default_producer_signaling(
            PipelineType.UmmaAsync),
        consumer_signaling_threads=_All,
        barrier_ptr=None,
        interleave_stride=1,
        *,
        remote_arrive_scope=None,
    ) -> "PipelineConfig":
        """UmmaAsync: tcgen05 MMA produces (e.g. a TMEM accumulator), threads
        consume (docs/Protocols.md, UmmaAsync). ``num_bytes`` is 0; ``cta_layout_vmnk`` is required
        (R10). Raises :class:`PipelineConfigError` or ``TypeError``.
        ``remote_arrive_scope``: the scope of the pipeline's remote arrives
        (see :class:`PipelineConfig`).
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
            remote_arrive_scope=remote_arrive_scope,
        )

    @staticmethod
    def create_async_umma_pipeline_cfg(
        num_stages,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_default_producer_signaling(
            PipelineType.AsyncUmma),
        consumer_signaling_threads=_All,
        consumer_wait_signaling_threads=None,
        producer_op=_AsyncThread,
        barrier_ptr=None,
        advance_on_wait=False,
        advance_on_acquire=False,
        interleave_stride=1,
        *,
        remote_arrive_scope=None,
    ) -> "PipelineConfig":
        """AsyncUmma: threads (or cp.async, ``producer_op=AsyncLoad``) produce,
        tcgen05 MMA consumes (docs/Protocols.md, AsyncUmma). ``producer_op`` becomes
        ``umma_consumer_producer_op`` (R3). ``num_bytes`` is 0;
        ``cta_layout_vmnk`` is required (R10). Raises
        :class:`PipelineConfigError` or ``TypeError``.
        ``remote_arrive_scope``: the scope of the pipeline's remote arrives
        (see :class:`PipelineConfig`).
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
            remote_arrive_scope=remote_arrive_scope,
        )

    @staticmethod
    def create_umma_umma_pipeline_cfg(
        num_stages,
        producer_group,
        consumer_group,
        cta_layout_vmnk,
        producer_signaling_threads=_default_producer_signaling(
            PipelineType.UmmaUmma),
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
        producer_signaling_threads=_default_producer_signaling(
            PipelineType.ClcFetchAsync),
        consumer_signaling_threads=_All,
        barrier_ptr=None,
        *,
        remote_arrive_scope=None,
    ) -> "PipelineConfig":
        """ClcFetchAsync: cluster launch control fetches a work tile (a
        ``num_bytes`` = 16-byte response per stage), threads consume
        (docs/Protocols.md, ClcFetchAsync).
        The producer signals from CTA 0 (``CtaLeader`` by default);
        ``cta_layout_vmnk`` is required (R10). Raises
        :class:`PipelineConfigError` or ``TypeError``.
        ``remote_arrive_scope``: the scope of the pipeline's remote arrives
        (see :class:`PipelineConfig`).
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
            remote_arrive_scope=remote_arrive_scope,
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
