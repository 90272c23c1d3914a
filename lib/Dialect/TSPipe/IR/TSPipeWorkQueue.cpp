//===- TSPipeWorkQueue.cpp - work queue and tile loop ops -----------------===//
//
// The op-local checks of tspipe.work_queue, tspipe.work_tile_loop,
// tspipe.skippable, tspipe.advance_work_tile and tspipe.fetch_work_tile:
// the queue's shape (R35), the tile loop's queue and coordinates (R19),
// its per-tile domain (R20), its skip predicate (R21) and the shape of its
// body (R22). The rules across tasks (one queue shared by every task, the
// scheduler task, the order of the queue's steps) are in
// TSPipeWorkQueueRules.cpp.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tspipe;

WorkQueueOp mlir::tspipe::lookupWorkQueue(Operation *from,
                                          FlatSymbolRefAttr name,
                                          SymbolTableCollection *tables) {
  auto kernel = from->getParentOfType<KernelOp>();
  if (!kernel || !name)
    return {};
  Operation *op = tables ? tables->lookupSymbolIn(kernel, name.getAttr())
                         : SymbolTable::lookupSymbolIn(kernel, name.getAttr());
  return dyn_cast_or_null<WorkQueueOp>(op);
}

WorkTileLoopOp mlir::tspipe::getWorkTileLoop(TaskOp task) {
  for (Operation &op : task.getBody().front())
    if (auto loop = dyn_cast<WorkTileLoopOp>(op))
      return loop;
  return {};
}

//===----------------------------------------------------------------------===//
// WorkQueueOp
//===----------------------------------------------------------------------===//

unsigned WorkQueueOp::getNumCoordinates() {
  return isClc() ? 3 : getGrid().size();
}

PipelineOp WorkQueueOp::getClcPipelineOp() {
  if (!isClc())
    return {};
  return lookupPipeline(getOperation(), getClcPipelineAttr());
}

