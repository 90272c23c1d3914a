//===- PipelineTypeFacts.h - one table of pipeline-type facts ---*- C++ -*-===//
//
// Everything tspipe knows about a pipeline type that does not depend on a
// pipeline's config: which hardware unit and memory proxy each side uses,
// how each side arrives on its barrier and which CTAs that arrival reaches,
// the least chip, the interleave and ping-pong permissions, the defaults.
// One row per `PipelineType` (PipelineTypeFacts.cpp). The verifier,
// tspipe-normalize, the lowering, the progress model and, through the C API
// (tspipe-c/PipelineTypes.h), the Python front end all read this table; a new
// pipeline type is one row there, one protocol file and its tests
// (docs/Protocols.md, Adding a pipeline type).
//
// The few facts that also depend on a config (the reach of a pair or a
// multicast set, the cp.async producer op, TmaAsync's release form) are
// derived from a row by `getFillForm` / `getReleaseForm` below.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_PIPELINETYPEFACTS_H
#define TSPIPE_DIALECT_TSPIPE_IR_PIPELINETYPEFACTS_H

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

namespace mlir::tspipe {

/// The hardware unit that drives one side of a pipeline.
enum class PipeUnit : uint8_t {
  /// Ordinary threads (loads, stores, math).
  Threads,
  /// The TMA unit (cp.async.bulk copies).
  Tma,
  /// tcgen05 (MMA, UTCCP): one elected thread issues, tcgen05.commit signals.
  Umma,
  /// Cluster launch control (clusterlaunchcontrol.try_cancel).
  Clc,
};

/// The memory proxy a side's accesses to the stage buffers go through
/// (PTX ISA, Memory consistency model: proxies).
enum class PipeProxy : uint8_t { Generic, Async };

/// The instruction of one side's arrival on its stage barrier.
enum class PipeArrival : uint8_t {
  /// `mbarrier.arrive` by every signaling thread.
  Thread,
  /// `cp.async.mbarrier.arrive.noinc` by every signaling thread.
  CpAsync,
  /// `mbarrier.arrive` by selected lanes of each warp (TmaAsync
  /// release(lane)).
  Lane,
  /// `mbarrier.arrive.expect_tx` by one elected thread per warp at acquire;
  /// the copies complete the bytes.
  ExpectTx,
  /// `tcgen05.commit` by one elected thread per warp.
  Tcgen05Commit,
};

/// The CTAs whose barrier of a stage receives a side's arrivals.
enum class PipeReach : uint8_t {
  /// Each CTA's own barrier.
  Local,
  /// The barrier of the leader CTA of this CTA's pair (V = 2) only.
  PairLeader,
  /// The barriers of both CTAs of this CTA's pair (V = 2).
  Pair,
  /// Every CTA of the TmaAsync multicast set (lane l signals CTA l).
  TmaAsyncMulticast,
  /// The CTAs of the TmaUmma multicast mask (M row and N column pairs).
  TmaUmmaMulticast,
  /// Every CTA of the cluster (the CLC response is multicast).
  Cluster,
  /// CTA 0 of the cluster alone (the CLC producer's empty barriers).
  ClusterLeader,
};

/// When a side's arrivals leave their own CTA.
enum class PipeWiden : uint8_t {
  /// Never: always `PipeReach::Local`.
  Never,
  /// When the CTAs pair up (V = 2).
  Paired,
  /// When the multicast set spans more than one CTA (cluster size > 1).
  Clustered,
};

/// The least chip family a type lowers for (rule X7; Targets.h).
enum class PipeMinChip : uint8_t {
  /// sm_90 and newer: mbarrier transaction counts, elect.sync, TMA.
  Sm90,
  /// A chip with cluster launch control (`ChipInfo::hasClc`).
  Clc,
  /// A chip tspipe lowers tcgen05 for (`ChipInfo::hasTcgen05`).
  Tcgen05,
};

/// Which arrive-count rule checks one side (docs/Rules.md, R45-R54).
enum class PipeCountRule : uint8_t {
  /// Every signaling thread of each task arrives (R45-R47, R51-R53).
  AsyncThreads,
  /// As AsyncThreads, scaled by V when the side's arrivals reach a pair
  /// leader (the side pairs with a tcgen05 side).
  AsyncThreadsPerPair,
  /// One tcgen05.commit per stage (R48).
  Tcgen05Commit,
  /// One tcgen05.commit per stage, issued by the pair's leader (R48, X3).
  Tcgen05PairCommit,
  /// One expect_tx per producer warp arming the TMA bytes (R49, R56).
  TmaBytes,
  /// TmaAsync consumers: lane or all-thread release (R54, X4).
  TmaAsyncRelease,
  /// TmaUmma consumers: one tcgen05.commit, multicast to the producers.
  TmaUmmaRelease,
  /// One CLC producer arms each stage of every CTA (R50).
  ClcArm,
  /// Every thread of every CTA's consumer tasks releases to CTA 0.
  ClcRelease,
};

/// The unit, proxy and interleave permission of one side.
struct PipeSideFacts {
  PipeUnit unit;
  PipeProxy proxy;
  /// The side's strides may exceed 1 (interleaved lanes, R58, R60).
  bool interleaves;
  /// Its arrivals: the instruction, and which CTAs they reach once widened.
  PipeArrival arrival;
  PipeReach widenedReach;
  PipeWiden widen;
  /// The arrivals widen only under the side's CtaLeader signaling (a
  /// TmaAsync arm runs on the CTAs the producer's CtaLeader gate selects).
  bool widensUnderCtaLeaderOnly;
  /// Which arrive-count rule checks the side.
  PipeCountRule countRule;
};

/// The facts of one pipeline type.
struct PipelineTypeFacts {
  PipelineType type;
  /// Producer (fill) and consumer (release) side.
  PipeSideFacts producer, consumer;
  /// The least chip the type lowers for (X7).
  PipeMinChip minChip;
  /// A side is driven by tcgen05 (MMA / UTCCP; tensor memory, R44).
  bool usesTcgen05;
  /// TS's factory takes no default `cta_layout_vmnk`: the layout must be
  /// given (R10).
  bool needsCtaLayout;
  /// One task may drive both sides of one pipeline (a ping-pong buffer,
  /// R65): only where the consumer side is ordinary threads.
  bool pingPong;
  /// The pipeline may be a member of a pipeline group and the group config
  /// may have this type (R67, R68).
  bool groupable;
  /// `num_bytes` are bytes of TMA bulk copies, so a multiple of 16 (X6).
  bool bulkCopyBytes;
  /// Under a CtaLeader-routed fill, the leader arms the bytes of its pair
  /// (true) or of the whole cluster (false) (R56).
  bool leaderArmsPair;
  /// The consumers' release form (lane or all threads) is derived by
  /// tspipe-normalize and recorded on the pipeline (R54).
  bool hasReleaseForm;
  /// Whether waits are gated by the wait signaling (R25); false where every
  /// CTA waits on its own barrier whatever the signaling says.
  bool waitsBySignaling;
  /// An interleaved pipeline must run on one CTA (R59): lane releases
  /// cannot reach the peers of a multicast set.
  bool interleavesOnOneCtaOnly;
  /// The producer signaling TS's factory defaults to.
  SignalingThreads defaultProducerSignaling;
};

/// The row of `type`. Every `PipelineType` has one.
const PipelineTypeFacts &getPipelineTypeFacts(PipelineType type);

/// The number of rows (the number of `PipelineType` values).
unsigned getNumPipelineTypes();

/// What one side's arrival does on its barrier: the instruction and the CTAs
/// it reaches.
struct PipeArrivalForm {
  PipeArrival arrival;
  PipeReach reach;

  bool operator==(const PipeArrivalForm &o) const {
    return arrival == o.arrival && reach == o.reach;
  }
  bool operator!=(const PipeArrivalForm &o) const { return !(*this == o); }
};

/// The arrivals of a producer_commit / acquire on a pipeline of config `cfg`
/// (on the full barrier): the row's producer form, widened by the config.
PipeArrivalForm getFillForm(PipelineConfigAttr cfg);

/// The arrivals of a consumer_release on a pipeline of config `cfg` with
/// release form `form` (TmaAsync, recorded by tspipe-normalize; none for
/// the other types), on the empty barrier.
PipeArrivalForm getReleaseForm(PipelineConfigAttr cfg,
                               std::optional<ReleaseForm> form);

/// Text for diagnostics: "every signaling thread arrives (mbarrier.arrive)".
StringRef describePipeArrival(PipeArrival arrival);
/// Text for diagnostics: "on its own CTA's barrier".
StringRef describePipeReach(PipeReach reach);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_PIPELINETYPEFACTS_H
