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

namespace {
/// What one warp of one CTA runs as far as registers go: the task whose
/// body it runs, or, for a warp no task of that CTA claims, the task pinned
/// to another CTA whose setmaxnreg it runs outside the task's CTA gate
/// (`proxy`; docs/Protocols.md, Registers of CTA-gated tasks).
struct WarpSetter {
  mutable TaskOp task; // op handles are not const-callable
  bool proxy = false;
};
} // namespace

/// Per warp of CTA `rank`: the task that runs there, else the first task
/// pinned to another CTA with registers(n) on that warp (the lowering's
/// registers-only branch), else none.
static SmallVector<WarpSetter> warpSetters(KernelOp kernel, int64_t rank) {
  int64_t numWarps = kernel.getNumWarps();
  SmallVector<WarpSetter> setters(numWarps);
  auto range = [&](TaskOp t) {
    int64_t lo = std::min<int64_t>(t.getWarpIdx(), numWarps);
    int64_t hi = std::min<int64_t>(lo + t.getNumWarps(), numWarps);
    return std::make_pair(lo, hi);
  };
  for (TaskOp t : tasksOnCta(kernel, rank)) {
    auto [lo, hi] = range(t);
    for (int64_t w = lo; w < hi; ++w)
      setters[w] = {t, false};
  }
  for (auto t : kernel.getBody().getOps<TaskOp>()) {
    IntegerAttr cta = t.getRunOnlyOnCtaIdAttr();
    if (!cta || cta.getInt() == rank || !t.getNumRegisters())
      continue;
    auto [lo, hi] = range(t);
    for (int64_t w = lo; w < hi; ++w)
      if (!setters[w].task)
        setters[w] = {t, true};
  }
  return setters;
}

/// " (its setmaxnreg runs on CTA r outside its cta(k) gate)" for a proxy.
static std::string proxyText(const WarpSetter &s, int64_t rank) {
  if (!s.proxy)
    return "";
  return " (whose setmaxnreg runs on CTA " + std::to_string(rank) +
         " outside its cta(" +
         std::to_string(s.task.getRunOnlyOnCtaIdAttr().getInt()) + ") gate)";
}

/// R41: setmaxnreg is executed by all 4 warps of a warpgroup together, so
/// the warps of one warpgroup of a CTA agree on the count and all set it.
/// Counted per CTA: a task pinned to another CTA sets its registers here
/// too, on the warps no task of this CTA claims.
static LogicalResult verifyWarpgroups(KernelOp kernel, int64_t rank,
                                      llvm::SmallPtrSetImpl<Operation *> &seen) {
  // In a cluster the tasks on a warpgroup may differ between CTAs (cta(n)):
  // the diagnostic names the CTA.
  std::string where = kernel.getNumCtasInCluster() > 1
                          ? " of CTA " + std::to_string(rank)
                          : std::string();
  SmallVector<WarpSetter> setters = warpSetters(kernel, rank);
  auto regsOf = [](const WarpSetter &s) -> std::optional<uint64_t> {
    if (!s.task)
      return std::nullopt;
    return s.task.getNumRegisters();
  };
  bool ok = true;
  int64_t numWarps = kernel.getNumWarps();
  for (int64_t group = 0; group * 4 < numWarps; ++group) {
    int64_t first = 4 * group, last = first + 4; // [first, last)
    std::optional<WarpSetter> ref;
    for (int64_t w = first; w < std::min(last, numWarps); ++w) {
      const WarpSetter &s = setters[w];
      if (!regsOf(s))
        continue;
      if (!ref) {
        ref = s;
        continue;
      }
      if (s.task == ref->task || *regsOf(s) == *regsOf(*ref))
        continue;
      ok = false;
      if (seen.insert(s.task).second)
        s.task.emitOpError()
            << "[R41] registers(" << *regsOf(s) << ")" << proxyText(s, rank)
            << " differs from registers(" << *regsOf(*ref) << ") of task '@"
            << ref->task.getSymName() << "'" << proxyText(*ref, rank)
            << " in warpgroup " << group << " (warps " << first << "-"
            << last - 1 << ")" << where
            << "; setmaxnreg applies to a whole warpgroup, so give every "
               "task of the warpgroup the same count";
    }
    if (!ref)
      continue;
    for (int64_t w = first; w < last; ++w) {
      if (w < numWarps && regsOf(setters[w]))
        continue;
      ok = false;
      TaskOp at = ref->task;
      if (seen.insert(at).second) {
        InFlightDiagnostic diag = at.emitOpError();
        diag << "[R41] sets registers(" << *regsOf(*ref) << ")"
             << proxyText(*ref, rank) << " in warpgroup " << group
             << " (warps " << first << "-" << last - 1 << ")" << where
             << ", but warp " << w;
        diag << (w < numWarps ? " is in no task that sets registers"
                              : " is not part of the kernel");
        diag << "; setmaxnreg needs all 4 warps of the warpgroup: cover them "
                "with register-setting tasks";
      }
      break;
    }
  }
  return success(ok);
}

/// R42: the per-thread counts of the warps of one CTA fit the register
/// file, and the decreases pay for the increases. A warp that runs only the
/// setmaxnreg of a task pinned to another CTA counts with that task's
/// registers.
static LogicalResult verifyRegisterBudget(KernelOp kernel, int64_t rank,
                                          int64_t numCtas) {
  int64_t def = defaultRegisters(kernel);
  int64_t total = 0, balance = 0;
  bool any = false;
  for (const WarpSetter &s : warpSetters(kernel, rank)) {
    if (!s.task)
      continue;
    std::optional<uint64_t> regs = s.task.getNumRegisters();
    any |= regs.has_value();
    int64_t r = regs ? static_cast<int64_t>(*regs) : def;
    total += 32 * r;
    if (regs)
      balance += def - r;
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
    ok &= succeeded(verifyWarpgroups(kernel, rank, seen));
    // One report for the cluster when no task is pinned to a CTA.
    if (failed(verifyRegisterBudget(kernel, rank, numCtas))) {
      ok = false;
      break;
    }
  }
  ok &= succeeded(verifyTmem(kernel));
  return success(ok);
}
