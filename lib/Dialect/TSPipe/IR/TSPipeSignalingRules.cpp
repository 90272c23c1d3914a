//===- TSPipeSignalingRules.cpp - arrive counts and signaling -------------===//
//
// Rules relating a pipeline's cooperative groups, signaling threads and
// transaction bytes to the tasks that really use it in the IR: TS rules
// R11, R12, R25 and R45-R56, and tspipe's corrections X2-X4 where TS's
// formulas do not match what the hardware does (docs/Rules.md).
//
// TS's "producer tasks" of a pipeline are the tasks that commit on it, its
// "consumer tasks" those that release it: their threads are the ones that
// arrive on the full and empty barriers.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

static bool has(SignalingThreads s, SignalingThreads flag) {
  return bitEnumContainsAny(s, flag);
}

static bool isTmaProducer(PipelineType t) {
  return getPipelineTypeFacts(t).producer.unit == PipeUnit::Tma;
}

//===----------------------------------------------------------------------===//
// Arrive counts (R48-R54, X2)
//===----------------------------------------------------------------------===//

/// Sides whose every stage gets exactly one arrival have size 1: one
/// tcgen05.commit or one CLC producer per stage (R48, R50), one lane warp
/// per stage of an interleaved release (R49, R54). `why` says which.
static LogicalResult verifySizeOne(PipelineOp pipe, StringRef rule,
                                   StringRef side, int64_t count,
                                   const Twine &why) {
  if (count == 1)
    return success();
  return pipe.emitOpError() << "[" << rule << "] " << side << "_group gives "
                            << count << " arrivals per stage, but " << why
                            << "; set " << side << "_group = <thread, 1>";
}

/// Warp-lane tasks among `tasks` for a role of stride k > 1: tasks of k
/// warps, not in domain-lane mode. Each warp of such a task owns one lane,
/// so every stage gets one arrival (one warp's) from each of them.
static SmallVector<TaskOp> warpLaneTasks(ArrayRef<TaskOp> tasks, int64_t k) {
  SmallVector<TaskOp> out;
  for (TaskOp t : tasks)
    if (k > 1 && static_cast<int64_t>(t.getNumWarps()) == k &&
        !isDomainLane(t, k))
      out.push_back(t);
  return out;
}

/// R49, R54: with consumer_release interleave_stride k > 1 each stage is
/// released by one lane (one warp, or one commit), once. TS requires
/// consumer_group = 1 whatever the number of releasing tasks; when several
/// warp-lane tasks release, every stage gets one arrival from each, so the
/// count is theirs (with 1, the second arrival completes the next phase
/// early).
static LogicalResult verifyLaneRelease(PipelineOp pipe, StringRef rule,
                                       ArrayRef<TaskOp> tasks,
                                       StringRef releaser) {
  PipelineConfigAttr cfg = pipe.getConfig();
  int64_t count = cfg.getEmptyArriveCount();
  SmallVector<TaskOp> lanes = warpLaneTasks(tasks, cfg.getReleaseStride());
  if (lanes.size() > 1 && lanes.size() == tasks.size()) {
    int64_t expected = static_cast<int64_t>(lanes.size());
    if (count == expected)
      return success();
    return pipe.emitOpError()
           << "[" << rule << "] consumer_group gives " << count
           << " arrivals per stage, but with consumer_release "
              "interleave_stride "
           << cfg.getReleaseStride() << " the " << expected
           << " warp-lane tasks " << taskList(lanes)
           << " each release every stage once; set consumer_group = "
              "<thread, "
           << expected << "> or release each stage from one task";
  }
  return verifySizeOne(pipe, rule, "consumer", count,
                       "with consumer_release interleave_stride " +
                           Twine(cfg.getReleaseStride()) + " " + releaser);
}

