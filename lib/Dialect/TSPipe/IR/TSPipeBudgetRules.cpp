//===- TSPipeBudgetRules.cpp - register and tensor-memory budgets ---------===//
//
// Per-CTA budgets the tasks of a kernel share: register counts per
// warpgroup (R41, B22) and the register file (R42), and tensor-memory
// columns (R44). Sources: TS rules R41, R42, R44 (docs/Rules.md); PTX ISA,
// setmaxnreg (`.sync.aligned` over the 4 warps of a warpgroup) and
// tcgen05.alloc (512 columns per SM).
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/AliasLayout.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

/// Registers per SM available to one CTA (the register file, 32-bit
/// registers).
static constexpr int64_t kRegisterFile = 65536;
/// Tensor-memory columns of an SM.
static constexpr int64_t kTmemColumns = 512;

int64_t mlir::tspipe::getDefaultRegistersPerThread(int64_t numWarps) {
  int64_t warps = llvm::alignTo(numWarps, 4);
  return (kRegisterFile / (warps * 32 * 8)) * 8;
}

/// TS's default registers per thread of `kernel` (R42).
static int64_t defaultRegisters(KernelOp kernel) {
  return getDefaultRegistersPerThread(kernel.getNumWarps());
}

/// The tasks that run on CTA `rank` of the cluster (all but those pinned to
/// another CTA with cta(n)).
static SmallVector<TaskOp> tasksOnCta(KernelOp kernel, int64_t rank) {
  SmallVector<TaskOp> tasks;
  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    IntegerAttr cta = task.getRunOnlyOnCtaIdAttr();
    if (!cta || cta.getInt() == rank)
      tasks.push_back(task);
  }
  return tasks;
}

/// R41: setmaxnreg is executed by all 4 warps of a warpgroup together, so
/// the tasks on one warpgroup of a CTA agree on the count and cover it
/// whole.
static LogicalResult
verifyWarpgroups(KernelOp kernel, ArrayRef<TaskOp> onCta, int64_t rank,
                 llvm::SmallPtrSetImpl<Operation *> &seen) {
  // In a cluster the tasks on a warpgroup may differ between CTAs (cta(n)):
  // the diagnostic names the CTA.
  std::string where = kernel.getNumCtasInCluster() > 1
                          ? " of CTA " + std::to_string(rank)
                          : std::string();
  SmallVector<TaskOp> setters;
  for (TaskOp task : onCta)
    if (task.getNumRegisters())
      setters.push_back(task);
  bool ok = true;
  int64_t numWarps = kernel.getNumWarps();
  for (int64_t group = 0; group * 4 < numWarps; ++group) {
    int64_t first = 4 * group, last = first + 4; // [first, last)
    TaskOp ref;
    for (TaskOp t : setters) {
      int64_t tFirst = t.getWarpIdx(), tLast = tFirst + t.getNumWarps();
      if (tLast <= first || tFirst >= last)
        continue;
      if (!ref) {
        ref = t;
        continue;
      }
      if (*t.getNumRegisters() != *ref.getNumRegisters()) {
        ok = false;
        if (seen.insert(t).second)
          t.emitOpError() << "[R41] registers(" << *t.getNumRegisters()
                          << ") differs from registers("
                          << *ref.getNumRegisters() << ") of task '@"
                          << ref.getSymName() << "' in warpgroup " << group
                          << " (warps " << first << "-" << last - 1 << ")"
                          << where
                          << "; setmaxnreg applies to a whole warpgroup, so "
                             "give every task of the warpgroup the same "
                             "count";
      }
    }
    if (!ref)
      continue;
    for (int64_t w = first; w < last; ++w) {
      bool covered = llvm::any_of(setters, [&](TaskOp t) {
        return w >= static_cast<int64_t>(t.getWarpIdx()) &&
               w < static_cast<int64_t>(t.getWarpIdx() + t.getNumWarps());
      });
      if (covered)
        continue;
      ok = false;
      if (seen.insert(ref).second)
        ref.emitOpError()
            << "[R41] sets registers(" << *ref.getNumRegisters()
            << ") in warpgroup " << group << " (warps " << first << "-"
            << last - 1 << ")" << where << ", but warp " << w
            << (w < numWarps ? " is in no task that sets registers"
                             : " is not part of the kernel")
            << "; setmaxnreg needs all 4 warps of the warpgroup: cover them "
               "with register-setting tasks";
      break;
    }
  }
  return success(ok);
}

/// R42: the per-thread counts of the tasks on one CTA fit the register file,
/// and the decreases pay for the increases.
static LogicalResult verifyRegisterBudget(KernelOp kernel,
                                          ArrayRef<TaskOp> onCta, int64_t rank,
                                          int64_t numCtas) {
  int64_t def = defaultRegisters(kernel);
  int64_t total = 0, balance = 0;
  bool any = false;
  for (TaskOp task : onCta) {
    int64_t warps = task.getNumWarps();
    std::optional<uint64_t> regs = task.getNumRegisters();
    any |= regs.has_value();
    int64_t r = regs ? static_cast<int64_t>(*regs) : def;
    total += warps * 32 * r;
    if (regs)
      balance += warps * (def - r);
  }
  if (!any)
    return success();
  std::string where =
      numCtas > 1 ? " on CTA " + std::to_string(rank) : std::string();
  if (total > kRegisterFile)
    return kernel.emitOpError()
           << "[R42] the tasks' registers" << where << " add up to " << total
           << " (sum of warps x 32 x registers, " << def
           << " for tasks without registers(n)), more than the "
           << kRegisterFile
           << " registers of the register file; lower some registers(n)";
  if (balance < 0)
    return kernel.emitOpError()
           << "[R42] the register increases" << where
           << " exceed the decreases by " << -balance
           << " registers per thread-warp (default " << def
           << " per thread for " << kernel.getNumWarps()
           << " warps); lower an increase or decrease another task";
  return success();
}

/// R44: tensor-memory columns of all pipelines and buffers fit the SM's
/// 512, an alias group counted once, as large as its largest phase
/// (AliasLayout.h).
static LogicalResult verifyTmem(KernelOp kernel) {
  uint64_t columns = layoutStorage(kernel, /*tmem=*/true, /*base=*/0,
                                   /*align=*/1, [](Operation *, uint64_t) {});
  if (columns <= static_cast<uint64_t>(kTmemColumns))
    return success();
  return kernel.emitOpError()
         << "[R44] the pipelines use " << columns
         << " tensor-memory columns, more than the " << kTmemColumns
         << " of an SM; reduce num_stages or tmem_columns";
}

LogicalResult rules::verifyBudgetRules(KernelOp kernel) {
  bool ok = true;
  llvm::SmallPtrSet<Operation *, 4> seen; // one R41 report per task
  int64_t numCtas = kernel.getNumCtasInCluster();
  for (int64_t rank = 0; rank < numCtas; ++rank) {
    SmallVector<TaskOp> onCta = tasksOnCta(kernel, rank);
    ok &= succeeded(verifyWarpgroups(kernel, onCta, rank, seen));
    // One report for the cluster when no task is pinned to a CTA.
    if (failed(verifyRegisterBudget(kernel, onCta, rank, numCtas))) {
      ok = false;
      break;
    }
  }
  ok &= succeeded(verifyTmem(kernel));
  return success(ok);
}
