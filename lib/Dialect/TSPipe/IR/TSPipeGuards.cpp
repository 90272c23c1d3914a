//===- TSPipeGuards.cpp - loop guards and the brackets they count ---------===//
//
// The loop guards of a domain loop (TSPipeGuards.h), the verifier of
// tspipe.every (X22), and the bracket count under the guards beyond TS's
// first_iter / last_iter (R32, R33): within one task, an open bracket of a
// pipeline side and its close run on the same iterations, so that the
// brackets of n iterations balance for every n. A tspipe.producer_acquire
// on every iteration with its tspipe.producer_commit under tspipe.every
// period(2) start(0) opens n stages and closes ceil(n / 2) of them.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeGuards.h"

#include "mlir/IR/AsmState.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tspipe;

//===----------------------------------------------------------------------===//
// LoopGuard
//===----------------------------------------------------------------------===//

bool LoopGuard::runs(int64_t k, int64_t trips, bool condValue) const {
  switch (kind) {
  case Kind::Always:
    return true;
  case Kind::First:
    return k == 0;
  case Kind::Last:
    return trips >= 0 && k == trips - 1;
  case Kind::Every:
    return k >= start && (k - start) % period == 0;
  case Kind::WhenTrue:
    return condValue;
  case Kind::WhenFalse:
    return !condValue;
  }
  return true;
}

std::string LoopGuard::countText() const {
  switch (kind) {
  case Kind::Always:
    return "n";
  case Kind::First:
  case Kind::Last:
    return "min(n, 1)";
  case Kind::Every:
    if (period == 1)
      return "n";
    return "ceil((n - " + std::to_string(start) + ") / " +
           std::to_string(period) + ")";
  case Kind::WhenTrue:
  case Kind::WhenFalse:
    return "an unknown number (0 to n)";
  }
  return "n";
}

static std::string valueText(Value v) {
  if (!v)
    return "?";
  std::string s;
  llvm::raw_string_ostream os(s);
  // Assume verified: printing must not verify the kernel again (this runs
  // inside its verifier).
  OpPrintingFlags flags;
  flags.assumeVerified();
  v.printAsOperand(os, flags);
  return s;
}

std::string LoopGuard::describe() const {
  switch (kind) {
  case Kind::Always:
    return "every iteration";
  case Kind::First:
    return "tspipe.first_iter";
  case Kind::Last:
    return "tspipe.last_iter";
  case Kind::Every:
    return "tspipe.every period(" + std::to_string(period) + ") start(" +
           std::to_string(start) + ")";
  case Kind::WhenTrue:
    return "tspipe.when_true " + valueText(cond);
  case Kind::WhenFalse:
    return "tspipe.when_false " + valueText(cond);
  }
  return "";
}

bool mlir::tspipe::isLoopGuardOp(Operation *op) {
  return isa<FirstIterOp, LastIterOp, EveryOp, WhenTrueOp, WhenFalseOp>(op);
}

LoopGuard mlir::tspipe::getLoopGuard(Operation *op) {
  LoopGuard g;
  for (Operation *p = op->getParentOp(); p && !isa<DomainLoopOp, TaskOp>(p);
       p = p->getParentOp()) {
    if (!isLoopGuardOp(p))
      continue;
    llvm::TypeSwitch<Operation *>(p)
        .Case([&](FirstIterOp) { g.kind = LoopGuard::Kind::First; })
        .Case([&](LastIterOp) { g.kind = LoopGuard::Kind::Last; })
        .Case([&](EveryOp e) {
          g.kind = LoopGuard::Kind::Every;
          g.period = e.getPeriod();
          g.start = e.getStart();
        })
        .Case([&](WhenTrueOp w) {
          g.kind = LoopGuard::Kind::WhenTrue;
          g.cond = w.getCond();
        })
        .Case([&](WhenFalseOp w) {
          g.kind = LoopGuard::Kind::WhenFalse;
          g.cond = w.getCond();
        });
    return g;
  }
  return g;
}

//===----------------------------------------------------------------------===//
// tspipe.every (X22)
//===----------------------------------------------------------------------===//

LogicalResult EveryOp::verify() {
  // Read signed: the I64Attr getters return uint64_t.
  int64_t period = getPeriodAttr().getInt(), start = getStartAttr().getInt();
  if (period <= 0)
    return emitOpError() << "[X22] period(" << period
                         << ") must be positive: the body runs on the "
                            "iterations k with k mod period == start; use "
                            "period(1) for every iteration";
  if (start < 0 || start >= period)
    return emitOpError() << "[X22] start(" << start << ") must be in [0, "
                         << period << ") for period(" << period
                         << "); iteration k runs the body when k mod "
                         << period << " == start";
  return success();
}

