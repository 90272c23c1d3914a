"""The work model of a real TS ``TaskManager`` in :func:`tspipe.ts.from_ts`:
its ``WorkQueue`` and each persistent task's ``work_tile_loop``
(ts-semantics 1.3, 2.7, 2.8, 4.1; rules R19-R22, R35).

What is read, by attribute (TS is never imported here):

* the queue: a resource with a ``tile_scheduler_config`` (TS's
  ``WorkQueue``). ``TileSchedulerType.StaticPersistent`` becomes
  ``tspipe.work_queue @<name> grid(...)`` over the scheduler params'
  ``problem_shape_ntile_mnl`` (ints; any other extent becomes an ``i32``
  kernel argument ``<name>_tiles_<m|n|l>``, or the caller gives the grid);
  ``ClcDynamicPersistent`` becomes ``tspipe.work_queue @<name>
  clc(@<name>_clc)`` on a ``clc_fetch_async`` pipeline of the queue's
  config, 16 bytes per stage, as tspipe's own ``tspipe.ts.WorkQueue`` names
  and sizes it;
* a task: ``work_queue`` (the queue in its ``src_resources``) makes it
  persistent; its head and tail entries in ``pre_work_loop_head_slots`` /
  ``post_work_loop_tail_slots`` run once before / after the tile loop (TS
  keeps only auxiliary steps and barrier resources such as PDL there); those
  in ``skippable_head_slots`` / ``skippable_tail_slots`` and, with
  ``skip_if``, the domain loop go into ``tspipe.skippable``;
* the queue's steps: on a CLC queue the brackets are brackets on its
  pipeline, ``get_and_advance_work_tile`` is ``tspipe.advance_work_tile``
  with the response of the wait, ``fetch_work_tile`` is
  ``tspipe.fetch_work_tile`` into the acquired stage; a static queue's
  brackets emit nothing (ts-semantics 2.8).

TS's ``skip_if`` predicate and a task's ``get_domain`` override (the
per-tile domain end, ``task.domain_getter``) are CuTe code that runs at
trace time; tspipe cannot read them. The caller may give their tspipe
equivalents (``from_ts(..., skip_if=f, domain_end=g)``: ``f(*coords)``
builds the ``i1``, ``g(kernel, coords)`` the ``index`` end, each a callable
or a dict by task name). Without them each becomes a named placeholder, as
a work step does: a side-effect-free ``llvm.inline_asm`` whose PTX comment
names the TS function (``// ts skip_if: <qualname>``, ``// ts domain:
<qualname>``) and whose value is opaque to the verifier (never skip, and
the tile's first coordinate, when run).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

from .. import ir
from ..dialects import arith, llvm

__all__ = ["is_work_queue", "pipeline_name", "QueueImport"]


def is_work_queue(resource) -> bool:
    """True for a TS ``WorkQueue`` (a resource with a tile scheduler
    config)."""
    return getattr(resource, "tile_scheduler_config", None) is not None


def _is_clc(queue) -> bool:
    return getattr(queue, "pipeline_config", None) is not None


def pipeline_name(resource) -> str:
    """The tspipe pipeline of a resource: a CLC queue's is ``<name>_clc``
    (as tspipe.ts.WorkQueue names it), any other's its name."""
    if is_work_queue(resource) and _is_clc(resource):
        return f"{resource.name}_clc"
    return resource.name


def _enum_name(value) -> str:
    return getattr(value, "name", str(value))


def _qualname(fn) -> str:
    fn = getattr(fn, "__func__", fn)
    return getattr(fn, "__qualname__", None) or repr(fn)


def _for_task(given, task_name: str):
    """``given`` for one task: the dict's entry or the callable itself."""
    if isinstance(given, dict):
        return given.get(task_name)
    return given


def _slot(entry) -> tuple:
    """TS's identity of a head / tail entry: (id(resource), stage,
    call_id)."""
    return (id(entry[0]), entry[1], entry[2])