/// R52: arrive counts of an async-thread side (every thread of the side's
/// tasks arrives; scale V for the sides that arrive on a CTA pair).
static LogicalResult verifyAsyncSide(PipelineOp pipe, StringRef side,
                                     ArrayRef<TaskOp> tasks,
                                     int64_t closingStride,
                                     SignalingThreads signaling, int64_t scale,
                                     int64_t count) {
  if (tasks.empty())
    return success();
  int64_t s = has(signaling, SignalingThreads::CtaLeader) ? 1 : scale;
  // Domain-lane tasks (one lane per task) count per lane: each stage is
  // released by the tasks of its lane only.
  if (closingStride > 1 && llvm::any_of(tasks, [&](TaskOp t) {
        return isDomainLane(t, closingStride);
      })) {
    std::map<int64_t, SmallVector<TaskOp>> lanes; // ordered: stable reports
    for (TaskOp t : tasks) {
      APInt start;
      if (!isDomainLane(t, closingStride) ||
          !matchPattern(t.getDomainLoop().getLowerBound(),
                        m_ConstantInt(&start)))
        return t.emitOpError()
               << "[R52] mixes per-warp lanes with the domain-lane tasks of '@"
               << pipe.getSymName() << "' " << side
               << " side; use one lane form for every " << side << " task";
      lanes[start.getSExtValue() % closingStride].push_back(t);
    }
    for (auto &[lane, laneTasks] : lanes) {
      int64_t expected = 32 * sumWarps(laneTasks) * s;
      if (count != expected)
        return pipe.emitOpError()
               << "[R52] " << side << "_group gives " << count
               << " arrivals per stage, but the " << side << " tasks of lane "
               << lane << " " << taskList(laneTasks) << " arrive with "
               << expected << " threads; set " << side << "_group = <thread, "
               << expected << ">";
    }
    return success();
  }
  // Interleaved: one lane warp per stage from each warp-lane task.
  int64_t w =
      closingStride > 1
          ? std::max<int64_t>(1, warpLaneTasks(tasks, closingStride).size())
      : has(signaling, SignalingThreads::TaskWarpLeader)
          ? static_cast<int64_t>(tasks.size())
          : sumWarps(tasks);
  int64_t expected = 32 * w * s;
  if (count == expected)
    return success();
  return pipe.emitOpError()
         << "[R52] " << side << "_group gives " << count
         << " arrivals per stage, but the " << side << " tasks "
         << taskList(tasks) << " arrive with " << expected << " threads (32 x "
         << w << (closingStride > 1 ? " lane warp" : " warps")
         << (s != 1 ? " x " + std::to_string(s) : std::string()) << "); set "
         << side << "_group = <thread, " << expected << ">";
}

/// R53: the TMA producer side. One elected thread per producer warp arms
/// the full barrier (or one per task with task_warp_leader, one per lane
/// when interleaved).
static LogicalResult verifyTmaProducer(PipelineOp pipe,
                                       ArrayRef<TaskOp> tasks) {
  PipelineConfigAttr cfg = pipe.getConfig();
  if (tasks.empty())
    return success();
  int64_t k = cfg.getCommitStride();
  bool twl = has(cfg.getProducerSignaling(), SignalingThreads::TaskWarpLeader);
  bool ok = true;
  for (TaskOp t : tasks) {
    if (t.getNumWarps() <= 1)
      continue;
    if (k <= 1 && !twl) {
      ok = false;
      t.emitOpError() << "[R53] is a " << t.getNumWarps()
                      << "-warp TMA producer of '@" << pipe.getSymName()
                      << "': each warp would arm the full barrier; use "
                         "interleave_stride > 1 (one stage per warp) or "
                         "producer_signaling = task_warp_leader (one arm per "
                         "task)";
    }
    if (k > 1 && twl) {
      ok = false;
      t.emitOpError() << "[R53] is a multi-warp TMA producer of '@"
                      << pipe.getSymName() << "' with both interleave_stride "
                      << k << " and task_warp_leader; choose one of them";
    }
  }
  int64_t expected = k > 1 ? 1
                     : twl ? static_cast<int64_t>(tasks.size())
                           : sumWarps(tasks);
  int64_t count = cfg.getFullArriveCount();
  if (count == expected)
    return success(ok);
  return pipe.emitOpError()
         << "[R53] producer_group gives " << count
         << " arrivals per stage, but the TMA producer tasks "
         << taskList(tasks) << " arm each stage " << expected
         << (k > 1 ? " time (one lane warp)"
             : twl ? " time(s) (one per task)"
                   : " time(s) (one per warp)")
         << "; set producer_group = <thread, " << expected << ">";
}

/// True when a TmaAsync pipeline releases with every consumer thread
/// (consumer_group = 32 x the releasing warps, not the lane count).
static bool isAllThreadRelease(PipelineConfigAttr cfg,
                               ArrayRef<TaskOp> consumers) {
  return cfg.getReleaseStride() == 1 && !consumers.empty() &&
         deriveReleaseForm(cfg, sumWarps(consumers)) == ReleaseForm::AllThreads;
}

