//===- TSPipeKernelRules.cpp - rules over a whole tspipe.kernel -----------===//
//
// Rules that relate a pipeline's configuration to the tasks that use it:
// arrive counts of the async-thread sides (R52), the TMA producer side (R53)
// and the TmaAsync consumer side (R54), and lane ownership of interleaved
// roles (R62). They run from KernelOp's region verifier, which owns every
// pipeline and task involved (docs/Rules.md).
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

#include <map>

using namespace mlir;
using namespace mlir::tspipe;

namespace {

/// The bracket roles one task plays on one pipeline.
struct TaskUse {
  TaskOp task;
  bool acquires = false; // producer_try_acquire / producer_acquire
  bool commits = false;  // producer_commit
  bool waits = false;    // consumer_try_wait / consumer_wait
  bool releases = false; // consumer_release
};

/// The uses of every pipeline of `kernel`, in task order, from one walk
/// over the tasks (the kernel rules stay linear in the kernel's size).
llvm::StringMap<SmallVector<TaskUse>> collectAllUses(KernelOp kernel) {
  llvm::StringMap<SmallVector<TaskUse>> all;
  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    llvm::MapVector<StringRef, TaskUse> mine;
    task.walk([&](Operation *op) {
      auto ref = op->getAttrOfType<FlatSymbolRefAttr>("pipeline");
      if (!ref)
        return;
      bool acquires = isa<ProducerTryAcquireOp, ProducerAcquireOp>(op);
      bool commits = isa<ProducerCommitOp>(op);
      bool waits = isa<ConsumerTryWaitOp, ConsumerWaitOp>(op);
      bool releases = isa<ConsumerReleaseOp>(op);
      if (!(acquires || commits || waits || releases))
        return;
      TaskUse &use = mine.try_emplace(ref.getValue(), TaskUse{task})
                         .first->second;
      use.acquires |= acquires;
      use.commits |= commits;
      use.waits |= waits;
      use.releases |= releases;
    });
    for (auto &[name, use] : mine)
      all[name].push_back(use);
  }
  return all;
}

SmallVector<TaskUse> collectUses(KernelOp kernel, StringRef pipe) {
  SmallVector<TaskUse> uses;
  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    TaskUse use{task};
    task.walk([&](Operation *op) {
      auto ref = op->getAttrOfType<FlatSymbolRefAttr>("pipeline");
      if (!ref || ref.getValue() != pipe)
        return;
      use.acquires |= isa<ProducerTryAcquireOp, ProducerAcquireOp>(op);
      use.commits |= isa<ProducerCommitOp>(op);
      use.waits |= isa<ConsumerTryWaitOp, ConsumerWaitOp>(op);
      use.releases |= isa<ConsumerReleaseOp>(op);
    });
    if (use.acquires || use.commits || use.waits || use.releases)
      uses.push_back(use);
  }
  return uses;
}

int64_t sumWarps(ArrayRef<TaskOp> tasks) {
  int64_t w = 0;
  for (TaskOp t : tasks)
    w += t.getNumWarps();
  return w;
}

std::string taskList(ArrayRef<TaskOp> tasks) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(tasks, os, [&](TaskOp t) {
    os << "@" << t.getSymName() << "[" << t.getNumWarps() << "]";
  });
  return out;
}

/// True when `task` drives a role of stride `k` in domain-lane mode: its
/// warps share one lane and its domain loop steps by `k` (ts rule R62).
bool isDomainLane(TaskOp task, int64_t k) {
  DomainLoopOp loop = task.getDomainLoop();
  APInt step, start;
  return loop && task.getNumWarps() != static_cast<uint64_t>(k) &&
         matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
         step.getSExtValue() == k &&
         matchPattern(loop.getLowerBound(), m_ConstantInt(&start));
}

