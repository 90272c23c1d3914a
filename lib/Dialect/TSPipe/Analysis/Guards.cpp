//===- Guards.cpp - loop guards in the progress checker -------------------===//
//
// The loop guards beyond TS's first_iter / last_iter in the model
// (docs/ProgressChecker.md, Loop guards):
//  - tspipe.every(period, start) is exact: a step under it runs on the
//    iterations k with k mod period == start, ceil((n - start) / period) of
//    n; the lengths search keeps k mod period in its periodic state.
//  - tspipe.when_true / when_false(c): the checker knows nothing of c. A
//    condition computed from kernel arguments and constants is one value for
//    the whole kernel; the checker runs the kernel for every combination of
//    the values of such conditions. A kernel whose brackets on both sides of
//    a pipeline are guarded by the same condition passes for each; any
//    failing combination, and any condition that depends on the thread, the
//    iteration or memory, leaves progress not proven (R70).
//
//===----------------------------------------------------------------------===//

#include "Checker.h"

#include "tspipe/Dialect/TSPipe/IR/TSPipeGuards.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress;

namespace mlir::tspipe::progress::detail {

/// Most conditions whose combinations are checked (2^k runs).
static constexpr size_t kMaxConditions = 6;

/// True when `v` has one value in every thread of every CTA for the whole
/// kernel: built by arith / index ops from constants and the kernel
/// function's arguments.
static bool isKernelUniform(Value v, KernelOp kernel,
                            llvm::DenseMap<Value, bool> &memo) {
  auto it = memo.find(v);
  if (it != memo.end())
    return it->second;
  memo[v] = false; // cycles (none in SSA form outside graph regions)
  bool uniform = false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto func = dyn_cast_or_null<FunctionOpInterface>(kernel->getParentOp());
    uniform = func && !func.isExternal() &&
              arg.getOwner() == &func.getFunctionBody().front() &&
              arg.getArgNumber() < func.getNumArguments();
  } else if (Operation *def = v.getDefiningOp()) {
    StringRef dialect = def->getName().getDialectNamespace();
    bool arithLike = dialect == "arith" || dialect == "index" ||
                     def->hasTrait<OpTrait::ConstantLike>();
    uniform =
        arithLike && def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
        llvm::all_of(def->getOperands(),
                     [&](Value o) { return isKernelUniform(o, kernel, memo); });
  }
  memo[v] = uniform;
  return uniform;
}

void setStepGuard(Model &m, TaskInfo &t, Operation *guardOp, Step &s) {
  LoopGuard g = getLoopGuard(&guardOp->getRegion(0).front().front());
  switch (g.kind) {
  case LoopGuard::Kind::Always:
    s.guard = Guard::Always;
    return;
  case LoopGuard::Kind::First:
    s.guard = Guard::First;
    return;
  case LoopGuard::Kind::Last:
    s.guard = Guard::Last;
    return;
  case LoopGuard::Kind::Every:
    s.guard = Guard::Every;
    s.period = g.period;
    s.start = g.start;
    // The periods' lcm, saturated: a product beyond int64 (periods up to
    // 2^63 - 1 pass X22) would overflow; a saturated period never repeats,
    // so the lengths search ends unproven instead of misreading it.
    if (g.period > 0) {
      int64_t gcd = std::gcd(t.guardPeriod, g.period), lcm;
      if (llvm::MulOverflow(t.guardPeriod / gcd, g.period, lcm))
        lcm = std::numeric_limits<int64_t>::max();
      t.guardPeriod = lcm;
    }
    return;
  case LoopGuard::Kind::WhenTrue:
  case LoopGuard::Kind::WhenFalse:
    break;
  }
  s.guard =
      g.kind == LoopGuard::Kind::WhenTrue ? Guard::WhenTrue : Guard::WhenFalse;
  auto found = llvm::find(m.conds, g.cond);
  s.cond = static_cast<int>(found - m.conds.begin());
  if (found == m.conds.end()) {
    m.conds.push_back(g.cond);
    m.condValue.push_back(true);
  }
  llvm::DenseMap<Value, bool> memo;
  if (!isKernelUniform(g.cond, m.kernel, memo) &&
      !llvm::is_contained(m.unknownConds, guardOp))
    m.unknownConds.push_back(guardOp);
}