/// R54 (and R11, X4 on the all-thread form): the TmaAsync consumer side:
/// lane release (per warp, one arrive per CTA of the multicast set) or
/// all-thread release.
static LogicalResult verifyTmaAsyncConsumer(PipelineOp pipe,
                                            ArrayRef<TaskOp> tasks) {
  PipelineConfigAttr cfg = pipe.getConfig();
  if (tasks.empty())
    return success();
  int64_t count = cfg.getEmptyArriveCount();
  if (cfg.getReleaseStride() > 1)
    return verifyLaneRelease(pipe, "R54", tasks,
                             "one lane warp releases each stage once");
  int64_t lanesPerWarp = getLaneReleaseArrivalsPerWarp(cfg);
  int64_t w = sumWarps(tasks);
  // Once tspipe-normalize has recorded the release form, only its count is
  // right.
  std::optional<ReleaseForm> form = pipe.getReleaseForm();
  if (form) {
    int64_t expected =
        *form == ReleaseForm::AllThreads ? 32 * w : w * lanesPerWarp;
    if (count != expected)
      return pipe.emitOpError()
             << "[R54] consumer_group gives " << count
             << " arrivals per stage, but release("
             << stringifyReleaseForm(*form) << ") by the consumer tasks "
             << taskList(tasks) << " makes " << expected
             << "; set consumer_group = <thread, " << expected
             << "> or rerun tspipe-normalize after changing the config";
  }
  if (form ? *form == ReleaseForm::AllThreads
           : isAllThreadRelease(cfg, tasks)) {
    bool ok = true;
    if (cfg.getProducerGroup().getAgent() != Agent::Thread ||
        cfg.getConsumerGroup().getAgent() != Agent::Thread) {
      ok = false;
      pipe.emitOpError() << "[R11] releases with every consumer thread "
                            "(consumer_group = "
                         << count << " = 32 x " << w
                         << " warps), which needs thread-agent producer and "
                            "consumer groups; write both groups as <thread, "
                            "n>";
    }
    if (cfg.getClusterSize() > 1) {
      ok = false;
      pipe.emitOpError()
          << "[X4] releases with every consumer thread (consumer_group = "
          << count << " = 32 x " << w << " warps) on a cluster of "
          << cfg.getClusterSize()
          << " CTAs, but those arrives are local and never reach the "
             "multicast peers' empty barriers; use the lane release "
             "(consumer_group = <thread, "
          << w * lanesPerWarp << ">)";
    }
    return success(ok);
  }
  if (count == w * lanesPerWarp)
    return success();
  // On a cluster the all-thread release is X4's error: propose the lane
  // release only.
  if (cfg.getClusterSize() > 1)
    return pipe.emitOpError()
           << "[R54] consumer_group gives " << count
           << " arrivals per stage, but the consumer tasks " << taskList(tasks)
           << " release with " << w * lanesPerWarp << " arrivals ("
           << lanesPerWarp
           << " per warp, lane release; the all-thread release cannot reach "
              "the other CTAs of the cluster, X4); set consumer_group = "
              "<thread, "
           << w * lanesPerWarp << ">";
  return pipe.emitOpError()
         << "[R54] consumer_group gives " << count
         << " arrivals per stage, but the consumer tasks " << taskList(tasks)
         << " release with " << w * lanesPerWarp << " arrivals ("
         << lanesPerWarp << " per warp, lane release) or " << 32 * w
         << " (every thread, all-thread release); set consumer_group to "
            "one of them";
}

/// R49 and X2: the TmaUmma consumer side. Each release is one tcgen05.commit
/// that arrives once on the empty barrier of every CTA of its multicast
/// mask, so a CTA's empty barrier counts the committing CTAs whose mask
/// holds it: the CTA pairs in its M row or N column (by mcast_mode_mn),
/// times V when both CTAs of a pair commit (signaling all). TS's T or T/V
/// (R49) differs for two-dimensional multicast clusters.
static LogicalResult verifyTmaUmmaConsumer(PipelineOp pipe,
                                           ArrayRef<TaskOp> tasks) {
  PipelineConfigAttr cfg = pipe.getConfig();
  if (tasks.empty())
    return success();
  int64_t count = cfg.getEmptyArriveCount();
  if (cfg.getReleaseStride() > 1)
    return verifyLaneRelease(pipe, "R49", tasks,
                             "one lane releases each stage with one commit");
  int64_t pairs = 1;
  if (cfg.getClusterSize() > 1) {
    ArrayRef<int64_t> mcast = cfg.getMcastModeMn();
    int64_t m = cfg.getM(), n = cfg.getN();
    pairs = mcast[0] && mcast[1] ? m + n - 1 : mcast[0] ? n : m;
  }
  bool leader = has(cfg.getConsumerSignaling(), SignalingThreads::CtaLeader);
  int64_t expected = pairs * (leader ? 1 : cfg.getV());
  if (count == expected)
    return success();
  return pipe.emitOpError()
         << "[X2] consumer_group gives " << count << " arrivals per stage, but "
         << expected << " tcgen05 commits reach each CTA's empty barrier ("
         << pairs << " CTA pair(s) share its multicast row/column"
         << (leader ? ", one commit per pair (cta_leader)"
                    : ", every CTA of a pair commits")
         << "); set consumer_group = <thread, " << expected << ">";
}