/// R62: every task using a role with stride k > 1 owns exactly one warp per
/// lane (num_warps == k) or one lane as a whole (domain-lane mode).
LogicalResult verifyLaneOwnership(PipelineOp pipe, ArrayRef<TaskUse> uses) {
  PipelineConfigAttr cfg = pipe.getConfig();
  struct Role {
    const char *name;
    int64_t stride;
    bool TaskUse::*uses;
  } roles[] = {{"producer_acquire", cfg.getAcquireStride(), &TaskUse::acquires},
               {"producer_commit", cfg.getCommitStride(), &TaskUse::commits},
               {"consumer_wait", cfg.getWaitStride(), &TaskUse::waits},
               {"consumer_release", cfg.getReleaseStride(),
                &TaskUse::releases}};
  for (const Role &role : roles) {
    if (role.stride <= 1)
      continue;
    for (const TaskUse &use : uses) {
      if (!(use.*role.uses))
        continue;
      TaskOp task = use.task;
      if (task.getNumWarps() == static_cast<uint64_t>(role.stride) ||
          isDomainLane(task, role.stride))
        continue;
      return task.emitOpError()
             << "[R62] uses the " << role.name << " role of '@"
             << pipe.getSymName() << "' with interleave_stride "
             << role.stride << " but has " << task.getNumWarps()
             << " warps; give the task exactly " << role.stride
             << " warps (one per lane) or step its domain loop by "
             << role.stride << " from a constant start (one lane per task)";
    }
  }
  return success();
}

