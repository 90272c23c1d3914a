//===- ProtocolHelpers.cpp - what every pipeline protocol shares ----------===//
//
// The helpers of `BracketContext` (CTA gate, probe, parity wait, cursor
// advance, emitIf) and the default brackets of `PipelineProtocol`: the try
// forms, the consumer wait and the producer drain, which are the same for
// every type (docs/Protocols.md, Cursors, Producer drain, Blocking waits).
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

/// Drains of up to this many waits are emitted straight-line, longer ones
/// as a loop (see kUnrolledStages in KernelLowering.cpp for the inits).
static constexpr int64_t kUnrolledStages = 8;

//===----------------------------------------------------------------------===//
// BracketContext
//===----------------------------------------------------------------------===//

Value BracketContext::constI32(int64_t v) { return kernel.constI32(b, loc, v); }

void BracketContext::emitIf(Value cond, function_ref<void()> body) {
  if (!cond) {
    body();
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  body();
}

Value BracketContext::andGates(Value x, Value y) {
  if (x && y)
    return arith::AndIOp::create(b, loc, x, y);
  return x ? x : y;
}

Value BracketContext::firstWarpGate(bool taskWarpLeader) {
  if (!taskWarpLeader)
    return Value();
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                               kernel.warpIdx(), constI32(task.getWarpIdx()));
}

void BracketContext::expectTx(Value index) {
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, Type(), fullBarrier(index), constI32(pipeline.txBytes),
      NVVM::MemScopeKind::CTA, false, Value());
}

void BracketContext::fenceAsyncProxy() {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

void BracketContext::armFullElected(Value index, Value gate) {
  if (!pipeline.armsFull)
    return;
  emitIf(gate, [&] {
    Value elected = NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
    emitIf(elected, [&] { expectTx(index); });
  });
}

Value BracketContext::ctaRank() { return kernel.ctaRank(b, loc); }

Value BracketContext::mapaToCta(Value localBarrier, Value rank) {
  auto clusterPtr = LLVM::LLVMPointerType::get(
      b.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  return NVVM::MapaOp::create(b, loc, clusterPtr, localBarrier, rank);
}

NVVM::MemScopeKind BracketContext::remoteArriveScope() {
  switch (pipeline.op.getEffectiveRemoteArriveScope()) {
  case RemoteArriveScope::Cta:
    return NVVM::MemScopeKind::CTA;
  case RemoteArriveScope::Cluster:
    return NVVM::MemScopeKind::CLUSTER;
  }
  llvm_unreachable("unknown RemoteArriveScope");
}

void BracketContext::remoteArrive(Value localBarrier, Value rank) {
  Value remote = mapaToCta(localBarrier, rank);
  NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(),
                                 remoteArriveScope(), false);
}

void BracketContext::remoteArriveExpectTx(Value localBarrier, Value rank,
                                          int64_t bytes) {
  Value remote = mapaToCta(localBarrier, rank);
  NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), remote,
                                         constI32(bytes), remoteArriveScope(),
                                         false, Value());
}

std::array<Value, 4> BracketContext::ctaCoords(Value rank) {
  std::array<Value, 4> coords;
  ArrayRef<int64_t> extents = config().getCtaLayoutVmnk();
  Value rest = rank;
  for (unsigned i = 0; i < 4; ++i) {
    if (i == 3) {
      coords[i] = rest;
      break;
    }
    Value extent = constI32(extents[i]);
    coords[i] = arith::RemUIOp::create(b, loc, rest, extent);
    rest = arith::DivUIOp::create(b, loc, rest, extent);
  }
  return coords;
}

Value BracketContext::ctaGate(SignalingThreads signaling) {
  if (!bitEnumContainsAny(signaling, SignalingThreads::CtaLeader) ||
      task.getRunOnlyOnCtaId() || config().getClusterSize() == 1)
    return Value();
  Value rank = kernel.ctaRank(b, loc);
  int64_t v = config().getV();
  if (v == 1) // every CTA is its own V-group leader
    return Value();
  Value rem = arith::RemUIOp::create(b, loc, rank, constI32(v));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                               constI32(0));
}

