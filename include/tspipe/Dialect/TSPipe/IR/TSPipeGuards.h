//===- TSPipeGuards.h - loop guards of a domain loop ------------*- C++ -*-===//
//
// The guards a domain loop body may hold (tspipe.first_iter, last_iter,
// every, when_true, when_false), as the verifier, the progress checker and
// the lowering read them: which iterations of the loop run a guarded op, and
// how many of n iterations that is (docs/Protocols.md, Loop guards).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_TSPIPEGUARDS_H
#define TSPIPE_DIALECT_TSPIPE_IR_TSPIPEGUARDS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tspipe {

/// Which iterations of its domain loop run an op.
struct LoopGuard {
  enum class Kind { Always, First, Last, Every, WhenTrue, WhenFalse };
  Kind kind = Kind::Always;
  /// Every: iterations k (zero-based count) with k mod period == start.
  int64_t period = 1, start = 0;
  /// WhenTrue / WhenFalse: the i1 condition.
  Value cond;

  bool operator==(const LoopGuard &o) const {
    return kind == o.kind && period == o.period && start == o.start &&
           cond == o.cond;
  }
  bool operator!=(const LoopGuard &o) const { return !(*this == o); }
  /// First, Last, Every, WhenTrue, WhenFalse: not on every iteration.
  bool isGuarded() const { return kind != Kind::Always; }
  /// Every, WhenTrue, WhenFalse (the guards beyond TS's first/last).
  bool isCountedGuard() const {
    return kind == Kind::Every || kind == Kind::WhenTrue ||
           kind == Kind::WhenFalse;
  }
  /// Whether zero-based iteration `k` of `trips` runs the op (trips < 0:
  /// endless). WhenTrue / WhenFalse take the condition's value `condValue`.
  bool runs(int64_t k, int64_t trips, bool condValue = true) const;
  /// How many of `n` iterations run the op, as text: "n", "1",
  /// "ceil((n - 1) / 2)", "an unknown number of" (conditions).
  std::string countText() const;
  /// The guard as written: "every iteration", "tspipe.every period(2)
  /// start(0)", "tspipe.when_true %c".
  std::string describe() const;
};

/// True for the ops that guard part of a domain loop body.
bool isLoopGuardOp(Operation *op);
/// The guard of `op`, a direct child of a domain loop body or of a guard op
/// in it (Always for anything else).
LoopGuard getLoopGuard(Operation *op);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_TSPIPEGUARDS_H
