//===- Tcgen05Helpers.cpp - what the tcgen05 protocols share --------------===//
//
// cta_group, multicast masks and the elected tcgen05.commit
// of the TmaUmma, UmmaAsync, AsyncUmma and UmmaUmma protocols (Tcgen05.h).
//
//===----------------------------------------------------------------------===//

#include "Tcgen05.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::tspipe;

NVVM::CTAGroupKind tcgen05::ctaGroup(PipelineConfigAttr cfg) {
  return cfg.getV() == 2 ? NVVM::CTAGroupKind::CTA_2
                         : NVVM::CTAGroupKind::CTA_1;
}

/// `pattern << shift` truncated to the 16-bit mask operand.
static Value shiftedMask(BracketContext &ctx, int64_t pattern, Value shift) {
  Value wide =
      arith::ShLIOp::create(ctx.b, ctx.loc, ctx.constI32(pattern), shift);
  return arith::TruncIOp::create(ctx.b, ctx.loc, ctx.b.getI16Type(), wide);
}

Value tcgen05::pairMask(BracketContext &ctx) {
  int64_t v = ctx.config().getV();
  Value rank = ctx.kernel.ctaRank(ctx.b, ctx.loc);
  // The pair leader's rank: rank rounded down to a multiple of V.
  Value inPair = arith::RemUIOp::create(ctx.b, ctx.loc, rank, ctx.constI32(v));
  Value leader = arith::SubIOp::create(ctx.b, ctx.loc, rank, inPair);
  return shiftedMask(ctx, (int64_t(1) << v) - 1, leader);
}

Value tcgen05::multicastMask(BracketContext &ctx) {
  PipelineConfigAttr cfg = ctx.config();
  int64_t v = cfg.getV(), m = cfg.getM(), n = cfg.getN();
  ArrayRef<int64_t> mcast = cfg.getMcastModeMn();
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value rank = ctx.kernel.ctaRank(b, loc);
  // q = m + M * (n + N * l): the pair index of this CTA.
  Value q = arith::DivUIOp::create(b, loc, rank, ctx.constI32(v));
  int64_t pairBits = (int64_t(1) << v) - 1;
  Value mask;
  auto unite = [&](Value part) {
    mask = mask ? arith::OrIOp::create(b, loc, mask, part).getResult() : part;
  };
  if (mcast[0]) {
    // This CTA's M row: same (m, l), every n. Its lowest rank is
    // V * (m + M * N * l); the row repeats the pair bits every V * M ranks.
    int64_t row = 0;
    for (int64_t i = 0; i < n; ++i)
      row |= pairBits << (v * m * i);
    Value mIdx = arith::RemUIOp::create(b, loc, q, ctx.constI32(m));
    Value lIdx = arith::DivUIOp::create(b, loc, q, ctx.constI32(m * n));
    Value first = arith::AddIOp::create(
        b, loc, mIdx, arith::MulIOp::create(b, loc, lIdx, ctx.constI32(m * n)));
    Value shift = arith::MulIOp::create(b, loc, first, ctx.constI32(v));
    unite(shiftedMask(ctx, row, shift));
  }
  if (mcast[1]) {
    // This CTA's N column: same (n, l), every m: V * M consecutive ranks
    // starting at V * M * (n + N * l).
    int64_t column = (int64_t(1) << (v * m)) - 1;
    Value nl = arith::DivUIOp::create(b, loc, q, ctx.constI32(m));
    Value shift = arith::MulIOp::create(b, loc, nl, ctx.constI32(v * m));
    unite(shiftedMask(ctx, column, shift));
  }
  return mask;
}

void tcgen05::electCommit(BracketContext &ctx, Value barrier, Value mask,
                          Value gate) {
  NVVM::CTAGroupKind group = ctaGroup(ctx.config());
  ctx.emitIf(gate, [&] {
    Value elected =
        NVVM::ElectSyncOp::create(ctx.b, ctx.loc, ctx.b.getI1Type(), Value());
    ctx.emitIf(elected, [&] {
      NVVM::Tcgen05CommitOp::create(
          ctx.b, ctx.loc, barrier, mask,
          NVVM::CTAGroupKindAttr::get(ctx.b.getContext(), group));
    });
  });
}

/// The mask operand of `mask`, built at the insertion point (inside the
/// bracket's gate); null for CommitMask::None.
static Value buildMask(BracketContext &ctx, tcgen05::CommitMask mask) {
  switch (mask) {
  case tcgen05::CommitMask::None:
    return Value();
  case tcgen05::CommitMask::Pair:
    return tcgen05::pairMask(ctx);
  case tcgen05::CommitMask::Multicast:
    return tcgen05::multicastMask(ctx);
  }
  llvm_unreachable("unknown commit mask");
}

void tcgen05::commitFull(BracketContext &ctx, CommitMask mask) {
  PipelineConfigAttr cfg = ctx.config();
  auto [c, stride] = PipelineProtocol::commitCursor(ctx);
  Value gate = ctx.ctaGate(cfg.getProducerSignaling());
  Value index = c->index;
  ctx.emitIf(gate, [&] {
    electCommit(ctx, ctx.fullBarrier(index), buildMask(ctx, mask), Value());
  });
  ctx.advance(*c, stride);
}

void tcgen05::releaseEmpty(BracketContext &ctx, CommitMask mask) {
  PipelineConfigAttr cfg = ctx.config();
  Cursor &c = ctx.cursors.of(cfg, BracketRole::Release);
  Value gate = ctx.ctaGate(cfg.getConsumerSignaling());
  Value index = c.index;
  ctx.emitIf(gate, [&] {
    electCommit(ctx, ctx.emptyBarrier(index), buildMask(ctx, mask), Value());
  });
  ctx.advanceAfterGated(c, cfg.getReleaseStride(), gate);
}
