//===- Protocol.h - pipeline protocol emission for tspipe-to-nvvm -*- C++ -*-===//
//
// Internal to the TSPipeToNVVM conversion. `KernelLowering` owns what one
// kernel shares (thread/warp ids, barrier storage of every pipeline, init);
// `ProtocolEmitter` emits the per-type bracket sequences of docs/Protocols.md
// and advances the task cursors (docs/Protocols.md, Cursors).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_CONVERSION_TSPIPETONVVM_PROTOCOL_H
#define TSPIPE_LIB_CONVERSION_TSPIPETONVVM_PROTOCOL_H

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tspipe {

/// A pipeline cursor: stage index and phase bit, both i32 values.
struct Cursor {
  Value index;
  Value phase;
};

/// The cursors one task keeps for one pipeline (docs/Protocols.md, Cursors):
/// producer `p`, producer-commit `pc` (advance_on_acquire), consumer `c`,
/// consumer-release `cr` (advance_on_wait). All four are carried; unused
/// ones fold away.
struct TaskCursors {
  Cursor producer, producerCommit, consumer, consumerRelease;

  /// Producer cursors start at phase 1 (the first num_stages acquires pass),
  /// consumer cursors at phase 0.
  static TaskCursors initial(OpBuilder &b, Location loc,
                             PipelineConfigAttr config);
  void appendTo(SmallVectorImpl<Value> &values) const;
  unsigned assignFrom(ValueRange values, unsigned pos);
};

/// Where one pipeline's barriers and data live, and how it releases.
struct PipelineLowering {
  PipelineOp op;
  PipelineConfigAttr config;
  /// Base of the full barriers (num_stages x 8 bytes), the empty barriers
  /// right after them, and the data buffer (null when none).
  Value fullBase, emptyBase, bufferBase;
  /// Bytes of one stage of the data buffer.
  int64_t stageBytes = 0;
  /// TmaAsync consumers release from every thread (consumer group =
  /// 32 x consumer warps) instead of lane 0 of each warp (docs/Protocols.md, TmaAsync).
  bool allThreadRelease = false;

  Value fullBarrier(OpBuilder &b, Location loc, Value index) const;
  Value emptyBarrier(OpBuilder &b, Location loc, Value index) const;
  Value stageBuffer(OpBuilder &b, Location loc, Value index) const;
};

class KernelLowering;

/// Emits bracket sequences. Each `emit*` inserts at the builder's insertion
/// point, predicated as the pipeline type requires, and updates `cursors`.
class ProtocolEmitter {
public:
  explicit ProtocolEmitter(KernelLowering &k) : k(k) {}

  Value emitProducerTryAcquire(OpBuilder &b, Location loc, PipelineLowering &p,
                               TaskOp task, TaskCursors &cursors);
  /// Returns the i32 index of the acquired stage.
  Value emitProducerAcquire(OpBuilder &b, Location loc, PipelineLowering &p,
                            TaskOp task, TaskCursors &cursors, Value ready);
  void emitProducerCommit(OpBuilder &b, Location loc, PipelineLowering &p,
                          TaskOp task, TaskCursors &cursors);
  void emitProducerTail(OpBuilder &b, Location loc, PipelineLowering &p,
                        TaskOp task, TaskCursors &cursors);
  Value emitConsumerTryWait(OpBuilder &b, Location loc, PipelineLowering &p,
                            TaskOp task, TaskCursors &cursors);
  /// Returns the i32 index of the stage waited for.
  Value emitConsumerWait(OpBuilder &b, Location loc, PipelineLowering &p,
                         TaskOp task, TaskCursors &cursors, Value ready);
  void emitConsumerRelease(OpBuilder &b, Location loc, PipelineLowering &p,
                           TaskOp task, TaskCursors &cursors);

private:
  /// The CtaLeader gate (`rank % V == 0`; docs/Protocols.md, Signaling
  /// threads), or null when every CTA signals.
  Value ctaGate(OpBuilder &b, Location loc, PipelineLowering &p, TaskOp task,
                SignalingThreads signaling);
  /// One non-blocking parity probe of `barrier`: true once the phase with
  /// parity `phase` has completed.
  Value probe(OpBuilder &b, Location loc, Value barrier, Value phase);
  /// Blocking parity wait on `barrier` (skipped when `ready` is true).
  void waitParity(OpBuilder &b, Location loc, Value barrier, Value phase,
                  Value ready, StringRef what, TaskOp task,
                  PipelineLowering &p, Value index);
  /// Strided advance: index += k, wrapping at num_stages with a phase flip;
  /// only where `gate` holds when a gate is given.
  void advance(OpBuilder &b, Location loc, Cursor &cursor, int64_t stride,
               int64_t numStages, Value gate = Value());
  /// The advance of a CtaLeader-gated bracket: conditional on `gate` for a
  /// unit stride, unconditional for a strided (interleaved) role, as TS does.
  void advanceAfterGated(OpBuilder &b, Location loc, Cursor &cursor,
                         int64_t stride, int64_t numStages, Value gate);
  /// Runs `body` under `cond` (no branch when cond is null).
  void emitIf(OpBuilder &b, Location loc, Value cond,
              function_ref<void(OpBuilder &)> body);

  KernelLowering &k;
};

/// What a whole kernel's lowering shares.
class KernelLowering {
public:
  KernelLowering(KernelOp kernel, int64_t hangTimeout)
      : kernel(kernel), hangTimeout(hangTimeout), emitter(*this) {}

  /// Computes thread/warp ids and each pipeline's barrier and buffer
  /// addresses at the builder's insertion point; rejects pipeline kinds the
  /// lowering does not cover.
  LogicalResult prepare(OpBuilder &b, LLVM::GlobalOp smem);
  /// Barrier init by one elected thread of warp 0, fence, CTA or cluster
  /// synchronization (docs/Protocols.md, Barrier storage and initialization).
  void emitBarrierInit(OpBuilder &b);
  /// True on the warps (and CTA) of `task`.
  Value taskPredicate(OpBuilder &b, TaskOp task);
  /// `setmaxnreg` for a task with `registers(n)`.
  void emitRegisterHint(OpBuilder &b, TaskOp task);

  PipelineLowering &pipeline(StringRef name) { return pipelines[name]; }
  ProtocolEmitter &protocol() { return emitter; }
  Value warpIdx() const { return warp; }
  Value laneIdx() const { return lane; }
  Value threadIdx() const { return tid; }
  Value ctaRank(OpBuilder &b, Location loc);
  int64_t getHangTimeout() const { return hangTimeout; }
  Value constI32(OpBuilder &b, Location loc, int64_t v);

private:
  KernelOp kernel;
  int64_t hangTimeout;
  ProtocolEmitter emitter;
  llvm::StringMap<PipelineLowering> pipelines;
  Value tid, warp, lane, rank;
};

} // namespace mlir::tspipe

#endif // TSPIPE_LIB_CONVERSION_TSPIPETONVVM_PROTOCOL_H
