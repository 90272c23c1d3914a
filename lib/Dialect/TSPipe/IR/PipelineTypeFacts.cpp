//===- PipelineTypeFacts.cpp - the pipeline-type table --------------------===//
//
// One row per pipeline type (docs/Protocols.md, Per-type protocols; TS's
// `PipelineType` and its factories, ts-semantics 2). The rows are in
// `PipelineType` order; a static check below keeps them so.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

using U = PipeUnit;
using P = PipeProxy;
using A = PipeArrival;
using R = PipeReach;
using W = PipeWiden;
using C = PipeCountRule;
using S = SignalingThreads;

// Field order of a row:
//   type,
//   producer {unit, proxy, interleaves, arrival, widened reach, widen,
//             widens under CtaLeader only, count rule},
//   consumer {same},
//   minChip, usesTcgen05, needsCtaLayout, pingPong, groupable,
//   bulkCopyBytes, leaderArmsPair, hasReleaseForm, waitsBySignaling,
//   interleavesOnOneCtaOnly, defaultProducerSignaling
constexpr PipelineTypeFacts kRows[] = {
    // Threads fill, threads drain.
    {PipelineType::AsyncAsync,
     {U::Threads, P::Generic, true, A::Thread, R::Local, W::Never, false,
      C::AsyncThreads},
     {U::Threads, P::Generic, true, A::Thread, R::Local, W::Never, false,
      C::AsyncThreads},
     PipeMinChip::Sm90,
     false,
     false,
     true,
     true,
     false,
     false,
     false,
     true,
     false,
     S::All},
    // TMA fills (async proxy), threads drain; lane releases signal every CTA
    // of the multicast set.
    {PipelineType::TmaAsync,
     {U::Tma, P::Async, true, A::ExpectTx, R::PairLeader, W::Paired, true,
      C::TmaBytes},
     {U::Threads, P::Generic, true, A::Lane, R::TmaAsyncMulticast, W::Clustered,
      false, C::TmaAsyncRelease},
     PipeMinChip::Sm90,
     false,
     false,
     true,
     true,
     true,
     false,
     true,
     true,
     true,
     S::All},
    // TMA fills, tcgen05 drains (one commit, multicast to the producers).
    {PipelineType::TmaUmma,
     {U::Tma, P::Async, true, A::ExpectTx, R::PairLeader, W::Paired, false,
      C::TmaBytes},
     {U::Umma, P::Async, true, A::Tcgen05Commit, R::TmaUmmaMulticast,
      W::Clustered, false, C::TmaUmmaRelease},
     PipeMinChip::Tcgen05,
     true,
     true,
     false,
     true,
     true,
     true,
     false,
     true,
     false,
     S::All},
    // tcgen05 fills (one commit per stage), threads drain.
    {PipelineType::UmmaAsync,
     {U::Umma, P::Async, false, A::Tcgen05Commit, R::Pair, W::Paired, false,
      C::Tcgen05PairCommit},
     {U::Threads, P::Generic, true, A::Thread, R::PairLeader, W::Paired, false,
      C::AsyncThreadsPerPair},
     PipeMinChip::Tcgen05,
     true,
     true,
     true,
     true,
     false,
     false,
     false,
     true,
     false,
     S::All},
    // Threads fill, tcgen05 drains (one commit per stage).
    {PipelineType::AsyncUmma,
     {U::Threads, P::Generic, true, A::Thread, R::PairLeader, W::Paired, false,
      C::AsyncThreadsPerPair},
     {U::Umma, P::Async, false, A::Tcgen05Commit, R::Pair, W::Paired, false,
      C::Tcgen05PairCommit},
     PipeMinChip::Tcgen05,
     true,
     true,
     false,
     true,
     false,
     false,
     false,
     true,
     false,
     S::All},
    // tcgen05 on both sides.
    {PipelineType::UmmaUmma,
     {U::Umma, P::Async, false, A::Tcgen05Commit, R::Pair, W::Paired, false,
      C::Tcgen05Commit},
     {U::Umma, P::Async, false, A::Tcgen05Commit, R::Pair, W::Paired, false,
      C::Tcgen05PairCommit},
     PipeMinChip::Tcgen05,
     true,
     true,
     false,
     true,
     false,
     false,
     false,
     true,
     false,
     S::All},
    // Cluster launch control fills every CTA's stage (a multicast response
    // of 16 bytes); every CTA's threads release to CTA 0.
    {PipelineType::ClcFetchAsync,
     {U::Clc, P::Async, false, A::ExpectTx, R::Cluster, W::Clustered, false,
      C::ClcArm},
     {U::Threads, P::Generic, false, A::Thread, R::ClusterLeader, W::Clustered,
      false, C::ClcRelease},
     PipeMinChip::Clc,
     false,
     true,
     true,
     false,
     false,
     false,
     false,
     false,
     false,
     S::CtaLeader},
};

