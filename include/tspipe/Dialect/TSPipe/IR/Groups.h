//===- Groups.h - what a pipeline group derives from its members -*- C++ -*-===//
//
// The lead of a `tspipe.pipeline_group` and the layout of its barrier
// arrays (docs/Protocols.md, Pipeline groups), derived once for the
// verifier (X13), tspipe-allocate-smem and the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_GROUPS_H
#define TSPIPE_DIALECT_TSPIPE_IR_GROUPS_H

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

namespace mlir::tspipe {

/// The index of the lead among a group's members (given by their configs,
/// in member order): the member whose protocol lowers the group-level
/// brackets and which initializes the shared arrays. Merge and fused merge:
/// the first member whose producer is not TMA, if any (the shared empty
/// barrier then counts that member's consumer arrivals, as TS's all-thread
/// release of mixed merges does); fork: the first member. `members` must
/// not be empty.
unsigned getGroupLead(GroupMode mode, ArrayRef<PipelineConfigAttr> members);

/// Where member `member` of a group of `numMembers` finds its barriers: the
/// group stores `numArrays` arrays of num_stages mbarriers (8 bytes each)
/// back to back, merge [F_0]...[F_{N-1}][E_shared], fork
/// [F_shared][E_0]...[E_{N-1}], fused merge [F_shared][E_shared];
/// `fullArray` and `emptyArray` index them.
struct GroupBarrierArrays {
  unsigned numArrays;
  unsigned fullArray;
  unsigned emptyArray;
};
GroupBarrierArrays getGroupBarrierArrays(GroupMode mode, unsigned numMembers,
                                         unsigned member);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_GROUPS_H
