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

/// Rule X7: `tcgen05.commit` exists only on the sm_100a family. Fails with a
/// diagnostic on `pipe` unless every NVVM target of the enclosing
/// gpu.module is sm_100a or sm_101a (and at least one is given). Also
/// rejects V > 2 and clusters of more than 16 CTAs (the width of a
/// multicast mask).
LogicalResult checkSupported(PipelineOp pipe);

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

} // namespace mlir::tspipe::tcgen05

#endif // TSPIPE_LIB_CONVERSION_TSPIPETONVVM_TCGEN05_H
