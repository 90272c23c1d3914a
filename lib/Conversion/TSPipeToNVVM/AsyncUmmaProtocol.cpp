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
//   tail     | num_stages / stride x WAIT E[p] on every CTA (also the
//   non-leader CTA
//            | of a pair: the release commits reach its E too)
//
//===----------------------------------------------------------------------===//

#include "Tcgen05.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

class AsyncUmmaProtocol final : public PipelineProtocol {
public:
  Value drainGate(BracketContext &ctx) const override {
    return tcgen05::drainOnEveryCta(ctx);
  }

  void commit(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    auto [c, stride] = commitCursor(ctx);
    // The MMA reads the operands through the async proxy: the producer
    // threads' generic writes are fenced first (ProxyFences.cpp; FlashKDA
    // issue 24).
    if (ctx.pipeline.fenceBeforeCommit)
      ctx.fenceAsyncProxy();
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
    tcgen05::releaseEmpty(ctx, ctx.config().getV() > 1
                                   ? tcgen05::CommitMask::Pair
                                   : tcgen05::CommitMask::None);
  }
};

} // namespace

const PipelineProtocol &mlir::tspipe::getAsyncUmmaProtocol() {
  static const AsyncUmmaProtocol protocol;
  return protocol;
}
