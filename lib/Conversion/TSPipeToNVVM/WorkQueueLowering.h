//===- WorkQueueLowering.h - persistent tile loops -------------*- C++ -*-===//
//
// Lowers a task's tspipe.work_tile_loop (docs/Protocols.md, Work queues):
// an scf.while over the tiles the kernel's work queue hands this CTA, which
// carries the task's pipeline cursors from tile to tile, and the queue ops
// in its body (tspipe.skippable, tspipe.advance_work_tile,
// tspipe.fetch_work_tile). The task lowering (TSPipeToNVVM.cpp) owns the
// cursors and lowers everything else; it serves the tile loop through
// TileLoopHost.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_CONVERSION_TSPIPETONVVM_WORKQUEUELOWERING_H
#define TSPIPE_LIB_CONVERSION_TSPIPETONVVM_WORKQUEUELOWERING_H

#include "Protocol.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::tspipe {

/// What the tile-loop lowering needs from the task lowering.
class TileLoopHost {
public:
  virtual ~TileLoopHost() = default;
  virtual OpBuilder &builder() = 0;
  virtual IRMapping &valueMapping() = 0;
  /// The cursors any op nested in `op` advances, in a fixed order.
  virtual SmallVector<Cursor *> cursorsAdvancedIn(Operation *op) = 0;
  /// The cursors the enclosing structured op carries (read and set).
  virtual SmallVector<Cursor *> &carriedCursors() = 0;
  /// Lowers the ops of `block` at the builder's insertion point.
  virtual LogicalResult lowerBlockOps(Block &block) = 0;
  /// The pipeline and i32 stage index of a lowered stage handle (null
  /// pipeline when `stage` does not come from a lowered bracket).
  virtual std::pair<PipelineLowering *, Value> loweredStage(Value stage) = 0;
};

/// The tile-loop lowering of one task.
class WorkQueueLowering {
public:
  WorkQueueLowering(KernelLowering &k, TaskOp task, TileLoopHost &host)
      : k(k), task(task), host(host) {}

  LogicalResult lowerTileLoop(WorkTileLoopOp loop);
  LogicalResult lowerSkippable(SkippableOp op);
  LogicalResult lowerAdvance(AdvanceWorkTileOp op);
  LogicalResult lowerFetch(FetchWorkTileOp op);

private:
  /// (linear id, count) of this CTA's cluster among the clusters launched
  /// (of the CTA among the CTAs without a cluster), i32.
  std::pair<Value, Value> clusterLinearId(Location loc);
  /// The tile coordinates of linear tile `t` in the static grid (i32).
  SmallVector<Value> decode(Location loc, Value t);

  KernelLowering &k;
  TaskOp task;
  TileLoopHost &host;
  WorkQueueOp queue;
  /// Static queue: tiles launched (i32), the stride, the tile grid (i32).
  Value numTiles, stride;
  SmallVector<Value> grid;
  /// The current tile: linear index (static) and the skip predicate.
  Value linear, skip;
  /// What advance_work_tile computed: the next tile's state.
  SmallVector<Value> next;
};

} // namespace mlir::tspipe

#endif // TSPIPE_LIB_CONVERSION_TSPIPETONVVM_WORKQUEUELOWERING_H