/// R51: every consumer thread of a ClcFetchAsync pipeline arrives on CTA 0's
/// empty barrier, from every CTA unless the consumer signaling is exactly
/// cta_leader or the task runs on one CTA.
static LogicalResult verifyClcConsumer(PipelineOp pipe,
                                       ArrayRef<TaskOp> tasks) {
  PipelineConfigAttr cfg = pipe.getConfig();
  if (tasks.empty())
    return success();
  bool leaderOnly = cfg.getConsumerSignaling() == SignalingThreads::CtaLeader;
  int64_t expected = 0;
  for (TaskOp t : tasks)
    expected +=
        32 * t.getNumWarps() *
        (leaderOnly || t.getRunOnlyOnCtaId() ? 1 : cfg.getClusterSize());
  int64_t count = cfg.getEmptyArriveCount();
  if (count == expected)
    return success();
  return pipe.emitOpError()
         << "[R51] consumer_group gives " << count
         << " arrivals per stage, but the consumer threads of "
         << taskList(tasks) << " arrive on CTA 0 " << expected
         << " times (32 x warps, times the " << cfg.getClusterSize()
         << " CTAs of the cluster unless the signaling is cta_leader or the "
            "task has cta(n)); set consumer_group = <thread, "
         << expected << ">";
}

//===----------------------------------------------------------------------===//
// Signaling (R12, R25, R45-R47, X3)
//===----------------------------------------------------------------------===//

static LogicalResult verifySignalingFlags(PipelineOp pipe,
                                          ArrayRef<TaskUse> uses) {
  PipelineConfigAttr cfg = pipe.getConfig();
  // Like TS (manager time), the rules apply to the pipelines the tasks use;
  // a declared, unused pipeline is checked by its config alone.
  if (uses.empty())
    return success();
  bool ok = true;
  if (has(cfg.getProducerSignaling(), SignalingThreads::TaskWarpLeader) &&
      !isTmaProducer(cfg.getPipelineType())) {
    ok = false;
    pipe.emitOpError() << "[R45] producer_signaling has task_warp_leader, "
                          "which only TMA producers (tma_async, tma_umma) "
                          "support; use all or cta_leader";
  }
  std::optional<SignalingThreads> wait = cfg.getConsumerWaitSignaling();
  if (has(cfg.getConsumerSignaling(), SignalingThreads::TaskWarpLeader) ||
      (wait && has(*wait, SignalingThreads::TaskWarpLeader))) {
    ok = false;
    pipe.emitOpError()
        << "[R46] task_warp_leader is producer-side only, but the "
        << (has(cfg.getConsumerSignaling(), SignalingThreads::TaskWarpLeader)
                ? "consumer_signaling"
                : "consumer_wait_signaling")
        << " has it; use all or cta_leader";
  }
  if (wait && llvm::none_of(uses, [](const TaskUse &u) {
        return u.waits && !u.releases;
      })) {
    ok = false;
    pipe.emitOpError()
        << "[R47] consumer_wait_signaling is set, but no task waits on '@"
        << pipe.getSymName()
        << "' without releasing it (a split consumer); remove "
           "consumer_wait_signaling or split the wait and the release into "
           "separate tasks";
  }
  if (isTmaProducer(cfg.getPipelineType()) &&
      has(cfg.getProducerSignaling(), SignalingThreads::TaskWarpLeader) &&
      llvm::none_of(uses, [](const TaskUse &u) { return u.commits; })) {
    ok = false;
    pipe.emitOpError()
        << "[R12] producer_signaling has task_warp_leader, but no task "
           "commits on '@"
        << pipe.getSymName()
        << "', so no producer task provides a leader warp; add a "
           "tspipe.producer_commit to the producer task";
  }
  // R25: a task pinned to one CTA waits only where the wait signaling lets
  // that CTA wait.
  if (getPipelineTypeFacts(cfg.getPipelineType()).waitsBySignaling &&
      !has(cfg.getEffectiveWaitSignaling(), SignalingThreads::CtaLeader))
    for (const TaskUse &use : uses)
      if (use.waits && use.task.getRunOnlyOnCtaId()) {
        ok = false;
        use.task.emitOpError()
            << "[R25] runs on CTA " << *use.task.getRunOnlyOnCtaId()
            << " only and waits on '@" << pipe.getSymName()
            << "', whose wait signaling has no cta_leader; set "
               "consumer_signaling (or consumer_wait_signaling) to "
               "cta_leader";
      }
  return success(ok);
}

