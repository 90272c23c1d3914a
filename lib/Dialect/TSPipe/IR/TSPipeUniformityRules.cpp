//===- TSPipeUniformityRules.cpp - one schedule on every CTA (X29) --------===//
//
// A pipeline whose cta_layout_vmnk spans several CTAs has barriers that the
// CTAs of the cluster signal for each other: a multicast copy completes on
// every destination CTA's full barrier, a release arrives on every source
// CTA's empty barrier. Each CTA must therefore run the same number of
// brackets and receive the same bytes per stage. A value computed from the
// CTA's position in the cluster (its rank, its block index) that decides
// how often a task of such a pipeline runs, whether it runs a bracket, or
// where its multicast copies go breaks that: the CTAs disagree on the trip
// count (DeepGEMM PR 429: a cluster straddles two groups with different K
// loops) or on who multicasts (DeepGEMM PR 415: only rank 0 issues the
// multicast its peer waits for), and the kernel hangs or reads stale
// stages.
//
// Rule X29 (docs/Rules.md), for every task that uses a pipeline spanning
// CTAs (and is not pinned to one CTA with cta(n)):
//  * the domain loop's bounds and step are the same on every CTA;
//  * every scf.if condition, scf.for bound or scf.while operand that
//    encloses a bracket of such a pipeline is the same on every CTA;
//  * a bulk copy from global memory (cp.async.bulk[.tensor].shared.cluster)
//    whose predicate (the enclosing scf.if conditions) or multicast mask
//    differs between CTAs is accepted when both are computed from the CTA's
//    rank and constants and every CTA of the cluster then receives the
//    same number of copies (the CTAs are modeled one by one); otherwise it
//    is rejected.
// "The same on every CTA" is ClusterUniformity's: not computed from the
// CTA's position, or computed from it to one value on every rank.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/ClusterUniformity.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

namespace {

std::string layoutText(PipelineOp pipe) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(pipe.getConfig().getCtaLayoutVmnk(), os);
  os << "]";
  return s;
}

/// The fix every X29 message ends with.
constexpr const char *kUniformFix =
    "compute it from values every CTA of the cluster shares (kernel "
    "arguments, constants, gpu.cluster_id, gpu.grid_dim, the block index "
    "divided by the cluster extent), or give the CTA-specific work its own "
    "task pinned with cta(n)";

/// A multicast-capable bulk copy from global memory: its mask, if any.
bool isGlobalBulkCopy(Operation *op, Value &mask) {
  if (auto c = dyn_cast<NVVM::CpAsyncBulkGlobalToSharedClusterOp>(op)) {
    mask = c.getMulticastMask();
    return true;
  }
  if (auto c = dyn_cast<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(op)) {
    mask = c.getMulticastMask();
    return true;
  }
  return false;
}

class UniformityChecker {
public:
  UniformityChecker(KernelOp kernel, const KernelUses &uses)
      : kernel(kernel), uses(uses), u(kernel.getClusterExtents()) {}

