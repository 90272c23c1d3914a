"""Persistent copy with skipped tiles: CUTLASS's TS tutorial 3, kernel 1
(``copy_persistent_skip_tile``), ported to tspipe (Hopper, sm_90a).

Structure (as in the tutorial): one task of four warps walks the tiles of a
static persistent ``WorkQueue``; each logical tile is a 128-column slice of
a row-major fp16 matrix, and the task's domain loop copies it row by row
(thread ``t`` of the CTA copies column ``128 * tile + t`` of each row). The
queue is launched with more tiles than the matrix has (overlaunched ids);
the queue's ``skip_if`` marks those, and ``skippable()`` around the domain
loop makes a skipped tile do no copy while the queue's bookkeeping
(``try_wait``, ``wait``, ``get_and_advance_work_tile``, ``release``) still
runs on every tile.

  PersistentCopyTask (warps 0-3):
    work_tile_loop(WorkQueue, skip_if=tile >= logical_tiles):
      skippable: domain_loop(rows): copy_tile_row
      wq.try_wait; wq.wait; wq.get_and_advance_work_tile; wq.release

Kernel ``copy_persistent_skip_tile(a, b, logical_tiles, launch_tiles)``: a
and b are ``ROWS x (128 * logical_tiles)`` fp16 matrices; the queue's grid
is ``launch_tiles`` tiles (``launch_tiles >= logical_tiles``); launch
``NUM_WARPS * 32`` threads per CTA and any grid (a CTA walks tiles
``c, c + G, ...``). The tutorial passes the tile counts to its scheduler
params; here they are kernel arguments.

Run: ``python examples/python/copy_persistent_skip_tile.py [out_dir]``
verifies, lowers to sm_90a PTX and assembles it with ptxas when found.
Launch spec: ``examples/copy_persistent_skip_tile.py``.
"""

from __future__ import annotations

import tspipe.ts as ts
from tspipe import ir
from tspipe.dialects import arith, gpu, llvm
from tspipe.ts.resources import MemoryResource, StageInfo, producer_work
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

NUM_WARPS = 4
TILE_COLS = NUM_WARPS * 32       # columns per logical tile: one per thread
ROWS = 64                        # rows of the matrix: the domain loop
ELEM_BYTES = 2                   # fp16
ARCH = "sm_90a"


def _index(value: int):
    return arith.constant(ir.IndexType.get(), value)


def _arg_index(kernel, name: str):
    return arith.index_cast(ir.IndexType.get(), kernel.arg(name))


def _element(base, index, elem_bytes: int):
    """``base + index * elem_bytes`` as a global pointer."""
    i64 = ir.IntegerType.get_signless(64)
    address = llvm.ptrtoint(i64, base)
    offset = arith.index_cast(i64, arith.muli(index, _index(elem_bytes)))
    return llvm.inttoptr(llvm.PointerType.get(1), arith.addi(address, offset))


class OversubscribedCopyWorkQueue(ts.WorkQueue):
    """The static queue over ``launch_tiles`` tiles; the ids from
    ``logical_tiles`` on are overlaunched and skipped."""

    def skip_work_tile_if(self, tile_x, tile_y, tile_z):
        logical = _arg_index(self._tspipe_kernel, "logical_tiles")
        return arith.cmpi(arith.CmpIPredicate.uge, tile_x, logical)


class PersistentCopyResource(MemoryResource):
    """Global-memory copy (no pipeline): one element per thread and row."""

    @producer_work
    def copy_tile_row(self, stage_info: StageInfo):
        kernel = self.kernel
        tx = gpu.thread_id(gpu.Dimension.x)
        tile_x = stage_info.work_tile.tile_idx[0]
        col = arith.addi(tx, arith.muli(tile_x, _index(TILE_COLS)))
        cols = arith.muli(_arg_index(kernel, "logical_tiles"),
                          _index(TILE_COLS))
        element = arith.addi(arith.muli(stage_info.loop_offset, cols), col)
        i16 = ir.IntegerType.get_signless(16)
        value = llvm.load(i16, _element(kernel.arg("a"), element, ELEM_BYTES))
        llvm.store(value, _element(kernel.arg("b"), element, ELEM_BYTES))


def build(arch: str = ARCH, skip_validation: bool = False) -> TaskManager:
    """The TaskManager of the kernel (verified unless skip_validation)."""
    work_queue = OversubscribedCopyWorkQueue(
        "WorkQueue",
        grid=(lambda k: k.prologue(_arg_index, k, "launch_tiles"), 1, 1))
    copy_resource = PersistentCopyResource(name="PersistentCopyResource")

    @schedule
    def copy_schedule(copy_res, wq):
        with ts.work_tile_loop(
                wq, skip_if=work_queue.skip_work_tile_if) as wtwl:
            with wtwl.skippable(), domain_loop(0, ROWS, 1):
                copy_res.copy_tile_row()
            wq.try_wait()
            wq.wait()
            wq.get_and_advance_work_tile()
            wq.release()

    copy_task = Task(
        name="PersistentCopyTask",
        src_resources=[work_queue],
        dst_resources=[copy_resource],
        warp_idx=0,
        num_warps=NUM_WARPS,
        schedule=copy_schedule(copy_resource, work_queue),
    )
    return TaskManager(
        tasks=[copy_task],
        resource_dependency_graph={copy_resource: [work_queue]},
        skip_validation=skip_validation, name="copy_persistent_skip_tile",
        args=["a", "b", ("logical_tiles", "i32"), ("launch_tiles", "i32")],
        arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble

    task_manager = build()
    print("copy_persistent_skip_tile: verified")
    return compile_and_assemble(task_manager, ARCH, argv)


if __name__ == "__main__":
    raise SystemExit(main())