/// X3: a tcgen05 side of a CTA pair (V = 2) commits from one CTA of the
/// pair: with both committing, every stage gets two arrivals where the
/// barrier counts one.
static LogicalResult verifyPairCommit(PipelineOp pipe, StringRef side,
                                      ArrayRef<TaskOp> tasks,
                                      SignalingThreads signaling) {
  PipelineConfigAttr cfg = pipe.getConfig();
  if (cfg.getV() != 2 || tasks.empty() ||
      has(signaling, SignalingThreads::CtaLeader) ||
      llvm::all_of(tasks,
                   [](TaskOp t) { return t.getRunOnlyOnCtaId().has_value(); }))
    return success();
  return pipe.emitOpError()
         << "[X3] the " << side << " side commits with tcgen05 on a CTA pair "
         << "(V = 2), but " << side
         << "_signaling = all makes both CTAs of the pair commit; set " << side
         << "_signaling = cta_leader";
}

//===----------------------------------------------------------------------===//
// Transaction bytes (R56)
//===----------------------------------------------------------------------===//

/// R56: where one leader arms the transaction count for several warps or
/// CTAs, num_bytes must be declared per warp per CTA and add up.
static LogicalResult verifyLeaderBytes(PipelineOp pipe, ArrayRef<TaskUse> uses,
                                       ArrayRef<TaskOp> producers) {
  PipelineConfigAttr cfg = pipe.getConfig();
  if (!isTmaProducer(cfg.getPipelineType()) || producers.empty())
    return success();
  int64_t wp = sumWarps(producers);
  bool twlAggregate =
      has(cfg.getProducerSignaling(), SignalingThreads::TaskWarpLeader) &&
      wp > static_cast<int64_t>(producers.size());
  bool leaderConsumer =
      has(cfg.getConsumerSignaling(), SignalingThreads::CtaLeader) ||
      has(cfg.getEffectiveWaitSignaling(), SignalingThreads::CtaLeader) ||
      llvm::any_of(uses, [](const TaskUse &u) {
        return u.waits && u.task.getRunOnlyOnCtaId().has_value();
      });
  bool multiCtaProducer =
      cfg.getClusterSize() > 1 && llvm::any_of(producers, [](TaskOp t) {
        return !t.getRunOnlyOnCtaId().has_value();
      });
  bool leaderRouted = multiCtaProducer && leaderConsumer;
  std::optional<int64_t> perWarp = cfg.getNumBytesPerWarpPerCta();
  if (!perWarp) {
    if (!leaderRouted && !twlAggregate)
      return success();
    return pipe.emitOpError()
           << "[R56] must declare num_bytes_per_warp_per_cta because "
           << (twlAggregate ? "one task_warp_leader warp arms the bytes of "
                              "all warps of its task"
                            : "the leader CTA arms the bytes of the CTAs "
                              "that route to it")
           << "; add num_bytes_per_warp_per_cta = the bytes one warp of one "
              "CTA copies";
  }
  int64_t mult = !leaderRouted ? 1
                 : getPipelineTypeFacts(cfg.getPipelineType()).leaderArmsPair
                     ? cfg.getV()
                     : cfg.getClusterSize();
  // num_bytes_per_warp_per_cta is any positive int64: multiply with
  // overflow checks (an overflowing product never equals num_bytes).
  int64_t perCtas = 0, expected = 0;
  bool overflow = llvm::MulOverflow(*perWarp, mult, perCtas) ||
                  llvm::MulOverflow(perCtas, wp, expected);
  if (!overflow && cfg.getNumBytes() == expected)
    return success();
  if (overflow)
    return pipe.emitOpError()
           << "[R56] num_bytes_per_warp_per_cta " << *perWarp << " x " << mult
           << " x " << wp
           << " producer warps overflows, so it cannot equal num_bytes = "
           << cfg.getNumBytes() << "; declare the bytes one warp of one CTA "
           << "copies";
  return pipe.emitOpError()
         << "[R56] num_bytes = " << cfg.getNumBytes() << ", but "
         << "num_bytes_per_warp_per_cta " << *perWarp << " x " << mult
         << (leaderRouted ? " CTAs routed to the leader" : " CTA") << " x "
         << wp << " producer warps of " << taskList(producers) << " is "
         << expected << "; set num_bytes = " << expected;
}