class QueueImport:
    """The work queue of one imported kernel and the persistent tasks
    walking it.

    Args:
      queue: the TS ``WorkQueue`` the tasks list (or None: no persistent
        task).
      grid: the static queue's tile grid (1-3 ints, ``index`` Values or
        callables ``f(kernel)``), overriding the scheduler params'.
      skip_if, domain_end: the tspipe forms of TS's skip predicate and
        per-tile domain end (see the module docstring).

    Raises NotImplementedError for more than one queue, a scheduler type
    tspipe does not model, or a queue step other than TS's.
    """

    def __init__(self, tasks: Sequence[Any], grid=None,
                 skip_if: Optional[Any] = None,
                 domain_end: Optional[Any] = None):
        queues: List[Any] = []
        for task in tasks:
            queue = getattr(task, "work_queue", None)
            if queue is not None and all(q is not queue for q in queues):
                queues.append(queue)
        if len(queues) > 1:
            raise NotImplementedError(
                f"the tasks walk {len(queues)} work queues "
                f"({', '.join(q.name for q in queues)}); a tspipe kernel has "
                f"one (R35)")
        self.queue = queues[0] if queues else None
        self.grid = grid
        self.skip_if = skip_if
        self.domain_end = domain_end
        self.grid_args: List[str] = []
        if self.queue is not None:
            kind = _enum_name(self.queue.tile_scheduler_config
                              .tile_scheduler_type)
            if kind not in ("StaticPersistent", "ClcDynamicPersistent"):
                raise NotImplementedError(
                    f"work queue {self.queue.name!r}: scheduler type {kind} "
                    f"is not modelled by tspipe (StaticPersistent, "
                    f"ClcDynamicPersistent)")
            if (kind == "ClcDynamicPersistent") != _is_clc(self.queue):
                raise NotImplementedError(
                    f"work queue {self.queue.name!r}: a {kind} scheduler "
                    f"{'without' if kind == 'ClcDynamicPersistent' else 'with'}"
                    f" a pipeline config is not modelled by tspipe")
            if not _is_clc(self.queue) and grid is None:
                self._static_extents()

    # -- the queue ---------------------------------------------------------

    def _static_extents(self) -> None:
        """The scheduler params' tile grid; a non-int extent becomes a
        kernel argument (recorded in ``grid_args``)."""
        params = getattr(self.queue.tile_scheduler_config,
                         "tile_scheduler_params", None)
        shape = getattr(params, "problem_shape_ntile_mnl", None)
        try:
            shape = tuple(shape) if shape is not None else None
        except TypeError:
            shape = None
        if not shape:
            shape = (None, None, None)
        extents: List[Any] = []
        for axis, extent in zip("mnl", shape):
            if isinstance(extent, int) and not isinstance(extent, bool):
                extents.append(extent)
            else:
                arg = f"{self.queue.name}_tiles_{axis}"
                self.grid_args.append(arg)
                extents.append(arg)
        self._extents = extents

    def kernel_args(self) -> List[tuple]:
        """The ``(name, "i32")`` kernel arguments of the grid extents TS
        holds as runtime values."""
        return [(name, "i32") for name in self.grid_args]

    def declare(self, kernel) -> None:
        """``tspipe.work_queue`` on ``kernel`` (after its pipelines)."""
        if self.queue is None:
            return
        if _is_clc(self.queue):
            kernel.work_queue(self.queue.name, clc=pipeline_name(self.queue))
            return
        if self.grid is not None:
            grid = [g(kernel) if callable(g) else g for g in self.grid]
        else:
            grid = []
            for extent in self._extents:
                if isinstance(extent, int):
                    grid.append(extent)
                    continue
                value = kernel.arg(extent)
                grid.append(kernel.prologue(
                    lambda v=value: arith.index_cast(ir.IndexType.get(), v)))
        kernel.work_queue(self.queue.name, grid=grid)

    # -- a persistent task -------------------------------------------------

    def split(self, task) -> tuple:
        """(before, head, tail, after): the head and tail entries of a
        persistent task, those TS runs once outside the tile loop apart."""
        pre = getattr(task, "pre_work_loop_head_slots", frozenset())
        post = getattr(task, "post_work_loop_tail_slots", frozenset())
        head = list(task.head_schedule_list)
        tail = list(task.tail_schedule_list)
        return ([e for e in head if _slot(e) in pre],
                [e for e in head if _slot(e) not in pre],
                [e for e in tail if _slot(e) not in post],
                [e for e in tail if _slot(e) in post])

    def skippable(self, task, entry, section: str) -> bool:
        slots = getattr(task, f"skippable_{section}_slots", frozenset())
        return _slot(entry) in slots

    def skip_predicate(self, task, task_name: str) -> Optional[Callable]:
        """The builder of the tile loop's skip_if region, or None."""
        ts_skip = getattr(task, "skip_if", None)
        if ts_skip is None:
            return None
        given = _for_task(self.skip_if, task_name)
        if given is not None:
            return given
        name = _qualname(ts_skip)

        def placeholder(*coords):
            # Opaque to the verifier; never skips when run.
            i32 = ir.IntegerType.get_signless(32)
            value = llvm.inline_asm(i32, [], f"// ts skip_if: {name}\n\t"
                                    f"mov.u32 $0, 0;", "=r")
            return arith.cmpi(arith.CmpIPredicate.ne, value,
                              arith.constant(i32, 0))

        return placeholder

    def domain_bound(self, task, task_name: str, kernel) -> Optional[Callable]:
        """The per-tile domain end ``f(coords)`` (an ``index`` Value), or
        None for a task without ``get_domain``."""
        getter = getattr(task, "domain_getter", None)
        if getter is None:
            return None
        given = _for_task(self.domain_end, task_name)
        if given is not None:
            return lambda coords: given(kernel, coords)
        name = _qualname(getter)

        def placeholder(coords):
            # Opaque to the verifier; the tile's first coordinate when run.
            i32 = ir.IntegerType.get_signless(32)
            first = arith.index_cast(i32, coords[0])
            value = llvm.inline_asm(i32, [first], f"// ts domain: {name}\n\t"
                                    f"mov.u32 $0, $1;", "=r,r")
            return arith.index_cast(ir.IndexType.get(), value)

        return placeholder

    def step(self, builder, task_name: str, queue, stage: str,
             label: Optional[str], responses: Dict[str, Any]) -> None:
        """One schedule entry on the queue (its ``stage`` name, TS's
        ``ScheduleStage``)."""
        clc = _is_clc(queue)
        pipe = pipeline_name(queue)
        if stage in ("ConsumerWork", "ProducerWork"):
            method = label or ("get_and_advance_work_tile"
                               if stage == "ConsumerWork"
                               else "fetch_work_tile")
            if stage == "ConsumerWork" and \
                    method == "get_and_advance_work_tile":
                builder.advance_work_tile(
                    queue.name, responses.get("consumer") if clc else None)
                return
            if stage == "ProducerWork" and method == "fetch_work_tile":
                if "producer" not in responses:
                    raise NotImplementedError(
                        f"task {task_name!r}: fetch_work_tile on "
                        f"{queue.name!r} without an acquire before it")
                builder.fetch_work_tile(queue.name, responses["producer"])
                return
            raise NotImplementedError(
                f"task {task_name!r}: WorkQueue {queue.name!r} work "
                f"{method!r} is not modelled by tspipe "
                f"(get_and_advance_work_tile, fetch_work_tile)")
        if stage in ("ConsumerAuxWork", "ProducerAuxWork"):
            return  # the queue's own bookkeeping (init_work_tile)
        verbs = {"ProducerTryAcquire": "try_acquire",
                 "ProducerAcquire": "acquire", "ProducerCommit": "commit",
                 "ConsumerTryWait": "try_wait", "ConsumerWait": "wait",
                 "ConsumerRelease": "release"}
        if stage not in verbs:
            raise NotImplementedError(
                f"task {task_name!r}: schedule stage {stage} on work queue "
                f"{queue.name!r} is not modelled by tspipe")
        if not clc:
            return  # a static queue's brackets emit nothing (2.8)
        made = getattr(builder, verbs[stage])(pipe)
        if verbs[stage] == "acquire":
            responses["producer"] = made
        elif verbs[stage] == "wait":
            responses["consumer"] = made