void BracketContext::arriveOnPairLeader(Value barrier) {
  int64_t v = config().getV();
  if (v == 1) {
    NVVM::MBarrierArriveOp::create(b, loc, Type(), barrier, Value(),
                                   NVVM::MemScopeKind::CTA, false);
    return;
  }
  Value rank = ctaRank();
  Value inPair = arith::RemUIOp::create(b, loc, rank, constI32(v));
  remoteArrive(barrier, arith::SubIOp::create(b, loc, rank, inPair));
}

void BracketContext::advance(Cursor &cursor, int64_t stride, Value gate) {
  int64_t numStages = config().getNumStages();
  Value next = arith::AddIOp::create(b, loc, cursor.index, constI32(stride));
  Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, next,
                                      constI32(numStages));
  Value wrapped = arith::SubIOp::create(b, loc, next, constI32(numStages));
  Value index = arith::SelectOp::create(b, loc, wraps, wrapped, next);
  Value flipped = arith::XOrIOp::create(b, loc, cursor.phase, constI32(1));
  Value phase = arith::SelectOp::create(b, loc, wraps, flipped, cursor.phase);
  if (gate) {
    index = arith::SelectOp::create(b, loc, gate, index, cursor.index);
    phase = arith::SelectOp::create(b, loc, gate, phase, cursor.phase);
  }
  cursor = {index, phase};
}

void BracketContext::advanceAfterGated(Cursor &cursor, int64_t stride,
                                       Value gate) {
  advance(cursor, stride, stride > 1 ? Value() : gate);
}

Value BracketContext::probe(Value barrier, Value phase) {
  return NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(), barrier, phase,
                                         Value(), NVVM::MemScopeKind::CTA,
                                         false);
}

void BracketContext::waitParity(Value barrier, Value phase, Value ready,
                                StringRef what, Value index) {
  Value notReady;
  if (ready) {
    Value t = arith::ConstantIntOp::create(b, loc, 1, 1);
    notReady = arith::XOrIOp::create(b, loc, ready, t);
  }
  emitIf(notReady, [&] {
    int64_t limit = kernel.getHangTimeout();
    if (limit <= 0) {
      NVVM::MBarrierTryWaitParityOp::create(b, loc, barrier, phase,
                                            constI32(kWaitTicks));
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
      Block *before =
          b.createBlock(&loop.getBefore(), {}, {i64, i1}, {loc, loc});
      Value polls = before->getArgument(0);
      Value done = probe(barrier, phase);
      Value notDone = arith::XOrIOp::create(
          b, loc, done, arith::ConstantIntOp::create(b, loc, 1, 1));
      Value budget = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, polls,
          arith::ConstantIntOp::create(b, loc, limit, 64));
      Value more = arith::AndIOp::create(b, loc, notDone, budget);
      scf::ConditionOp::create(b, loc, more, ValueRange{polls, done});
      Block *after = b.createBlock(&loop.getAfter(), {}, {i64, i1}, {loc, loc});
      Value next =
          arith::AddIOp::create(b, loc, after->getArgument(0),
                                arith::ConstantIntOp::create(b, loc, 1, 64));
      scf::YieldOp::create(b, loc, ValueRange{next, after->getArgument(1)});
    }
    Value done = loop.getResult(1);
    Value hung = arith::XOrIOp::create(
        b, loc, done, arith::ConstantIntOp::create(b, loc, 1, 1));
    emitIf(hung, [&] {
      // Names are pasted into the printf format: a `%` in a (quoted)
      // symbol name would be read as a conversion, so it is doubled.
      auto escaped = [](StringRef text) {
        std::string out;
        for (char ch : text) {
          out += ch;
          if (ch == '%')
            out += '%';
        }
        return out;
      };
      std::string fmt = "tspipe: hang in task @" + escaped(task.getSymName()) +
                        " waiting on @" + escaped(pipeline.op.getSymName()) +
                        " " + escaped(what) +
                        " stage %d phase %d (cta %d, thread %d)\n";
      // One report per warp (its lane 0), then every thread traps.
      Value lane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          kernel.laneIdx(), constI32(0));
      emitIf(lane0, [&] {
        Value cta = NVVM::BlockIdXOp::create(b, loc, b.getI32Type());
        gpu::PrintfOp::create(
            b, loc, b.getStringAttr(fmt),
            ValueRange{index, phase, cta, kernel.threadIdx()});
      });
      LLVM::Trap::create(b, loc);
    });
  });
}

//===----------------------------------------------------------------------===//
// PipelineProtocol defaults
//===----------------------------------------------------------------------===//

