"""Variable-length packed-to-padded copy with a per-tile dynamic domain:
CUTLASS's TS tutorial 3, kernel 2 (``copy_varlen_dynamic_domain``), ported
to tspipe (Hopper, sm_90a).

Structure (as in the tutorial): one task of four warps walks the tiles of a
static persistent ``WorkQueue``, one tile per segment ``i``; the domain
loop of a tile is the block-local grid-stride loop ``range(tx,
offsets[i + 1] - offsets[i], 128)``: its end is computed per tile from the
offsets (TS: a ``get_domain(tile_coord)`` override of the task class;
tspipe: a callable end ``f(kernel, tile_coord)``, built inside the tile
loop, rule R20), its start is the thread index and its step the CTA's
threads, both computed before the tile loop. Each iteration loads one
packed element (``InputPacked.load``) and hands it to the padded store
(``OutputPadded.store(val=...)``); the queue's bookkeeping ends every tile.

  VarlenCopyTask (warps 0-3):
    work_tile_loop(WorkQueue):
      domain_loop(tx, segment_length(tile), 128): val = load; store(val)
      wq.try_wait; wq.wait; wq.get_and_advance_work_tile; wq.release

Kernel ``copy_varlen_dynamic_domain(a, b, offsets, num_segments,
max_len)``: ``a`` the packed float32 segments, ``offsets`` the
``num_segments + 1`` int32 segment starts, ``b`` the ``num_segments x
max_len`` float32 padded rows (``B[i, j] = A[offsets[i] + j]`` for ``j <
offsets[i + 1] - offsets[i]``, the rest untouched); launch
``NUM_WARPS * 32`` threads per CTA and any grid.

Run: ``python examples/python/copy_varlen_dynamic_domain.py [out_dir]``.
Launch spec: ``examples/copy_varlen_dynamic_domain.py``.
"""

from __future__ import annotations

import tspipe.ts as ts
from tspipe import ir
from tspipe.dialects import arith, gpu, llvm
from tspipe.ts.resources import (
    MemoryResource,
    StageInfo,
    consumer_work,
    producer_work,
)
from tspipe.ts.schedule_builder import domain_loop, schedule
from tspipe.ts.task import Task
from tspipe.ts.task_manager import TaskManager

NUM_WARPS = 4
THREADS_PER_BLOCK = NUM_WARPS * 32
ARCH = "sm_90a"


def _index(value: int):
    return arith.constant(ir.IndexType.get(), value)


def _arg_index(kernel, name: str):
    return arith.index_cast(ir.IndexType.get(), kernel.arg(name))


def _element(base, index, elem_bytes: int = 4):
    """``base + index * elem_bytes`` as a global pointer."""
    i64 = ir.IntegerType.get_signless(64)
    address = llvm.ptrtoint(i64, base)
    offset = arith.index_cast(i64, arith.muli(index, _index(elem_bytes)))
    return llvm.inttoptr(llvm.PointerType.get(1), arith.addi(address, offset))


def _offset(kernel, index):
    """``offsets[index]`` as an index."""
    i32 = ir.IntegerType.get_signless(32)
    value = llvm.load(i32, _element(kernel.arg("offsets"), index))
    return arith.index_cast(ir.IndexType.get(), value)


def segment_length(kernel, tile_coord):
    """The per-tile domain end: ``offsets[i + 1] - offsets[i]`` for the
    tile's segment ``i`` (TS: ``DynamicDomainTask.get_domain``)."""
    i = tile_coord[0]
    return arith.subi(_offset(kernel, arith.addi(i, _index(1))),
                      _offset(kernel, i))


def thread_index(kernel):
    """The domain start: the thread's index in the CTA, computed before the
    tile loop (R20)."""
    return kernel.prologue(gpu.thread_id, gpu.Dimension.x)


class InputPackedResource(MemoryResource):
    """Global-memory packed 1D source (one element per iteration)."""

    @consumer_work(returns="val")
    def load(self, stage_info: StageInfo):
        kernel = self.kernel
        segment = stage_info.work_tile.tile_idx[0]
        packed = arith.addi(_offset(kernel, segment), stage_info.loop_offset)
        return llvm.load(ir.F32Type.get(), _element(kernel.arg("a"), packed))


class OutputPaddedResource(MemoryResource):
    """Global-memory padded 2D destination (one element per iteration)."""

    @producer_work
    def store(self, stage_info: StageInfo, *, val):
        kernel = self.kernel
        segment = stage_info.work_tile.tile_idx[0]
        padded = arith.addi(
            arith.muli(segment, _arg_index(kernel, "max_len")),
            stage_info.loop_offset)
        llvm.store(val, _element(kernel.arg("b"), padded))


def build(arch: str = ARCH, skip_validation: bool = False) -> TaskManager:
    """The TaskManager of the kernel (verified unless skip_validation)."""
    src_resource = InputPackedResource(name="InputPacked")
    dst_resource = OutputPaddedResource(name="OutputPadded")
    # Static persistent WorkQueue over the segments: no CLC pipeline, no
    # scheduler task.
    work_queue = ts.WorkQueue(
        "WorkQueue",
        grid=(lambda k: k.prologue(_arg_index, k, "num_segments"), 1, 1))

    @schedule
    def main_schedule(src, dst, wq):
        with ts.work_tile_loop(wq):
            with domain_loop(thread_index, segment_length,
                             THREADS_PER_BLOCK):
                val = src.load()
                dst.store(val=val)
            wq.try_wait()
            wq.wait()
            wq.get_and_advance_work_tile()
            wq.release()

    main_task = Task(
        name="VarlenCopyTask",
        src_resources=[src_resource, work_queue],
        dst_resources=[dst_resource],
        warp_idx=0,
        num_warps=NUM_WARPS,
        schedule=main_schedule(src_resource, dst_resource, work_queue),
    )
    return TaskManager(
        tasks=[main_task],
        resource_dependency_graph={dst_resource: [src_resource, work_queue]},
        skip_validation=skip_validation, name="copy_varlen_dynamic_domain",
        args=["a", "b", "offsets", ("num_segments", "i32"),
              ("max_len", "i32")],
        arch=arch)


def main(argv=None) -> int:
    from _common import compile_and_assemble

    task_manager = build()
    print("copy_varlen_dynamic_domain: verified")
    return compile_and_assemble(task_manager, ARCH, argv)


if __name__ == "__main__":
    raise SystemExit(main())
