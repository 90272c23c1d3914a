//===- TmaUmmaProtocol.cpp - TmaUmma bracket sequences --------------------===//
//
// A TMA copy fills a stage, tcgen05 MMAs drain it (docs/Protocols.md,
// TmaUmma; ts-semantics 2.3). `lead` is the MMA leader CTA, rank % V == 0
// (every CTA when V = 1); `mask` the multicast mask of Tcgen05.h.
//
//   bracket  | emitted
//   acquire  | every producer warp on every CTA: WAIT E[p]; on `lead` (and
//            | the task's first warp with task_warp_leader) one elected
//            | thread per warp: ARRIVE.EXPECT_TX F[p], num_bytes
//   commit   | nothing (the copies complete the bytes); the cursor advances
//   wait     | WAIT F[c] (CtaLeader-gated)
//   release  | one elected thread per warp: tcgen05.commit
//            | cta_group::{1,2} E[c] (multicast to `mask` when T > 1)
//   tail     | num_stages / stride x WAIT E[p] on every CTA (also the
//   non-leader CTA
//            | of a pair: the release commits reach its E too)
//
//===----------------------------------------------------------------------===//

#include "Tcgen05.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

class TmaUmmaProtocol final : public PipelineProtocol {
public:
  Value drainGate(BracketContext &ctx) const override {
    return tcgen05::drainOnEveryCta(ctx);
  }

  Value acquire(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    Cursor &c = ctx.cursors.producer;
    Value index = c.index;
    // TS never gates a TmaUmma acquire: every producer warp of every CTA
    // waits for the stage to be empty.
    waitEmpty(ctx, index, Value());
    // Only the MMA leader CTA of a pair arms the full barrier; the peer's
    // copy completes its bytes there (num_bytes counts both CTAs, R56).
    Value lead;
    if (cfg.getV() > 1) {
      Value rank = ctx.kernel.ctaRank(ctx.b, ctx.loc);
      Value inPair = arith::RemUIOp::create(ctx.b, ctx.loc, rank,
                                            ctx.constI32(cfg.getV()));
      lead = arith::CmpIOp::create(ctx.b, ctx.loc, arith::CmpIPredicate::eq,
                                   inPair, ctx.constI32(0));
    }
    bool twl = bitEnumContainsAny(cfg.getProducerSignaling(),
                                  SignalingThreads::TaskWarpLeader);
    ctx.armFullElected(index, ctx.andGates(lead, ctx.firstWarpGate(twl)));
    if (cfg.getAdvanceOnAcquire())
      ctx.advance(c, cfg.getAcquireStride());
    return index;
  }

  void commit(BracketContext &ctx) const override {
    // The copies complete the transaction bytes; no arrive.
    auto [c, stride] = commitCursor(ctx);
    ctx.advance(*c, stride);
  }

  void release(BracketContext &ctx) const override {
    // The consumer bracket also read the stage with loads (generic proxy)
    // before the next TMA fill writes it (ProxyFences.cpp; DeepGEMM PR
    // 389).
    if (ctx.pipeline.fenceBeforeRelease)
      ctx.fenceAsyncProxy();
    tcgen05::releaseEmpty(ctx, ctx.config().getClusterSize() > 1
                                   ? tcgen05::CommitMask::Multicast
                                   : tcgen05::CommitMask::None);
  }
};

} // namespace

const PipelineProtocol &mlir::tspipe::getTmaUmmaProtocol() {
  static const TmaUmmaProtocol protocol;
  return protocol;
}