LogicalResult WorkQueueOp::verify() {
  if (isClc()) {
    if (!getGrid().empty())
      return emitOpError()
             << "[R35] a CLC work queue takes its tiles from the launch grid "
                "(one cluster per tile), but grid() gives "
             << getGrid().size()
             << " extents; drop grid(...) or drop clc(...) for the static "
                "persistent scheduler";
    return success();
  }
  if (getGrid().empty() || getGrid().size() > 3)
    return emitOpError()
           << "[R35] a static persistent work queue needs a tile grid of 1 "
              "to 3 extents (m, n, l), got "
           << getGrid().size()
           << "; write grid(%m, %n, %l), or clc(@pipeline) for the "
              "CLC-driven scheduler";
  for (auto [i, extent] : llvm::enumerate(getGrid())) {
    APInt c;
    if (matchPattern(extent, m_ConstantInt(&c)) && !c.isStrictlyPositive())
      return emitOpError() << "[R35] grid extent " << i << " is "
                           << c.getSExtValue()
                           << "; every extent of the tile grid must be >= 1";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// WorkTileLoopOp
//===----------------------------------------------------------------------===//

WorkQueueOp WorkTileLoopOp::getWorkQueueOp() {
  return lookupWorkQueue(getOperation(), getQueueAttr());
}

AdvanceWorkTileOp WorkTileLoopOp::getAdvanceOp() {
  for (Operation &op : getBody().front())
    if (auto adv = dyn_cast<AdvanceWorkTileOp>(op))
      return adv;
  return {};
}

LogicalResult WorkTileLoopOp::verify() {
  for (BlockArgument arg : getBody().front().getArguments())
    if (!arg.getType().isIndex())
      return emitOpError() << "[X9] tile coordinate #" << arg.getArgNumber()
                           << " has type " << arg.getType()
                           << "; tile coordinates are index values";
  return success();
}

LogicalResult
WorkTileLoopOp::verifySymbolUses(SymbolTableCollection &tables) {
  // R19: a persistent task walks exactly one work queue, named here; TS's
  // src_resources hold it (for a CLC queue: its pipeline).
  WorkQueueOp queue = lookupWorkQueue(getOperation(), getQueueAttr(), &tables);
  if (!queue)
    return emitOpError() << "[R19] names '" << getQueueAttr()
                         << "', which is not a tspipe.work_queue of the "
                            "enclosing tspipe.kernel; declare it with "
                            "tspipe.work_queue @name grid(...) or clc(@p)";
  unsigned want = queue.getNumCoordinates();
  unsigned have = getBody().front().getNumArguments();
  if (have != want)
    return emitOpError() << "[R19] the body has " << have
                         << " tile coordinates, but work queue '"
                         << getQueueAttr() << "' hands out " << want
                         << " per tile; give the body " << want
                         << " index arguments";
  if (hasSkipIf() && getSkipIf().front().getNumArguments() != want)
    return emitOpError() << "[R21] skip_if takes "
                         << getSkipIf().front().getNumArguments()
                         << " tile coordinates, but the queue hands out "
                         << want << "; give it the body's " << want
                         << " index arguments";
  if (queue.isClc()) {
    auto task = (*this)->getParentOfType<TaskOp>();
    StringRef pipe = queue.getClcPipelineAttr().getValue();
    if (task && !task.consumesPipeline(pipe))
      return emitOpError()
             << "[R19] task '@" << task.getSymName()
             << "' walks the CLC work queue '" << getQueueAttr()
             << "' but does not consume its pipeline '@" << pipe
             << "'; every task of a CLC-scheduled kernel reads the tile "
                "responses: add @"
             << pipe << " to its consumes list";
  }
  return success();
}

/// True when `v` is defined inside `region` and is not a constant.
static bool isTileVariant(Value v, Region &region) {
  if (matchPattern(v, m_Constant()))
    return false;
  return region.isAncestor(v.getParentRegion());
}

LogicalResult WorkTileLoopOp::verifyRegions() {
  // R21: skip_if is the work queue's predicate over the tile coordinates:
  // side-effect free, no pipeline operations, one i1.
  if (hasSkipIf()) {
    Block &skip = getSkipIf().front();
    for (BlockArgument arg : skip.getArguments())
      if (!arg.getType().isIndex())
        return emitOpError() << "[R21] skip_if coordinate #"
                             << arg.getArgNumber() << " has type "
                             << arg.getType() << "; coordinates are index";
    if (skip.empty() || !isa<SkipTileOp>(skip.back()))
      return emitOpError() << "[R21] skip_if must end with tspipe.skip_tile "
                              "%skip (an i1: true skips the tile)";
    for (Operation &op : skip.without_terminator()) {
      if (isa_and_nonnull<TSPipeDialect>(op.getDialect()) ||
          !isMemoryEffectFree(&op))
        return op.emitOpError()
               << "[R21] skip_if may only compute from the tile coordinates "
                  "(side-effect-free operations, no tspipe operation); "
                  "compute what the predicate needs before the kernel";
    }
  }
  // R22: the body is one tile's schedule: one domain loop, inside
  // skippable when the loop has skip_if.
  Block &body = getBody().front();
  SmallVector<DomainLoopOp> loops;
  SmallVector<SkippableOp> skippables;
  for (Operation &op : body) {
    if (auto loop = dyn_cast<DomainLoopOp>(op))
      loops.push_back(loop);
    if (auto skippable = dyn_cast<SkippableOp>(op)) {
      skippables.push_back(skippable);
      for (Operation &inner : skippable.getBody().front())
        if (auto loop = dyn_cast<DomainLoopOp>(inner))
          loops.push_back(loop);
    }
  }
  if (!skippables.empty() && !hasSkipIf())
    return skippables.front().emitOpError()
           << "[R22] tspipe.skippable needs a work_tile_loop with skip_if; "
              "add skip_if { ... tspipe.skip_tile %skip } to the loop or "
              "drop skippable";
  if (loops.size() == 1 && hasSkipIf() &&
      !isa<SkippableOp>(loops.front()->getParentOp()))
    return loops.front().emitOpError()
           << "[R22] with skip_if the domain loop must sit inside "
              "tspipe.skippable (a skipped tile runs no iteration); wrap it "
              "in tspipe.skippable { ... }";
  // R20: only the end of a per-tile domain may depend on the tile (TS's
  // flat lowering takes a dynamic domain end, never a dynamic start or
  // step).
  for (DomainLoopOp loop : loops) {
    for (auto [what, v] : {std::make_pair("lower bound", loop.getLowerBound()),
                           std::make_pair("step", loop.getStep())})
      if (isTileVariant(v, getBody()))
        return loop.emitOpError()
               << "[R20] the " << what
               << " of a per-tile domain is computed inside the "
                  "work_tile_loop; only the upper bound may depend on the "
                  "tile: compute the "
               << what << " before the tile loop";
  }
  // X17: a drain inside the tile loop would run once per tile; the drains
  // run after the last tile.
  WalkResult drains = getBody().walk([&](ProducerTailOp tail) {
    tail.emitOpError() << "[X17] producer_tail inside a work_tile_loop "
                          "drains the pipeline on every tile; drop it (the "
                          "lowering drains every produced pipeline once, "
                          "after the last tile)";
    return WalkResult::interrupt();
  });
  if (drains.wasInterrupted())
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// AdvanceWorkTileOp, FetchWorkTileOp
//===----------------------------------------------------------------------===//

/// The pipeline and side of the bracket that made `stage`.
static Operation *stageBracket(Value stage) {
  Operation *def = stage ? stage.getDefiningOp() : nullptr;
  return isa_and_nonnull<ProducerAcquireOp, ConsumerWaitOp>(def) ? def
                                                                 : nullptr;
}

LogicalResult AdvanceWorkTileOp::verify() {
  if (!isa<WorkTileLoopOp>((*this)->getParentOp()))
    return failure(); // HasParent reports it
  return success();
}

LogicalResult
AdvanceWorkTileOp::verifySymbolUses(SymbolTableCollection &tables) {
  auto loop = (*this)->getParentOfType<WorkTileLoopOp>();
  WorkQueueOp queue = lookupWorkQueue(getOperation(), getQueueAttr(), &tables);
  if (!queue || loop.getQueueAttr() != getQueueAttr())
    return emitOpError() << "[R35] advances '" << getQueueAttr()
                         << "', but the enclosing work_tile_loop walks '"
                         << loop.getQueueAttr()
                         << "'; advance the loop's own queue";
  if (!queue.isClc()) {
    if (getResponse())
      return emitOpError() << "[R35] a static work queue has no responses; "
                              "drop response(...)";
    return success();
  }
  auto wait = dyn_cast_or_null<ConsumerWaitOp>(stageBracket(getResponse()));
  if (!wait || wait.getPipelineAttr() != queue.getClcPipelineAttr())
    return emitOpError() << "[R35] on the CLC work queue '" << getQueueAttr()
                         << "' the next tile is read from a response: give "
                            "response(%s) with %s the stage of "
                            "tspipe.consumer_wait @"
                         << queue.getClcPipelineAttr().getValue();
  return success();
}

LogicalResult FetchWorkTileOp::verify() { return success(); }

LogicalResult
FetchWorkTileOp::verifySymbolUses(SymbolTableCollection &tables) {
  WorkQueueOp queue = lookupWorkQueue(getOperation(), getQueueAttr(), &tables);
  if (!queue || !queue.isClc())
    return emitOpError() << "[R35] fetch_work_tile needs a CLC work queue, "
                            "but '"
                         << getQueueAttr()
                         << "' is not one; a static queue computes its "
                            "tiles (drop the fetch)";
  auto acquire =
      dyn_cast_or_null<ProducerAcquireOp>(stageBracket(getStage()));
  if (!acquire || acquire.getPipelineAttr() != queue.getClcPipelineAttr())
    return emitOpError() << "[R35] fetch_work_tile writes a response into "
                            "the stage of tspipe.producer_acquire @"
                         << queue.getClcPipelineAttr().getValue()
                         << "; pass that stage";
  return success();
}
