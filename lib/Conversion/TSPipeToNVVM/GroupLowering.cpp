//===- GroupLowering.cpp - pipeline groups in tspipe-to-nvvm
//---------------===//
//
// What the lowering of a `tspipe.pipeline_group` decides before any bracket
// is emitted (docs/Protocols.md, Pipeline groups):
//
// * the lead: the member whose protocol lowers the group-level brackets and
//   which initializes the shared barrier arrays (merge and fused merge: the
//   first member whose producer is not TMA, if any; fork: the first member);
// * the shared arrays' arrive counts (a fused merge's shared full barrier
//   counts every member's producer arrivals) and, for a fork of TMA
//   producers, the transaction bytes the lead's acquire arms the shared
//   full barrier with (the bytes of the members the producer fills; R68,
//   docs/Rules.md) while the other members' acquires only wait;
// * nothing about whether one lowered bracket serves every member: the
//   verifier checked that the lead's group-level bracket makes the arrivals
//   every member's own bracket would make (rule X16).
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeForkArm.h"

#include "tspipe/Dialect/TSPipe/IR/Groups.h"
#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

bool isTmaProducer(PipelineType t) {
  return getPipelineTypeFacts(t).producer.unit == PipeUnit::Tma;
}

} // namespace

LogicalResult KernelLowering::prepareGroups() {
  for (auto group : kernel.getBody().getOps<PipelineGroupOp>()) {
    // A fused merge has the merge topology: its consumer side is the lead's.
    bool fused = group.getMode() == GroupMode::FusedMerge;
    bool merge = group.getMode() != GroupMode::Fork;
    SmallVector<PipelineLowering *> members;
    for (Attribute a : group.getMembers()) {
      auto it = pipelines.find(cast<FlatSymbolRefAttr>(a).getValue());
      if (it == pipelines.end())
        return group.emitOpError("has a member that is not a lowered "
                                 "pipeline of the kernel");
      if (!it->second.op.getEmptyBarrierOffset())
        return group.emitOpError(
            "has members without an empty_barrier_offset; run "
            "tspipe-allocate-smem first");
      members.push_back(&it->second);
    }
    if (members.empty())
      continue;

    // The lead (Groups.h). One lowered group-level bracket serves every
    // member: the verifier checked that it makes the arrivals each member's
    // own bracket would make (X16).
    SmallVector<PipelineConfigAttr> configs;
    for (PipelineLowering *m : members)
      configs.push_back(m->config);
    PipelineLowering *lead = members[getGroupLead(group.getMode(), configs)];
    bool leadIsTma = isTmaProducer(lead->config.getPipelineType());

    for (PipelineLowering *m : members) {
      if (m == lead)
        continue;
      (merge ? m->initEmpty : m->initFull) = false;
      if (fused)
        m->initFull = false;
    }
    if (fused) {
      // The shared full barrier completes a stage once every member's
      // producers arrived (each TMA member's acquire arms its own bytes).
      int64_t arrivals = 0;
      for (PipelineLowering *m : members)
        arrivals += m->fullInitCount;
      lead->fullInitCount = arrivals;
    }

    if (merge) {
      // The release frees stages that TMA copies (async-proxy writes) fill
      // next, after consumer threads read them (generic proxy): the proxy
      // fence a TmaAsync release has, emitted by a lead whose own release
      // has none.
      const PipelineTypeFacts &leadFacts =
          getPipelineTypeFacts(lead->config.getPipelineType());
      bool asyncConsumers = leadFacts.consumer.proxy == PipeProxy::Generic &&
                            leadFacts.producer.unit != PipeUnit::Tma;
      if (asyncConsumers && llvm::any_of(members, [](PipelineLowering *m) {
            const PipelineTypeFacts &f =
                getPipelineTypeFacts(m->config.getPipelineType());
            return f.producer.unit == PipeUnit::Tma &&
                   f.consumer.proxy == PipeProxy::Generic;
          }))
        lead->proxyFenceBeforeRelease = true;
    } else if (leadIsTma) {
      // Fork of TMA producers: the copies of the members the producer
      // fills complete on the shared full barrier, so the lead's acquire
      // arms it with their bytes (one load that every member reads: the
      // common num_bytes once) and the other members' acquires only wait on
      // their own empty barriers (TS: the fork's secondary members; R68).
      for (PipelineLowering *m : members)
        m->armsFull = m == lead;
      lead->txBytes = getForkArm(group).bytes;
    }
    lead->groupLead = true;
  }
  return success();
}
