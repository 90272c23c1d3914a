//===- ClusterUniformity.h - values that differ between a cluster's CTAs --===//
//
// Which values of a kernel may take a different value on the CTAs of one
// thread block cluster, and what they are on each CTA where that can be
// computed (tspipe rule X29, docs/Rules.md).
//
// The CTAs of a cluster run the same code; a value differs between them
// only when it is computed from the CTA's position: its rank in the cluster
// (`nvvm.read.ptx.sreg.cluster.ctarank`, `cluster.ctaid.{x,y,z}`,
// `gpu.cluster_block_id`) or its block index in the grid along a dimension
// the cluster spans (`gpu.block_id`, `nvvm.read.ptx.sreg.ctaid.{x,y,z}`,
// `gpu.global_id`, the SM id). Everything else a kernel starts from is the
// same on every CTA at the same thread position: kernel arguments,
// constants, the grid and cluster sizes, the cluster id, and also the
// thread, lane and warp ids and `elect.sync` (each CTA has the same
// threads). A value computed from a differing value differs too; a result
// of a region op (`scf.if`, `scf.for`, ...) differs when its operands (the
// condition, the bounds) or the values its regions yield do.
// `block_id / c`, where `c` is a multiple of the cluster's extent along
// that dimension, is the same on every CTA of the cluster (the cluster's
// CTAs have consecutive block indices starting at a multiple of the
// extent).
//
// Values read from memory are taken to differ only when their address
// does: a load of a kernel argument's buffer at a shared offset is the same
// on every CTA.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_CLUSTERUNIFORMITY_H
#define TSPIPE_DIALECT_TSPIPE_IR_CLUSTERUNIFORMITY_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::tspipe {

/// The uniformity of values over the CTAs of one cluster of
/// `extents` = (x, y, z) CTAs. Results are memoized: build one per kernel.
class ClusterUniformity {
public:
  explicit ClusterUniformity(ArrayRef<int64_t> extents);

  /// The operation (a special-register read) whose value makes `v` differ
  /// between the CTAs of the cluster, or null when `v` is the same on every
  /// CTA.
  Operation *divergenceSource(Value v);

  /// The value of `v` on the CTA of cluster rank `rank` (in [0, numCtas())),
  /// when `v` is computed from the CTA's rank (or its coordinates in the
  /// cluster) and constants only, through integer arithmetic, comparisons,
  /// casts and `select`; none otherwise (index values are 64 bits wide).
  std::optional<llvm::APInt> evaluate(Value v, int64_t rank);

  /// True when `v` is the same on every CTA: it does not diverge, or it
  /// evaluates to one value on every rank. Otherwise `source` is the op it
  /// diverges from.
  bool sameOnEveryCta(Value v, Operation *&source);

  /// Number of CTAs in the cluster.
  int64_t numCtas() const { return extents[0] * extents[1] * extents[2]; }

private:
  Operation *computeSource(Value v);
  int64_t extents[3];
  llvm::DenseMap<Value, Operation *> sources;
};

/// "nvvm.read.ptx.sreg.cluster.ctarank at loc(...)": a divergence source
/// for diagnostics.
std::string describeDivergenceSource(Operation *source);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_CLUSTERUNIFORMITY_H
