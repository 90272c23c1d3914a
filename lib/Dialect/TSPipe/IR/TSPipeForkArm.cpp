//===- TSPipeForkArm.cpp - bytes of a fork group's shared full barrier ----===//
//
// A fork group's members share one full barrier per stage. Whether the
// producer fills every member with a copy of its own or issues one load
// that every member's consumers read (CUTLASS TS tutorial 7,
// `fork_load_gemm_act`), the barrier must expect what the copies completing
// on it deliver: the members' common num_bytes times the members filled
// (docs/Rules.md, R68). This file decides that count (getForkArm, used by
// the lowering's arm) and checks it where the IR shows both the copies and
// an explicit group config (rule X6).
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/TSPipeForkArm.h"
#include "TSPipeRules.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

/// How one member's producer bracket fills its stage.
enum class Fill {
  /// The bracket does not take the stage's full barrier: another member's
  /// load fills what its consumers read (or the work is not shown).
  None,
  /// Every use of the full barrier is a bulk copy of constant size without
  /// multicast.
  Copies,
  /// Some use the check cannot count (tensor copy, multicast, a call).
  Opaque,
};

Fill fillOf(ProducerAcquireOp acquire) {
  rules::StageCopies stage = rules::getStageCopies(acquire);
  if (!stage.counted)
    return Fill::Opaque;
  return stage.copies.empty() ? Fill::None : Fill::Copies;
}

/// The members' common num_bytes (R67 makes them equal).
int64_t commonBytes(PipelineGroupOp group) {
  for (Attribute m : group.getMembers())
    if (PipelineOp pipe = lookupPipeline(group, cast<FlatSymbolRefAttr>(m)))
      return pipe.getConfig().getNumBytes();
  return 0;
}

/// For each producer task of `group`, the members its brackets fill with
/// copies of their own, or nullopt when some bracket's copies are opaque or
/// none is shown.
struct TaskFill {
  mutable TaskOp task; // op handles are not const-callable
  std::optional<int64_t> filled;
  Operation *first = nullptr; // an acquire whose bracket shows copies
};

SmallVector<TaskFill> taskFills(PipelineGroupOp group) {
  SmallVector<TaskFill> out;
  auto kernel = group->getParentOfType<KernelOp>();
  if (!kernel)
    return out;
  StringRef name = group.getSymName();
  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    llvm::StringSet<> members;
    bool opaque = false, touched = false;
    Operation *first = nullptr;
    task.walk([&](ProducerAcquireOp acquire) {
      FlatSymbolRefAttr g = acquire.getGroupAttr();
      if (!g || g.getValue() != name)
        return;
      touched = true;
      switch (fillOf(acquire)) {
      case Fill::None:
        break;
      case Fill::Copies:
        members.insert(acquire.getPipelineAttr().getValue());
        if (!first)
          first = acquire;
        break;
      case Fill::Opaque:
        opaque = true;
        break;
      }
    });
    if (!touched)
      continue;
    TaskFill tf{task, std::nullopt, first};
    if (!opaque && !members.empty())
      tf.filled = static_cast<int64_t>(members.size());
    out.push_back(tf);
  }
  return out;
}

} // namespace

ForkArm mlir::tspipe::getForkArm(PipelineGroupOp group) {
  ForkArm arm;
  int64_t common = commonBytes(group);
  for (const TaskFill &tf : taskFills(group))
    if (tf.filled) {
      arm.filled = *tf.filled;
      arm.bytes = common * arm.filled;
      arm.fromCopies = true;
      arm.decidedBy = tf.first;
      return arm;
    }
  // TS's rule where the copies are not visible: the group config's
  // num_bytes (R68 keeps an explicit one a multiple of the common value),
  // else the members' common num_bytes (TS 4.8.1's derived fork config).
  std::optional<PipelineConfigAttr> cfg = group.getConfig();
  arm.bytes = cfg ? cfg->getNumBytes() : common;
  arm.filled = common > 0 ? std::max<int64_t>(1, arm.bytes / common) : 1;
  return arm;
}

/// X6 for the fork groups of `kernel`: producer tasks that fill different
/// numbers of members disagree on the shared barrier's bytes, and an
/// explicit group config must name the bytes the visible copies deliver.
LogicalResult mlir::tspipe::rules::verifyForkArmRules(KernelOp kernel) {
  bool ok = true;
  for (auto group : kernel.getBody().getOps<PipelineGroupOp>()) {
    if (group.getMode() != GroupMode::Fork)
      continue;
    int64_t common = commonBytes(group);
    if (common == 0)
      continue;
    SmallVector<TaskFill> fills = taskFills(group);
    const TaskFill *ref = nullptr;
    for (const TaskFill &tf : fills) {
      if (!tf.filled)
        continue;
      if (!ref) {
        ref = &tf;
        continue;
      }
      if (*tf.filled == *ref->filled)
        continue;
      ok = false;
      tf.first->emitOpError()
          << "[X6] task '@" << tf.task.getSymName() << "' fills " << *tf.filled
          << " members of fork group '@" << group.getSymName()
          << "' with copies of their own but task '@" << ref->task.getSymName()
          << "' fills " << *ref->filled
          << ", so the shared full barrier would expect "
          << *ref->filled * common << " bytes from one and "
          << *tf.filled * common
          << " from the other; fill the same members in every producer task";
    }
    std::optional<PipelineConfigAttr> cfg = group.getConfig();
    if (!ref || !cfg)
      continue;
    int64_t delivered = *ref->filled * common;
    if (cfg->getNumBytes() == delivered)
      continue;
    ok = false;
    ref->first->emitOpError()
        << "[X6] the copies of this bracket fill " << *ref->filled
        << " member(s) of fork group '@" << group.getSymName()
        << "', delivering " << delivered
        << " bytes per stage to its shared full barrier, but the group "
           "config has num_bytes = "
        << cfg->getNumBytes() << ", so the barrier's phase "
        << (delivered < cfg->getNumBytes() ? "never completes"
                                           : "completes before every copy "
                                             "lands")
        << "; set the group config's num_bytes = " << delivered;
  }
  return success(ok);
}