void PipelineProtocol::waitEmpty(BracketContext &ctx, Value index, Value gate) {
  Cursor &c = ctx.cursors.producer;
  ctx.emitIf(gate, [&] {
    ctx.waitParity(ctx.emptyBarrier(index), c.phase, ctx.ready, "empty barrier",
                   index);
  });
}

std::pair<Cursor *, int64_t>
PipelineProtocol::commitCursor(BracketContext &ctx) {
  PipelineConfigAttr cfg = ctx.config();
  return {&ctx.cursors.of(cfg, BracketRole::Commit),
          getCommitCursorStride(cfg)};
}

std::pair<Cursor *, int64_t>
PipelineProtocol::drainCursor(BracketContext &ctx) {
  PipelineConfigAttr cfg = ctx.config();
  StringRef name = ctx.pipeline.op.getSymName();
  bool commits = false;
  ctx.task.walk([&](ProducerCommitOp commit) {
    if (llvm::is_contained(getBracketPipelines(commit), name)) {
      commits = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return {&ctx.cursors.get(getDrainCursor(cfg, commits)),
          getDrainStride(cfg, commits)};
}

Value PipelineProtocol::acquire(BracketContext &ctx) const {
  PipelineConfigAttr cfg = ctx.config();
  Cursor &c = ctx.cursors.producer;
  Value index = c.index;
  Value gate = ctx.ctaGate(cfg.getProducerSignaling());
  waitEmpty(ctx, index, gate);
  if (cfg.getAdvanceOnAcquire())
    ctx.advanceAfterGated(c, cfg.getAcquireStride(), gate);
  return index;
}

Value PipelineProtocol::tryAcquire(BracketContext &ctx) const {
  Cursor &c = ctx.cursors.producer;
  return ctx.probe(ctx.emptyBarrier(c.index), c.phase);
}

Value PipelineProtocol::drainGate(BracketContext &ctx) const {
  return ctx.ctaGate(ctx.config().getProducerSignaling());
}

void PipelineProtocol::producerTail(BracketContext &ctx) const {
  PipelineConfigAttr cfg = ctx.config();
  auto [c, stride] = drainCursor(ctx);
  Value gate = drainGate(ctx);
  // Each lane owns num_stages / stride stages; wait until all are released.
  int64_t waits = cfg.getNumStages() / stride;
  auto waitAndAdvance = [&](Cursor &cursor) {
    Value index = cursor.index;
    Value phase = cursor.phase;
    ctx.emitIf(gate, [&] {
      ctx.waitParity(ctx.emptyBarrier(index), phase, Value(),
                     "empty barrier (producer tail)", index);
    });
    ctx.advance(cursor, stride);
  };
  if (waits <= kUnrolledStages) {
    for (int64_t i = 0; i < waits; ++i)
      waitAndAdvance(*c);
    return;
  }
  // Beyond that, an i32 loop carrying the cursor, so that code size and
  // lowering time do not grow with num_stages.
  OpBuilder &b = ctx.b;
  auto loop = scf::ForOp::create(
      b, ctx.loc, ctx.constI32(0), ctx.constI32(cfg.getNumStages() / stride),
      ctx.constI32(1), ValueRange{c->index, c->phase});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Cursor cursor{loop.getRegionIterArgs()[0], loop.getRegionIterArgs()[1]};
    waitAndAdvance(cursor);
    scf::YieldOp::create(b, ctx.loc, ValueRange{cursor.index, cursor.phase});
  }
  *c = {loop.getResult(0), loop.getResult(1)};
}

Value PipelineProtocol::tryWait(BracketContext &ctx) const {
  Cursor &c = ctx.cursors.consumer;
  return ctx.probe(ctx.fullBarrier(c.index), c.phase);
}

Value PipelineProtocol::wait(BracketContext &ctx) const {
  PipelineConfigAttr cfg = ctx.config();
  Cursor &c = ctx.cursors.consumer;
  Value index = c.index;
  Value gate = ctx.ctaGate(cfg.getEffectiveWaitSignaling());
  ctx.emitIf(gate, [&] {
    ctx.waitParity(ctx.fullBarrier(index), c.phase, ctx.ready, "full barrier",
                   index);
  });
  if (cfg.getAdvanceOnWait())
    ctx.advanceAfterGated(c, cfg.getWaitStride(), gate);
  return index;
}