constexpr bool rowsInEnumOrder() {
  for (unsigned i = 0; i < std::size(kRows); ++i)
    if (static_cast<unsigned>(kRows[i].type) != i)
      return false;
  return true;
}
static_assert(rowsInEnumOrder(), "kRows must be in PipelineType order");
static_assert(std::size(kRows) ==
                  static_cast<unsigned>(PipelineType::ClcFetchAsync) + 1,
              "every PipelineType needs a row");

/// The reach of a side whose row widens `widen` to `widened`, for `cfg`.
PipeReach widenedReach(const PipeSideFacts &side, PipelineConfigAttr cfg) {
  switch (side.widen) {
  case PipeWiden::Never:
    return PipeReach::Local;
  case PipeWiden::Paired:
    return cfg.getV() > 1 ? side.widenedReach : PipeReach::Local;
  case PipeWiden::Clustered:
    if (cfg.getClusterSize() == 1)
      return PipeReach::Local;
    // The multicast mask of a cluster that is one pair is that pair.
    if (side.widenedReach == PipeReach::TmaUmmaMulticast &&
        cfg.getClusterSize() == cfg.getV())
      return PipeReach::Pair;
    return side.widenedReach;
  }
  return PipeReach::Local;
}

} // namespace

const PipelineTypeFacts &mlir::tspipe::getPipelineTypeFacts(PipelineType t) {
  unsigned i = static_cast<unsigned>(t);
  assert(i < std::size(kRows) && "not a PipelineType");
  return kRows[i];
}

unsigned mlir::tspipe::getNumPipelineTypes() { return std::size(kRows); }

PipeArrivalForm mlir::tspipe::getFillForm(PipelineConfigAttr cfg) {
  const PipeSideFacts &side =
      getPipelineTypeFacts(cfg.getPipelineType()).producer;
  // The cp.async producer op (async_async's async_producer_op, async_umma's
  // umma_consumer_producer_op; R2, R3 allow it nowhere else) arrives once
  // the thread's copies land, on its own CTA.
  if (cfg.getAsyncProducerOp() == PipelineOpKind::AsyncLoad ||
      cfg.getUmmaConsumerProducerOp() == PipelineOpKind::AsyncLoad)
    return {PipeArrival::CpAsync, PipeReach::Local};
  PipeReach reach = widenedReach(side, cfg);
  if (side.widensUnderCtaLeaderOnly &&
      !bitEnumContainsAny(cfg.getProducerSignaling(),
                          SignalingThreads::CtaLeader))
    reach = PipeReach::Local;
  return {side.arrival, reach};
}

PipeArrivalForm mlir::tspipe::getReleaseForm(PipelineConfigAttr cfg,
                                             std::optional<ReleaseForm> form) {
  const PipelineTypeFacts &facts = getPipelineTypeFacts(cfg.getPipelineType());
  // An all-thread release: every consumer thread arrives on its own CTA.
  if (facts.hasReleaseForm && form == ReleaseForm::AllThreads)
    return {PipeArrival::Thread, PipeReach::Local};
  return {facts.consumer.arrival, widenedReach(facts.consumer, cfg)};
}

StringRef mlir::tspipe::describePipeArrival(PipeArrival a) {
  switch (a) {
  case PipeArrival::Thread:
    return "every signaling thread arrives (mbarrier.arrive)";
  case PipeArrival::CpAsync:
    return "every signaling thread arrives once its cp.async copies land "
           "(cp.async.mbarrier.arrive.noinc)";
  case PipeArrival::Lane:
    return "selected lanes of each warp arrive (release(lane))";
  case PipeArrival::ExpectTx:
    return "one elected thread per warp arms the transaction bytes at acquire "
           "(mbarrier.arrive.expect_tx)";
  case PipeArrival::Tcgen05Commit:
    return "one elected thread per warp commits (tcgen05.commit)";
  }
  return "";
}

StringRef mlir::tspipe::describePipeReach(PipeReach r) {
  switch (r) {
  case PipeReach::Local:
    return "on its own CTA's barrier";
  case PipeReach::PairLeader:
    return "on the barrier of its pair's leader CTA";
  case PipeReach::Pair:
    return "on the barriers of both CTAs of its pair";
  case PipeReach::TmaAsyncMulticast:
    return "on the barriers of every CTA of its TMA multicast set";
  case PipeReach::TmaUmmaMulticast:
    return "on the barriers of the CTAs of its tcgen05 multicast mask";
  case PipeReach::Cluster:
    return "on the barriers of every CTA of the cluster";
  case PipeReach::ClusterLeader:
    return "on the barrier of CTA 0 of the cluster";
  }
  return "";
}
