//===- TSPipeLaneRules.cpp - interleaved lanes (R62-R64) ------------------===//
//
// The rules over the tasks that drive an interleaved pipeline's roles: each
// lane of a strided role is owned by one warp or one whole task (R62), and
// the sides of a pipeline agree on their lanes (R63, R64). Run by the
// kernel verifier (TSPipeRules.h).
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

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
        task.emitOpError() << "[R62] drives lane " << start << " of the "
                           << role.name << " role of '@" << pipe.getSymName()
                           << "' (its domain loop starts at " << start
                           << "), but interleave_stride " << role.stride
                           << " has lanes 0 to " << role.stride - 1
                           << "; start the domain loop at the lane, in [0, "
                           << role.stride << ")";
        continue;
      }
      ok = false;
      reported.insert(task);
      task.emitOpError() << "[R62] uses the " << role.name << " role of '@"
                         << pipe.getSymName() << "' with interleave_stride "
                         << role.stride << " but has " << task.getNumWarps()
                         << " warps; give the task exactly " << role.stride
                         << " warps (one per lane) or step its domain loop by "
                         << role.stride
                         << " from a constant start (one lane per task)";
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
            << "' in domain-lane mode, but its strides differ (" << open.name
            << " " << open.stride << ", " << close.name << " " << close.stride
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
    LaneRole roles[] = {{"producer_acquire", cfg.getAcquireStride(),
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
