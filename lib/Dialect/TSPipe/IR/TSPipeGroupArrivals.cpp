//===- TSPipeGroupArrivals.cpp - one bracket, every member (X16, X18) ---===//
//
// Rule X16: the group-level bracket of a pipeline group (a merge's one
// consumer_release, a fork's one producer_commit) is lowered once, by the
// group's lead (Groups.h), so it must make the arrivals every member's own
// bracket would make: the same instruction on the barriers of the same CTAs
// (PipelineTypeFacts.h, getFillForm / getReleaseForm). In a merge that
// mixes TMA and other producers TS releases the TMA members like the others
// (all threads), so only the CTAs reached must agree there. A fused merge's
// producers all arrive on the shared full barrier: their arrivals must reach
// the same CTAs. Rule X18: the members agree on remote_arrive_scope, the
// scope of the lead's remote arrives.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "tspipe/Dialect/TSPipe/IR/Groups.h"

using namespace mlir;
using namespace mlir::tspipe;

static bool isTmaProducer(PipelineOp pipe) {
  return getPipelineTypeFacts(pipe.getConfig().getPipelineType())
             .producer.unit == PipeUnit::Tma;
}

static StringRef typeOf(PipelineOp pipe) {
  return stringifyPipelineType(pipe.getConfig().getPipelineType());
}

LogicalResult rules::verifyGroupArrivals(PipelineGroupOp group,
                                         ArrayRef<PipelineOp> members) {
  GroupMode mode = group.getMode();
  bool fused = mode == GroupMode::FusedMerge;
  bool merge = mode != GroupMode::Fork;
  SmallVector<PipelineConfigAttr> configs;
  for (PipelineOp m : members)
    configs.push_back(m.getConfig());
  PipelineOp lead = members[getGroupLead(mode, configs)];
  bool leadIsTma = isTmaProducer(lead);

  // A merge's release forms are known once tspipe-normalize has recorded
  // the release form of the types that have one.
  bool formsKnown = !merge || llvm::all_of(members, [](PipelineOp m) {
    return !getPipelineTypeFacts(m.getConfig().getPipelineType())
                .hasReleaseForm ||
           m.getReleaseForm();
  });
  auto formOf = [&](PipelineOp m) {
    return merge ? getReleaseForm(m.getConfig(), m.getReleaseForm())
                 : getFillForm(m.getConfig());
  };
  if (formsKnown) {
    PipeArrivalForm leadForm = formOf(lead);
    for (PipelineOp m : members) {
      if (m == lead)
        continue;
      PipeArrivalForm form = formOf(m);
      bool forced = merge && !leadIsTma && isTmaProducer(m);
      bool same = forced ? form.reach == leadForm.reach : form == leadForm;
      if (same)
        continue;
      StringRef bracket = merge ? "consumer_release" : "producer_commit";
      InFlightDiagnostic diag = group.emitOpError();
      diag << "[X16] cannot lower the " << stringifyGroupMode(mode)
           << " group's one tspipe." << bracket << " for every member: for '@"
           << lead.getSymName() << "' (" << typeOf(lead) << ") "
           << describePipeArrival(leadForm.arrival) << " "
           << describePipeReach(leadForm.reach) << ", but '@" << m.getSymName()
           << "' (" << typeOf(m) << ") needs ";
      if (forced)
        diag << "its release ";
      else
        diag << "that " << describePipeArrival(form.arrival) << " ";
      diag << describePipeReach(form.reach)
           << "; give the members one pipeline type"
           << (form.reach != leadForm.reach
                   ? " or run the kernel on one CTA, where both reach this "
                     "CTA's barrier alone"
                   : "");
      return failure();
    }
  }

  // X18: the lead's lowering of the group-level bracket issues its remote
  // arrives at the lead's scope, for every member.
  RemoteArriveScope leadScope = lead.getEffectiveRemoteArriveScope();
  for (PipelineOp m : members) {
    RemoteArriveScope scope = m.getEffectiveRemoteArriveScope();
    if (scope == leadScope)
      continue;
    return group.emitOpError()
           << "[X18] the " << stringifyGroupMode(mode)
           << " group's group-level bracket is lowered once, with the "
              "remote-arrive scope of its lead '@"
           << lead.getSymName() << "' (" << stringifyRemoteArriveScope(leadScope)
           << "), but '@" << m.getSymName() << "' has remote_arrive_scope("
           << stringifyRemoteArriveScope(scope)
           << "); give every member the same remote_arrive_scope (absent "
              "means cluster)";
  }

  if (!fused)
    return success();
  PipeArrivalForm theirs = getFillForm(lead.getConfig());
  for (PipelineOp m : members) {
    PipeArrivalForm mine = getFillForm(m.getConfig());
    if (mine.reach == theirs.reach)
      continue;
    return group.emitOpError()
           << "[X16] cannot lower the fused_merge group's shared full "
              "barrier: the producers of '@"
           << lead.getSymName() << "' (" << typeOf(lead) << ") arrive "
           << describePipeReach(theirs.reach) << ", those of '@"
           << m.getSymName() << "' (" << typeOf(m) << ") "
           << describePipeReach(mine.reach)
           << "; use a merge group, whose members keep their own full "
              "barriers";
  }
  return success();
}
