//===- Protocol.cpp - per-type bracket sequences --------------------------===//
//
// The instruction sequence of every bracket, per pipeline type, as in
// docs/Protocols.md (AsyncAsync, TmaAsync):
//
//   bracket  | AsyncAsync                     | TmaAsync
//   acquire  | WAIT E[p]                      | WAIT E[p]; elect: ARRTX F[p], bytes
//   commit   | ARR F[p] (or CPA .noinc)       | (none, TMA completes the bytes)
//   wait     | WAIT F[c]                      | WAIT F[c]
//   release  | ARR E[c] (every thread)        | FPA; syncwarp; lane 0 of each warp: ARR E[c]
//   tail     | num_stages x WAIT E[p]         | num_stages x WAIT E[p]
//
// FPA is `fence.proxy.async.shared::cta` in every consumer thread (the next
// fill is an async-proxy write; the all-thread release form fences too).
// WAIT is a parity wait with the cursor's phase; cursors advance as in
// docs/Protocols.md, Cursors.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tspipe;

/// Suspend-time hint of a blocking parity wait, in nanoseconds (the value
/// CUTLASS uses).
static constexpr int64_t kWaitTicks = 10000000;

void ProtocolEmitter::emitIf(OpBuilder &b, Location loc, Value cond,
                             function_ref<void(OpBuilder &)> body) {
  if (!cond) {
    body(b);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  body(b);
}

Value ProtocolEmitter::ctaGate(OpBuilder &b, Location loc, PipelineLowering &p,
                               TaskOp task, SignalingThreads signaling) {
  if (!bitEnumContainsAny(signaling, SignalingThreads::CtaLeader) ||
      task.getRunOnlyOnCtaId() || p.config.getClusterSize() == 1)
    return Value();
  Value rank = k.ctaRank(b, loc);
  int64_t v = p.config.getV();
  if (v == 1) // every CTA is its own V-group leader
    return Value();
  Value rem = arith::RemUIOp::create(b, loc, rank, k.constI32(b, loc, v));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                               k.constI32(b, loc, 0));
}

void ProtocolEmitter::advance(OpBuilder &b, Location loc, Cursor &cursor,
                              int64_t stride, int64_t numStages, Value gate) {
  Value next = arith::AddIOp::create(b, loc, cursor.index,
                                     k.constI32(b, loc, stride));
  Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, next,
                                      k.constI32(b, loc, numStages));
  Value wrapped = arith::SubIOp::create(b, loc, next,
                                        k.constI32(b, loc, numStages));
  Value index = arith::SelectOp::create(b, loc, wraps, wrapped, next);
  Value flipped = arith::XOrIOp::create(b, loc, cursor.phase,
                                        k.constI32(b, loc, 1));
  Value phase = arith::SelectOp::create(b, loc, wraps, flipped, cursor.phase);
  if (gate) {
    index = arith::SelectOp::create(b, loc, gate, index, cursor.index);
    phase = arith::SelectOp::create(b, loc, gate, phase, cursor.phase);
  }
  cursor = {index, phase};
}

void ProtocolEmitter::advanceAfterGated(OpBuilder &b, Location loc,
                                        Cursor &cursor, int64_t stride,
                                        int64_t numStages, Value gate) {
  advance(b, loc, cursor, stride, numStages, stride > 1 ? Value() : gate);
}

Value ProtocolEmitter::probe(OpBuilder &b, Location loc, Value barrier,
                             Value phase) {
  return NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(), barrier, phase,
                                         Value(), NVVM::MemScopeKind::CTA,
                                         false);
}

