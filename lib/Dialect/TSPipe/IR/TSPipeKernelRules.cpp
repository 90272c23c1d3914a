//===- TSPipeKernelRules.cpp - rules over a whole tspipe.kernel -----------===//
//
// The driver of the kernel-wide rules (each group in its own file, see
// TSPipeRules.h), the facts they share about which task uses which pipeline,
// and the rules of interleaved lanes (R62-R64). They run from KernelOp's
// region verifier, which owns every pipeline and task involved
// (docs/Rules.md).
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeWorkOps.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

//===----------------------------------------------------------------------===//
// Shared facts
//===----------------------------------------------------------------------===//

PipelineOp rules::stagePipeline(Value stage, bool &producerSide) {
  Operation *def = stage.getDefiningOp();
  if (auto op = dyn_cast_or_null<ProducerAcquireOp>(def)) {
    producerSide = true;
    return op.getPipelineOp();
  }
  if (auto op = dyn_cast_or_null<ConsumerWaitOp>(def)) {
    producerSide = false;
    return op.getPipelineOp();
  }
  if (auto op = dyn_cast_or_null<CurrentStageOp>(def)) {
    producerSide = op.getRole() == Role::Producer;
    return op.getPipelineOp();
  }
  return {};
}

KernelUses::KernelUses(KernelOp kernel) {
  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    llvm::MapVector<StringRef, TaskUse> mine; // this task's, in first-use order
    auto useOf = [&](StringRef pipe) -> TaskUse & {
      return mine.try_emplace(pipe, TaskUse{task}).first->second;
    };
    task.walk([&](Operation *op) {
      if (isa<StageIndexOp, FullBarrierOp, EmptyBarrierOp, StageBufferOp>(op)) {
        bool producer = false;
        if (PipelineOp p = stagePipeline(op->getOperand(0), producer)) {
          TaskUse &use = useOf(p.getSymName());
          (producer ? use.producerWork : use.consumerWork) = true;
        }
        return;
      }
      auto ref = op->getAttrOfType<FlatSymbolRefAttr>("pipeline");
      if (!ref || isa<CurrentStageOp, ProducerTailOp>(op))
        return;
      // A group-level bracket acts on every member of its group.
      for (StringRef pipe : getBracketPipelines(op)) {
        TaskUse &use = useOf(pipe);
        use.acquires |= isa<ProducerTryAcquireOp, ProducerAcquireOp>(op);
        use.commits |= isa<ProducerCommitOp>(op);
        use.waits |= isa<ConsumerTryWaitOp, ConsumerWaitOp>(op);
        use.releases |= isa<ConsumerReleaseOp>(op);
      }
    });
    for (auto &[pipe, use] : mine)
      if (use.producerSide() || use.consumerSide())
        byPipe[pipe].push_back(use);
  }
}

ArrayRef<TaskUse> KernelUses::of(StringRef pipeline) const {
  auto it = byPipe.find(pipeline);
  if (it == byPipe.end())
    return {};
  return it->second;
}

int64_t rules::sumWarps(ArrayRef<TaskOp> tasks) {
  int64_t w = 0;
  for (TaskOp t : tasks)
    w += t.getNumWarps();
  return w;
}

std::string rules::taskList(ArrayRef<TaskOp> tasks) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(tasks, os, [&](TaskOp t) {
    os << "@" << t.getSymName() << "[" << t.getNumWarps() << "]";
  });
  return out;
}

/// The constant start of `task`'s domain loop, if it has one.
std::optional<int64_t> rules::constantStart(TaskOp task) {
  DomainLoopOp loop = task.getDomainLoop();
  APInt start;
  if (!loop || !matchPattern(loop.getLowerBound(), m_ConstantInt(&start)))
    return std::nullopt;
  return start.getSExtValue();
}

bool rules::isDomainLane(TaskOp task, int64_t k) {
  DomainLoopOp loop = task.getDomainLoop();
  APInt step;
  return loop && task.getNumWarps() != static_cast<uint64_t>(k) &&
         matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
         step.getSExtValue() == k && constantStart(task).has_value();
}

int64_t mlir::tspipe::getLaneReleaseArrivalsPerWarp(PipelineConfigAttr cfg) {
  if (cfg.getClusterSize() <= 1)
    return 1;
  ArrayRef<int64_t> mcast = cfg.getMcastModeMn();
  int64_t m = cfg.getM(), n = cfg.getN();
  return mcast[0] && mcast[1] ? m + n - 1 : mcast[0] ? n : m;
}

ReleaseForm mlir::tspipe::deriveReleaseForm(PipelineConfigAttr cfg,
                                            int64_t releasingWarps) {
  int64_t w = releasingWarps;
  int64_t count = cfg.getEmptyArriveCount();
  bool allThreads = w > 0 && count == 32 * w &&
                    count != w * getLaneReleaseArrivalsPerWarp(cfg);
  return allThreads ? ReleaseForm::AllThreads : ReleaseForm::Lane;
}

SmallVector<TaskOp> mlir::tspipe::getSplitConsumers(KernelOp kernel,
                                                    StringRef pipeline) {
  SmallVector<TaskOp> tasks;
  for (const TaskUse &use : KernelUses(kernel).of(pipeline))
    if (use.waits && !use.releases)
      tasks.push_back(use.task);
  return tasks;
}

