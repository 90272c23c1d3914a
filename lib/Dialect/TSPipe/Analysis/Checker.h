//===- Checker.h - the progress checker's engine, internal -------*- C++
//-*-===//
//
// Internal to the progress checker: the simulation of one assignment of
// trip counts (Sim), and the Checker that decides a kernel: Check.cpp (one
// assignment: deadlock, lap-early waits, balance, hazards, the
// counterexample's findings), Lengths.cpp (the endless run, periodicity,
// the bound on the lengths, shortening long domains), Progress.cpp (which
// lengths to check). docs/ProgressChecker.md gives the argument.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_DIALECT_TSPIPE_ANALYSIS_CHECKER_H
#define TSPIPE_LIB_DIALECT_TSPIPE_ANALYSIS_CHECKER_H

#include "Model.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tspipe::progress::detail {

inline constexpr int64_t kMaxRounds =
    5000; ///< lock-step rounds of the endless run
/// Largest value of a domain symbol ever simulated; a bound beyond it is
/// reported as not proven, never cut silently.
inline constexpr int64_t kMaxX = int64_t(1) << 26;
inline constexpr int64_t kMaxAssignments = 4096; ///< multi-symbol product cap
/// Events of one assignment, and of all assignments of a kernel, beyond
/// which the checker stops (with a warning) instead of running for long.
inline constexpr int64_t kMaxEvents = int64_t(1) << 22;
inline constexpr int64_t kMaxTotalEvents = int64_t(1) << 26;
/// Trip counts above which a run is shortened by whole periods first.
inline constexpr int64_t kBigTrips = 256;

inline std::string iterText(int64_t iter) {
  if (iter == -1)
    return "the head";
  if (iter == -2)
    return "the tail";
  return "iteration " + std::to_string(iter);
}

/// Parity of the phase an event waits for (waits) or belongs to.
inline int64_t waitPhase(const Event &e) {
  return e.role == Wait ? (e.target - 1) & 1 : (e.target + 1) & 1;
}

//===----------------------------------------------------------------------===//
// Simulation of one assignment of trip counts
//===----------------------------------------------------------------------===//

struct Sim {
  const Model &m;
  const std::vector<unsigned> &agents; // model agent ids (local index order)
  const std::vector<std::vector<Event>> &ev;
  std::vector<size_t> idx;
  std::vector<int64_t> U;
  std::vector<std::vector<int64_t>> arr; // [local agent][barrier]
  std::vector<std::pair<int, size_t>> last;
  std::vector<std::pair<unsigned, size_t>> trace;

  Sim(const Model &m, const std::vector<unsigned> &agents,
      const std::vector<std::vector<Event>> &ev)
      : m(m), agents(agents), ev(ev), idx(agents.size(), 0),
        U(m.numBarriers, 0),
        arr(agents.size(), std::vector<int64_t>(m.numBarriers, 0)),
        last(m.numBarriers, {-1, 0}) {}

  int64_t completions(unsigned b) const {
    return m.count[b] ? U[b] / m.count[b] : 0;
  }
  bool finished(unsigned a) const { return idx[a] >= ev[a].size(); }
  /// Per agent, the events it may execute at most (empty: all).
  std::vector<size_t> limit;
  bool enabled(unsigned a) const {
    if (finished(a) || (!limit.empty() && idx[a] >= limit[a]))
      return false;
    const Event &e = ev[a][idx[a]];
    return !e.wait || completions(e.barrier) >= e.target;
  }
  void exec(unsigned a) {
    const Event &e = ev[a][idx[a]];
    if (!e.wait) {
      ++U[e.barrier];
      ++arr[a][e.barrier];
      last[e.barrier] = {static_cast<int>(a), idx[a]};
    }
    trace.push_back({a, idx[a]});
    ++idx[a];
  }
  bool runAgent(unsigned a) {
    bool any = false;
    while (enabled(a)) {
      exec(a);
      any = true;
    }
    return any;
  }
  void fixpoint(int frozen = -1) {
    bool changed = true;
    while (changed) {
      changed = false;
      for (unsigned a = 0; a < agents.size(); ++a)
        if (static_cast<int>(a) != frozen && runAgent(a))
          changed = true;
    }
  }
};

//===----------------------------------------------------------------------===//
// Checker
//===----------------------------------------------------------------------===//

class Checker {
public:
  explicit Checker(KernelOp kernel) : m(buildModel(kernel)) {}

