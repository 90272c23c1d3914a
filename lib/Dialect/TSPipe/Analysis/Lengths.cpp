//===- Lengths.cpp - which domain lengths decide a kernel -----------------===//
//
// The endless run in lock step, normalized up to rotations of each ring;
// from its repeated state the bound on the values of a symbol to check, and
// the shortening of long domains by whole periods (docs/ProgressChecker.md,
// "Which lengths are checked").
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
static int64_t rotationPeriod(const Model &m, unsigned p) {
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
  std::vector<std::vector<std::array<std::pair<int64_t, int64_t>, 4>>> lastWait(
      agents.size(),
      std::vector<std::array<std::pair<int64_t, int64_t>, 4>>(m.pipes.size()));
  for (auto &perAgent : lastWait)
    for (auto &perPipe : perAgent)
      perPipe.fill({-1, -1});
  auto completions = [&](unsigned b) {
    return m.count[b] ? U[b] / m.count[b] : 0;
  };
  std::unordered_map<size_t,
                     std::vector<std::pair<std::vector<int64_t>, int64_t>>>
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
        bool again =
            e.wait && seen == std::make_pair(int64_t(e.barrier), e.target);
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
      // tspipe.every guards: the schedule of an iteration depends on its
      // count modulo the guards' periods.
      key.push_back(gen.iter % m.tasks[m.agents[agents[a]].task].guardPeriod);
      // A loop that ends (a fixed trip count) is not periodic: the rounds
      // before its end differ from those after it. Its iteration keeps two
      // of its rounds apart.
      key.push_back(trips[a] >= 0 ? gen.iter : -1);
      key.push_back(gen.idle);
      key.push_back(gen.hasPending);
      for (unsigned p : compPipes) {
        const AgentInfo &ai = m.agents[agents[a]];
        const PipeInfo &pi = m.pipes[p];
        for (unsigned c = 0; c < 4; ++c)
          if ((ai.usedCursors[p] >> c) & 1)
            key.push_back(gen.pos[p][c] - base[p]);
        // A named barrier's role counts feed no balance check
        // (NamedBarriers.cpp); its waits are fewer than its arrivals.
        if (pi.named)
          continue;
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
               std::to_string(kMaxRounds) +
               " rounds, so the lengths to "
               "check have no bound; checked up to " +
               m.symbols[sym].name + " = " + std::to_string(fallbackX) + " (" +
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
             "to " +
             m.symbols[sym].name + " = " + std::to_string(x);
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

SmallVector<std::pair<Operation *, std::string>> Checker::describe() {
  setupComponents();
  SmallVector<std::pair<Operation *, std::string>> out;
  for (const TaskInfo &t : m.tasks) {
    TaskOp task = t.op;
    DomainLoopOp loop = task.getDomainLoop();
    Operation *at = loop ? loop.getOperation() : task.getOperation();
    std::string leaves;
    for (int leaf : t.leaves)
      leaves += (leaves.empty() ? "" : ", ") + m.symbols[leaf].name;
    const TripExpr &e = t.trip;
    std::string text = "trip count of @" + t.name;
    if (!t.affine)
      text += " is no quasi-affine function of " + leaves;
    else if (e.sym < 0)
      text += " = " + std::to_string(e.eval(0));
    else
      text += " = max(0, " + std::to_string(e.mul) + " * floor((" +
              std::to_string(e.a) + " * " + m.symbols[e.sym].name + " + " +
              std::to_string(e.b) + ") / " + std::to_string(e.d) + ") + " +
              std::to_string(e.add) + ") for " + m.symbols[e.sym].name +
              " >= " + std::to_string(t.tripFrom);
    out.push_back({at, text});
  }
  for (unsigned p = 0; p < m.pipes.size(); ++p)
    out.push_back(
        {m.pipes[p].decl(), "rotation period of @" + m.pipes[p].name + ": " +
                            std::to_string(rotationPeriod(m, p)) + " of " +
                            std::to_string(m.pipes[p].stages) + " stage(s)"});
  for (unsigned c = 0; c < m.numComponents; ++c) {
    std::vector<int> syms;
    bool allAffine = true;
    for (unsigned t : compTasks[c]) {
      for (int leaf : m.tasks[t].leaves)
        if (!llvm::is_contained(syms, leaf))
          syms.push_back(leaf);
      allAffine &= m.tasks[t].affine;
    }
    if (syms.size() != 1 || !allAffine)
      continue;
    std::string unproven;
    int64_t hi = boundFor(c, syms[0], unproven);
    out.push_back({m.tasks[compTasks[c].front()].op,
                   "lengths of the component of @" +
                       m.tasks[compTasks[c].front()].name + " checked for " +
                       m.symbols[syms[0]].name + " = 0.." + std::to_string(hi) +
                       (unproven.empty() ? "" : "; not proven: " + unproven)});
  }
  return out;
}

} // namespace mlir::tspipe::progress::detail
