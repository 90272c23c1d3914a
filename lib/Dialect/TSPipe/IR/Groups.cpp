//===- Groups.cpp - what a pipeline group derives from its members --------===//

#include "tspipe/Dialect/TSPipe/IR/Groups.h"

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"

using namespace mlir;
using namespace mlir::tspipe;

unsigned mlir::tspipe::getGroupLead(GroupMode mode,
                                    ArrayRef<PipelineConfigAttr> members) {
  assert(!members.empty() && "a group has members");
  if (mode == GroupMode::Fork)
    return 0;
  for (auto [i, cfg] : llvm::enumerate(members))
    if (getPipelineTypeFacts(cfg.getPipelineType()).producer.unit !=
        PipeUnit::Tma)
      return i;
  return 0;
}

GroupBarrierArrays mlir::tspipe::getGroupBarrierArrays(GroupMode mode,
                                                       unsigned numMembers,
                                                       unsigned member) {
  switch (mode) {
  case GroupMode::Merge:
    return {numMembers + 1, member, numMembers};
  case GroupMode::Fork:
    return {numMembers + 1, 0, member + 1};
  case GroupMode::FusedMerge:
    return {2, 0, 1};
  }
  llvm_unreachable("unknown GroupMode");
}
