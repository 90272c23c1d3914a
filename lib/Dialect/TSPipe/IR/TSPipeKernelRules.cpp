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
      if (isa<StageIndexOp, FullBarrierOp, EmptyBarrierOp, StageBufferOp>(
              op)) {
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
static std::optional<int64_t> constantStart(TaskOp task) {
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
// Interleaved lanes (R62-R64)
//===----------------------------------------------------------------------===//

namespace {
struct LaneRole {
  const char *name;
  int64_t stride;
  bool (*uses)(const TaskUse &);
};
} // namespace

/// R62: every task using a role with stride k > 1 owns exactly one warp per
/// lane (num_warps == k) or one lane as a whole (domain-lane mode, lane
/// start in [0, k)).
static LogicalResult verifyLaneOwnership(PipelineOp pipe,
                                         ArrayRef<TaskUse> uses,
                                         ArrayRef<LaneRole> roles) {
  bool ok = true;
  llvm::SmallPtrSet<Operation *, 4> reported; // one report per task
  for (const LaneRole &role : roles) {
    if (role.stride <= 1)
      continue;
    for (const TaskUse &use : uses) {
      if (!role.uses(use) || reported.contains(use.task))
        continue;
      TaskOp task = use.task;
      if (task.getNumWarps() == static_cast<uint64_t>(role.stride))
        continue;
      if (isDomainLane(task, role.stride)) {
        int64_t start = *constantStart(task);
        if (start >= 0 && start < role.stride)
          continue;
        ok = false;
        reported.insert(task);
        task.emitOpError()
            << "[R62] drives lane " << start << " of the " << role.name
            << " role of '@" << pipe.getSymName()
            << "' (its domain loop starts at " << start
            << "), but interleave_stride " << role.stride << " has lanes 0 to "
            << role.stride - 1 << "; start the domain loop at the lane, in [0, "
            << role.stride << ")";
        continue;
      }
      ok = false;
      reported.insert(task);
      task.emitOpError()
          << "[R62] uses the " << role.name << " role of '@"
          << pipe.getSymName() << "' with interleave_stride " << role.stride
          << " but has " << task.getNumWarps()
          << " warps; give the task exactly " << role.stride
          << " warps (one per lane) or step its domain loop by "
          << role.stride << " from a constant start (one lane per task)";
    }
  }
  return success(ok);
}

/// R63 and R64: with different opening and closing strides on one side, no
/// task plays both roles of that side (R64), and no task drives either of
/// them in domain-lane mode (R63): the two roles would need separate lane
/// cursors in one task.
static LogicalResult verifyAsymmetricSides(PipelineOp pipe,
                                           ArrayRef<TaskUse> uses,
                                           ArrayRef<LaneRole> roles) {
  bool ok = true;
  for (unsigned side = 0; side < 2; ++side) {
    const LaneRole &open = roles[2 * side], &close = roles[2 * side + 1];
    if (open.stride == close.stride)
      continue;
    for (const TaskUse &use : uses) {
      bool opens = open.uses(use), closes = close.uses(use);
      if (opens && closes) {
        ok = false;
        use.task.emitOpError()
            << "[R64] plays both the " << open.name << " (stride "
            << open.stride << ") and the " << close.name << " (stride "
            << close.stride << ") roles of '@" << pipe.getSymName()
            << "'; split the two roles into separate tasks";
        continue;
      }
      for (const LaneRole *role : {&open, &close}) {
        bool playsRole = role == &open ? opens : closes;
        if (!playsRole || role->stride <= 1 ||
            use.task.getNumWarps() == static_cast<uint64_t>(role->stride) ||
            !isDomainLane(use.task, role->stride))
          continue;
        ok = false;
        use.task.emitOpError()
            << "[R63] drives the " << role->name << " role of '@"
            << pipe.getSymName()
            << "' in domain-lane mode, but its strides differ ("
            << open.name << " " << open.stride << ", " << close.name << " "
            << close.stride
            << "); domain lanes need equal opening and closing strides: give "
               "the task one warp per lane, or make the two strides equal";
      }
    }
  }
  return success(ok);
}

LogicalResult rules::verifyLaneRules(KernelOp kernel,
                                     const KernelUses &kernelUses) {
  bool ok = true;
  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    PipelineConfigAttr cfg = pipe.getConfig();
    LaneRole roles[] = {
        {"producer_acquire", cfg.getAcquireStride(),
         [](const TaskUse &u) { return u.usesAcquireRole(); }},
        {"producer_commit", cfg.getCommitStride(),
         [](const TaskUse &u) { return u.commits; }},
        {"consumer_wait", cfg.getWaitStride(),
         [](const TaskUse &u) { return u.usesWaitRole(); }},
        {"consumer_release", cfg.getReleaseStride(),
         [](const TaskUse &u) { return u.releases; }}};
    ArrayRef<TaskUse> uses = kernelUses.of(pipe.getSymName());
    ok &= succeeded(verifyLaneOwnership(pipe, uses, roles));
    ok &= succeeded(verifyAsymmetricSides(pipe, uses, roles));
  }
  return success(ok);
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
  ok &= succeeded(verifyGroupRules(kernel));
  ok &= succeeded(verifyForkArmRules(kernel));
  ok &= succeeded(verifyBarrierRules(kernel));
  ok &= succeeded(verifyWorkOpAttrs(kernel));
  ok &= succeeded(verifyStageLifetimeRules(kernel));
  return success(ok);
}
