//===- Tcgen05.h - what the tcgen05 protocols share -------------*- C++ -*-===//
//
// Internal to the TSPipeToNVVM conversion. The four pipeline types with a
// tcgen05 side (TmaUmma, UmmaAsync, AsyncUmma, UmmaUmma) share their target
// requirement, their `cta_group`, the multicast masks of `tcgen05.commit`
// and the elected commit itself (docs/Protocols.md, tcgen05 commits).
//
// CTA coordinates: a CTA of rank r in its cluster (`%cluster_ctarank`) has
// the (v, m, n, l) coordinates of `cta_layout_vmnk = [V, M, N, L]` with V
// fastest: r = v + V * (m + M * (n + N * l)). Bit r of a 16-bit multicast
// mask names the CTA of rank r (PTX ISA, tcgen05.commit).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_CONVERSION_TSPIPETONVVM_TCGEN05_H
#define TSPIPE_LIB_CONVERSION_TSPIPETONVVM_TCGEN05_H

#include "Protocol.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tspipe::tcgen05 {

/// `cta_group::2` when V = 2 (the MMA of a CTA pair), else `cta_group::1`.
NVVM::CTAGroupKind ctaGroup(PipelineConfigAttr cfg);

/// The i16 mask of the issuing CTA's pair: both CTAs of its V-group,
/// `((1 << V) - 1) << (rank - rank % V)`, computed from the CTA rank at run
/// time (field bug B4: never a constant).
Value pairMask(BracketContext &ctx);

/// The i16 TmaUmma multicast mask: the CTAs sharing this CTA's M row
/// (for `mcast_mode_mn[0]`, N varies) and N column (for `mcast_mode_mn[1]`,
/// M varies), each with both CTAs of their pair (ts-semantics 2.3).
Value multicastMask(BracketContext &ctx);

/// One elected thread of each calling warp: `tcgen05.commit` of the
/// calling thread's earlier tcgen05 operations to `barrier`, with the
/// pipeline's `cta_group`, multicast to `mask` when given. Runs under
/// `gate` when given.
void electCommit(BracketContext &ctx, Value barrier, Value mask, Value gate);

/// Which CTAs a tcgen05.commit signals: this CTA only (no multicast), both
/// CTAs of this CTA's pair (`pairMask`), or the TmaUmma multicast set
/// (`multicastMask`).
enum class CommitMask { None, Pair, Multicast };

/// The drain gate of a type whose consumer is tcgen05 work (TmaUmma,
/// AsyncUmma, UmmaUmma): none. With V = 2 the release commit reaches the
/// empty barriers of both CTAs of the pair (and the pair's MMAs read both
/// CTAs' stages), so every CTA waits for its own empty barriers before it
/// exits, the non-leader CTA included, as TS does (field bug B17; the
/// cursor advances on every CTA, so the parities match the leader's).
inline Value drainOnEveryCta(BracketContext &) { return Value(); }

/// producer_commit of a type whose producer is tcgen05 work (UmmaAsync,
/// UmmaUmma): under the producer's CtaLeader gate, the elected commit to
/// F[p] (or F[pc]) with `mask`; the cursor then advances on every CTA
/// (docs/Protocols.md, Cursors).
void commitFull(BracketContext &ctx, CommitMask mask);

/// consumer_release of a type whose consumer is tcgen05 work (TmaUmma,
/// AsyncUmma, UmmaUmma): under the consumer's CtaLeader gate, the elected
/// commit to E[c] (or E[cr]) with `mask`; the cursor advances as after any
/// gated bracket (`advanceAfterGated`).
void releaseEmpty(BracketContext &ctx, CommitMask mask);

} // namespace mlir::tspipe::tcgen05

#endif // TSPIPE_LIB_CONVERSION_TSPIPETONVVM_TCGEN05_H
