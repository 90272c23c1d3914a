//===- UmmaAsyncProtocol.cpp - UmmaAsync bracket sequences ----------------===//
//
// tcgen05 MMAs fill a stage (e.g. a TMEM accumulator), threads drain it
// (docs/Protocols.md, UmmaAsync; ts-semantics 2.4). `pair` is the mask of
// both CTAs of this CTA's pair (Tcgen05.h).
//
//   bracket  | emitted
//   acquire  | WAIT E[p] (CtaLeader-gated)
//   commit   | one elected thread per warp: tcgen05.commit cta_group::{1,2}
//            | F[p] (multicast to `pair` when T > 1)
//   wait     | WAIT F[c] on every CTA
//   release  | every thread: ARRIVE E[c] (V = 1), or mapa to the pair
//            | leader + ARRIVE.shared::cluster on its E[c] (V = 2)
//   tail     | on pair leaders only: advance num_stages - 1 times, then one
//            | WAIT E[p]
//
//===----------------------------------------------------------------------===//

#include "Tcgen05.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

class UmmaAsyncProtocol final : public PipelineProtocol {
public:
  void commit(BracketContext &ctx) const override {
    // In a cluster the commit reaches both CTAs of the pair (ts-semantics
    // 2.4: the producer mask is the pair's whenever T > 1).
    tcgen05::commitFull(ctx, ctx.config().getClusterSize() > 1
                                 ? tcgen05::CommitMask::Pair
                                 : tcgen05::CommitMask::None);
  }

  void release(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    Cursor &c = ctx.cursors.of(cfg, BracketRole::Release);
    Value gate = ctx.ctaGate(cfg.getConsumerSignaling());
    Value index = c.index;
    // With V = 2 the producer waits on the pair leader's empty barrier, so
    // both CTAs' consumers arrive there.
    ctx.emitIf(gate, [&] { ctx.arriveOnPairLeader(ctx.emptyBarrier(index)); });
    ctx.advanceAfterGated(c, cfg.getReleaseStride(), gate);
  }

  /// Only the pair leaders acquire, so only they drain: the cursor moves to
  /// the last committed stage (num_stages - 1 advances) and one wait on its
  /// empty barrier covers every stage, since the consumers release in
  /// order (ts-semantics 2.4). TS gates on rank % 2 == 0; with V = 1 every
  /// CTA drains here (each acquires its own ring).
  void producerTail(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    auto [c, stride] = drainCursor(ctx);
    Value gate;
    if (cfg.getV() > 1) {
      Value rank = ctx.kernel.ctaRank(ctx.b, ctx.loc);
      Value inPair = arith::RemUIOp::create(ctx.b, ctx.loc, rank,
                                            ctx.constI32(cfg.getV()));
      gate = arith::CmpIOp::create(ctx.b, ctx.loc, arith::CmpIPredicate::eq,
                                   inPair, ctx.constI32(0));
    }
    for (int64_t i = 0, e = cfg.getNumStages() - 1; i < e; ++i)
      ctx.advance(*c, stride);
    Value index = c->index;
    Value phase = c->phase;
    ctx.emitIf(gate, [&] {
      ctx.waitParity(ctx.emptyBarrier(index), phase, Value(),
                     "empty barrier (producer tail)", index);
    });
  }
};

} // namespace

const PipelineProtocol &mlir::tspipe::getUmmaAsyncProtocol() {
  static const UmmaAsyncProtocol protocol;
  return protocol;
}