//===----------------------------------------------------------------------===//
// Bracket counts under guards (R32, R33)
//===----------------------------------------------------------------------===//

namespace {

struct GuardedBracket {
  Operation *op;
  LoopGuard guard;
};

/// Per pipeline of one task: the loop's opening and closing brackets of
/// each side with their guards.
struct SideBrackets {
  SmallVector<GuardedBracket> opens, closes;
};

} // namespace

/// R32 / R33 over the guards: in the domain loop of one task, the opening
/// brackets of a pipeline side and its closing brackets run under the same
/// guards, as many of each, whenever one of them is under tspipe.every,
/// when_true or when_false. (first_iter / last_iter pairs keep TS's reading,
/// checked by the bracket walk in TSPipeBracketRules.cpp.)
static LogicalResult verifyTaskGuardCounts(TaskOp task) {
  DomainLoopOp loop = task.getDomainLoop();
  if (!loop)
    return success();
  llvm::MapVector<StringRef, std::pair<SideBrackets, SideBrackets>> pipes;
  loop.walk([&](Operation *op) {
    bool producer;
    bool open;
    if (isa<ProducerAcquireOp>(op)) {
      producer = true;
      open = true;
    } else if (isa<ProducerCommitOp>(op)) {
      producer = true;
      open = false;
    } else if (isa<ConsumerWaitOp>(op)) {
      producer = false;
      open = true;
    } else if (isa<ConsumerReleaseOp>(op)) {
      producer = false;
      open = false;
    } else {
      return;
    }
    LoopGuard g = getLoopGuard(op);
    for (StringRef pipe : getBracketPipelines(op)) {
      auto &sides = pipes[pipe];
      SideBrackets &side = producer ? sides.first : sides.second;
      (open ? side.opens : side.closes).push_back({op, g});
    }
  });
  bool ok = true;
  for (auto &[pipe, sides] : pipes) {
    for (bool producer : {true, false}) {
      SideBrackets &s = producer ? sides.first : sides.second;
      // A split side (the other bracket in another task) is counted by the
      // progress checker across tasks.
      if (s.opens.empty() || s.closes.empty())
        continue;
      auto counted = [](const GuardedBracket &b) {
        return b.guard.isCountedGuard();
      };
      if (llvm::none_of(s.opens, counted) && llvm::none_of(s.closes, counted))
        continue;
      // Match each close with an open under the same guard.
      SmallVector<bool> used(s.opens.size(), false);
      const char *rule = producer ? "R33" : "R32";
      const char *openName =
          producer ? "tspipe.producer_acquire" : "tspipe.consumer_wait";
      const char *closeName =
          producer ? "tspipe.producer_commit" : "tspipe.consumer_release";
      for (const GuardedBracket &c : s.closes) {
        auto it = llvm::find_if(llvm::enumerate(s.opens), [&](auto e) {
          return !used[e.index()] && e.value().guard == c.guard;
        });
        if (it != llvm::enumerate(s.opens).end()) {
          used[(*it).index()] = true;
          continue;
        }
        ok = false;
        const GuardedBracket &o = s.opens.front();
        c.op->emitOpError()
            << "[" << rule << "] " << closeName << " @" << pipe << " runs on "
            << c.guard.countText() << " of the n iterations of the domain "
            << "loop (" << c.guard.describe() << "), but the " << openName
            << " it closes runs on " << o.guard.countText() << " ("
            << o.guard.describe()
            << "); over n iterations the task opens and closes different "
               "numbers of stages; put both brackets under the same guard";
      }
      for (auto [i, o] : llvm::enumerate(s.opens)) {
        if (used[i])
          continue;
        ok = false;
        o.op->emitOpError()
            << "[" << rule << "] " << openName << " @" << pipe << " runs on "
            << o.guard.countText() << " of the n iterations of the domain "
            << "loop (" << o.guard.describe() << ") and no " << closeName
            << " of this task runs on the same iterations; put its "
            << closeName << " under the same guard";
      }
    }
  }
  return success(ok);
}

LogicalResult rules::verifyGuardRules(KernelOp kernel) {
  bool ok = true;
  for (auto task : kernel.getBody().getOps<TaskOp>())
    ok &= succeeded(verifyTaskGuardCounts(task));
  return success(ok);
}