/// R52: arrive counts of an async-thread side (every thread of the side's
/// tasks arrives; scale V for the sides that arrive on a CTA pair).
LogicalResult verifyAsyncSide(PipelineOp pipe, StringRef side,
                              ArrayRef<TaskOp> tasks, int64_t closingStride,
                              SignalingThreads signaling, int64_t scale,
                              int64_t count) {
  if (tasks.empty())
    return success();
  int64_t s =
      bitEnumContainsAny(signaling, SignalingThreads::CtaLeader) ? 1 : scale;
  // Domain-lane tasks (one lane per task) count per lane: each stage is
  // released by the tasks of its lane only.
  if (closingStride > 1 &&
      llvm::any_of(tasks, [&](TaskOp t) {
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
               << expected << " threads; set " << side
               << "_group = <thread, " << expected << ">";
    }
    return success();
  }
  int64_t w = closingStride > 1 ? 1
              : bitEnumContainsAny(signaling, SignalingThreads::TaskWarpLeader)
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
         << (s != 1 ? " x " + std::to_string(s) : std::string())
         << "); set " << side << "_group = <thread, " << expected << ">";
}

/// R53: the TMA producer side. One elected thread per producer warp arms
/// the full barrier (or one per task with task_warp_leader, one per lane
/// when interleaved).
LogicalResult verifyTmaProducer(PipelineOp pipe, ArrayRef<TaskOp> tasks) {
  PipelineConfigAttr cfg = pipe.getConfig();
  if (tasks.empty())
    return success();
  int64_t k = cfg.getCommitStride();
  bool twl = bitEnumContainsAny(cfg.getProducerSignaling(),
                                SignalingThreads::TaskWarpLeader);
  for (TaskOp t : tasks) {
    if (t.getNumWarps() <= 1)
      continue;
    if (k <= 1 && !twl)
      return t.emitOpError()
             << "[R53] is a " << t.getNumWarps()
             << "-warp TMA producer of '@" << pipe.getSymName()
             << "': each warp would arm the full barrier; use "
                "interleave_stride > 1 (one stage per warp) or "
                "producer_signaling = task_warp_leader (one arm per task)";
    if (k > 1 && twl)
      return t.emitOpError()
             << "[R53] is a multi-warp TMA producer of '@" << pipe.getSymName()
             << "' with both interleave_stride " << k
             << " and task_warp_leader; choose one of them";
  }
  int64_t expected = k > 1 ? 1
                     : twl ? static_cast<int64_t>(tasks.size())
                           : sumWarps(tasks);
  int64_t count = cfg.getFullArriveCount();
  if (count == expected)
    return success();
  return pipe.emitOpError()
         << "[R53] producer_group gives " << count
         << " arrivals per stage, but the TMA producer tasks "
         << taskList(tasks) << " arm each stage " << expected
         << (k > 1 ? " time (one lane warp)"
             : twl ? " time(s) (one per task)"
                   : " time(s) (one per warp)")
         << "; set producer_group = <thread, " << expected << ">";
}

/// R54: the TmaAsync consumer side: lane release (per warp, one arrive per
/// CTA of the multicast set) or all-thread release.
LogicalResult verifyTmaAsyncConsumer(PipelineOp pipe, ArrayRef<TaskOp> tasks) {
  PipelineConfigAttr cfg = pipe.getConfig();
  if (tasks.empty())
    return success();
  int64_t count = cfg.getEmptyArriveCount();
  if (cfg.getReleaseStride() > 1) {
    if (count == 1)
      return success();
    return pipe.emitOpError()
           << "[R54] consumer_group gives " << count
           << " arrivals per stage, but with consumer_release "
              "interleave_stride "
           << cfg.getReleaseStride()
           << " one lane warp releases each stage once; set consumer_group "
              "= <thread, 1>";
  }
  int64_t lanesPerWarp = getLaneReleaseArrivalsPerWarp(cfg);
  int64_t w = sumWarps(tasks);
  // Once tspipe-normalize has recorded the release form, only its count
  // is right.
  std::optional<ReleaseForm> form = pipe.getReleaseForm();
  if (form) {
    int64_t expected =
        *form == ReleaseForm::AllThreads ? 32 * w : w * lanesPerWarp;
    if (count == expected)
      return success();
    return pipe.emitOpError()
           << "[R54] consumer_group gives " << count
           << " arrivals per stage, but release(" << stringifyReleaseForm(*form)
           << ") by the consumer tasks " << taskList(tasks) << " makes "
           << expected << "; set consumer_group = <thread, " << expected
           << "> or rerun tspipe-normalize after changing the config";
  }
  if (count == w * lanesPerWarp || count == 32 * w)
    return success();
  return pipe.emitOpError()
         << "[R54] consumer_group gives " << count
         << " arrivals per stage, but the consumer tasks " << taskList(tasks)
         << " release with " << w * lanesPerWarp << " arrivals ("
         << lanesPerWarp << " per warp, lane release) or " << 32 * w
         << " (every thread, all-thread release); set consumer_group to "
            "one of them";
}

} // namespace

int64_t mlir::tspipe::getLaneReleaseArrivalsPerWarp(PipelineConfigAttr cfg) {
  if (cfg.getClusterSize() <= 1)
    return 1;
  ArrayRef<int64_t> mcast = cfg.getMcastModeMn();
  int64_t m = cfg.getM(), n = cfg.getN();
  return mcast[0] && mcast[1] ? m + n - 1 : mcast[0] ? n : m;
}

SmallVector<TaskOp> mlir::tspipe::getSplitConsumers(KernelOp kernel,
                                                    StringRef pipeline) {
  SmallVector<TaskOp> tasks;
  for (const TaskUse &use : collectUses(kernel, pipeline))
    if (use.waits && !use.releases)
      tasks.push_back(use.task);
  return tasks;
}