void ProtocolEmitter::waitParity(OpBuilder &b, Location loc, Value barrier,
                                 Value phase, Value ready, StringRef what,
                                 TaskOp task, PipelineLowering &p,
                                 Value index) {
  Value notReady;
  if (ready) {
    Value t = arith::ConstantIntOp::create(b, loc, 1, 1);
    notReady = arith::XOrIOp::create(b, loc, ready, t);
  }
  emitIf(b, loc, notReady, [&](OpBuilder &b) {
    int64_t limit = k.getHangTimeout();
    if (limit <= 0) {
      NVVM::MBarrierTryWaitParityOp::create(
          b, loc, barrier, phase, k.constI32(b, loc, kWaitTicks));
      return;
    }
    // Debug form: poll at most `limit` times, then report and trap.
    Type i64 = b.getI64Type();
    Type i1 = b.getI1Type();
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
    Value notYet = arith::ConstantIntOp::create(b, loc, 0, 1);
    auto loop = scf::WhileOp::create(b, loc, TypeRange{i64, i1},
                                     ValueRange{zero, notYet});
    {
      OpBuilder::InsertionGuard guard(b);
      Block *before = b.createBlock(&loop.getBefore(), {}, {i64, i1},
                                    {loc, loc});
      Value polls = before->getArgument(0);
      Value done = probe(b, loc, barrier, phase);
      Value notDone = arith::XOrIOp::create(
          b, loc, done, arith::ConstantIntOp::create(b, loc, 1, 1));
      Value budget = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, polls,
          arith::ConstantIntOp::create(b, loc, limit, 64));
      Value more = arith::AndIOp::create(b, loc, notDone, budget);
      scf::ConditionOp::create(b, loc, more, ValueRange{polls, done});
      Block *after = b.createBlock(&loop.getAfter(), {}, {i64, i1},
                                   {loc, loc});
      Value next = arith::AddIOp::create(
          b, loc, after->getArgument(0),
          arith::ConstantIntOp::create(b, loc, 1, 64));
      scf::YieldOp::create(b, loc, ValueRange{next, after->getArgument(1)});
    }
    Value done = loop.getResult(1);
    Value hung = arith::XOrIOp::create(
        b, loc, done, arith::ConstantIntOp::create(b, loc, 1, 1));
    emitIf(b, loc, hung, [&](OpBuilder &b) {
      std::string fmt =
          ("tspipe: hang in task @" + task.getSymName() + " waiting on @" +
           p.op.getSymName() + " " + what +
           " stage %d phase %d (cta %d, thread %d)\n")
              .str();
      // One report per warp (its lane 0), then every thread traps.
      Value lane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          k.laneIdx(), k.constI32(b, loc, 0));
      emitIf(b, loc, lane0, [&](OpBuilder &b) {
        Value cta = NVVM::BlockIdXOp::create(b, loc, b.getI32Type());
        gpu::PrintfOp::create(b, loc, b.getStringAttr(fmt),
                              ValueRange{index, phase, cta, k.threadIdx()});
      });
      LLVM::Trap::create(b, loc);
    });
  });
}

//===----------------------------------------------------------------------===//
// Producer side
//===----------------------------------------------------------------------===//

Value ProtocolEmitter::emitProducerTryAcquire(OpBuilder &b, Location loc,
                                              PipelineLowering &p, TaskOp task,
                                              TaskCursors &cursors) {
  Cursor &c = cursors.producer;
  return probe(b, loc, p.emptyBarrier(b, loc, c.index), c.phase);
}

Value ProtocolEmitter::emitProducerAcquire(OpBuilder &b, Location loc,
                                           PipelineLowering &p, TaskOp task,
                                           TaskCursors &cursors, Value ready) {
  PipelineConfigAttr cfg = p.config;
  Cursor &c = cursors.producer;
  Value index = c.index;
  SignalingThreads sig = cfg.getProducerSignaling();
  bool isTma = cfg.getPipelineType() == PipelineType::TmaAsync;
  bool twl = bitEnumContainsAny(sig, SignalingThreads::TaskWarpLeader);
  // TMA producers with TaskWarpLeader wait on every CTA; the arm is gated.
  Value gate = (isTma && twl) ? Value() : ctaGate(b, loc, p, task, sig);

  emitIf(b, loc, gate, [&](OpBuilder &b) {
    waitParity(b, loc, p.emptyBarrier(b, loc, index), c.phase, ready,
               "empty barrier", task, p, index);
  });
  if (isTma) {
    // One elected thread per producer warp arms the full barrier with the
    // stage's transaction bytes; with TaskWarpLeader only the task's first
    // warp does.
    Value armGate = twl ? ctaGate(b, loc, p, task, sig) : gate;
    Value warpGate;
    if (twl)
      warpGate = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, k.warpIdx(),
          k.constI32(b, loc, task.getWarpIdx()));
    Value outer = armGate && warpGate
                      ? Value(arith::AndIOp::create(b, loc, armGate, warpGate))
                      : (armGate ? armGate : warpGate);
    emitIf(b, loc, outer, [&](OpBuilder &b) {
      Value elected = NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
      emitIf(b, loc, elected, [&](OpBuilder &b) {
        NVVM::MBarrierArriveExpectTxOp::create(
            b, loc, Type(), p.fullBarrier(b, loc, index),
            k.constI32(b, loc, cfg.getNumBytes()), NVVM::MemScopeKind::CTA,
            false, Value());
      });
    });
  }
  if (cfg.getAdvanceOnAcquire())
    advanceAfterGated(b, loc, c, cfg.getAcquireStride(), cfg.getNumStages(),
                      gate);
  return index;
}

void ProtocolEmitter::emitProducerCommit(OpBuilder &b, Location loc,
                                         PipelineLowering &p, TaskOp task,
                                         TaskCursors &cursors) {
  PipelineConfigAttr cfg = p.config;
  bool split = cfg.getAdvanceOnAcquire();
  Cursor &c = split ? cursors.producerCommit : cursors.producer;
  Value gate = ctaGate(b, loc, p, task, cfg.getProducerSignaling());
  if (cfg.getPipelineType() == PipelineType::AsyncAsync) {
    emitIf(b, loc, gate, [&](OpBuilder &b) {
      Value full = p.fullBarrier(b, loc, c.index);
      if (cfg.getAsyncProducerOp() == PipelineOpKind::AsyncLoad)
        // Arrives once this thread's earlier cp.async copies have landed;
        // .noinc: the init count already holds this arrival.
        NVVM::CpAsyncMBarrierArriveOp::create(b, loc, full,
                                              /*noinc=*/true);
      else
        NVVM::MBarrierArriveOp::create(b, loc, Type(), full, Value(),
                                       NVVM::MemScopeKind::CTA, false);
    });
  }
  // TmaAsync: the bulk copies complete the transaction bytes; no arrive.
  // State advance runs on every CTA (docs/Protocols.md, producer commit).
  advance(b, loc, c, split ? cfg.getCommitStride() : cfg.getAcquireStride(),
          cfg.getNumStages());
}

