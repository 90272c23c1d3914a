//===- TSPipeForkArm.h - bytes of a fork group's shared full barrier -*- C++
//-*-===//
//
// What the shared full barrier of a fork group of TMA producers expects per
// stage, decided once for the kernel verifier (rules X6, R68) and the
// lowering (which arms the barrier with it): docs/Rules.md, R68.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_TSPIPEFORKARM_H
#define TSPIPE_DIALECT_TSPIPE_IR_TSPIPEFORKARM_H

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

namespace mlir::tspipe {

/// The transaction bytes one stage of a fork group's shared full barrier
/// expects, and where the count comes from.
struct ForkArm {
  /// Bytes per stage and phase (the members' common num_bytes times
  /// `filled`).
  int64_t bytes = 0;
  /// How many members' stages the producer fills with copies of their own:
  /// 1 for one load that every member reads (CUTLASS TS tutorial 7), the
  /// member count for one copy per member.
  int64_t filled = 1;
  /// True when the count comes from the copies the producer brackets show
  /// (every copy on the shared full barrier has a constant size and no
  /// multicast); false when it comes from the group's config (TS's rule:
  /// an explicit config's num_bytes, else the members' common num_bytes).
  bool fromCopies = false;
  /// The producer_acquire whose bracket decided `filled` (fromCopies only).
  Operation *decidedBy = nullptr;
};

/// The arm of fork group `group` (members of equal num_bytes, rule R67).
/// Every tspipe.producer_acquire on a member with group(@group) is looked
/// at: a member whose stage's full barrier reaches only countable bulk
/// copies is filled by its own copies, one whose full barrier is not taken
/// is filled by another member's load; any other use (a tensor copy, a
/// multicast, a call) makes the copies invisible. With several producer
/// tasks the first one that shows its copies decides.
ForkArm getForkArm(PipelineGroupOp group);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_TSPIPEFORKARM_H
