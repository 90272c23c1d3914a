//===- AsyncUmmaProtocol.cpp - AsyncUmma bracket sequences ----------------===//
//
// Threads (or their cp.async copies) fill a stage, tcgen05 MMAs drain it
// (docs/Protocols.md, AsyncUmma; ts-semantics 2.5). `pair` is the mask of
// both CTAs of this CTA's pair (Tcgen05.h).
//
//   bracket  | emitted
//   acquire  | WAIT E[p]
//   commit   | async_thread: every thread ARRIVE F[p] (V = 1), or mapa to
//            | the pair leader + ARRIVE.shared::cluster on its F[p] (V = 2);
//            | async_load: every thread cp.async.mbarrier.arrive.noinc F[p]
//   wait     | WAIT F[c]
//   release  | one elected thread per warp: tcgen05.commit
//            | cta_group::{1,2} E[c] (multicast to `pair` when V = 2)
//   tail     | num_stages / stride x WAIT E[p]
//
//===----------------------------------------------------------------------===//

#include "Tcgen05.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

class AsyncUmmaProtocol final : public PipelineProtocol {
public:
  LogicalResult checkSupported(PipelineOp pipe) const override {
    return tcgen05::checkSupported(pipe);
  }

  void commit(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    auto [c, stride] = commitCursor(ctx);
    Value gate = ctx.ctaGate(cfg.getProducerSignaling());
    Value index = c->index;
    ctx.emitIf(gate, [&] {
      Value full = ctx.fullBarrier(index);
      if (cfg.getUmmaConsumerProducerOp() == PipelineOpKind::AsyncLoad)
        // Local: arrives once this thread's earlier cp.async copies have
        // landed; .noinc, the init count already holds this arrival.
        NVVM::CpAsyncMBarrierArriveOp::create(ctx.b, ctx.loc, full,
                                              /*noinc=*/true);
      else
        // The pair's MMA runs on the leader and waits on its F.
        ctx.arriveOnPairLeader(full);
    });
    // The state advance runs on every CTA (docs/Protocols.md, Cursors).
    ctx.advance(*c, stride);
  }

  void release(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    Cursor &c = cfg.getAdvanceOnWait() ? ctx.cursors.consumerRelease
                                       : ctx.cursors.consumer;
    Value gate = ctx.ctaGate(cfg.getConsumerSignaling());
    Value index = c.index;
    ctx.emitIf(gate, [&] {
      Value mask = cfg.getV() > 1 ? tcgen05::pairMask(ctx) : Value();
      tcgen05::electCommit(ctx, ctx.emptyBarrier(index), mask, Value());
    });
    ctx.advanceAfterGated(c, cfg.getReleaseStride(), gate);
  }
};

} // namespace

const PipelineProtocol &mlir::tspipe::getAsyncUmmaProtocol() {
  static const AsyncUmmaProtocol protocol;
  return protocol;
}