void ProtocolEmitter::emitProducerTail(OpBuilder &b, Location loc,
                                       PipelineLowering &p, TaskOp task,
                                       TaskCursors &cursors) {
  PipelineConfigAttr cfg = p.config;
  bool split = cfg.getAdvanceOnAcquire();
  Cursor &c = split ? cursors.producerCommit : cursors.producer;
  int64_t stride = split ? cfg.getCommitStride() : cfg.getAcquireStride();
  Value gate = ctaGate(b, loc, p, task, cfg.getProducerSignaling());
  // Each lane owns num_stages / stride stages; wait until all are released.
  for (int64_t i = 0, e = cfg.getNumStages() / stride; i < e; ++i) {
    Value index = c.index;
    Value phase = c.phase;
    emitIf(b, loc, gate, [&](OpBuilder &b) {
      waitParity(b, loc, p.emptyBarrier(b, loc, index), phase, Value(),
                 "empty barrier (producer tail)", task, p, index);
    });
    advance(b, loc, c, stride, cfg.getNumStages());
  }
}

//===----------------------------------------------------------------------===//
// Consumer side
//===----------------------------------------------------------------------===//

Value ProtocolEmitter::emitConsumerTryWait(OpBuilder &b, Location loc,
                                           PipelineLowering &p, TaskOp task,
                                           TaskCursors &cursors) {
  Cursor &c = cursors.consumer;
  return probe(b, loc, p.fullBarrier(b, loc, c.index), c.phase);
}

Value ProtocolEmitter::emitConsumerWait(OpBuilder &b, Location loc,
                                        PipelineLowering &p, TaskOp task,
                                        TaskCursors &cursors, Value ready) {
  PipelineConfigAttr cfg = p.config;
  Cursor &c = cursors.consumer;
  Value index = c.index;
  Value gate = ctaGate(b, loc, p, task, cfg.getEffectiveWaitSignaling());
  emitIf(b, loc, gate, [&](OpBuilder &b) {
    waitParity(b, loc, p.fullBarrier(b, loc, index), c.phase, ready,
               "full barrier", task, p, index);
  });
  if (cfg.getAdvanceOnWait())
    advanceAfterGated(b, loc, c, cfg.getWaitStride(), cfg.getNumStages(),
                      gate);
  return index;
}

void ProtocolEmitter::emitConsumerRelease(OpBuilder &b, Location loc,
                                          PipelineLowering &p, TaskOp task,
                                          TaskCursors &cursors) {
  PipelineConfigAttr cfg = p.config;
  bool split = cfg.getAdvanceOnWait();
  Cursor &c = split ? cursors.consumerRelease : cursors.consumer;
  Value gate = ctaGate(b, loc, p, task, cfg.getConsumerSignaling());
  Value signaling = gate;
  if (cfg.getPipelineType() == PipelineType::TmaAsync) {
    // The next fill of the stage is a bulk copy, a write of the async proxy;
    // the consumer read the stage through the generic proxy. Without a proxy
    // fence the copy may land before those reads have returned (measured on
    // an H200: a stage released right after its shared-memory loads, before
    // their values were used, came back holding the next tile). PTX ISA,
    // "Parallel Synchronization and Communication Instructions: membar /
    // fence" (fence.proxy.async).
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  }
  if (cfg.getPipelineType() == PipelineType::TmaAsync && !p.allThreadRelease) {
    // Single CTA: lane 0 of each consumer warp arrives once, for the whole
    // warp, so every lane must be done reading the stage first.
    NVVM::SyncWarpOp::create(b, loc, k.constI32(b, loc, -1));
    Value lane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        k.laneIdx(), k.constI32(b, loc, 0));
    signaling = gate ? Value(arith::AndIOp::create(b, loc, gate, lane0))
                     : lane0;
  }
  Value index = c.index;
  emitIf(b, loc, signaling, [&](OpBuilder &b) {
    NVVM::MBarrierArriveOp::create(b, loc, Type(),
                                   p.emptyBarrier(b, loc, index), Value(),
                                   NVVM::MemScopeKind::CTA, false);
  });
  // The release cursor (or the shared one) moves by the release stride.
  int64_t stride = cfg.getReleaseStride();
  advanceAfterGated(b, loc, c, stride, cfg.getNumStages(), gate);
}