/// The arrive-count rule `rule` (the pipeline type's row,
/// PipelineTypeFacts.h) on one side of `pipe`, whose tasks that commit
/// (producers) or release (consumers) are `tasks`.
static LogicalResult verifySideCounts(PipelineOp pipe, bool producerSide,
                                      PipeCountRule rule,
                                      ArrayRef<TaskOp> tasks) {
  PipelineConfigAttr cfg = pipe.getConfig();
  StringRef side = producerSide ? "producer" : "consumer";
  int64_t count =
      producerSide ? cfg.getFullArriveCount() : cfg.getEmptyArriveCount();
  int64_t stride =
      producerSide ? cfg.getCommitStride() : cfg.getReleaseStride();
  SignalingThreads sig =
      producerSide ? cfg.getProducerSignaling() : cfg.getConsumerSignaling();
  StringRef tcgen05Why = producerSide
                             ? "each stage is filled by one tcgen05.commit"
                             : "each stage is released by one tcgen05.commit";
  switch (rule) {
  case PipeCountRule::AsyncThreads:
    return verifyAsyncSide(pipe, side, tasks, stride, sig, 1, count);
  case PipeCountRule::AsyncThreadsPerPair: {
    // cp.async arrivals stay on their own CTA (PipelineTypeFacts.h).
    int64_t scale =
        getFillForm(cfg).arrival == PipeArrival::CpAsync && producerSide
            ? 1
            : cfg.getV();
    return verifyAsyncSide(pipe, side, tasks, stride, sig, scale, count);
  }
  case PipeCountRule::Tcgen05Commit:
    return verifySizeOne(pipe, "R48", side, count, tcgen05Why);
  case PipeCountRule::Tcgen05PairCommit: {
    bool ok = succeeded(verifySizeOne(pipe, "R48", side, count, tcgen05Why));
    ok &= succeeded(verifyPairCommit(pipe, side, tasks, sig));
    return success(ok);
  }
  case PipeCountRule::TmaBytes:
    return verifyTmaProducer(pipe, tasks);
  case PipeCountRule::TmaAsyncRelease:
    return verifyTmaAsyncConsumer(pipe, tasks);
  case PipeCountRule::TmaUmmaRelease:
    return verifyTmaUmmaConsumer(pipe, tasks);
  case PipeCountRule::ClcArm:
    return verifySizeOne(pipe, "R50", side, count,
                         "one CLC producer arms each stage of every CTA");
  case PipeCountRule::ClcRelease:
    return verifyClcConsumer(pipe, tasks);
  }
  llvm_unreachable("unknown PipeCountRule");
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

LogicalResult rules::verifySignalingRules(KernelOp kernel,
                                          const KernelUses &kernelUses) {
  bool ok = true;
  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    PipelineConfigAttr cfg = pipe.getConfig();
    ArrayRef<TaskUse> uses = kernelUses.of(pipe.getSymName());
    ok &= succeeded(verifySignalingFlags(pipe, uses));
    if (uses.empty())
      continue;
    SmallVector<TaskOp> producers, consumers;
    for (const TaskUse &use : uses) {
      if (use.commits)
        producers.push_back(use.task);
      if (use.releases)
        consumers.push_back(use.task);
    }
    ok &= succeeded(verifyLeaderBytes(pipe, uses, producers));
    const PipelineTypeFacts &facts =
        getPipelineTypeFacts(cfg.getPipelineType());
    ok &= succeeded(verifySideCounts(pipe, /*producerSide=*/true,
                                     facts.producer.countRule, producers));
    ok &= succeeded(verifySideCounts(pipe, /*producerSide=*/false,
                                     facts.consumer.countRule, consumers));
  }
  return success(ok);
}
