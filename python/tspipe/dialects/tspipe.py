"""``tspipe.dialects.tspipe``: the generated op classes and enums of the
tspipe dialect, with extensions that make building natural.

The extensions (registered in place of the generated classes, the way
upstream's ``scf.py`` extends ``scf.ForOp``):

* structural ops create their body block: ``KernelOp``, ``TaskOp``,
  ``FirstIterOp``, ``LastIterOp``, ``EveryOp``, ``WhenTrueOp``,
  ``WhenFalseOp`` (``body_block``) and ``DomainLoopOp`` (its
  block has the ``index`` iteration value: ``induction_variable``);
* integer, name and symbol attributes may be given as Python values
  (``TaskOp("load", 0, 1, produces=["ring"])``);
* result types are implied: the brackets return ``!tspipe.stage`` (or ``i1``
  for the try forms), the stage accessors ``index`` / ``!llvm.ptr<3>``.

Snake-case builders return the result Value (``producer_acquire("ring")``,
``stage_buffer(stage)``) or the op for ops without results. Config
attributes come from :meth:`tspipe.ts.PipelineConfig.to_attr` (the C API,
verified by the C++ verifier of ``#tspipe.config``).

Importing this module needs the compiled extension.
"""

from typing import Optional, Sequence, Union

from ._tspipe_ops_gen import *  # noqa: F401,F403
from ._tspipe_ops_gen import _Dialect  # noqa: F401
from ._tspipe_enum_gen import *  # noqa: F401,F403
from .._mlir_libs._tspipe import register_dialect, stage_type  # noqa: F401

from . import _tspipe_ops_gen as _gen
from ._tspipe_attrs import symbol_name, symbol_ref
from ._ods_common import _cext as _ods_cext
from ..ir import (
    ArrayAttr,
    Attribute,
    DenseI64ArrayAttr,
    FlatSymbolRefAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Type,
    UnitAttr,
)

SymbolLike = Union[str, FlatSymbolRefAttr]


def _i64(value):
    if value is None or isinstance(value, Attribute):
        return value
    return IntegerAttr.get(IntegerType.get_signless(64), int(value))


def _symbol(value: SymbolLike) -> FlatSymbolRefAttr:
    return symbol_ref(value)


def _symbols(values: Optional[Sequence[SymbolLike]]):
    if values is None or isinstance(values, Attribute):
        return values
    return ArrayAttr.get([_symbol(v) for v in values]) if values else None


def _group(value: Optional[SymbolLike]):
    """The ``group(@g)`` attribute of a bracket on a group member, or None."""
    return None if value is None else _symbol(value)


_name = symbol_name


def _ptr3() -> Type:
    from .llvm import PointerType

    return PointerType.get(3)


# -- structure ------------------------------------------------------------------


@_ods_cext.register_operation(_Dialect, replace=True)
class KernelOp(_gen.KernelOp):
    """``tspipe.kernel``: ``KernelOp(num_warps, cluster_shape=(x, y, z))``;
    the body block is created (``body_block``)."""

    def __init__(self, num_warps, *, cluster_shape=None, smem_bytes=None,
                 loc=None, ip=None):
        if cluster_shape is not None and not isinstance(cluster_shape, Attribute):
            cluster_shape = DenseI64ArrayAttr.get(list(cluster_shape))
        super().__init__(_i64(num_warps), cluster_shape=cluster_shape,
                         smem_bytes=_i64(smem_bytes), loc=loc, ip=ip)
        self.regions[0].blocks.append()

    @property
    def body_block(self):
        return self.regions[0].blocks[0]


