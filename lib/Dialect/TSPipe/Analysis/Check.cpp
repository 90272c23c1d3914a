//===- Check.cpp - the progress checker on one assignment of lengths ------===//
//
// For one assignment of trip counts: the confluent run (deadlock), lap-early
// waits, credit balance by phases, and the frozen runs (phase overrun,
// early arrival), each failure with its findings (docs/ProgressChecker.md).
//
//===----------------------------------------------------------------------===//

#include "Checker.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <functional>
#include <numeric>
#include <set>
#include <unordered_map>

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress;

namespace mlir::tspipe::progress::detail {

Counterexample Checker::start(FailureKind kind, const Assignment &as,
                              unsigned comp) {
  Counterexample cex;
  cex.kind = kind;
  cex.rule = (kind == FailureKind::PhaseOverrun ||
              kind == FailureKind::OverArrival || kind == FailureKind::LapEarly)
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

Note Checker::creditHolderNote(const std::vector<unsigned> &agents,
                               const std::vector<std::vector<Event>> &ev,
                               const Sim &sim, unsigned o, unsigned owner,
                               const std::string &holds) {
  Note holder;
  if (sim.finished(o)) {
    holder = {m.tasks[m.agents[owner].task].op, holds + "has finished"};
  } else {
    const Event &oe = ev[o][sim.idx[o]];
    holder = {oe.op, holds + "is blocked here, in " + iterText(oe.iter) +
                         " on " + barrierText(oe.barrier)};
    holder.iteration = oe.iter;
  }
  holder.kind = NoteKind::CreditHolder;
  holder.agent = agentName(agents, o);
  return holder;
}

void Checker::tagX8(Counterexample &cex, const Assignment &as, unsigned comp) {
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
    bool named = m.pipes[p].named;
    // A named barrier's phases are numbered, not parities.
    int64_t phase = named    ? (e.wait ? e.target - 1 : arrivals[a][e.barrier])
                    : e.wait ? waitPhase(e)
                             : arrivals[a][e.barrier] & 1;
    std::string what =
        named ? (e.wait ? "sync" : "arrive")
              : std::string(roleName(e.role))
                    .substr(std::string(roleName(e.role)).find('_') + 1);
    return TimelineEvent{agentName(sim.agents, a),
                         m.pipes[p].name,
                         full,
                         stage,
                         phase,
                         what,
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
             std::to_string(trips) + " iterations, but no values of " + names +
             " up to " + std::to_string(limit) + " give that length";
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
                std::to_string(have) +
                " phase(s); a parity wait tests one "
                "phase bit, so it passes a whole ring lap early, before "
                "the phase it waits for";
  cex.notes.push_back({e.op, agentName(agents, a) + " waits here in " +
                                 iterText(e.iter) + " for phase parity " +
                                 std::to_string(waitPhase(e)) + " of " +
                                 barrierText(e.barrier) +
                                 ", which it has not "
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
    estimate += t.tiles * (static_cast<int64_t>(t.head.size() + t.tail.size()) +
                           as.trips[m.agents[a].task] *
                               std::max<int64_t>(1, t.body.size()) * 2) +
                drains;
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

  // The unique final state of every maximal run (the model is confluent).
  Sim sim(m, agents, ev);
  sim.fixpoint();
  if (std::optional<Counterexample> cex = deadlock(comp, as, ev, sim))
    return cex;
  if (std::optional<Counterexample> cex = lapEarlyWaits(comp, as, ev, sim))
    return cex;
  if (std::optional<Counterexample> cex = balance(comp, as, ev, sim))
    return cex;
  return hazards(comp, as, ev, sim);
}

/// Deadlock: an agent unfinished in the final state, with who holds its credit.
std::optional<Counterexample>
Checker::deadlock(unsigned comp, const Assignment &as,
                  const std::vector<std::vector<Event>> &ev, const Sim &sim) {
  const std::vector<unsigned> &agents = compAgents[comp];
  // 1. Deadlock: the unique final state of every maximal run.
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
      if (m.isNamed(b)) {
        namedDeadlockNotes(cex, agents, ev, sim, a);
        continue;
      }
      Note blockedNote{
          e.op, agentName(agents, a) + " blocks in " + iterText(e.iter) +
                    " on " + barrierText(b) + ", phase " +
                    std::to_string(waitPhase(e)) + " (" + roleName(e.role) +
                    " needs completion " + std::to_string(e.target) +
                    ", the barrier has " + std::to_string(have) + ")"};
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
                           " on @" + m.pipes[p].name +
                           "; add it to the "
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
        std::string holds =
            "the credit for completion " + std::to_string(e.target) + " of " +
            barrierText(b) + " is held by " + agentName(agents, o) +
            ": it has " + (arriver == Commit ? "committed" : "released") +
            " that stage " + std::to_string(did) + " time(s) and ";
        Note holder = creditHolderNote(agents, ev, sim, o, owner, holds);
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
  return std::nullopt;
}

/// Lap-early waits (see lapEarly).
std::optional<Counterexample>
Checker::lapEarlyWaits(unsigned comp, const Assignment &as,
                       const std::vector<std::vector<Event>> &ev,
                       const Sim &sim) {
  const std::vector<unsigned> &agents = compAgents[comp];
  // 2. Lap-early waits: a wait for completion t whose agent has not waited
  // for t - 1 on that barrier before (the barrier then has at least the
  // largest completion count the agent's earlier waits on it needed).
  for (unsigned a = 0; a < agents.size(); ++a) {
    std::vector<int64_t> floorOf(m.numBarriers, 0);
    for (size_t j = 0; j < ev[a].size(); ++j) {
      const Event &e = ev[a][j];
      // A bar.sync waits for the phase it arrived in, not for a parity.
      if (!e.wait || m.isNamed(e.barrier))
        continue;
      if (e.target >= floorOf[e.barrier] + 2)
        if (std::optional<Counterexample> cex =
                lapEarly(comp, as, sim, ev, a, j))
          return cex;
      floorOf[e.barrier] = std::max(floorOf[e.barrier], e.target);
    }
  }
  return std::nullopt;
}

/// Credit balance, by phases, of the final state.
std::optional<Counterexample>
Checker::balance(unsigned comp, const Assignment &as,
                 const std::vector<std::vector<Event>> &ev, const Sim &sim) {
  const std::vector<unsigned> &agents = compAgents[comp];
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
    bool used = llvm::any_of(
        agents, [&](unsigned a) { return m.agents[a].usedRoles[p] != 0; });
    // Named barriers hold no credits: arrivals that no sync meets block
    // nobody (NamedBarriers.cpp).
    if (!used || m.pipes[p].named)
      continue;
    auto unbalanced = [&](std::string msg, unsigned a, StepRole r) {
      Counterexample cex = start(FailureKind::Unbalanced, as, comp);
      cex.message =
          msg + " " + lengthsText(cex) + " [credits of " + barrierText(b) + "]";
      Operation *op =
          lastOp[a][b] ? lastOp[a][b] : m.tasks[m.agents[agents[a]].task].op;
      cex.notes.push_back(
          {op, agentName(agents, a) + " executes " + roleName(r) + " on " +
                   barrierText(b) + " " + std::to_string(cnt[a][b][r]) +
                   " time(s); the barrier completes " +
                   std::to_string(sim.completions(b)) + " phase(s)"});
      for (unsigned t : compTasks[comp])
        for (Operation *probe : m.tasks[t].unusedProbes)
          if (probe->getAttrOfType<FlatSymbolRefAttr>("pipeline").getValue() ==
              m.pipes[p].name)
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
          what = std::to_string(c - n) +
                 " committed phase(s) are never "
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
  return std::nullopt;
}

/// Phase overrun and early arrival, by frozen runs.
std::optional<Counterexample>
Checker::hazards(unsigned comp, const Assignment &as,
                 const std::vector<std::vector<Event>> &ev, const Sim &sim) {
  const std::vector<unsigned> &agents = compAgents[comp];
  // 4. Hazards: freeze each agent before each of its events; the others
  // run to their fixpoint, i.e. as far as any interleaving lets them while
  // the frozen agent waits there.
  for (unsigned a = 0; a < agents.size(); ++a) {
    Sim fz(m, agents, ev);
    for (size_t j = 0; j < ev[a].size(); ++j) {
      fz.fixpoint(a);
      const Event &e = ev[a][j];
      unsigned b = e.barrier;

      if (e.wait && !m.isNamed(b) && fz.completions(b) > e.target) {
        Counterexample cex = start(FailureKind::PhaseOverrun, as, comp);
        cex.message =
            "phase overrun " + lengthsText(cex) + ": " + barrierText(b) +
            " can reach completion " + std::to_string(e.target + 1) +
            " before " + agentName(agents, a) + " passes its " +
            roleName(e.role) + " for completion " + std::to_string(e.target) +
            "; a parity wait then sees the wrong phase (it blocks forever "
            "or passes a phase early)";
        cex.notes.push_back({e.op, agentName(agents, a) + " waits here in " +
                                       iterText(e.iter) + " for phase parity " +
                                       std::to_string(waitPhase(e)) + " of " +
                                       barrierText(b)});
        if (fz.last[b].first >= 0) {
          auto [o, k] = fz.last[b];
          cex.notes.push_back({ev[o][k].op, agentName(agents, o) +
                                                " arrives for the next "
                                                "phase here, in " +
                                                iterText(ev[o][k].iter) +
                                                ", without waiting for " +
                                                agentName(agents, a)});
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
          if (m.isNamed(b)) {
            namedEarlyArrival(cex, agents, ev, fz, a, o, e);
            return cex;
          }
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

} // namespace mlir::tspipe::progress::detail
