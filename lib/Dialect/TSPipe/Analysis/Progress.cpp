//===- Progress.cpp - deadlock and credit-balance checker -----------------===//
//
// Decides R70 (deadlock, credit balance), R71 (phase overrun, early
// arrivals: the interleaving hazards of the barrier protocol) and X8 for a
// tspipe.kernel, for every domain length (docs/ProgressChecker.md):
//
//  1. The model (Model.cpp): agents with straight-line schedules whose
//     waits need a count of barrier completions and whose arrivals add to
//     it. Counts only grow, so an enabled wait stays enabled: every
//     maximal run reaches the same final state, and one run decides
//     deadlock and balance for one assignment of domain lengths.
//  2. Hazards (phase aliasing of parity waits, arrivals for a phase that
//     has not completed) are checked by freezing each agent before each of
//     its events and running the others to their fixpoint, which reaches
//     every state the others can reach while that agent waits there.
//  3. Lengths: per connected component, the dynamic bounds are quasi-affine
//     in one symbol X. The endless system (growing loops never end) is run
//     in lock step until its normalized state repeats (or it is stuck);
//     from there the verdict is periodic in X, which bounds the values of
//     X that must be checked.
//
//===----------------------------------------------------------------------===//

#include "Model.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <map>
#include <set>
#include <functional>
#include <numeric>
#include <unordered_map>

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress;
using namespace mlir::tspipe::progress::detail;