  ProgressResult run();
  /// The kernel's model (the condition values of a run are set here).
  Model &model() { return m; }
  /// See progress::describeModel.
  SmallVector<std::pair<Operation *, std::string>> describe();
  /// Groups agents and tasks by component.
  void setupComponents();

private:
  struct Assignment {
    std::vector<int64_t> trips;   // per task
    std::vector<int64_t> symbols; // per model symbol (-1: unused)
  };
  std::optional<Counterexample> check(unsigned comp, const Assignment &as);
  // The checks of one assignment, in check's order, on its final state.
  std::optional<Counterexample>
  deadlock(unsigned comp, const Assignment &as,
           const std::vector<std::vector<Event>> &ev, const Sim &sim);
  std::optional<Counterexample>
  lapEarlyWaits(unsigned comp, const Assignment &as,
                const std::vector<std::vector<Event>> &ev, const Sim &sim);
  std::optional<Counterexample>
  balance(unsigned comp, const Assignment &as,
          const std::vector<std::vector<Event>> &ev, const Sim &sim);
  std::optional<Counterexample>
  hazards(unsigned comp, const Assignment &as,
          const std::vector<std::vector<Event>> &ev, const Sim &sim);
  struct Endless {
    enum Kind { Stuck, Periodic, Unknown } kind = Unknown;
    /// Iterations of each agent at the repeated rounds r1 < r2 (Periodic),
    /// or it2 only, where the run got stuck (Stuck).
    std::vector<int64_t> it1, it2;
    std::vector<bool> idle;
  };
  Endless endless(unsigned comp, const std::vector<int64_t> &trips);
  std::map<std::vector<int64_t>, Endless> endlessCache;
  bool reduce(unsigned comp, Assignment &as);
  std::string lengthsOf(unsigned comp, const Assignment &as) {
    std::string out;
    for (unsigned t : compTasks[comp])
      out += (out.empty() ? "@" : ", @") + m.tasks[t].name + " = " +
             std::to_string(as.trips[t]);
    return out;
  }
  int64_t boundFor(unsigned comp, int sym, std::string &warning);

  // Counterexample construction.
  Counterexample start(FailureKind kind, const Assignment &as, unsigned comp);
  void addTimeline(Counterexample &cex, const Sim &sim,
                   const std::vector<std::vector<Event>> &ev,
                   const std::vector<unsigned> &pipes);
  std::string agentName(const std::vector<unsigned> &agents, unsigned a) {
    return m.agents[agents[a]].name;
  }
  std::string barrierText(unsigned b) {
    unsigned p;
    bool full;
    int64_t stage;
    m.decode(b, p, full, stage);
    if (m.pipes[p].named)
      return "@" + m.pipes[p].name + " named barrier";
    return "@" + m.pipes[p].name + (full ? " full" : " empty") +
           " barrier, stage " + std::to_string(stage);
  }
  /// The barrier fields of a note.
  void describeBarrier(Note &n, unsigned b) {
    unsigned p;
    bool full;
    int64_t stage;
    m.decode(b, p, full, stage);
    n.pipeline = m.pipes[p].name;
    n.fullBarrier = full;
    n.stage = stage;
  }
  /// The bracket an event stands for, as the notes name it.
  std::string roleText(const Event &e) {
    if (!m.isNamed(e.barrier))
      return roleName(e.role);
    return isa<NamedBarrierSyncOp>(e.op) ? "named_barrier_sync"
                                         : "named_barrier_arrive";
  }
  unsigned pipeOf(unsigned b) {
    unsigned p;
    bool full;
    int64_t stage;
    m.decode(b, p, full, stage);
    return p;
  }
  void tagX8(Counterexample &cex, const Assignment &as, unsigned comp);
  /// The note on local agent `o` (model agent `owner`) that holds the
  /// credit a blocked agent waits for: `holds` followed by where `o` is
  /// (finished, or blocked at its next event), of kind CreditHolder.
  Note creditHolderNote(const std::vector<unsigned> &agents,
                        const std::vector<std::vector<Event>> &ev,
                        const Sim &sim, unsigned o, unsigned owner,
                        const std::string &holds);
  // Named barriers (NamedBarriers.cpp): the notes of local agent `a`
  // blocked in a named-barrier sync, and the early arrival of agent `o` on
  // a named barrier before `a`'s arrival `e` (rule X30).
  void namedDeadlockNotes(Counterexample &cex,
                          const std::vector<unsigned> &agents,
                          const std::vector<std::vector<Event>> &ev,
                          const Sim &sim, unsigned a);
  void namedEarlyArrival(Counterexample &cex,
                         const std::vector<unsigned> &agents,
                         const std::vector<std::vector<Event>> &ev,
                         const Sim &fz, unsigned a, unsigned o, const Event &e);
  void showReachable(Counterexample &cex, const TaskInfo &t, int64_t trips,
                     ProgressResult &result, std::string &unproven);
  std::optional<Counterexample>
  lapEarly(unsigned comp, const Assignment &as, const Sim &done,
           const std::vector<std::vector<Event>> &ev, unsigned a, size_t j);

  Model m;
  /// Set when an assignment was too long to simulate (see kMaxEvents).
  std::string tooLong;
  int64_t totalEvents = 0;
  std::vector<std::vector<unsigned>> compAgents;
  std::vector<std::vector<unsigned>> compTasks;
};

/// "with domain lengths @a = 1, ... (%n = 0)" of a counterexample.
std::string lengthsText(const Counterexample &cex);

/// The progress verdict of `kernel` over the values of the conditions of
/// its tspipe.when_true / when_false guards (Guards.cpp): one run per
/// combination; any failing one, and any condition not uniform over the
/// kernel, is reported as not proven.
ProgressResult checkUnderConditions(KernelOp kernel);

} // namespace mlir::tspipe::progress::detail

#endif // TSPIPE_LIB_DIALECT_TSPIPE_ANALYSIS_CHECKER_H
