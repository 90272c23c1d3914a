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

#include "Checker.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress;
using namespace mlir::tspipe::progress::detail;

void Checker::setupComponents() {
  compAgents.assign(m.numComponents, {});
  compTasks.assign(m.numComponents, {});
  for (unsigned a = 0; a < m.agents.size(); ++a) {
    unsigned c = m.agents[a].component;
    compAgents[c].push_back(a);
    if (!llvm::is_contained(compTasks[c], m.agents[a].task))
      compTasks[c].push_back(m.agents[a].task);
  }
}

ProgressResult Checker::run() {
  ProgressResult result;
  setupComponents();

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
                   "from 0 to " +
                   std::to_string(h) +
                   "; derive the lengths from one value to have every "
                   "length checked";
      } else {
        std::string tasks;
        for (unsigned t : compTasks[comp])
          if (!m.tasks[t].affine)
            tasks += (tasks.empty() ? "@" : ", @") + m.tasks[t].name;
        unproven = "the domain length of " + tasks +
                   " is no quasi-affine "
                   "function of " +
                   names +
                   " (sums, differences, products "
                   "and divisions by constants), so the lengths to check "
                   "have no bound; checked " +
                   names + " from 0 to " + std::to_string(h);
      }
      std::vector<int64_t> cur(syms.size(), 0);
      int64_t maxSum = h * static_cast<int64_t>(syms.size());
      bool stop = false;
      for (int64_t sum = 0; sum <= maxSum && !stop; ++sum) {
        // All vectors cur with 0 <= cur[i] <= h and sum(cur) = sum.
        std::function<void(size_t, int64_t)> rec = [&](size_t i, int64_t left) {
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
                                  "beyond this point: " +
                                  tooLong);
      break;
    }
    if (!result.counterexample && !unproven.empty())
      result.unproven.push_back(unproven);
  }
  return result;
}

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
          std::to_string(stages) +
          " stages, whose barriers alone (16 bytes "
          "a stage) exceed the shared memory of any GPU (" +
          std::to_string(kMaxModeledStages) + " stages at most; R43)");
      return result;
    }
  }
  return checkUnderConditions(kernel);
}

SmallVector<std::pair<Operation *, std::string>>
progress::describeModel(KernelOp kernel) {
  return Checker(kernel).describe();
}