/// Facts of a kernel marked `normalized` (tspipe-normalize): R66's
/// advance_on_wait, and a release form on exactly the TmaAsync pipelines.
static LogicalResult verifyNormalizedFacts(PipelineOp pipe,
                                           ArrayRef<TaskUse> uses) {
  PipelineConfigAttr cfg = pipe.getConfig();
  SmallVector<TaskOp> split;
  for (const TaskUse &use : uses)
    if (use.waits && !use.releases)
      split.push_back(use.task);
  if (!split.empty() && !cfg.getAdvanceOnWait())
    return split.front().emitOpError()
           << "[R66] waits on '@" << pipe.getSymName()
           << "' without releasing it (a split consumer), but its config has "
              "advance_on_wait = false; set advance_on_wait = true so the "
              "wait and the release move separate consumer cursors (as "
              "tspipe-normalize does)";
  bool isTmaAsync = cfg.getPipelineType() == PipelineType::TmaAsync;
  if (isTmaAsync && !pipe.getReleaseForm())
    return pipe.emitOpError()
           << "[R54] is a tma_async pipeline of a normalized kernel but has "
              "no release form; add release(lane) or release(all_threads) "
              "(tspipe-normalize records it)";
  if (!isTmaAsync && pipe.getReleaseForm())
    return pipe.emitOpError()
           << "has release(" << stringifyReleaseForm(*pipe.getReleaseForm())
           << ") but is a "
           << stringifyPipelineType(cfg.getPipelineType())
           << " pipeline; the release form applies to tma_async pipelines "
              "only, remove it";
  return success();
}

SmallVector<TaskOp> mlir::tspipe::getReleasingTasks(KernelOp kernel,
                                                    StringRef pipeline) {
  SmallVector<TaskOp> tasks;
  for (const TaskUse &use : collectUses(kernel, pipeline))
    if (use.releases)
      tasks.push_back(use.task);
  return tasks;
}

LogicalResult mlir::tspipe::verifyKernelRules(KernelOp kernel) {
  llvm::StringMap<SmallVector<TaskUse>> allUses = collectAllUses(kernel);
  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    PipelineConfigAttr cfg = pipe.getConfig();
    SmallVector<TaskUse> &uses = allUses[pipe.getSymName()];
    if (kernel.getNormalized() && failed(verifyNormalizedFacts(pipe, uses)))
      return failure();
    if (failed(verifyLaneOwnership(pipe, uses)))
      return failure();
    SmallVector<TaskOp> producers, consumers;
    for (const TaskUse &use : uses) {
      if (use.commits)
        producers.push_back(use.task);
      if (use.releases)
        consumers.push_back(use.task);
    }
    int64_t v = cfg.getV();
    switch (cfg.getPipelineType()) {
    case PipelineType::AsyncAsync:
      if (failed(verifyAsyncSide(pipe, "producer", producers,
                                 cfg.getCommitStride(),
                                 cfg.getProducerSignaling(), 1,
                                 cfg.getFullArriveCount())) ||
          failed(verifyAsyncSide(pipe, "consumer", consumers,
                                 cfg.getReleaseStride(),
                                 cfg.getConsumerSignaling(), 1,
                                 cfg.getEmptyArriveCount())))
        return failure();
      break;
    case PipelineType::AsyncUmma: {
      int64_t scale =
          cfg.getUmmaConsumerProducerOp() == PipelineOpKind::AsyncLoad ? 1 : v;
      if (failed(verifyAsyncSide(pipe, "producer", producers,
                                 cfg.getCommitStride(),
                                 cfg.getProducerSignaling(), scale,
                                 cfg.getFullArriveCount())))
        return failure();
      break;
    }
    case PipelineType::UmmaAsync:
      if (failed(verifyAsyncSide(pipe, "consumer", consumers,
                                 cfg.getReleaseStride(),
                                 cfg.getConsumerSignaling(), v,
                                 cfg.getEmptyArriveCount())))
        return failure();
      break;
    case PipelineType::TmaAsync:
      if (failed(verifyTmaProducer(pipe, producers)) ||
          failed(verifyTmaAsyncConsumer(pipe, consumers)))
        return failure();
      break;
    case PipelineType::TmaUmma:
      if (failed(verifyTmaProducer(pipe, producers)))
        return failure();
      break;
    case PipelineType::UmmaUmma:
    case PipelineType::ClcFetchAsync:
      break;
    }
  }
  return success();
}
