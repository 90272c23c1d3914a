//===- Cursor.h - the cursor model of a task's brackets ---------*- C++ -*-===//
//
// Which cursor each bracket of a task moves on a pipeline, where each
// cursor starts and by how much it advances (docs/Protocols.md, Cursors,
// Split cursors, Interleaved lanes). One model for the lowering
// (convert-tspipe-to-nvvm emits it) and the progress model
// (tspipe-check-progress simulates it).
//
// A task keeps up to four cursors per pipeline, each a stage index in
// [0, num_stages) and a phase bit: the producer cursor `p`, the
// producer-commit cursor `pc` (advance_on_acquire), the consumer cursor `c`
// and the consumer-release cursor `cr` (advance_on_wait).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_CURSOR_H
#define TSPIPE_DIALECT_TSPIPE_IR_CURSOR_H

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

namespace mlir::tspipe {

/// The cursors of one task on one pipeline.
enum class CursorKind : uint8_t {
  Producer = 0,
  ProducerCommit = 1,
  Consumer = 2,
  ConsumerRelease = 3,
};

/// The brackets that move a cursor (the try forms and current_stage read the
/// cursor of the bracket they stand for).
enum class BracketRole : uint8_t {
  Acquire = 0,
  Commit = 1,
  Wait = 2,
  Release = 3,
};

/// The cursor `role` uses: acquire `p`; commit `pc` under
/// advance_on_acquire, else `p`; wait `c`; release `cr` under
/// advance_on_wait, else `c`.
CursorKind getBracketCursor(PipelineConfigAttr cfg, BracketRole role);

/// The interleave stride of `role` (stages, >= 1).
int64_t getBracketStride(PipelineConfigAttr cfg, BracketRole role);

/// The stride the commit cursor (`getBracketCursor(cfg, Commit)`) advances
/// by, which is also the producer drain's: the commit stride on `pc` under
/// advance_on_acquire, else the acquire stride on `p`.
int64_t getCommitCursorStride(PipelineConfigAttr cfg);

/// The cursor a task's producer drain (`producer_tail`, explicit or at task
/// exit) waits with, and the stride it advances by (docs/Protocols.md,
/// Producer drain). In a task that commits the pipeline (`taskCommits`),
/// or without advance_on_acquire, that is the commit cursor
/// (`getBracketCursor(cfg, Commit)`, `getCommitCursorStride`). Under
/// advance_on_acquire, a task that acquires but never commits (the acquire
/// half of a split producer) drains with `p` and the acquire stride: its
/// `pc` never moves, so waits on `pc` would test the phases of the ring's
/// first visit and block once the consumers had released a stage once.
CursorKind getDrainCursor(PipelineConfigAttr cfg, bool taskCommits);
int64_t getDrainStride(PipelineConfigAttr cfg, bool taskCommits);

/// The phase a cursor starts with: 1 for the producer cursors (the first
/// num_stages acquires pass without a release), 0 for the consumer ones.
/// Every cursor starts at stage index 0 unless a lane seed moves it.
unsigned getInitialPhase(CursorKind kind);

/// Where a strided cursor's first stage comes from (docs/Protocols.md,
/// Interleaved lanes).
enum class LaneSource : uint8_t {
  /// The task has as many warps as the stride: warp w of the task (its warp
  /// index minus the task's first warp) owns lane w.
  WarpLane,
  /// Otherwise the whole task is one lane: its domain loop's lower bound
  /// modulo the stride.
  DomainLane,
};

/// One cursor a task starts at its lane instead of stage 0.
struct CursorSeed {
  CursorKind cursor;
  int64_t stride;
  LaneSource source;
};

/// The seeds of a task of `taskWarps` warps on a pipeline of config `cfg`,
/// in the order they apply (a later seed of the same cursor replaces an
/// earlier one): for every role with a stride above 1, the role's cursor
/// starts at the task's lane for that stride. Empty when the pipeline is not
/// interleaved.
SmallVector<CursorSeed, 4> getCursorSeeds(PipelineConfigAttr cfg,
                                          int64_t taskWarps);

/// The lane of a seed: `warpInTask` (0-based warp of the task) for a warp
/// lane, `domainStart` modulo the stride (non-negative) for a domain lane.
int64_t getSeedLane(const CursorSeed &seed, int64_t warpInTask,
                    int64_t domainStart);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_CURSOR_H
