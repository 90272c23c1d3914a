//===- GroupLowering.cpp - pipeline groups in tspipe-to-nvvm ---------------===//
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
// * whether one lowered bracket serves every member: the arrivals the lead's
//   group-level bracket makes (their instruction and the CTAs whose barrier
//   they reach) must be the ones every member's own bracket would make.
//   Otherwise the group is rejected with a diagnostic naming both forms.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeForkArm.h"

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

using SharedForm = PipeArrivalForm;

StringRef describe(PipeArrival a) { return describePipeArrival(a); }
StringRef describe(PipeReach r) { return describePipeReach(r); }

bool isTmaProducer(PipelineType t) {
  return getPipelineTypeFacts(t).producer.unit == PipeUnit::Tma;
}

/// The arrivals of a consumer_release on a pipeline (docs/Protocols.md,
/// per-type protocols): the form a merge group's release makes on the
/// shared empty barrier.
SharedForm releaseForm(PipelineLowering &p) {
  return getReleaseForm(p.config, p.op.getReleaseForm());
}

/// The arrivals that fill a stage of a pipeline (its producer_commit, or for
/// TMA producers the arm of its acquire): the form a fork group's commit
/// makes on the shared full barrier.
SharedForm fillForm(PipelineLowering &p) { return getFillForm(p.config); }

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

    // The lead. Merge: the first member whose producer is not TMA, if any
    // (the shared empty barrier then counts that member's consumer
    // arrivals, as TS's all-thread release of mixed merges does; R67 makes
    // these counts equal over the non-TMA members); fork: the first member.
    PipelineLowering *lead = members.front();
    if (merge)
      for (PipelineLowering *m : members)
        if (!isTmaProducer(m->config.getPipelineType())) {
          lead = m;
          break;
        }
    bool leadIsTma = isTmaProducer(lead->config.getPipelineType());

    // One lowered group-level bracket serves every member only if it makes
    // the arrivals each member's own bracket would make. In a merge that
    // mixes TMA and other producers TS releases the TMA members like the
    // others (all threads), so only the CTAs reached must agree there.
    SharedForm leadForm = merge ? releaseForm(*lead) : fillForm(*lead);
    for (PipelineLowering *m : members) {
      if (m == lead)
        continue;
      SharedForm form = merge ? releaseForm(*m) : fillForm(*m);
      bool forced =
          merge && !leadIsTma && isTmaProducer(m->config.getPipelineType());
      bool same = forced ? form.reach == leadForm.reach : form == leadForm;
      if (same)
        continue;
      StringRef bracket = merge ? "consumer_release" : "producer_commit";
      InFlightDiagnostic diag = group.emitOpError();
      diag << "cannot lower the " << stringifyGroupMode(group.getMode())
           << " group's one tspipe." << bracket << " for every member: for '@"
           << lead->op.getSymName() << "' ("
           << stringifyPipelineType(lead->config.getPipelineType()) << ") "
           << describe(leadForm.arrival) << " " << describe(leadForm.reach)
           << ", but '@" << m->op.getSymName() << "' ("
           << stringifyPipelineType(m->config.getPipelineType())
           << ") needs ";
      if (forced)
        diag << "its release ";
      else
        diag << "that " << describe(form.arrival) << " ";
      diag << describe(form.reach) << "; give the members one pipeline type"
           << (form.reach != leadForm.reach
                   ? " or run the kernel on one CTA, where both reach this "
                     "CTA's barrier alone"
                   : "");
      return failure();
    }

    // A fused merge's producers all arrive on the shared full barrier of
    // their own CTA's stage (or all of the same other CTA): their arrivals
    // must reach the same CTAs.
    if (fused)
      for (PipelineLowering *m : members) {
        SharedForm mine = fillForm(*m), theirs = fillForm(*lead);
        if (mine.reach == theirs.reach)
          continue;
        return group.emitOpError()
               << "cannot lower the fused_merge group's shared full barrier: "
                  "the producers of '@"
               << lead->op.getSymName() << "' ("
               << stringifyPipelineType(lead->config.getPipelineType())
               << ") arrive " << describe(theirs.reach) << ", those of '@"
               << m->op.getSymName() << "' ("
               << stringifyPipelineType(m->config.getPipelineType())
               << ") " << describe(mine.reach)
               << "; use a merge group, whose members keep their own full "
                  "barriers";
      }

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
      if (asyncConsumers &&
          llvm::any_of(members, [](PipelineLowering *m) {
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
