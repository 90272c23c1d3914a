//===- Cursor.cpp - the cursor model of a task's brackets -----------------===//

#include "tspipe/Dialect/TSPipe/IR/Cursor.h"

using namespace mlir;
using namespace mlir::tspipe;

CursorKind mlir::tspipe::getBracketCursor(PipelineConfigAttr cfg,
                                          BracketRole role) {
  switch (role) {
  case BracketRole::Acquire:
    return CursorKind::Producer;
  case BracketRole::Commit:
    return cfg.getAdvanceOnAcquire() ? CursorKind::ProducerCommit
                                     : CursorKind::Producer;
  case BracketRole::Wait:
    return CursorKind::Consumer;
  case BracketRole::Release:
    return cfg.getAdvanceOnWait() ? CursorKind::ConsumerRelease
                                  : CursorKind::Consumer;
  }
  llvm_unreachable("unknown BracketRole");
}

int64_t mlir::tspipe::getBracketStride(PipelineConfigAttr cfg,
                                       BracketRole role) {
  switch (role) {
  case BracketRole::Acquire:
    return cfg.getAcquireStride();
  case BracketRole::Commit:
    return cfg.getCommitStride();
  case BracketRole::Wait:
    return cfg.getWaitStride();
  case BracketRole::Release:
    return cfg.getReleaseStride();
  }
  llvm_unreachable("unknown BracketRole");
}

int64_t mlir::tspipe::getCommitCursorStride(PipelineConfigAttr cfg) {
  return cfg.getAdvanceOnAcquire() ? cfg.getCommitStride()
                                   : cfg.getAcquireStride();
}

CursorKind mlir::tspipe::getDrainCursor(PipelineConfigAttr cfg,
                                        bool taskCommits) {
  if (cfg.getAdvanceOnAcquire() && !taskCommits)
    return CursorKind::Producer;
  return getBracketCursor(cfg, BracketRole::Commit);
}

int64_t mlir::tspipe::getDrainStride(PipelineConfigAttr cfg,
                                     bool taskCommits) {
  if (cfg.getAdvanceOnAcquire() && !taskCommits)
    return cfg.getAcquireStride();
  return getCommitCursorStride(cfg);
}

unsigned mlir::tspipe::getInitialPhase(CursorKind kind) {
  return kind == CursorKind::Producer || kind == CursorKind::ProducerCommit ? 1
                                                                            : 0;
}

SmallVector<CursorSeed, 4> mlir::tspipe::getCursorSeeds(PipelineConfigAttr cfg,
                                                        int64_t taskWarps) {
  SmallVector<CursorSeed, 4> seeds;
  if (!cfg.isInterleaved())
    return seeds;
  for (BracketRole role : {BracketRole::Acquire, BracketRole::Commit,
                           BracketRole::Wait, BracketRole::Release}) {
    int64_t stride = getBracketStride(cfg, role);
    if (stride <= 1)
      continue;
    seeds.push_back(
        {getBracketCursor(cfg, role), stride,
         taskWarps == stride ? LaneSource::WarpLane : LaneSource::DomainLane});
  }
  return seeds;
}

int64_t mlir::tspipe::getSeedLane(const CursorSeed &seed, int64_t warpInTask,
                                  int64_t domainStart) {
  if (seed.source == LaneSource::WarpLane)
    return warpInTask;
  return ((domainStart % seed.stride) + seed.stride) % seed.stride;
}
