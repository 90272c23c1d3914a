"""Builders of the work queue ops (``tspipe.work_queue``,
``tspipe.work_tile_loop``, ``tspipe.skippable``, ``tspipe.skip_tile``,
``tspipe.advance_work_tile``, ``tspipe.fetch_work_tile``), registered in
place of the generated classes by :mod:`tspipe.dialects.tspipe`.

* ``WorkQueueOp("tiles", grid=[m, n, l])`` (``index`` Values): the static
  persistent scheduler; ``WorkQueueOp("dyn", clc_pipeline="clc")``: the
  CLC-driven one.
* ``WorkTileLoopOp("tiles", num_coordinates, skip_if=False)`` creates the
  body block with ``num_coordinates`` ``index`` arguments (and the
  ``skip_if`` block with the same arguments when asked): ``body_block``,
  ``skip_block``, ``tile_coordinates``.
* ``SkippableOp()`` creates its body block.
"""

from ..ir import IndexType
from . import _tspipe_ops_gen as _gen
from ._ods_common import _cext as _ods_cext
from ._tspipe_attrs import symbol_name, symbol_ref
from ._tspipe_ops_gen import _Dialect


@_ods_cext.register_operation(_Dialect, replace=True)
class WorkQueueOp(_gen.WorkQueueOp):
    """``tspipe.work_queue @name grid(...)`` / ``clc(@pipeline)``."""

    def __init__(self, sym_name, *, grid=(), clc_pipeline=None, loc=None,
                 ip=None):
        super().__init__(symbol_name(sym_name), list(grid),
                         clc_pipeline=symbol_ref(clc_pipeline)
                         if clc_pipeline is not None else None,
                         loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class WorkTileLoopOp(_gen.WorkTileLoopOp):
    """``tspipe.work_tile_loop @queue [skip_if {...}] {...}``."""

    def __init__(self, queue, num_coordinates, *, skip_if=False, loc=None,
                 ip=None):
        super().__init__(symbol_ref(queue), loc=loc, ip=ip)
        types = [IndexType.get()] * int(num_coordinates)
        locs = [self.location] * int(num_coordinates)
        if skip_if:
            self.regions[0].blocks.append(*types, arg_locs=locs)
        self.regions[1].blocks.append(*types, arg_locs=locs)

    @property
    def body_block(self):
        return self.regions[1].blocks[0]

    @property
    def skip_block(self):
        return self.regions[0].blocks[0] if len(self.regions[0].blocks) \
            else None

    @property
    def tile_coordinates(self):
        return list(self.body_block.arguments)


@_ods_cext.register_operation(_Dialect, replace=True)
class SkippableOp(_gen.SkippableOp):
    """``tspipe.skippable``; the body block is created."""

    def __init__(self, *, loc=None, ip=None):
        super().__init__(loc=loc, ip=ip)
        self.regions[0].blocks.append()

    @property
    def body_block(self):
        return self.regions[0].blocks[0]


@_ods_cext.register_operation(_Dialect, replace=True)
class AdvanceWorkTileOp(_gen.AdvanceWorkTileOp):
    """``tspipe.advance_work_tile @queue [response(%stage)]``."""

    def __init__(self, queue, *, response=None, loc=None, ip=None):
        super().__init__(symbol_ref(queue), response=response, loc=loc, ip=ip)


@_ods_cext.register_operation(_Dialect, replace=True)
class FetchWorkTileOp(_gen.FetchWorkTileOp):
    """``tspipe.fetch_work_tile @queue stage(%stage)``."""

    def __init__(self, queue, stage, *, loc=None, ip=None):
        super().__init__(symbol_ref(queue), stage, loc=loc, ip=ip)
