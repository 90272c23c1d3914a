//===- TileModel.cpp - persistent tile loops in the progress model --------===//
//
// A persistent task (tspipe.work_tile_loop) runs its schedule once per tile,
// its pipeline cursors carried from tile to tile, and drains after the last
// tile (docs/ProgressChecker.md, Persistent tile loops). Every task of a
// kernel walks the one work queue (R35), so every task sees the same tiles
// (a static queue's tiles are a function of the cluster id and the grid, a
// CLC queue's the responses every task reads); the model runs each
// persistent task over kModelledTiles tiles, enough for one tile's phases
// to meet the next tile's brackets on every stage.
//
// Skipped tiles: tasks whose skip_if predicates are equivalent (the same
// operations on the coordinates) skip the same tiles. The model skips
// tile 1 in the first class of equivalent predicates and runs it
// everywhere else: where a task that skips and a task that does not share
// a pipeline, the simulation finds the hang (R70), with that tile in the
// counterexample.
//
//===----------------------------------------------------------------------===//

#include "Model.h"

#include "mlir/IR/OperationSupport.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress::detail;

namespace {
/// Tiles each persistent task runs in the model.
constexpr int64_t kModelledTiles = 2;
/// The tile the first skip class skips.
constexpr int64_t kSkippedTile = 1;
} // namespace

std::vector<std::pair<Operation *, bool>>
progress::detail::scheduleOps(TaskOp task) {
  std::vector<std::pair<Operation *, bool>> ops;
  WorkTileLoopOp loop = getWorkTileLoop(task);
  Block &body = loop ? loop.getBody().front() : task.getBody().front();
  for (Operation &op : body) {
    if (auto skippable = dyn_cast<SkippableOp>(op)) {
      for (Operation &inner : skippable.getBody().front())
        ops.push_back({&inner, true});
      continue;
    }
    ops.push_back({&op, false});
  }
  return ops;
}

void progress::detail::modelTileLoops(Model &m) {
  // One representative skip_if region per class of equivalent predicates.
  SmallVector<Region *> classes;
  for (TaskInfo &t : m.tasks) {
    WorkTileLoopOp loop = getWorkTileLoop(t.op);
    if (!loop)
      continue;
    t.tiles = kModelledTiles;
    if (!loop.hasSkipIf())
      continue;
    Region *pred = &loop.getSkipIf();
    auto same = llvm::find_if(classes, [&](Region *r) {
      return OperationEquivalence::isRegionEquivalentTo(
          r, pred, OperationEquivalence::IgnoreLocations);
    });
    if (same == classes.end()) {
      classes.push_back(pred);
      same = classes.end() - 1;
    }
    if (same == classes.begin())
      t.skippedTile = kSkippedTile;
  }
}