//===----------------------------------------------------------------------===//
// Facts recorded by tspipe-normalize (R54, R66)
//===----------------------------------------------------------------------===//

/// Facts of a kernel marked `normalized` (tspipe-normalize): R66's
/// advance_on_wait, and a release form on exactly the TmaAsync pipelines.
static LogicalResult verifyNormalizedFacts(PipelineOp pipe,
                                           ArrayRef<TaskUse> uses) {
  PipelineConfigAttr cfg = pipe.getConfig();
  bool ok = true;
  for (const TaskUse &use : uses) {
    if (!use.waits || use.releases || cfg.getAdvanceOnWait())
      continue;
    ok = false;
    use.task.emitOpError()
        << "[R66] waits on '@" << pipe.getSymName()
        << "' without releasing it (a split consumer), but its config has "
           "advance_on_wait = false; set advance_on_wait = true so the "
           "wait and the release move separate consumer cursors (as "
           "tspipe-normalize does)";
    break;
  }
  bool hasReleaseForm =
      getPipelineTypeFacts(cfg.getPipelineType()).hasReleaseForm;
  if (hasReleaseForm && !pipe.getReleaseForm()) {
    ok = false;
    pipe.emitOpError()
        << "[R54] is a " << stringifyPipelineType(cfg.getPipelineType())
        << " pipeline of a normalized kernel but has "
           "no release form; add release(lane) or release(all_threads) "
           "(tspipe-normalize records it)";
  }
  // X4 on the recorded form: an all-thread release arrives on each CTA's
  // own empty barrier only, so in a cluster the CTAs whose multicast copies
  // also wrote the stage are never told it is free.
  if (hasReleaseForm && pipe.getReleaseForm() == ReleaseForm::AllThreads &&
      cfg.getClusterSize() > 1) {
    ok = false;
    pipe.emitOpError()
        << "[X4] release(all_threads) across a " << cfg.getClusterSize()
        << "-CTA cluster: every consumer thread would arrive on its own "
           "CTA's empty barrier only, so the CTAs whose multicast copies "
           "also wrote the stage are never told it is free; give "
           "consumer_group the lane-release count (one arrive per consumer "
           "warp and CTA of the multicast set, "
        << getLaneReleaseArrivalsPerWarp(cfg)
        << " per warp) so that each warp's lanes signal the peers";
  }
  if (!hasReleaseForm && pipe.getReleaseForm()) {
    ok = false;
    pipe.emitOpError()
        << "[R54] has release(" << stringifyReleaseForm(*pipe.getReleaseForm())
        << ") but is a " << stringifyPipelineType(cfg.getPipelineType())
        << " pipeline; the release form applies to tma_async pipelines "
           "only, remove it";
  }
  return success(ok);
}

SmallVector<TaskOp> mlir::tspipe::getReleasingTasks(KernelOp kernel,
                                                    StringRef pipeline) {
  SmallVector<TaskOp> tasks;
  for (const TaskUse &use : KernelUses(kernel).of(pipeline))
    if (use.releases)
      tasks.push_back(use.task);
  return tasks;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

LogicalResult mlir::tspipe::verifyKernelRules(KernelOp kernel) {
  // Every group runs, so that one verification lists every broken rule.
  bool ok = true;
  KernelUses uses(kernel);
  if (kernel.getNormalized())
    for (auto pipe : kernel.getBody().getOps<PipelineOp>())
      ok &= succeeded(verifyNormalizedFacts(pipe, uses.of(pipe.getSymName())));
  ok &= succeeded(verifyTargetRules(kernel));
  ok &= succeeded(verifyBudgetRules(kernel));
  ok &= succeeded(verifyBracketRules(kernel, uses));
  ok &= succeeded(verifyLaneRules(kernel, uses));
  ok &= succeeded(verifySignalingRules(kernel, uses));
  ok &= succeeded(verifyCopyRules(kernel));
  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    ok &= succeeded(verifyBothSidesUsed(pipe, uses.of(pipe.getSymName())));
    ok &= succeeded(verifyBytesArmed(pipe, uses.of(pipe.getSymName())));
  }
  ok &= succeeded(verifyGroupRules(kernel));
  ok &= succeeded(verifyForkArmRules(kernel));
  ok &= succeeded(verifyBarrierRules(kernel));
  ok &= succeeded(verifyWorkOpAttrs(kernel));
  ok &= succeeded(verifyStageLifetimeRules(kernel));
  ok &= succeeded(verifyAsyncReadRules(kernel));
  ok &= succeeded(verifyWorkQueueRules(kernel));
  ok &= succeeded(verifyDependencyRules(kernel));
  ok &= succeeded(verifyAliasRules(kernel));
  ok &= succeeded(verifyPlacementRules(kernel));
  ok &= succeeded(verifyRoutingRules(kernel));
  ok &= succeeded(verifyUniformityRules(kernel, uses));
  ok &= succeeded(verifyPdlRules(kernel));
  ok &= succeeded(verifyGuardRules(kernel));
  return success(ok);
}