  bool run() {
    bool ok = true;
    for (auto task : kernel.getBody().getOps<TaskOp>()) {
      if (task.getRunOnlyOnCtaId())
        continue;
      PipelineOp spanned = spannedPipeline(task);
      if (!spanned)
        continue;
      ok &= checkDomain(task, spanned);
      ok &= checkEnclosedBrackets(task);
      task.walk([&](Operation *op) {
        Value mask;
        if (isGlobalBulkCopy(op, mask))
          ok &= checkCopy(task, spanned, op, mask);
      });
    }
    return ok;
  }

private:
  /// The first pipeline `task` uses whose layout spans several CTAs.
  PipelineOp spannedPipeline(TaskOp task) {
    for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
      if (pipe.getConfig().getClusterSize() <= 1)
        continue;
      for (const TaskUse &use : uses.of(pipe.getSymName()))
        if (use.task == task)
          return pipe;
    }
    return {};
  }

  bool spans(StringRef pipeline) {
    auto pipe = dyn_cast_or_null<PipelineOp>(
        SymbolTable::lookupSymbolIn(kernel, pipeline));
    return pipe && pipe.getConfig().getClusterSize() > 1;
  }

  InFlightDiagnostic report(Operation *at, StringRef what, Operation *source,
                            TaskOp task, PipelineOp pipe) {
    InFlightDiagnostic d = at->emitOpError();
    d << "[X29] " << what << " differs between the CTAs of the cluster: it is "
      << "computed from " << describeDivergenceSource(source)
      << " (the CTA's position in the cluster), but task '@"
      << task.getSymName() << "' uses '@" << pipe.getSymName()
      << "', whose cta_layout_vmnk " << layoutText(pipe)
      << " spans the cluster's CTAs, so each CTA must run the same brackets "
         "and receive the same bytes or the CTAs wait for signals their "
         "peers never send (DeepGEMM PRs 415, 429); ";
    return d;
  }

  bool checkDomain(TaskOp task, PipelineOp pipe) {
    DomainLoopOp loop = task.getDomainLoop();
    if (!loop)
      return true;
    struct Bound {
      Value v;
      const char *name;
    } bounds[] = {{loop.getLowerBound(), "the domain loop's lower bound"},
                  {loop.getUpperBound(), "the domain loop's upper bound"},
                  {loop.getStep(), "the domain loop's step"}};
    bool ok = true;
    for (const Bound &b : bounds) {
      Operation *source = nullptr;
      if (u.sameOnEveryCta(b.v, source))
        continue;
      report(loop, std::string(b.name) + " (the trip count)", source, task,
             pipe)
          << kUniformFix;
      ok = false;
    }
    return ok;
  }

  /// The values of a region op that decide whether (or how often) its
  /// regions run.
  static SmallVector<Value> controlOperands(Operation *op) {
    if (auto i = dyn_cast<scf::IfOp>(op))
      return {i.getCondition()};
    if (auto f = dyn_cast<scf::ForOp>(op))
      return {f.getLowerBound(), f.getUpperBound(), f.getStep()};
    if (isa<DomainLoopOp, TaskOp, FirstIterOp, LastIterOp>(op))
      return {};
    SmallVector<Value> all(op->getOperands());
    // An scf.while's condition is computed in its `before` region.
    if (auto w = dyn_cast<scf::WhileOp>(op))
      all.push_back(w.getConditionOp().getCondition());
    return all;
  }

  bool checkEnclosedBrackets(TaskOp task) {
    bool ok = true;
    DenseSet<Operation *> reported;
    task.walk([&](Operation *op) {
      if (!op->getAttrOfType<FlatSymbolRefAttr>("pipeline") ||
          isa<CurrentStageOp>(op))
        return;
      SmallVector<StringRef, 4> pipes = getBracketPipelines(op);
      auto it = llvm::find_if(pipes, [&](StringRef p) { return spans(p); });
      if (it == pipes.end())
        return;
      auto pipe = cast<PipelineOp>(SymbolTable::lookupSymbolIn(kernel, *it));
      for (Operation *up = op->getParentOp(); up && up != task.getOperation();
           up = up->getParentOp()) {
        for (Value c : controlOperands(up)) {
          Operation *source = nullptr;
          if (u.sameOnEveryCta(c, source) || !reported.insert(up).second)
            continue;
          report(up,
                 ("the condition of the '" + up->getName().getStringRef() +
                  "' around '" + op->getName().getStringRef() + " @" +
                  pipe.getSymName() + "'")
                     .str(),
                 source, task, pipe)
              << kUniformFix;
          ok = false;
        }
      }
    });
    return ok;
  }

  /// The copies each CTA receives from `copy`, modeled on every rank, or
  /// false (with `source` set) when its predicate or mask differs between
  /// CTAs in a way the model cannot compute.
  bool checkCopy(TaskOp task, PipelineOp pipe, Operation *copy, Value mask) {
    // The predicate: every enclosing scf.if (inside the task) with the arm
    // the copy sits in, and every enclosing loop's bounds.
    SmallVector<std::pair<Value, bool>> guards;
    Operation *divergent = nullptr;
    for (Operation *child = copy, *up = copy->getParentOp();
         up && up != task.getOperation();
         child = up, up = up->getParentOp()) {
      if (auto i = dyn_cast<scf::IfOp>(up)) {
        bool thenArm = child->getParentRegion() == &i.getThenRegion();
        guards.push_back({i.getCondition(), thenArm});
        continue;
      }
      for (Value c : controlOperands(up)) {
        Operation *source = nullptr;
        if (!u.sameOnEveryCta(c, source)) {
          divergent = source;
          break;
        }
      }
      if (divergent)
        break;
    }
    if (divergent) {
      report(copy, "the number of times this copy runs", divergent, task,
             pipe)
          << kUniformFix;
      return false;
    }
    bool varies = false;
    Operation *source = nullptr;
    for (auto &[cond, arm] : guards)
      if (!u.sameOnEveryCta(cond, source)) {
        varies = true;
        divergent = divergent ? divergent : source;
      }
    if (mask && !u.sameOnEveryCta(mask, source)) {
      varies = true;
      divergent = divergent ? divergent : source;
    }
    if (!varies)
      return true;

    // Model every CTA: which CTAs its copy reaches.
    int64_t n = u.numCtas();
    SmallVector<int64_t> received(n, 0);
    for (int64_t r = 0; r < n; ++r) {
      bool issues = true;
      for (auto &[cond, arm] : guards) {
        // A guard that is the same on every CTA (an elect.sync, a kernel
        // argument) runs the copy on all of them or on none.
        Operation *s = u.divergenceSource(cond);
        if (!s)
          continue;
        std::optional<APInt> c = u.evaluate(cond, r);
        if (!c) {
          report(copy, "whether this copy runs", s, task, pipe) << kUniformFix;
          return false;
        }
        issues &= c->isZero() != arm;
      }
      if (!issues)
        continue;
      if (!mask) {
        ++received[r];
        continue;
      }
      std::optional<APInt> m = u.evaluate(mask, r);
      if (!m) {
        report(copy, "the multicast mask of this copy",
               u.divergenceSource(mask) ? u.divergenceSource(mask) : divergent,
               task, pipe)
            << kUniformFix;
        return false;
      }
      for (unsigned bit = 0; bit < m->getBitWidth(); ++bit) {
        if (!(*m)[bit])
          continue;
        if (bit >= n) {
          copy->emitOpError()
              << "[X29] the multicast mask of this copy on the CTA of rank "
              << r << " is " << m->getZExtValue() << ", which names CTA "
              << bit << " outside the cluster of " << n
              << " CTAs; keep every mask bit below the cluster size";
          return false;
        }
        ++received[bit];
      }
    }
    for (int64_t c = 1; c < n; ++c) {
      if (received[c] == received[0])
        continue;
      InFlightDiagnostic d =
          report(copy, "where this copy lands", divergent, task, pipe);
      d << "modeled on each CTA, its predicate and multicast mask deliver ";
      for (int64_t k = 0; k < n; ++k)
        d << (k ? ", " : "") << received[k] << " to CTA " << k;
      d << " copies, so some CTA's full barrier never receives its bytes; "
        << kUniformFix;
      return false;
    }
    return true;
  }

  KernelOp kernel;
  const KernelUses &uses;
  ClusterUniformity u;
};

} // namespace

LogicalResult rules::verifyUniformityRules(KernelOp kernel,
                                           const KernelUses &uses) {
  if (kernel.getNumCtasInCluster() <= 1)
    return success();
  return success(UniformityChecker(kernel, uses).run());
}
