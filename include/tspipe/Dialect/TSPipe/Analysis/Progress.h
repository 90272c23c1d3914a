//===- Progress.h - deadlock and credit-balance analysis ----------*- C++
//-*-===//
//
// Decides, for every domain length, whether the tasks of a tspipe.kernel can
// deadlock on their pipelines' mbarriers or leave barrier credits unbalanced
// (TS rules R70 and R71, tspipe rule X8). The model and the argument for the
// bound on the lengths it checks are in docs/ProgressChecker.md.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_ANALYSIS_PROGRESS_H
#define TSPIPE_DIALECT_TSPIPE_ANALYSIS_PROGRESS_H

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include <optional>
#include <string>

namespace mlir::tspipe::progress {

/// What went wrong in a counterexample.
enum class FailureKind {
  Deadlock,     ///< every unfinished task is blocked ([R70], [X8])
  Unbalanced,   ///< all tasks finish, but credits are left over ([R70], [X8])
  PhaseOverrun, ///< a waiter can fall a full phase behind its barrier ([R71])
  OverArrival,  ///< a task can arrive for the next phase early ([R71])
  LapEarly,     ///< a parity wait can pass two phases early ([R71])
  NotModeled,   ///< a bracket outside the model: no verdict ([R70])
};

/// What a note of a counterexample states.
enum class NoteKind {
  Context,      ///< any other fact (a guard, a probe, an arrival)
  Blocked,      ///< `agent` is blocked on the barrier the fields name
  CreditHolder, ///< `agent` holds the credit a blocked agent waits for
};

/// A finding of a counterexample, attached to `op`: its text (the
/// diagnostic note) and, where it names them, its structured fields.
struct Note {
  Operation *op;
  std::string text;
  NoteKind kind = NoteKind::Context;
  std::string agent;      ///< @task or @task.wN; empty when none
  int64_t iteration = -3; ///< -1 head, -2 tail / drain, -3 none
  std::string bracket;    ///< "consumer_wait", ...; empty when none
  std::string pipeline;   ///< pipeline symbol of the barrier; empty when none
  bool fullBarrier = false;
  int64_t stage = -1; ///< stage index, -1 when none
  int64_t phase = -1; ///< parity of the phase waited for, -1 when none
};

/// One event of the counterexample's timeline (a barrier operation one task
/// executed, or the one it is blocked on).
struct TimelineEvent {
  std::string task;     ///< agent name: @task, or @task.wN for a warp lane
  std::string pipeline; ///< pipeline symbol
  bool fullBarrier;     ///< full (true) or empty (false) barrier
  int64_t stage;        ///< stage index in [0, num_stages)
  int64_t phase;        ///< parity of the phase the event belongs to
  std::string what;     ///< "acquire", "commit", "wait", "release", "drain"
  int64_t iteration;    ///< domain iteration; -1 head, -2 tail / drain
  bool blocked;         ///< the task is stuck on this event
};

/// A failing schedule, reduced to the smallest failing domain lengths.
struct Counterexample {
  FailureKind kind;
  std::string rule;    ///< "R70", "R71" or "X8"
  std::string message; ///< the error, without the rule prefix
  Operation *anchor;   ///< op the error is reported on
  SmallVector<Note> notes;
  /// Iterations of each task's domain loop, in task order.
  SmallVector<std::pair<std::string, int64_t>> lengths;
  /// Values given to the dynamic domain bounds (printed SSA name, value).
  SmallVector<std::pair<std::string, int64_t>> symbols;
  SmallVector<TimelineEvent> timeline;
};

/// Result of checking one kernel.
struct ProgressResult {
  /// The first counterexample found, if any.
  std::optional<Counterexample> counterexample;
  /// What the checker could not prove for every domain length, each with
  /// the lengths it did check (no counterexample among them): reported as
  /// an [R70] error, or as a warning on a kernel marked
  /// `tspipe.assume_progress` (docs/ProgressChecker.md).
  SmallVector<std::string> unproven;
  /// Kernels the checker does not simulate at all (a ring too large for
  /// any GPU, rejected by R43 where shared memory is allocated).
  SmallVector<std::string> warnings;
  /// Largest domain-bound value checked per component, and how many
  /// length assignments were simulated (for reports and benchmarks).
  int64_t maxValueChecked = 0;
  int64_t assignmentsChecked = 0;
};

/// The discardable unit attribute on tspipe.kernel by which an author
/// accepts what the checker cannot prove (its `unproven` reasons become
/// warnings). It never hides a counterexample.
constexpr llvm::StringLiteral kAssumeProgressAttr = "tspipe.assume_progress";

/// Checks `kernel`, which must have passed the dialect's verifiers.
/// Never fails: problems of the kernel are reported in the result.
ProgressResult checkKernel(KernelOp kernel);

/// The checker's reading of `kernel`, for its tests: (op, text) pairs for
/// each task's trip count (on its domain loop: "trip count ... = mul *
/// floor((a X + b) / d) + add for X >= from", "... is no quasi-affine
/// function of ..." or a constant), each pipeline's rotation period, and
/// each component's bound on the values of its one symbol.
SmallVector<std::pair<Operation *, std::string>> describeModel(KernelOp kernel);

//===----------------------------------------------------------------------===//
// Reports of a result (Report.cpp, Dot.cpp): made on demand from the findings
//===----------------------------------------------------------------------===//

/// "deadlock", "unbalanced", "phase-overrun", "early-arrival", "lap-early",
/// "not-modeled".
const char *kindName(FailureKind kind);
/// The kernel's name for reports: the symbol of the nearest enclosing op
/// that has one (its gpu.func), else "kernel<ordinal>".
std::string kernelName(KernelOp kernel, unsigned ordinal);
/// Whether the result is an error: a counterexample, or what is not proven
/// on a kernel without `tspipe.assume_progress`.
bool isFailure(KernelOp kernel, const ProgressResult &result);
/// The verdict as JSON (docs/ProgressChecker.md lists the fields), with
/// the DOT pictures when `withDot`.
std::string reportJson(KernelOp kernel, StringRef name,
                       const ProgressResult &result, bool withDot);
/// The verdict as the diagnostics' text: the error (or warnings) and the
/// notes, each with its location.
std::string reportText(KernelOp kernel, const ProgressResult &result);
/// Dependency graph of tasks and pipelines (DOT), the counterexample's
/// blocked tasks in red.
std::string graphDot(KernelOp kernel, const ProgressResult &result);
/// Per-stage timeline of the counterexample (DOT); empty when none.
std::string timelineDot(KernelOp kernel, const ProgressResult &result);

} // namespace mlir::tspipe::progress

#endif // TSPIPE_DIALECT_TSPIPE_ANALYSIS_PROGRESS_H