namespace {

constexpr int64_t kMaxRounds = 5000;   ///< lock-step rounds of the endless run
/// Largest value of a domain symbol ever simulated; a bound beyond it is
/// reported as not proven, never cut silently.
constexpr int64_t kMaxX = int64_t(1) << 26;
constexpr int64_t kMaxAssignments = 4096; ///< multi-symbol product cap
/// Events of one assignment, and of all assignments of a kernel, beyond
/// which the checker stops (with a warning) instead of running for long.
constexpr int64_t kMaxEvents = int64_t(1) << 22;
constexpr int64_t kMaxTotalEvents = int64_t(1) << 26;
/// Trip counts above which a run is shortened by whole periods first.
constexpr int64_t kBigTrips = 256;

std::string iterText(int64_t iter) {
  if (iter == -1)
    return "the head";
  if (iter == -2)
    return "the tail";
  return "iteration " + std::to_string(iter);
}

/// Parity of the phase an event waits for (waits) or belongs to.
int64_t waitPhase(const Event &e) {
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

private:
  struct Assignment {
    std::vector<int64_t> trips;   // per task
    std::vector<int64_t> symbols; // per model symbol (-1: unused)
  };
  std::optional<Counterexample> check(unsigned comp, const Assignment &as);
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
  Counterexample start(FailureKind kind, const Assignment &as,
                       unsigned comp);
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
  unsigned pipeOf(unsigned b) {
    unsigned p;
    bool full;
    int64_t stage;
    m.decode(b, p, full, stage);
    return p;
  }
  void tagX8(Counterexample &cex, const Assignment &as, unsigned comp);
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

Counterexample Checker::start(FailureKind kind, const Assignment &as,
                              unsigned comp) {
  Counterexample cex;
  cex.kind = kind;
  cex.rule = (kind == FailureKind::PhaseOverrun ||
              kind == FailureKind::OverArrival ||
              kind == FailureKind::LapEarly)
                 ? "R71"
                 : "R70";
  cex.anchor = m.kernel;
  for (unsigned t : compTasks[comp])
    cex.lengths.push_back({m.tasks[t].name, as.trips[t]});
  for (unsigned s = 0; s < m.symbols.size(); ++s)
    if (as.symbols[s] >= 0)
      cex.symbols.push_back({m.symbols[s].name, as.symbols[s]});
  return cex;
}

std::string lengthsText(const Counterexample &cex) {
  std::string out = "with domain lengths ";
  for (size_t i = 0; i < cex.lengths.size(); ++i)
    out += (i ? ", @" : "@") + cex.lengths[i].first + " = " +
           std::to_string(cex.lengths[i].second);
  if (!cex.symbols.empty()) {
    out += " (";
    for (size_t i = 0; i < cex.symbols.size(); ++i)
      out += (i ? ", " : "") + cex.symbols[i].first + " = " +
             std::to_string(cex.symbols[i].second);
    out += ")";
  }
  return out;
}

void Checker::tagX8(Counterexample &cex, const Assignment &as,
                    unsigned comp) {
  for (unsigned t : compTasks[comp]) {
    const TaskInfo &ti = m.tasks[t];
    if (as.trips[t] != 0 || !ti.hasGuardedArrive)
      continue;
    cex.rule = "X8";
    for (const Step &s : ti.body)
      if (s.guard != Guard::Always && (s.role == Commit || s.role == Release))
        cex.notes.push_back(
            {s.op, "[X8] this " + std::string(roleName(s.role)) +
                       " runs only under a loop guard, and @" + ti.name +
                       "'s domain is empty here: no guard runs, so its "
                       "credit is never returned; move it to the tail (or "
                       "pair it with a guarded acquire / wait)"});
    return;
  }
}

void Checker::addTimeline(Counterexample &cex, const Sim &sim,
                          const std::vector<std::vector<Event>> &ev,
                          const std::vector<unsigned> &pipes) {
  std::vector<std::vector<int64_t>> arrivals(
      sim.agents.size(), std::vector<int64_t>(m.numBarriers, 0));
  std::vector<TimelineEvent> all;
  auto make = [&](unsigned a, const Event &e, bool blocked) {
    unsigned p;
    bool full;
    int64_t stage;
    m.decode(e.barrier, p, full, stage);
    int64_t phase = e.wait ? waitPhase(e) : arrivals[a][e.barrier] & 1;
    return TimelineEvent{agentName(sim.agents, a),
                         m.pipes[p].name,
                         full,
                         stage,
                         phase,
                         std::string(roleName(e.role)).substr(
                             std::string(roleName(e.role)).find('_') + 1),
                         e.iter,
                         blocked};
  };
  for (auto [a, i] : sim.trace) {
    const Event &e = ev[a][i];
    if (!llvm::is_contained(pipes, pipeOf(e.barrier)))
      continue;
    all.push_back(make(a, e, false));
    if (!e.wait)
      ++arrivals[a][e.barrier];
  }
  // The last events before the failure tell the story; keep 40.
  size_t from = all.size() > 40 ? all.size() - 40 : 0;
  cex.timeline.assign(all.begin() + from, all.end());
  for (unsigned a = 0; a < sim.agents.size(); ++a)
    if (!sim.finished(a)) {
      const Event &e = ev[a][sim.idx[a]];
      if (llvm::is_contained(pipes, pipeOf(e.barrier)))
        cex.timeline.push_back(make(a, e, true));
    }
}

/// A counterexample found at trip count `trips` of the tasks that share
/// `t`'s bounds: finds values of the bounds' leaves that give it (the
/// smallest sum first) and names them, or, where none is found among small
/// values, withdraws the counterexample and says what is not proven.
void Checker::showReachable(Counterexample &cex, const TaskInfo &t,
                            int64_t trips, ProgressResult &result,
                            std::string &unproven) {
  std::vector<int64_t> values(m.symbols.size(), 0);
  size_t k = t.leaves.size();
  int64_t limit = 64;
  while (limit > 1 && std::pow(double(limit + 1), double(k)) > 65536.0)
    --limit;
  std::vector<int64_t> cur(k, 0);
  bool found = false;
  for (int64_t sum = 0; sum <= limit * int64_t(k) && !found; ++sum) {
    std::function<void(size_t, int64_t)> rec = [&](size_t i, int64_t left) {
      if (found)
        return;
      if (i == k) {
        if (left != 0)
          return;
        for (size_t j = 0; j < k; ++j)
          values[t.leaves[j]] = cur[j];
        std::optional<int64_t> n = tripAt(m, t, values);
        found = n && *n == trips;
        return;
      }
      for (int64_t v = 0; v <= std::min(limit, left); ++v) {
        cur[i] = v;
        rec(i + 1, left - v);
      }
    };
    rec(0, sum);
  }
  std::string names;
  for (int leaf : t.leaves)
    names += (names.empty() ? "" : ", ") + m.symbols[leaf].name +
             (found ? " = " + std::to_string(values[leaf]) : "");
  if (found) {
    cex.message += " (" + names + ")";
    cex.symbols.clear();
    for (int leaf : t.leaves)
      cex.symbols.push_back({m.symbols[leaf].name, values[leaf]});
    return;
  }
  unproven = "the tasks fail when @" + t.name + " runs " +
             std::to_string(trips) + " iterations, but no values of " +
             names + " up to " + std::to_string(limit) +
             " give that length";
  result.counterexample.reset();
}

/// The lap-early hazard of a parity wait (R71): an mbarrier wait tests one
/// phase bit, so a wait for completion t passes as soon as the barrier's
/// completion count has t's parity, also at t - 2, a whole lap early. The
/// least prefix of every agent that lets agent `a` reach its event `j`
/// (each wait in a prefix needs, from each nominal arriver of its barrier,
/// as many arrivals as the completions it waits for) is a real execution
/// of the model; if the barrier has at most t - 2 completions there, the
/// hardware's wait passes where the model's blocks.
std::optional<Counterexample>
Checker::lapEarly(unsigned comp, const Assignment &as, const Sim &done,
                  const std::vector<std::vector<Event>> &ev, unsigned a,
                  size_t j) {
  const std::vector<unsigned> &agents = compAgents[comp];
  const Event &e = ev[a][j];
  std::vector<std::unordered_map<unsigned, std::vector<size_t>>> arrivals(
      agents.size());
  for (unsigned o = 0; o < agents.size(); ++o)
    for (size_t k = 0; k < ev[o].size(); ++k)
      if (!ev[o][k].wait)
        arrivals[o][ev[o][k].barrier].push_back(k);
  std::vector<size_t> need(agents.size(), 0), scanned(agents.size(), 0);
  need[a] = j;
  bool changed = true;
  while (changed) {
    changed = false;
    for (unsigned o = 0; o < agents.size(); ++o)
      for (; scanned[o] < need[o]; ++scanned[o]) {
        const Event &w = ev[o][scanned[o]];
        if (!w.wait || w.target <= 0)
          continue;
        StepRole arriver = w.role == Wait ? Commit : Release;
        for (unsigned owner : m.nominal[w.barrier][arriver]) {
          auto it = llvm::find(agents, owner);
          if (it == agents.end())
            continue;
          unsigned o2 = it - agents.begin();
          const std::vector<size_t> &list = arrivals[o2][w.barrier];
          if (static_cast<int64_t>(list.size()) < w.target)
            return std::nullopt;
          size_t k = list[w.target - 1] + 1;
          if (k > need[o2]) {
            need[o2] = k;
            changed = true;
          }
        }
      }
  }
  if (need[a] > j)
    return std::nullopt;
  Sim least(m, agents, ev);
  least.limit = need;
  least.fixpoint();
  int64_t have = least.completions(e.barrier);
  if (least.idx[a] != j || have > e.target - 2)
    return std::nullopt;
  Counterexample cex = start(FailureKind::LapEarly, as, comp);
  cex.message = "lap-early wait " + lengthsText(cex) + ": " +
                agentName(agents, a) + " can reach its " + roleName(e.role) +
                " for completion " + std::to_string(e.target) + " of " +
                barrierText(e.barrier) + " when the barrier has completed " +
                std::to_string(have) + " phase(s); a parity wait tests one "
                "phase bit, so it passes a whole ring lap early, before "
                "the phase it waits for";
  cex.notes.push_back(
      {e.op, agentName(agents, a) + " waits here in " + iterText(e.iter) +
                 " for phase parity " + std::to_string(waitPhase(e)) +
                 " of " + barrierText(e.barrier) + ", which it has not "
                 "waited for in the visit before"});
  addTimeline(cex, least, ev, {pipeOf(e.barrier)});
  (void)done;
  return cex;
}

std::optional<Counterexample> Checker::check(unsigned comp,
                                             const Assignment &as) {
  const std::vector<unsigned> &agents = compAgents[comp];
  // Refuse schedules too long to simulate rather than run for minutes.
  int64_t estimate = 0;
  for (unsigned a : agents) {
    const TaskInfo &t = m.tasks[m.agents[a].task];
    int64_t drains = 0;
    for (const PipeInfo &p : m.pipes)
      drains += p.stages;
    estimate += static_cast<int64_t>(t.head.size() + t.tail.size()) +
                drains +
                as.trips[m.agents[a].task] *
                    std::max<int64_t>(1, t.body.size()) * 2;
  }
  totalEvents += estimate;
  if (estimate > kMaxEvents || totalEvents > kMaxTotalEvents) {
    tooLong = "the schedules are too long to simulate (about " +
              std::to_string(estimate) + " barrier events at " +
              lengthsOf(comp, as) + ")";
    return std::nullopt;
  }
  std::vector<std::vector<Event>> ev(agents.size());
  for (unsigned a = 0; a < agents.size(); ++a) {
    Generator g(m, agents[a], as.trips[m.agents[agents[a]].task]);
    Event e;
    while (g.next(e))
      ev[a].push_back(e);
  }

  // 1. Deadlock: the unique final state of every maximal run.
  Sim sim(m, agents, ev);
  sim.fixpoint();
  std::vector<unsigned> blocked;
  for (unsigned a = 0; a < agents.size(); ++a)
    if (!sim.finished(a))
      blocked.push_back(a);
  if (!blocked.empty()) {
    Counterexample cex = start(FailureKind::Deadlock, as, comp);
    std::vector<unsigned> pipes;
    for (unsigned a : blocked) {
      const Event &e = ev[a][sim.idx[a]];
      unsigned b = e.barrier;
      pipes.push_back(pipeOf(b));
      int64_t have = sim.completions(b);
      Note blockedNote{e.op, agentName(agents, a) + " blocks in " +
                                 iterText(e.iter) + " on " + barrierText(b) +
                                 ", phase " + std::to_string(waitPhase(e)) +
                                 " (" + roleName(e.role) +
                                 " needs completion " +
                                 std::to_string(e.target) +
                                 ", the barrier has " +
                                 std::to_string(have) + ")"};
      blockedNote.kind = NoteKind::Blocked;
      blockedNote.agent = agentName(agents, a);
      blockedNote.iteration = e.iter;
      blockedNote.bracket = roleName(e.role);
      describeBarrier(blockedNote, b);
      blockedNote.phase = waitPhase(e);
      cex.notes.push_back(std::move(blockedNote));
      // Who holds the missing credit: the nominal arrivers that have not
      // arrived often enough.
      StepRole arriver = (e.role == Wait) ? Commit : Release;
      const std::vector<unsigned> &owners = m.nominal[b][arriver];
      if (owners.empty()) {
        unsigned p = pipeOf(b);
        bool anyRole = llvm::any_of(agents, [&](unsigned o) {
          return (m.agents[o].usedRoles[p] >> arriver) & 1;
        });
        int64_t stage = b - m.pipes[p].barrierBase -
                        (arriver == Commit ? 0 : m.pipes[p].stages);
        cex.notes.push_back(
            {m.pipes[p].op,
             anyRole ? "no task runs " + std::string(roleName(arriver)) +
                           " on stage " + std::to_string(stage) + " of @" +
                           m.pipes[p].name +
                           ": no cursor lane reaches it; check "
                           "interleave_stride and the tasks' lanes"
                     : "no task runs " + std::string(roleName(arriver)) +
                           " on @" + m.pipes[p].name + "; add it to the "
                           "schedule of the task that " +
                           (arriver == Commit ? "acquires" : "waits on") +
                           " the stages"});
        continue;
      }
      for (unsigned owner : owners) {
        auto it = llvm::find(agents, owner);
        if (it == agents.end())
          continue;
        unsigned o = it - agents.begin();
        int64_t did = sim.arr[o][b];
        if (did >= e.target)
          continue;
        std::string holds = "the credit for completion " +
                            std::to_string(e.target) + " of " +
                            barrierText(b) + " is held by " +
                            agentName(agents, o) + ": it has " +
                            (arriver == Commit ? "committed" : "released") +
                            " that stage " + std::to_string(did) +
                            " time(s) and ";
        Note holder;
        if (sim.finished(o)) {
          holder = {m.tasks[m.agents[owner].task].op, holds + "has finished"};
        } else {
          const Event &oe = ev[o][sim.idx[o]];
          holder = {oe.op, holds + "is blocked here, in " +
                               iterText(oe.iter) + " on " +
                               barrierText(oe.barrier)};
          holder.iteration = oe.iter;
        }
        holder.kind = NoteKind::CreditHolder;
        holder.agent = agentName(agents, o);
        holder.bracket = roleName(arriver);
        describeBarrier(holder, b);
        cex.notes.push_back(std::move(holder));
      }
    }
    cex.message = "tasks deadlock " + lengthsText(cex) +
                  ": every unfinished task is blocked on a barrier whose "
                  "credit is held by a blocked or finished task";
    addTimeline(cex, sim, ev, pipes);
    tagX8(cex, as, comp);
    return cex;
  }

  // 2. Lap-early waits: a wait for completion t whose agent has not waited
  // for t - 1 on that barrier before (the barrier then has at least the
  // largest completion count the agent's earlier waits on it needed).
  for (unsigned a = 0; a < agents.size(); ++a) {
    std::vector<int64_t> floorOf(m.numBarriers, 0);
    for (size_t j = 0; j < ev[a].size(); ++j) {
      const Event &e = ev[a][j];
      if (!e.wait)
        continue;
      if (e.target >= floorOf[e.barrier] + 2)
        if (std::optional<Counterexample> cex =
                lapEarly(comp, as, sim, ev, a, j))
          return cex;
      floorOf[e.barrier] = std::max(floorOf[e.barrier], e.target);
    }
  }

  // 3. Credit balance: every barrier phase completed is consumed by each
  // nominal waiter (full) or matches each nominal acquirer (empty), and no
  // phase is left half-arrived.
  std::vector<std::vector<std::array<int64_t, 5>>> cnt(
      agents.size(),
      std::vector<std::array<int64_t, 5>>(m.numBarriers, {0, 0, 0, 0, 0}));
  std::vector<std::vector<Operation *>> lastOp(
      agents.size(), std::vector<Operation *>(m.numBarriers, nullptr));
  // Waits count the phases they wait for, not the waits: a second wait on
  // a stage before its release waits for the same phase again.
  std::vector<std::vector<int64_t>> lastTarget(
      agents.size(), std::vector<int64_t>(m.numBarriers, -1));
  for (unsigned a = 0; a < agents.size(); ++a)
    for (const Event &e : ev[a]) {
      if (e.role == Wait || e.role == Acquire) {
        if (lastTarget[a][e.barrier] == e.target)
          continue;
        lastTarget[a][e.barrier] = e.target;
      }
      ++cnt[a][e.barrier][e.role];
      if (e.role != Drain)
        lastOp[a][e.barrier] = e.op;
    }
  for (unsigned b = 0; b < m.numBarriers; ++b) {
    unsigned p = pipeOf(b);
    bool used = llvm::any_of(agents, [&](unsigned a) {
      return m.agents[a].usedRoles[p] != 0;
    });
    if (!used)
      continue;
    auto unbalanced = [&](std::string msg, unsigned a, StepRole r) {
      Counterexample cex = start(FailureKind::Unbalanced, as, comp);
      cex.message = msg + " " + lengthsText(cex) + " [credits of " +
                    barrierText(b) + "]";
      Operation *op = lastOp[a][b] ? lastOp[a][b]
                                   : m.tasks[m.agents[agents[a]].task].op;
      cex.notes.push_back(
          {op, agentName(agents, a) + " executes " + roleName(r) + " on " +
                   barrierText(b) + " " + std::to_string(cnt[a][b][r]) +
                   " time(s); the barrier completes " +
                   std::to_string(sim.completions(b)) + " phase(s)"});
      for (unsigned t : compTasks[comp])
        for (Operation *probe : m.tasks[t].unusedProbes)
          if (probe->getAttrOfType<FlatSymbolRefAttr>("pipeline")
                  .getValue() == m.pipes[p].name)
          cex.notes.push_back(
              {probe, "this probe is never followed by its blocking form: "
                      "it neither waits nor takes the stage; pass its token "
                      "to a " +
                          std::string(isa<ProducerTryAcquireOp>(probe)
                                          ? "tspipe.producer_acquire"
                                          : "tspipe.consumer_wait") +
                          " ready(...)"});
      addTimeline(cex, sim, ev, {p});
      tagX8(cex, as, comp);
      return cex;
    };
    bool full = b < m.pipes[p].barrierBase + m.pipes[p].stages;
    int64_t count = m.count[b];
    int64_t c = sim.completions(b);
    StepRole arrive = full ? Commit : Release;
    if (count == 0 ? sim.U[b] > 0 : sim.U[b] % count != 0) {
      for (unsigned a = 0; a < agents.size(); ++a)
        if (sim.arr[a][b] > c)
          return unbalanced(
              std::string(full ? "a commit" : "a release") +
                  " is left without the other arrivals of its phase",
              a, arrive);
    }
    // Phases completed, but no task takes them: nobody waits for the full
    // barrier, or nobody acquires the stages the releases free.
    if (c > 0) {
      StepRole taker = full ? Wait : Acquire;
      bool anyTaker = llvm::any_of(m.nominal[b][taker], [&](unsigned o) {
        return llvm::is_contained(agents, o);
      });
      if (!anyTaker)
        for (unsigned a = 0; a < agents.size(); ++a)
          if (sim.arr[a][b] > 0)
            return unbalanced(
                "credits are unbalanced: " + std::to_string(c) +
                    (full ? " committed phase(s) are never waited for"
                          : " release(s) are not matched by any acquire"),
                a, arrive);
    }
    for (StepRole r : {Commit, Wait, Release, Acquire}) {
      bool rFull = r == Commit || r == Wait;
      if (rFull != full)
        continue;
      for (unsigned owner : m.nominal[b][r]) {
        auto it = llvm::find(agents, owner);
        if (it == agents.end())
          continue;
        unsigned a = it - agents.begin();
        int64_t n = cnt[a][b][r];
        if (n == c)
          continue;
        std::string what;
        if (r == Wait)
          what = std::to_string(c - n) + " committed phase(s) are never "
                                          "waited for by " +
                 agentName(agents, a);
        else if (r == Acquire && n < c)
          what = std::to_string(c - n) +
                 " release(s) are not matched by an acquire of " +
                 agentName(agents, a);
        else if (r == Acquire)
          what = std::to_string(n - c) + " acquire(s) of " +
                 agentName(agents, a) + " are never released";
        else
          what = agentName(agents, a) + " " +
                 (r == Commit ? "commits" : "releases") + " " +
                 std::to_string(n) + " time(s) where the barrier completes " +
                 std::to_string(c) + " phase(s)";
        return unbalanced("credits are unbalanced: " + what, a, r);
      }
    }
  }

  // 4. Hazards: freeze each agent before each of its events; the others
  // run to their fixpoint, i.e. as far as any interleaving lets them while
  // the frozen agent waits there.
  for (unsigned a = 0; a < agents.size(); ++a) {
    Sim fz(m, agents, ev);
    for (size_t j = 0; j < ev[a].size(); ++j) {
      fz.fixpoint(a);
      const Event &e = ev[a][j];
      unsigned b = e.barrier;

      if (e.wait && fz.completions(b) > e.target) {
        Counterexample cex = start(FailureKind::PhaseOverrun, as, comp);
        cex.message =
            "phase overrun " + lengthsText(cex) + ": " +
            barrierText(b) + " can reach completion " +
            std::to_string(e.target + 1) + " before " +
            agentName(agents, a) + " passes its " + roleName(e.role) +
            " for completion " + std::to_string(e.target) +
            "; a parity wait then sees the wrong phase (it blocks forever "
            "or passes a phase early)";
        cex.notes.push_back(
            {e.op, agentName(agents, a) + " waits here in " +
                       iterText(e.iter) + " for phase parity " +
                       std::to_string(waitPhase(e)) + " of " +
                       barrierText(b)});
        if (fz.last[b].first >= 0) {
          auto [o, k] = fz.last[b];
          cex.notes.push_back(
              {ev[o][k].op, agentName(agents, o) + " arrives for the next "
                            "phase here, in " + iterText(ev[o][k].iter) +
                            ", without waiting for " + agentName(agents, a)});
        }
        addTimeline(cex, fz, ev, {pipeOf(b)});
        return cex;
      }
      if (!e.wait) {
        int64_t mine = fz.arr[a][b];
        for (unsigned o = 0; o < agents.size(); ++o) {
          if (o == a || fz.arr[o][b] < mine + 2)
            continue;
          Counterexample cex = start(FailureKind::OverArrival, as, comp);
          cex.message = "early arrival " + lengthsText(cex) + ": " +
                        agentName(agents, o) + " can arrive on " +
                        barrierText(b) + " for phase " +
                        std::to_string(mine + 1) + " before " +
                        agentName(agents, a) + " arrives for phase " +
                        std::to_string(mine) +
                        "; the barrier then completes a phase with the "
                        "wrong arrivals";
          cex.notes.push_back({e.op, agentName(agents, a) +
                                         " has not arrived yet, in " +
                                         iterText(e.iter)});
          auto [lo, lk] = fz.last[b];
          if (lo >= 0)
            cex.notes.push_back({ev[lo][lk].op, agentName(agents, lo) +
                                                    " arrives again here, in " +
                                                    iterText(ev[lo][lk].iter)});
          addTimeline(cex, fz, ev, {pipeOf(b)});
          return cex;
        }
      }
      if (!fz.enabled(a))
        break; // cannot happen after a deadlock-free run; be safe
      fz.exec(a);
    }
  }
  return std::nullopt;
}

/// The rotation period of pipeline `p`, in cursor positions: the smallest
/// d that divides num_stages, is a multiple of every stride of the
/// pipeline, and maps every stage s to a stage s + d (mod num_stages) with
/// the same nominal participants per role (hence the same arrive count).
/// Moving every cursor of the pipeline by d, and every barrier count with
/// its stage, is then a symmetry of the model: each event depends only on
/// a cursor's stage and visit and on its barrier's count and participants
/// (docs/ProgressChecker.md). A ring whose tasks all move by one stage has
/// period 1; interleaved lanes of stride k give k. When no divisor fits
/// (a stride that does not divide num_stages), two whole rounds.
int64_t rotationPeriod(const Model &m, unsigned p) {
  const PipeInfo &pi = m.pipes[p];
  int64_t S = pi.stages, l = 1;
  for (StepRole r : {Acquire, Commit, Wait, Release, Drain})
    l = std::lcm(l, pi.strideOf(r));
  if (S % l != 0)
    return 2 * S;
  for (int64_t d = l; d < S; d += l) {
    if (S % d != 0)
      continue;
    bool same = true;
    for (int64_t s = 0; s < S && same; ++s)
      for (bool full : {true, false}) {
        unsigned b = m.barrier(p, full, s),
                 b2 = m.barrier(p, full, (s + d) % S);
        if (m.count[b] != m.count[b2] || m.nominal[b] != m.nominal[b2]) {
          same = false;
          break;
        }
      }
    if (same)
      return d;
  }
  return S;
}

/// Runs the endless system of a component in lock step (one event per
/// agent per round): agents with trips < 0 loop forever. Stops when no
/// agent can move (Stuck) or when the normalized state repeats (Periodic).
Checker::Endless Checker::endless(unsigned comp,
                                  const std::vector<int64_t> &trips) {
  const std::vector<unsigned> &agents = compAgents[comp];
  Endless res;
  std::vector<Generator> gens;
  for (unsigned a = 0; a < agents.size(); ++a)
    gens.emplace_back(m, agents[a], trips[a]);
  std::vector<Event> pending(agents.size());
  std::vector<bool> has(agents.size());
  for (unsigned a = 0; a < agents.size(); ++a)
    has[a] = gens[a].next(pending[a]);
  std::vector<int64_t> U(m.numBarriers, 0);
  std::vector<std::vector<std::array<int64_t, 4>>> cnt(
      agents.size(),
      std::vector<std::array<int64_t, 4>>(m.pipes.size(), {0, 0, 0, 0}));
  std::vector<std::vector<std::array<std::pair<int64_t, int64_t>, 4>>>
      lastWait(agents.size(),
               std::vector<std::array<std::pair<int64_t, int64_t>, 4>>(
                   m.pipes.size()));
  for (auto &perAgent : lastWait)
    for (auto &perPipe : perAgent)
      perPipe.fill({-1, -1});
  auto completions = [&](unsigned b) {
    return m.count[b] ? U[b] / m.count[b] : 0;
  };
  std::unordered_map<size_t, std::vector<std::pair<std::vector<int64_t>,
                                                   int64_t>>>
      seen;
  std::vector<std::vector<int64_t>> iters;
  std::vector<unsigned> compPipes;
  for (unsigned p = 0; p < m.pipes.size(); ++p)
    if (llvm::any_of(agents,
                     [&](unsigned a) { return m.agents[a].usedRoles[p]; }))
      compPipes.push_back(p);
  std::vector<int64_t> shift(m.pipes.size(), 0);
  for (unsigned p : compPipes)
    shift[p] = rotationPeriod(m, p);
  auto finish = [&](Endless::Kind kind) {
    res.kind = kind;
    res.idle.resize(agents.size());
    for (unsigned a = 0; a < agents.size(); ++a)
      res.idle[a] = gens[a].idle;
    return res;
  };

  for (int64_t round = 0; round < kMaxRounds; ++round) {
    bool progress = false;
    for (unsigned a = 0; a < agents.size(); ++a) {
      if (!has[a])
        continue;
      const Event &e = pending[a];
      if (e.wait && completions(e.barrier) < e.target)
        continue;
      if (!e.wait)
        ++U[e.barrier];
      if (e.role != Drain) {
        // Waits count phases (a repeated wait on a stage is no new one).
        unsigned p = pipeOf(e.barrier);
        std::pair<int64_t, int64_t> &seen = lastWait[a][p][e.role];
        bool again = e.wait && seen == std::make_pair(int64_t(e.barrier),
                                                      e.target);
        seen = {e.barrier, e.target};
        if (!again)
          ++cnt[a][p][e.role];
      }
      has[a] = gens[a].next(pending[a]);
      progress = true;
    }
    std::vector<int64_t> it(agents.size());
    for (unsigned a = 0; a < agents.size(); ++a)
      it[a] = gens[a].iter;
    if (!progress) {
      res.it2 = it;
      return finish(Endless::Stuck);
    }
    // Normalized state: every cursor position of a pipeline less a common
    // base (a multiple of the pipeline's rotation period), the role counts
    // less the brackets that base stands for, and the barrier counts seen
    // from the base: entry j is the barrier of the stage at position
    // base + j, less the completions of the visits before that position
    // (docs/ProgressChecker.md, "Which lengths are checked").
    std::vector<int64_t> key;
    std::vector<int64_t> base(m.pipes.size(), 0);
    for (unsigned p : compPipes) {
      int64_t lo = INT64_MAX;
      for (unsigned a = 0; a < agents.size(); ++a) {
        if (!has[a] && !gens[a].idle)
          continue;
        for (unsigned c = 0; c < 4; ++c)
          if ((m.agents[agents[a]].usedCursors[p] >> c) & 1)
            lo = std::min(lo, gens[a].pos[p][c]);
      }
      const PipeInfo &pi = m.pipes[p];
      int64_t S = pi.stages;
      base[p] = lo == INT64_MAX ? 0 : floorDiv(lo, shift[p]) * shift[p];
      int64_t first = base[p] % S, visit = base[p] / S;
      for (bool full : {true, false})
        for (int64_t j = 0; j < S; ++j) {
          int64_t stage = first + j, v = visit;
          if (stage >= S) {
            stage -= S;
            ++v;
          }
          unsigned b = m.barrier(p, full, stage);
          key.push_back(U[b] - v * m.count[b]);
        }
    }
    for (unsigned a = 0; a < agents.size(); ++a) {
      const Generator &gen = gens[a];
      if (!has[a] && !gen.idle) {
        key.push_back(-1);
        continue;
      }
      key.push_back(static_cast<int64_t>(gen.section));
      key.push_back(gen.stepIdx);
      key.push_back(gen.drainLeft);
      key.push_back(gen.iter == 0);
      // A loop that ends (a fixed trip count) is not periodic: the rounds
      // before its end differ from those after it. Its iteration keeps two
      // of its rounds apart.
      key.push_back(trips[a] >= 0 ? gen.iter : -1);
      key.push_back(gen.idle);
      for (unsigned p : compPipes) {
        const AgentInfo &ai = m.agents[agents[a]];
        const PipeInfo &pi = m.pipes[p];
        for (unsigned c = 0; c < 4; ++c)
          if ((ai.usedCursors[p] >> c) & 1)
            key.push_back(gen.pos[p][c] - base[p]);
        for (StepRole r : {Acquire, Commit, Wait, Release})
          if ((ai.usedRoles[p] >> r) & 1)
            key.push_back(cnt[a][p][r] - base[p] / pi.strideOf(r));
      }
    }
    size_t h = llvm::hash_combine_range(key.begin(), key.end());
    auto &bucket = seen[h];
    for (auto &[k, r1] : bucket) {
      if (k != key)
        continue;
      res.it1 = iters[r1];
      res.it2 = it;
      return finish(Endless::Periodic);
    }
    bucket.push_back({std::move(key), round});
    iters.push_back(std::move(it));
  }
  return finish(Endless::Unknown);
}

/// Largest value of the component's symbol that must be checked: the
/// verdict is periodic in X from the endless run's repeated state on
/// (docs/ProgressChecker.md, "Which lengths are checked").
int64_t Checker::boundFor(unsigned comp, int sym, std::string &unproven) {
  const std::vector<unsigned> &agents = compAgents[comp];
  // The fallback, in iterations of every growing task (not in units of X:
  // a task of X / 128 iterations must run some iterations too).
  int64_t fallbackIters = 8;
  for (const PipeInfo &p : m.pipes)
    fallbackIters += 2 * p.stages;
  // From xStab on, every trip count is its quasi-affine form and every
  // nongrowing one is constant (the decreasing ones have reached 0).
  int64_t xStab = 0;
  for (unsigned t : compTasks[comp]) {
    const TaskInfo &ti = m.tasks[t];
    xStab = std::max(xStab, ti.tripFrom);
  }
  for (unsigned t : compTasks[comp]) {
    const TripExpr &e = m.tasks[t].trip;
    if (e.sym != sym || e.growing() || e.a == 0 || e.mul == 0)
      continue;
    // Nonincreasing from xStab on: the first X at which it is 0.
    int64_t lo = xStab, hi = kMaxX;
    if (e.eval(hi) > 0) {
      unproven = "the domain of @" + m.tasks[t].name + " shrinks as " +
                 m.symbols[sym].name + " grows but is not empty at " +
                 m.symbols[sym].name + " = " + std::to_string(kMaxX);
      return kMaxX;
    }
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (e.eval(mid) > 0)
        lo = mid + 1;
      else
        hi = mid;
    }
    xStab = std::max(xStab, lo);
  }
  auto minX = [&](const TripExpr &e, int64_t need) -> int64_t {
    std::optional<int64_t> x = minXFor(e.form(), need);
    return x ? *x : kMaxX + 1;
  };
  std::vector<bool> growing(agents.size());
  std::vector<int64_t> trips(agents.size());
  for (unsigned a = 0; a < agents.size(); ++a) {
    const TripExpr &e = m.tasks[m.agents[agents[a]].task].trip;
    growing[a] = e.sym == sym && e.growing();
    trips[a] = growing[a] ? -1 : e.eval(xStab);
  }
  // The smallest X from which every growing task runs at least `iters`
  // iterations.
  auto xForIters = [&](int64_t iters) {
    int64_t x = xStab;
    for (unsigned a = 0; a < agents.size(); ++a)
      if (growing[a])
        x = std::max(x, minX(m.tasks[m.agents[agents[a]].task].trip, iters));
    return x;
  };
  auto capped = [&](int64_t x) {
    if (x <= kMaxX)
      return x;
    unproven = "every length must be checked up to " + m.symbols[sym].name +
               " = " + std::to_string(x) + ", beyond the " +
               std::to_string(kMaxX) + " values the checker simulates";
    return kMaxX;
  };
  Endless run = endless(comp, trips);
  auto xss = [&](const std::vector<int64_t> &it) {
    int64_t x = xStab;
    for (unsigned a = 0; a < agents.size(); ++a)
      if (growing[a]) {
        int64_t need = run.idle[a] ? 2 : it[a] + 2;
        x = std::max(x, minX(m.tasks[m.agents[agents[a]].task].trip, need));
      }
    return x;
  };
  int64_t fallbackX = xForIters(fallbackIters);
  if (run.kind == Endless::Stuck) // the same final state for every large X
    return capped(xss(run.it2));
  if (run.kind == Endless::Unknown) {
    unproven = "the schedules reach no periodic regime within " +
               std::to_string(kMaxRounds) + " rounds, so the lengths to "
               "check have no bound; checked up to " + m.symbols[sym].name +
               " = " + std::to_string(fallbackX) + " (" +
               std::to_string(fallbackIters) + " iterations a task)";
    return std::min(fallbackX, kMaxX);
  }
  // Periodic: each agent advances it2 - it1 iterations per period. Find the
  // shift D of X that adds a whole number of periods to every growing agent.
  const std::vector<int64_t> &it1 = run.it1, &it = run.it2;
  int64_t d0 = 1;
  bool any = false, stuckAgent = false;
  for (unsigned a = 0; a < agents.size(); ++a) {
    if (!growing[a] || run.idle[a])
      continue;
    any = true;
    if (it[a] == it1[a])
      stuckAgent = true;
    d0 = std::lcm(d0, m.tasks[m.agents[agents[a]].task].trip.d);
    if (d0 > kMaxX)
      break;
  }
  int64_t x0 = xss(it1);
  if (!any)
    return capped(x0);
  if (stuckAgent) // a growing loop never finishes: fails for large X
    return capped(xss(it));
  for (int64_t mult = 1; mult <= 256 && d0 * mult <= kMaxX; ++mult) {
    int64_t D = d0 * mult;
    __int128 ratio = -1;
    bool ok = true;
    for (unsigned a = 0; a < agents.size() && ok; ++a) {
      if (!growing[a] || run.idle[a])
        continue;
      const TripExpr &e = m.tasks[m.agents[agents[a]].task].trip;
      __int128 num = __int128(e.mul) * e.a * D;
      if (num % e.d != 0) {
        ok = false;
        break;
      }
      __int128 q = num / e.d, delta = it[a] - it1[a];
      if (q % delta != 0 || (ratio >= 0 && q / delta != ratio))
        ok = false;
      ratio = q / delta;
    }
    if (ok)
      return capped(x0 + D - 1);
  }
  int64_t x = std::max(x0, fallbackX);
  unproven = "the domain loops advance at rates that do not match their "
             "lengths, so the lengths to check have no bound; checked up "
             "to " + m.symbols[sym].name + " = " + std::to_string(x);
  return std::min(x, kMaxX);
}


/// Large trip counts: the same verdict with fewer iterations. Tasks with
/// more than kBigTrips iterations loop forever in the endless run; when it
/// is periodic, the run for the real lengths is the run for lengths m
/// periods shorter with m periods inserted (docs/ProgressChecker.md), so
/// the shorter lengths decide. Returns false when it cannot shorten.
bool Checker::reduce(unsigned comp, Assignment &as) {
  const std::vector<unsigned> &agents = compAgents[comp];
  std::vector<int64_t> trips(agents.size());
  bool anyBig = false;
  for (unsigned a = 0; a < agents.size(); ++a) {
    int64_t n = as.trips[m.agents[agents[a]].task];
    trips[a] = n > kBigTrips ? -1 : n;
    anyBig |= n > kBigTrips;
  }
  if (!anyBig)
    return false;
  // Assignments with the same small trips share one endless run.
  std::vector<int64_t> key = trips;
  key.push_back(comp);
  auto cached = endlessCache.find(key);
  if (cached == endlessCache.end())
    cached = endlessCache.emplace(key, endless(comp, trips)).first;
  const Endless &run = cached->second;
  if (run.kind == Endless::Unknown)
    return false;
  const std::vector<int64_t> &it1 =
      run.kind == Endless::Stuck ? run.it2 : run.it1;
  int64_t periods = INT64_MAX;
  for (unsigned a = 0; a < agents.size(); ++a) {
    if (trips[a] >= 0 || run.idle[a])
      continue;
    int64_t n = as.trips[m.agents[agents[a]].task];
    int64_t need = it1[a] + 2;
    if (n < need)
      return false;
    if (run.kind == Endless::Stuck)
      continue;
    int64_t delta = run.it2[a] - it1[a];
    if (delta <= 0)
      return false;
    periods = std::min(periods, (n - need) / delta);
  }
  // Every agent of a task must shrink by the same amount.
  std::vector<int64_t> newTrips = as.trips;
  for (unsigned t : compTasks[comp]) {
    int64_t n = as.trips[t];
    if (n <= kBigTrips)
      continue;
    int64_t shrink = -1;
    for (unsigned ai : m.tasks[t].agents) {
      unsigned a = llvm::find(agents, ai) - agents.begin();
      int64_t s2;
      if (run.idle[a])
        s2 = n - 2;
      else if (run.kind == Endless::Stuck)
        s2 = n - (it1[a] + 2);
      else
        s2 = periods * (run.it2[a] - it1[a]);
      if (shrink >= 0 && s2 != shrink)
        return false;
      shrink = s2;
    }
    newTrips[t] = n - std::max<int64_t>(shrink, 0);
  }
  if (newTrips == as.trips)
    return false;
  as.trips = newTrips;
  return true;
}

ProgressResult Checker::run() {
  ProgressResult result;
  compAgents.assign(m.numComponents, {});
  compTasks.assign(m.numComponents, {});
  for (unsigned a = 0; a < m.agents.size(); ++a) {
    unsigned c = m.agents[a].component;
    compAgents[c].push_back(a);
    if (!llvm::is_contained(compTasks[c], m.agents[a].task))
      compTasks[c].push_back(m.agents[a].task);
  }

  if (!m.unmodeled.empty()) {
    // A bracket the model cannot place (nested in scf.while, scf.if,
    // scf.execute_region, ...) has no place in any schedule; simulating
    // without it would report a deadlock that is not there. No verdict.
    Counterexample cex;
    cex.kind = FailureKind::NotModeled;
    cex.rule = "R70";
    cex.anchor = m.unmodeled.front();
    Operation *first = m.unmodeled.front();
    cex.message =
        "progress not checked: '" + first->getName().getStringRef().str() +
        "' is nested in '" +
        first->getParentOp()->getName().getStringRef().str() +
        "'; the checker (like the lowering) follows pipeline cursors only "
        "through the task, its domain loop and the loop guards; make every "
        "bracket a direct child of one of them";
    for (Operation *op : m.unmodeled)
      cex.notes.push_back(
          {op, "not modeled: this bracket is inside '" +
                   op->getParentOp()->getName().getStringRef().str() + "'"});
    result.counterexample = std::move(cex);
    return result;
  }
  for (unsigned comp = 0; comp < m.numComponents && !result.counterexample;
       ++comp) {
    std::vector<int> syms;
    bool allAffine = true;
    for (unsigned t : compTasks[comp]) {
      for (int leaf : m.tasks[t].leaves)
        if (!llvm::is_contained(syms, leaf))
          syms.push_back(leaf);
      allAffine &= m.tasks[t].affine;
    }
    // Tasks whose lengths are no quasi-affine function of one value, but
    // all computed from the same bounds (the same start, end and step
    // expressions): their common trip count T is the one symbol, checked
    // for every T >= 0; a failing T is then shown reachable by values of
    // the bounds' leaves.
    std::set<std::tuple<int, int, int>> classes;
    for (unsigned t : compTasks[comp])
      if (!m.tasks[t].leaves.empty())
        classes.insert(
            {m.tasks[t].lbNode, m.tasks[t].ubNode, m.tasks[t].stepNode});
    bool oneTrip = !(syms.size() == 1 && allAffine) && classes.size() == 1;
    int tripSym = -1;
    struct SavedTrip {
      unsigned task;
      TripExpr trip;
      bool affine;
      int64_t from;
    };
    std::vector<SavedTrip> saved;
    if (oneTrip) {
      tripSym = m.symbols.size();
      for (unsigned t : compTasks[comp]) {
        TaskInfo &ti = m.tasks[t];
        if (ti.leaves.empty())
          continue;
        if (saved.empty())
          m.symbols.push_back({Value(), "the trip count of @" + ti.name});
        saved.push_back({t, ti.trip, ti.affine, ti.tripFrom});
        ti.trip = TripExpr();
        ti.trip.sym = tripSym;
        ti.trip.a = 1;
        ti.affine = true;
        ti.tripFrom = 0;
      }
    }
    Assignment as;
    as.trips.assign(m.tasks.size(), 0);
    as.symbols.assign(m.symbols.size(), -1);
    std::vector<int64_t> leafValues(m.symbols.size(), 0);
    // Trip vectors of this component already simulated: many values of the
    // symbols give the same lengths (every X below a constant start, say).
    std::set<std::vector<int64_t>> seenTrips;
    std::string unproven;
    // Simulates the lengths at the current symbol values; true once the
    // search can stop (a counterexample, or too many events).
    auto checkHere = [&](bool exact) {
      std::vector<int64_t> key;
      for (unsigned t : compTasks[comp]) {
        const TaskInfo &ti = m.tasks[t];
        int64_t x = ti.trip.sym >= 0 ? leafValues[ti.trip.sym] : 0;
        if (!exact && ti.affine && x >= ti.tripFrom) {
          as.trips[t] = ti.trip.eval(x);
        } else {
          std::optional<int64_t> n = tripAt(m, ti, leafValues);
          if (!n)
            return false; // a bound is undefined here: no execution
          as.trips[t] = *n;
        }
        key.push_back(as.trips[t]);
      }
      for (int s : syms)
        as.symbols[s] = oneTrip ? -1 : leafValues[s];
      if (!seenTrips.insert(key).second)
        return false;
      ++result.assignmentsChecked;
      Assignment shortened = as;
      if (reduce(comp, shortened)) {
        if (auto cex = check(comp, shortened)) {
          Counterexample real = start(cex->kind, as, comp);
          cex->message += " (these lengths stand for " + lengthsOf(comp, as) +
                          ": the schedules repeat with a period, so both "
                          "fail the same way)";
          cex->lengths = real.lengths;
          cex->symbols = real.symbols;
          result.counterexample = std::move(cex);
        }
      } else if (auto cex = check(comp, as)) {
        result.counterexample = std::move(cex);
      }
      return result.counterexample.has_value() || !tooLong.empty();
    };
    if (syms.empty()) {
      checkHere(true);
    } else if (oneTrip) {
      int64_t hi = boundFor(comp, tripSym, unproven);
      for (int64_t x = 0; x <= hi; ++x) {
        leafValues[tripSym] = x;
        result.maxValueChecked = std::max(result.maxValueChecked, x);
        if (checkHere(false))
          break;
      }
      for (const SavedTrip &st : saved) {
        m.tasks[st.task].trip = st.trip;
        m.tasks[st.task].affine = st.affine;
        m.tasks[st.task].tripFrom = st.from;
      }
      if (result.counterexample)
        showReachable(*result.counterexample, m.tasks[saved.front().task],
                      as.trips[saved.front().task], result, unproven);
    } else if (syms.size() == 1 && allAffine) {
      // One symbol X: every X up to the bound (docs/ProgressChecker.md).
      int64_t hi = boundFor(comp, syms[0], unproven);
      for (int64_t x = 0; x <= hi; ++x) {
        leafValues[syms[0]] = x;
        result.maxValueChecked = std::max(result.maxValueChecked, x);
        if (checkHere(false))
          break;
      }
    } else {
      // Several independent values, or a length that is no quasi-affine
      // function of its value: every combination up to a small bound, each
      // length exact; a counterexample found is real, but no bound covers
      // the rest.
      int64_t h = 16;
      for (const PipeInfo &p : m.pipes)
        h = std::max<int64_t>(h, 2 * p.stages + 2);
      while (h > 1 && std::pow(double(h + 1), double(syms.size())) >
                          double(kMaxAssignments))
        --h;
      std::string names;
      for (int s : syms)
        names += (names.empty() ? "" : ", ") + m.symbols[s].name;
      if (syms.size() > 1) {
        unproven = "the domain lengths depend on several values (" + names +
                   "), whose combinations have no bound; each was checked "
                   "from 0 to " + std::to_string(h) +
                   "; derive the lengths from one value to have every "
                   "length checked";
      } else {
        std::string tasks;
        for (unsigned t : compTasks[comp])
          if (!m.tasks[t].affine)
            tasks += (tasks.empty() ? "@" : ", @") + m.tasks[t].name;
        unproven = "the domain length of " + tasks + " is no quasi-affine "
                   "function of " + names + " (sums, differences, products "
                   "and divisions by constants), so the lengths to check "
                   "have no bound; checked " + names + " from 0 to " +
                   std::to_string(h);
      }
      std::vector<int64_t> cur(syms.size(), 0);
      int64_t maxSum = h * static_cast<int64_t>(syms.size());
      bool stop = false;
      for (int64_t sum = 0; sum <= maxSum && !stop; ++sum) {
        // All vectors cur with 0 <= cur[i] <= h and sum(cur) = sum.
        std::function<void(size_t, int64_t)> rec = [&](size_t i,
                                                       int64_t left) {
          if (stop)
            return;
          if (i == syms.size()) {
            if (left != 0)
              return;
            for (size_t k = 0; k < syms.size(); ++k)
              leafValues[syms[k]] = cur[k];
            result.maxValueChecked = std::max(result.maxValueChecked, sum);
            stop = checkHere(true);
            return;
          }
          for (int64_t v = 0; v <= std::min(h, left); ++v) {
            cur[i] = v;
            rec(i + 1, left - v);
          }
        };
        rec(0, sum);
      }
    }
    if (!tooLong.empty()) {
      if (!result.counterexample)
        result.unproven.push_back("the schedules are too long to simulate "
                                  "beyond this point: " + tooLong);
      break;
    }
    if (!result.counterexample && !unproven.empty())
      result.unproven.push_back(unproven);
  }
  return result;
}

} // namespace

ProgressResult progress::checkKernel(KernelOp kernel) {
  // A ring's barriers take 16 bytes per stage (full + empty), so a ring of
  // more than kMaxModeledStages stages cannot fit the shared memory of any
  // GPU (228 KiB at most; R43 rejects it where smem is allocated). The
  // model keeps state per stage, so such a kernel is not simulated.
  constexpr int64_t kMaxModeledStages = 228 * 1024 / 16;
  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    int64_t stages = pipe.getConfig().getNumStages();
    if (stages > kMaxModeledStages) {
      ProgressResult result;
      result.warnings.push_back(
          "not checked: @" + pipe.getSymName().str() + " has " +
          std::to_string(stages) + " stages, whose barriers alone (16 bytes "
          "a stage) exceed the shared memory of any GPU (" +
          std::to_string(kMaxModeledStages) + " stages at most; R43)");
      return result;
    }
  }
  return Checker(kernel).run();
}