bool stepRuns(const Model &m, const Step &s, int64_t iter, int64_t trips) {
  switch (s.guard) {
  case Guard::Always:
    return true;
  case Guard::First:
    return iter == 0;
  case Guard::Last:
    return trips >= 0 && iter == trips - 1;
  case Guard::Every:
    return iter >= s.start && (iter - s.start) % s.period == 0;
  case Guard::WhenTrue:
    return m.condValue[s.cond];
  case Guard::WhenFalse:
    return !m.condValue[s.cond];
  }
  return true;
}

int64_t nextRunIter(const Model &m, const Step &s, int64_t iter,
                    int64_t trips) {
  constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  switch (s.guard) {
  case Guard::First:
    return iter == 0 ? 0 : kNever;
  case Guard::Last:
    return trips >= 0 && iter <= trips - 1 ? trips - 1 : kNever;
  case Guard::Every: {
    if (iter <= s.start)
      return s.start;
    // start + ceil((iter - start) / period) * period, without overflow.
    int64_t laps = (iter - s.start - 1) / s.period + 1, k;
    if (llvm::MulOverflow(laps, s.period, k) ||
        llvm::AddOverflow(k, s.start, k))
      return kNever;
    return k;
  }
  case Guard::Always:
  case Guard::WhenTrue:
  case Guard::WhenFalse:
    return stepRuns(m, s, iter, trips) ? iter : kNever;
  }
  return iter;
}

static std::string locText(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << op->getLoc();
  return s;
}

static std::string assignmentText(const Model &m) {
  std::string out;
  for (auto [i, c] : llvm::enumerate(m.conds)) {
    std::string name;
    llvm::raw_string_ostream os(name);
    OpPrintingFlags flags;
    flags.assumeVerified();
    c.printAsOperand(os, flags);
    out += (i ? ", " : "") + name + " = " + (m.condValue[i] ? "true" : "false");
  }
  return out;
}

static void appendUnique(SmallVector<std::string> &into,
                         ArrayRef<std::string> from) {
  for (const std::string &s : from)
    if (!llvm::is_contained(into, s))
      into.push_back(s);
}

ProgressResult checkUnderConditions(KernelOp kernel) {
  Checker first(kernel);
  if (first.model().conds.empty())
    return first.run();
  size_t k = first.model().conds.size();
  ProgressResult result;
  for (Operation *op : first.model().unknownConds)
    result.unproven.push_back(
        "the condition of the " + op->getName().getStringRef().str() +
        " guard at " + locText(op) +
        " is not computed from kernel arguments and constants alone (it may "
        "differ between threads, CTAs or iterations), so the checker cannot "
        "treat it as one value; its brackets are checked for the same value "
        "in every task and iteration only");
  if (k > kMaxConditions) {
    result.unproven.push_back(
        "the loop guards test " + std::to_string(k) +
        " different conditions; the checker runs every combination of at "
        "most " +
        std::to_string(kMaxConditions) +
        " of them; guard the brackets with fewer distinct conditions");
    return result;
  }
  for (uint64_t mask = 0; mask < (uint64_t(1) << k); ++mask) {
    Checker c(kernel);
    for (size_t i = 0; i < k; ++i)
      c.model().condValue[i] = (mask >> i) & 1;
    ProgressResult r = c.run();
    result.assignmentsChecked += r.assignmentsChecked;
    result.maxValueChecked =
        std::max(result.maxValueChecked, r.maxValueChecked);
    appendUnique(result.warnings, r.warnings);
    if (r.counterexample) {
      if (r.counterexample->kind == FailureKind::NotModeled)
        return r;
      result.unproven.push_back(
          "the schedules fail when " + assignmentText(c.model()) + ": " +
          r.counterexample->message +
          "; the checker does not know which values the tspipe.when_true / "
          "when_false conditions take, so it proves a kernel only when both "
          "sides of each pipeline are guarded by the same condition");
      break;
    }
    appendUnique(result.unproven, r.unproven);
  }
  return result;
}

} // namespace mlir::tspipe::progress::detail