@_ods_cext.register_operation(_Dialect, replace=True)
class PipelineOp(_gen.PipelineOp):
    """``tspipe.pipeline``: ``PipelineOp("ring", config_attr,
    smem_bytes=16384)`` (bytes over all stages); ``remote_arrive_scope`` a
    ``RemoteArriveScope`` or None (absent: cluster)."""

    def __init__(self, sym_name, config, *, smem_bytes=None, tmem_columns=None,
                 barrier_offset=None, buffer_offset=None,
                 remote_arrive_scope=None, loc=None, ip=None):
        super().__init__(_name(sym_name), config, smem_bytes=_i64(smem_bytes),
                         tmem_columns=_i64(tmem_columns),
                         barrier_offset=_i64(barrier_offset),
                         buffer_offset=_i64(buffer_offset),
                         remote_arrive_scope=remote_arrive_scope, loc=loc,
                         ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class TaskOp(_gen.TaskOp):
    """``tspipe.task``: ``TaskOp("load", warp_idx, num_warps,
    produces=["ring"], consumes=[...])``; the body block is created."""

    def __init__(self, sym_name, warp_idx, num_warps, *, produces=None,
                 consumes=None, run_only_on_cta_id=None, num_registers=None,
                 loc=None, ip=None):
        super().__init__(_name(sym_name), _i64(warp_idx), _i64(num_warps),
                         produces=_symbols(produces), consumes=_symbols(consumes),
                         run_only_on_cta_id=_i64(run_only_on_cta_id),
                         num_registers=_i64(num_registers), loc=loc, ip=ip)
        self.regions[0].blocks.append()

    @property
    def body_block(self):
        return self.regions[0].blocks[0]


@_ods_cext.register_operation(_Dialect, replace=True)
class DomainLoopOp(_gen.DomainLoopOp):
    """``tspipe.domain_loop``: ``DomainLoopOp(lb, ub, step, iter_args=[...])``
    (``index`` bounds, carried initial Values); the body block with the
    iteration value and one argument per carried value is created (end it
    with :class:`YieldOp` when the loop carries values)."""

    def __init__(self, lower_bound, upper_bound, step, *, iter_args=(),
                 loc=None, ip=None):
        inits = list(iter_args)
        types = [v.type for v in inits]
        super().__init__(types, lower_bound, upper_bound, step, inits,
                         loc=loc, ip=ip)
        self.regions[0].blocks.append(IndexType.get(), *types,
                                      arg_locs=[self.location] * (1 + len(types)))

    @property
    def inner_iter_args(self):
        """The carried block arguments (after the iteration)."""
        return list(self.body_block.arguments)[1:]

    @property
    def body_block(self):
        return self.regions[0].blocks[0]

    @property
    def induction_variable(self):
        return self.body_block.arguments[0]


@_ods_cext.register_operation(_Dialect, replace=True)
class FirstIterOp(_gen.FirstIterOp):
    """``tspipe.first_iter``; the body block is created."""

    def __init__(self, *, loc=None, ip=None):
        super().__init__(loc=loc, ip=ip)
        self.regions[0].blocks.append()

    @property
    def body_block(self):
        return self.regions[0].blocks[0]


@_ods_cext.register_operation(_Dialect, replace=True)
class EveryOp(_gen.EveryOp):
    """``tspipe.every period(p) start(s)``; the body block is created."""

    def __init__(self, period, start=0, *, loc=None, ip=None):
        i64 = IntegerType.get_signless(64)
        super().__init__(IntegerAttr.get(i64, period),
                         IntegerAttr.get(i64, start), loc=loc, ip=ip)
        self.regions[0].blocks.append()

    @property
    def body_block(self):
        return self.regions[0].blocks[0]


@_ods_cext.register_operation(_Dialect, replace=True)
class WhenTrueOp(_gen.WhenTrueOp):
    """``tspipe.when_true %cond``; the body block is created."""

    def __init__(self, cond, *, loc=None, ip=None):
        super().__init__(cond, loc=loc, ip=ip)
        self.regions[0].blocks.append()

    @property
    def body_block(self):
        return self.regions[0].blocks[0]


@_ods_cext.register_operation(_Dialect, replace=True)
class WhenFalseOp(_gen.WhenFalseOp):
    """``tspipe.when_false %cond``; the body block is created."""

    def __init__(self, cond, *, loc=None, ip=None):
        super().__init__(cond, loc=loc, ip=ip)
        self.regions[0].blocks.append()

    @property
    def body_block(self):
        return self.regions[0].blocks[0]


@_ods_cext.register_operation(_Dialect, replace=True)
class LastIterOp(_gen.LastIterOp):
    """``tspipe.last_iter``; the body block is created."""

    def __init__(self, *, loc=None, ip=None):
        super().__init__(loc=loc, ip=ip)
        self.regions[0].blocks.append()

    @property
    def body_block(self):
        return self.regions[0].blocks[0]


@_ods_cext.register_operation(_Dialect, replace=True)
class PipelineGroupOp(_gen.PipelineGroupOp):
    """``tspipe.pipeline_group @g merge|fork|fused_merge [@m, ...]``:
    ``PipelineGroupOp("ab", "merge", ["a", "b"], config=None)``; ``mode`` a
    :class:`GroupMode` or ``"merge"`` / ``"fork"`` / ``"fused_merge"``."""

    def __init__(self, sym_name, mode, members, *, config=None,
                 barrier_offset=None, loc=None, ip=None):
        if isinstance(mode, str):
            mode = {"merge": GroupMode.Merge,  # noqa: F405
                    "fork": GroupMode.Fork,  # noqa: F405
                    "fused_merge": GroupMode.FusedMerge}[mode]  # noqa: F405
        # Always a list, an empty one included (the verifier reports R67).
        if not isinstance(members, Attribute):
            members = ArrayAttr.get([_symbol(m) for m in members])
        super().__init__(_name(sym_name), mode, members,
                         config=config, barrier_offset=_i64(barrier_offset),
                         loc=loc, ip=ip)


# -- brackets -------------------------------------------------------------------


@_ods_cext.register_operation(_Dialect, replace=True)
class ProducerAcquireOp(_gen.ProducerAcquireOp):
    """``tspipe.producer_acquire @pipeline [ready(%token)]`` ->
    ``!tspipe.stage``."""

    def __init__(self, pipeline: SymbolLike, *, group=None, ready=None,
                 loc=None, ip=None):
        super().__init__(stage_type(), _symbol(pipeline), group=_group(group),
                         ready=ready, loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class ConsumerWaitOp(_gen.ConsumerWaitOp):
    """``tspipe.consumer_wait @pipeline [ready(%token)]`` ->
    ``!tspipe.stage``."""

    def __init__(self, pipeline: SymbolLike, *, group=None, ready=None,
                 loc=None, ip=None):
        super().__init__(stage_type(), _symbol(pipeline), group=_group(group),
                         ready=ready, loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class ProducerTryAcquireOp(_gen.ProducerTryAcquireOp):
    """``tspipe.producer_try_acquire @pipeline`` -> ``i1``."""

    def __init__(self, pipeline: SymbolLike, *, group=None, loc=None,
                 ip=None):
        super().__init__(IntegerType.get_signless(1), _symbol(pipeline),
                         group=_group(group), loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class ConsumerTryWaitOp(_gen.ConsumerTryWaitOp):
    """``tspipe.consumer_try_wait @pipeline`` -> ``i1``."""

    def __init__(self, pipeline: SymbolLike, *, group=None, loc=None,
                 ip=None):
        super().__init__(IntegerType.get_signless(1), _symbol(pipeline),
                         group=_group(group), loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class CurrentStageOp(_gen.CurrentStageOp):
    """``tspipe.current_stage @pipeline producer|consumer`` ->
    ``!tspipe.stage``; ``role`` a :class:`Role` or ``"producer"`` /
    ``"consumer"``."""

    def __init__(self, pipeline: SymbolLike, role, *, group=None, loc=None,
                 ip=None):
        if isinstance(role, str):
            role = {"producer": Role.Producer,  # noqa: F405
                    "consumer": Role.Consumer}[role]  # noqa: F405
        super().__init__(stage_type(), _symbol(pipeline), role,
                         group=_group(group), loc=loc, ip=ip)


def _with_symbol(gen_class):
    """An extension of a bracket without results whose pipeline may be a
    str."""

    class Extended(gen_class):
        __doc__ = (f"``{gen_class.OPERATION_NAME} @pipeline`` (the pipeline "
                   f"as a str or a FlatSymbolRefAttr).")

        def __init__(self, pipeline: SymbolLike, *, group=None, loc=None,
                     ip=None):
            super().__init__(_symbol(pipeline), group=_group(group), loc=loc,
                             ip=ip)

    Extended.__name__ = Extended.__qualname__ = gen_class.__name__
    return _ods_cext.register_operation(_Dialect, replace=True)(Extended)


ProducerCommitOp = _with_symbol(_gen.ProducerCommitOp)
ProducerTailOp = _with_symbol(_gen.ProducerTailOp)
ConsumerReleaseOp = _with_symbol(_gen.ConsumerReleaseOp)


# -- stage accessors ---------------------------------------------------------------


@_ods_cext.register_operation(_Dialect, replace=True)
class StageIndexOp(_gen.StageIndexOp):
    """``tspipe.stage_index %stage`` -> ``index`` in ``[0, num_stages)``."""

    def __init__(self, stage, *, loc=None, ip=None):
        super().__init__(IndexType.get(), stage, loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class FullBarrierOp(_gen.FullBarrierOp):
    """``tspipe.full_barrier %stage`` -> the stage's full mbarrier
    (``!llvm.ptr<3>``, 8 bytes)."""

    def __init__(self, stage, *, loc=None, ip=None):
        super().__init__(_ptr3(), stage, loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class EmptyBarrierOp(_gen.EmptyBarrierOp):
    """``tspipe.empty_barrier %stage`` -> the stage's empty mbarrier
    (``!llvm.ptr<3>``, 8 bytes)."""

    def __init__(self, stage, *, loc=None, ip=None):
        super().__init__(_ptr3(), stage, loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class StageBufferOp(_gen.StageBufferOp):
    """``tspipe.stage_buffer %stage`` -> the stage's slice of the data buffer
    (``!llvm.ptr<3>``, ``smem_bytes / num_stages`` bytes)."""

    def __init__(self, stage, *, loc=None, ip=None):
        super().__init__(_ptr3(), stage, loc=loc, ip=ip)


# -- builders returning Values ------------------------------------------------------


def producer_acquire(pipeline: SymbolLike, *, group=None, ready=None, loc=None,
                     ip=None):
    return ProducerAcquireOp(pipeline, group=group, ready=ready, loc=loc, ip=ip).result


def consumer_wait(pipeline: SymbolLike, *, group=None, ready=None, loc=None,
                  ip=None):
    return ConsumerWaitOp(pipeline, group=group, ready=ready, loc=loc, ip=ip).result


def producer_try_acquire(pipeline: SymbolLike, *, group=None, loc=None, ip=None):
    return ProducerTryAcquireOp(pipeline, group=group, loc=loc, ip=ip).result


def consumer_try_wait(pipeline: SymbolLike, *, group=None, loc=None, ip=None):
    return ConsumerTryWaitOp(pipeline, group=group, loc=loc, ip=ip).result


def current_stage(pipeline: SymbolLike, role, *, group=None, loc=None,
                  ip=None):
    return CurrentStageOp(pipeline, role, group=group, loc=loc, ip=ip).result


def producer_commit(pipeline: SymbolLike, *, group=None, loc=None, ip=None):
    return ProducerCommitOp(pipeline, group=group, loc=loc, ip=ip)


def producer_tail(pipeline: SymbolLike, *, group=None, loc=None, ip=None):
    return ProducerTailOp(pipeline, group=group, loc=loc, ip=ip)


def consumer_release(pipeline: SymbolLike, *, group=None, loc=None, ip=None):
    return ConsumerReleaseOp(pipeline, group=group, loc=loc, ip=ip)


def stage_index(stage, *, loc=None, ip=None):
    return StageIndexOp(stage, loc=loc, ip=ip).result


def full_barrier(stage, *, loc=None, ip=None):
    return FullBarrierOp(stage, loc=loc, ip=ip).result


def leader_full_barrier(stage, *, loc=None, ip=None):
    """``tspipe.full_barrier %stage {pair_leader}``: the CTA pair leader's
    full mbarrier of the stage (``!llvm.ptr<3>``, the peer bit cleared),
    which the ``cta_group::2`` copies of both CTAs complete on (V = 2,
    rule X5)."""
    op = FullBarrierOp(stage, loc=loc, ip=ip)
    op.operation.attributes["pair_leader"] = UnitAttr.get()
    return op.result


def empty_barrier(stage, *, loc=None, ip=None):
    return EmptyBarrierOp(stage, loc=loc, ip=ip).result


def stage_buffer(stage, *, loc=None, ip=None):
    return StageBufferOp(stage, loc=loc, ip=ip).result


# The work queue ops (their builders live in _work_queue.py).
from ._work_queue import (  # noqa: E402,F401
    AdvanceWorkTileOp,
    FetchWorkTileOp,
    SkippableOp,
    WorkQueueOp,
    WorkTileLoopOp,
)
# -- buffers and alias groups ---------------------------------------------------


@_ods_cext.register_operation(_Dialect, replace=True)
class BufferOp(_gen.BufferOp):
    """``tspipe.buffer @name smem_bytes(N) | tmem_columns(N)``: storage
    without a pipeline (bytes of shared memory or tensor-memory columns)."""

    def __init__(self, sym_name, *, smem_bytes=None, tmem_columns=None,
                 loc=None, ip=None):
        super().__init__(_name(sym_name), smem_bytes=_i64(smem_bytes),
                         tmem_columns=_i64(tmem_columns), loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class AliasGroupOp(_gen.AliasGroupOp):
    """``tspipe.alias_group @g smem|tmem [[@a, ...], [@b, ...]]``:
    ``AliasGroupOp("g", [["a"], ["b"]], tmem=False)``, phases in time
    order."""

    def __init__(self, sym_name, phases, *, tmem=False, loc=None, ip=None):
        if not isinstance(phases, Attribute):
            phases = ArrayAttr.get(
                [ArrayAttr.get([_symbol(m) for m in phase]) for phase in phases])
        super().__init__(_name(sym_name), phases, tmem=bool(tmem), loc=loc,
                         ip=ip)


def buffer_address(buffer: SymbolLike, *, loc=None, ip=None):
    """The ``!llvm.ptr<3>`` address of a shared-memory ``tspipe.buffer``."""
    return _gen.BufferAddressOp(_ptr3(), _symbol(buffer), loc=loc,
                                ip=ip).result


def tmem_column(resource: SymbolLike, *, loc=None, ip=None):
    """The first tensor-memory column (``i32``) of a pipeline or buffer."""
    return _gen.TmemColumnOp(IntegerType.get_signless(32), _symbol(resource),
                             loc=loc, ip=ip).result
