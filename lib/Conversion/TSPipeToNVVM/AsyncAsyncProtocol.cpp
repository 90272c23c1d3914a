//===- AsyncAsyncProtocol.cpp - AsyncAsync bracket sequences --------------===//
//
// Threads (or their cp.async copies) fill a stage, threads drain it
// (docs/Protocols.md, AsyncAsync). WAIT is a parity wait with the cursor's
// phase; every bracket may be CtaLeader-gated.
//
//   bracket  | emitted
//   acquire  | WAIT E[p]
//   commit   | ARRIVE F[p] (async_thread) or cp.async.mbarrier.arrive.noinc
//            | F[p] (async_load)
//   wait     | WAIT F[c]
//   release  | ARRIVE E[c] (every thread)
//   tail     | num_stages / stride x WAIT E[p]
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

class AsyncAsyncProtocol final : public PipelineProtocol {
public:
  void commit(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    auto [c, stride] = commitCursor(ctx);
    Value gate = ctx.ctaGate(cfg.getProducerSignaling());
    ctx.emitIf(gate, [&] {
      Value full = ctx.fullBarrier(c->index);
      if (cfg.getAsyncProducerOp() == PipelineOpKind::AsyncLoad)
        // Arrives once this thread's earlier cp.async copies have landed;
        // .noinc: the init count already holds this arrival.
        NVVM::CpAsyncMBarrierArriveOp::create(ctx.b, ctx.loc, full,
                                              /*noinc=*/true);
      else
        NVVM::MBarrierArriveOp::create(ctx.b, ctx.loc, Type(), full, Value(),
                                       NVVM::MemScopeKind::CTA, false);
    });
    // The state advance runs on every CTA (docs/Protocols.md, Cursors).
    ctx.advance(*c, stride);
  }

  void release(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    Cursor &c = ctx.cursors.of(cfg, BracketRole::Release);
    Value gate = ctx.ctaGate(cfg.getConsumerSignaling());
    Value index = c.index;
    ctx.emitIf(gate, [&] {
      NVVM::MBarrierArriveOp::create(ctx.b, ctx.loc, Type(),
                                     ctx.emptyBarrier(index), Value(),
                                     NVVM::MemScopeKind::CTA, false);
    });
    ctx.advanceAfterGated(c, cfg.getReleaseStride(), gate);
  }
};

} // namespace

const PipelineProtocol &mlir::tspipe::getAsyncAsyncProtocol() {
  static const AsyncAsyncProtocol protocol;
  return protocol;
}
