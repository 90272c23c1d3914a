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
//   tail     | num_stages x WAIT E[p] on every CTA (also the non-leader CTA
//            | of a pair: the release commits reach its E too)
//
//===----------------------------------------------------------------------===//

#include "Tcgen05.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

class UmmaUmmaProtocol final : public PipelineProtocol {
public:
  Value drainGate(BracketContext &ctx) const override {
    return tcgen05::drainOnEveryCta(ctx);
  }

  void commit(BracketContext &ctx) const override {
    tcgen05::commitFull(ctx, pairOrNone(ctx));
  }

  void release(BracketContext &ctx) const override {
    tcgen05::releaseEmpty(ctx, pairOrNone(ctx));
  }

private:
  /// With V = 2 both commits reach both CTAs of the pair.
  static tcgen05::CommitMask pairOrNone(BracketContext &ctx) {
    return ctx.config().getV() > 1 ? tcgen05::CommitMask::Pair
                                   : tcgen05::CommitMask::None;
  }
};

} // namespace

const PipelineProtocol &mlir::tspipe::getUmmaUmmaProtocol() {
  static const UmmaUmmaProtocol protocol;
  return protocol;
}
