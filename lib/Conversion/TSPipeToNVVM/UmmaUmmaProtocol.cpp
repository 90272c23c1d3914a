//===- UmmaUmmaProtocol.cpp - UmmaUmma bracket sequences ------------------===//
//
// tcgen05 work (MMA, UTCCP) fills a stage and tcgen05 work drains it
// (docs/Protocols.md, UmmaUmma; ts-semantics 2.6). `pair` is the mask of
// both CTAs of this CTA's pair (Tcgen05.h).
//
//   bracket  | emitted
//   acquire  | WAIT E[p]
//   commit   | one elected thread per warp: tcgen05.commit cta_group::{1,2}
//            | F[p] (multicast to `pair` when V = 2)
//   wait     | WAIT F[c]
//   release  | one elected thread per warp: tcgen05.commit cta_group::{1,2}
//            | E[c] (multicast to `pair` when V = 2)
//   tail     | num_stages x WAIT E[p]
//
//===----------------------------------------------------------------------===//

#include "Tcgen05.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

class UmmaUmmaProtocol final : public PipelineProtocol {
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
      Value mask = cfg.getV() > 1 ? tcgen05::pairMask(ctx) : Value();
      tcgen05::electCommit(ctx, ctx.fullBarrier(index), mask, Value());
    });
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

const PipelineProtocol &mlir::tspipe::getUmmaUmmaProtocol() {
  static const UmmaUmmaProtocol protocol;
  return protocol;
}
