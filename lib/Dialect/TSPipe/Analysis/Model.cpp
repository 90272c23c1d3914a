//===- Model.cpp - build the progress checker's model of a kernel ---------===//
//
// Turns a verified tspipe.kernel into agents with straight-line schedules
// (Model.h) and expands them into barrier events for a given trip count.
// Cursor rules follow docs/Protocols.md (Cursors, Split cursors, Interleaved
// lanes, Producer drain), as the lowering implements them.
//
//===----------------------------------------------------------------------===//

#include "Model.h"

#include "tspipe/Dialect/TSPipe/IR/Cursor.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeGuards.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress::detail;

const char *progress::detail::roleName(StepRole r) {
  switch (r) {
  case Acquire:
    return "producer_acquire";
  case Commit:
    return "producer_commit";
  case Wait:
    return "consumer_wait";
  case Release:
    return "consumer_release";
  case Drain:
    return "producer_tail";
  case NamedArrive:
    return "named_barrier_arrive";
  case NamedSync:
    return "named_barrier_sync";
  }
  return "?";
}

CursorId PipeInfo::cursorOf(StepRole r) const {
  if (named)
    return CurP; // counts the agent's arrivals (NamedBarriers.cpp)
  switch (r) {
  case Acquire:
    return CurP;
  case Commit:
  case Drain:
    return advanceOnAcquire ? CurPC : CurP;
  case Wait:
    return CurC;
  case Release:
    return advanceOnWait ? CurCR : CurC;
  }
  return CurP;
}

int64_t PipeInfo::strideOf(StepRole r) const {
  switch (r) {
  case Acquire:
    return stride[0];
  case Commit:
  case Drain:
    // Without advance_on_acquire the commit moves p by the acquire stride
    // (equal to the commit stride there, R6).
    return advanceOnAcquire ? stride[1] : stride[0];
  case Wait:
    return stride[2];
  case Release:
    return stride[3];
  }
  return 1;
}

CursorId PipeInfo::drainCursor(uint8_t roles) const {
  return static_cast<CursorId>(
      getDrainCursor(PipelineOp(op).getConfig(), (roles >> Commit) & 1));
}

int64_t PipeInfo::drainStride(uint8_t roles) const {
  return std::max<int64_t>(
      1, getDrainStride(PipelineOp(op).getConfig(), (roles >> Commit) & 1));
}

void Model::decode(unsigned b, unsigned &pipe, bool &full,
                   int64_t &stage) const {
  // Barrier ranges are laid out in pipeline order (barrierBase ascending):
  // the owner is the last pipeline whose range starts at or before `b`
  // (a binary search; the simulation decodes every event it replays).
  auto it = std::upper_bound(
      pipes.begin(), pipes.end(), b,
      [](unsigned v, const PipeInfo &p) { return v < p.barrierBase; });
  if (it != pipes.begin()) {
    const PipeInfo &info = *std::prev(it);
    int64_t s = info.stages;
    if (b < info.barrierBase + 2 * s) {
      pipe = static_cast<unsigned>(std::distance(pipes.begin(), it) - 1);
      full = b < info.barrierBase + s;
      stage = full ? b - info.barrierBase : b - info.barrierBase - s;
      return;
    }
  }
  pipe = 0;
  full = true;
  stage = 0;
}

int64_t progress::detail::floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t TripExpr::eval(int64_t x) const {
  int64_t v = mul * floorDiv((sym >= 0 ? a * x : 0) + b, d) + add;
  return v < 0 ? 0 : v;
}

std::optional<int64_t> progress::detail::tripAt(const Model &m,
                                                const TaskInfo &t,
                                                ArrayRef<int64_t> leafValues) {
  if (t.lbNode < 0)
    return 0;
  std::optional<APInt> lb = m.exprs.eval(t.lbNode, leafValues),
                       ub = m.exprs.eval(t.ubNode, leafValues),
                       step = m.exprs.eval(t.stepNode, leafValues);
  if (!lb || !ub || !step || step->isZero())
    return std::nullopt;
  __int128 l = lb->getSExtValue(), u = ub->getSExtValue(),
           k = step->getSExtValue();
  // A loop counting down has the trip count of the loop from end up to
  // start by -step.
  if (k < 0) {
    std::swap(l, u);
    k = -k;
  }
  if (u <= l)
    return 0;
  __int128 n = (u - l + k - 1) / k;
  if (n > (__int128(1) << 62))
    return std::nullopt;
  return static_cast<int64_t>(n);
}

namespace {

/// Reads the task's domain bounds into the model's expression table and,
/// where it has one, the quasi-affine form of its trip count
/// max(0, ceil((end - start) / step)) in one symbol.
void tripOf(Model &m, TaskInfo &t) {
  DomainLoopOp loop = t.op.getDomainLoop();
  if (!loop)
    return; // verified to exist; an absent loop runs nothing
  t.lbNode = m.exprs.build(loop.getLowerBound());
  t.ubNode = m.exprs.build(loop.getUpperBound());
  t.stepNode = m.exprs.build(loop.getStep());
  for (int node : {t.lbNode, t.ubNode, t.stepNode})
    m.exprs.leavesOf(node, t.leaves);
  std::optional<QuasiAffine> form =
      tripCountForm(m.exprs.affine(t.lbNode), m.exprs.affine(t.ubNode),
                    m.exprs.affine(t.stepNode));
  t.affine = form.has_value() && t.leaves.size() <= 1;
  if (!t.affine)
    return;
  t.trip.sym = form->sym;
  t.trip.a = form->a;
  t.trip.b = form->b;
  t.trip.d = form->d;
  t.trip.mul = form->mul;
  t.trip.add = form->add;
  t.tripFrom = form->from;
}

StepRole roleOfOp(Operation *op, bool &isTry) {
  isTry = isa<ProducerTryAcquireOp, ConsumerTryWaitOp>(op);
  if (isa<ProducerAcquireOp>(op))
    return Acquire;
  if (isa<ProducerCommitOp>(op))
    return Commit;
  if (isa<ConsumerWaitOp>(op))
    return Wait;
  if (isa<ConsumerReleaseOp>(op))
    return Release;
  if (isa<ProducerTailOp>(op))
    return Drain;
  return Acquire;
}

} // namespace

Model progress::detail::buildModel(KernelOp kernel) {
  Model m;
  m.kernel = kernel;
  llvm::StringMap<unsigned> pipeIdx;
  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    PipeInfo p;
    p.op = pipe;
    p.name = pipe.getSymName().str();
    PipelineConfigAttr cfg = pipe.getConfig();
    p.stages = std::max<int64_t>(1, cfg.getNumStages());
    p.stride = {std::max<int64_t>(1, cfg.getAcquireStride()),
                std::max<int64_t>(1, cfg.getCommitStride()),
                std::max<int64_t>(1, cfg.getWaitStride()),
                std::max<int64_t>(1, cfg.getReleaseStride())};
    p.advanceOnAcquire = cfg.getAdvanceOnAcquire();
    p.advanceOnWait = cfg.getAdvanceOnWait();
    p.barrierBase = m.numBarriers;
    m.numBarriers += 2 * p.stages;
    pipeIdx[p.name] = m.pipes.size();
    m.pipes.push_back(p);
  }
  llvm::StringMap<unsigned> namedIdx;
  addNamedBarriers(m, namedIdx);
  // Members of each pipeline group, gathered once: resolving a bracket's
  // symbol through the kernel's symbol table per bracket scans the kernel
  // body each time (quadratic in the pipelines of a large kernel).
  llvm::StringMap<SmallVector<StringRef, 4>> groupMembers;
  for (auto group : kernel.getBody().getOps<PipelineGroupOp>()) {
    SmallVector<StringRef, 4> &members = groupMembers[group.getSymName()];
    for (Attribute member : group.getMembers())
      members.push_back(cast<FlatSymbolRefAttr>(member).getValue());
  }

  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    TaskInfo t;
    t.op = task;
    t.name = task.getSymName().str();
    llvm::DenseSet<unsigned> drained;
    auto addStep = [&](Operation *op, std::vector<Step> &into, Guard g) {
      if (std::optional<Step> named = namedBarrierStep(op, namedIdx)) {
        named->guard = g;
        into.push_back(*named);
        return;
      }
      auto ref = op->getAttrOfType<FlatSymbolRefAttr>("pipeline");
      if (!ref || isa<CurrentStageOp>(op))
        return;
      // A group-level bracket (a merge group's release, a fork group's
      // commit, a fused merge's wait and release) is one step on every
      // member: one arrival on the shared barrier gives each member's other
      // side one credit, and one wait on a fused merge's shared full
      // barrier needs every member's commit (docs/ProgressChecker.md,
      // Pipeline groups). A probe moves no credit.
      auto group = groupMembers.find(ref.getValue());
      if (group != groupMembers.end()) {
        ArrayRef<StringRef> pipes = group->second;
        bool probe;
        roleOfOp(op, probe);
        if (probe)
          return;
        for (StringRef member : pipes) {
          auto it = pipeIdx.find(member);
          if (it == pipeIdx.end())
            continue;
          bool isTry;
          StepRole r = roleOfOp(op, isTry);
          if (g != Guard::Always && (r == Commit || r == Release))
            t.hasGuardedArrive = true;
          into.push_back({op, it->second, r, g});
        }
        return;
      }
      auto it = pipeIdx.find(ref.getValue());
      if (it == pipeIdx.end())
        return;
      bool isTry;
      StepRole r = roleOfOp(op, isTry);
      if (isTry) {
        Value tok = op->getResult(0);
        bool consumed = llvm::any_of(tok.getUsers(), [](Operation *u) {
          return isa<ProducerAcquireOp, ConsumerWaitOp>(u);
        });
        if (!consumed)
          t.unusedProbes.push_back(op);
        return;
      }
      if (r == Drain)
        drained.insert(it->second);
      if (g != Guard::Always && (r == Commit || r == Release))
        t.hasGuardedArrive = true;
      into.push_back({op, it->second, r, g});
    };
    bool afterLoop = false;
    for (auto [opPtr, skippable] : scheduleOps(task)) {
      Operation &op = *opPtr;
      if (auto loop = dyn_cast<DomainLoopOp>(op)) {
        afterLoop = true;
        for (Operation &inner : loop.getBody().front()) {
          if (isLoopGuardOp(&inner)) {
            Guard g = isa<FirstIterOp>(inner)  ? Guard::First
                      : isa<LastIterOp>(inner) ? Guard::Last
                                               : Guard::Every;
            size_t from = t.body.size();
            for (Operation &g2 : inner.getRegion(0).front())
              addStep(&g2, t.body, g);
            for (size_t i = from; i < t.body.size(); ++i)
              setStepGuard(m, t, &inner, t.body[i]);
          } else {
            addStep(&inner, t.body, Guard::Always);
          }
        }
        continue;
      }
      std::vector<Step> &into = afterLoop ? t.tail : t.head;
      size_t before = into.size();
      addStep(&op, into, Guard::Always);
      for (size_t i = before; i < into.size(); ++i)
        into[i].skippable = skippable;
    }
    task.walk([&](Operation *op) {
      if (!isa<NamedBarrierSyncOp, NamedBarrierArriveOp>(op) &&
          (!op->getAttrOfType<FlatSymbolRefAttr>("pipeline") ||
           isa<CurrentStageOp>(op)))
        return;
      Operation *parent = op->getParentOp();
      if (!isa<TaskOp, DomainLoopOp, WorkTileLoopOp, SkippableOp>(parent) &&
          !isLoopGuardOp(parent))
        m.unmodeled.push_back(op);
    });
    if (auto produces = task.getProducesAttr())
      for (Attribute a : produces) {
        auto it = pipeIdx.find(cast<FlatSymbolRefAttr>(a).getValue());
        if (it != pipeIdx.end() && !drained.contains(it->second))
          t.implicitDrains.push_back(it->second);
      }
    tripOf(m, t);
    m.tasks.push_back(std::move(t));
  }

  modelTileLoops(m);
  for (const ExprTable::Leaf &leaf : m.exprs.leaves())
    m.symbols.push_back({leaf.value, leaf.name});

  // Agents: a task is split into one agent per warp when it drives a role
  // whose stride equals its warp count (warp lanes); otherwise the whole
  // task is one agent, seeded with its domain lane (docs/Protocols.md,
  // Interleaved lanes).
  for (unsigned ti = 0; ti < m.tasks.size(); ++ti) {
    TaskInfo &t = m.tasks[ti];
    int64_t warps = static_cast<int64_t>(t.op.getNumWarps());
    std::vector<uint8_t> usedRoles(m.pipes.size(), 0);
    for (auto *list : {&t.head, &t.body, &t.tail})
      for (const Step &s : *list)
        usedRoles[s.pipe] |= roleBits(s.role);
    for (unsigned p : t.implicitDrains)
      usedRoles[p] |= 1u << Drain;
    bool split = false;
    for (unsigned p = 0; p < m.pipes.size(); ++p)
      for (StepRole r : {Acquire, Commit, Wait, Release})
        if ((usedRoles[p] >> r) & 1 && warps > 1 &&
            m.pipes[p].strideOf(r) == warps)
          split = true;
    int64_t lb = 0;
    if (DomainLoopOp loop = t.op.getDomainLoop()) {
      APInt c;
      if (matchPattern(loop.getLowerBound(), m_ConstantInt(&c)))
        lb = c.getSExtValue();
    }
    for (int64_t w = 0; w < (split ? warps : 1); ++w) {
      AgentInfo a;
      a.task = ti;
      a.warp = split ? w : -1;
      a.name = "@" + t.name + (split ? ".w" + std::to_string(w) : "");
      a.usedRoles = usedRoles;
      a.usedCursors.assign(m.pipes.size(), 0);
      a.seed.assign(m.pipes.size(), {0, 0, 0, 0});
      for (unsigned p = 0; p < m.pipes.size(); ++p) {
        const PipeInfo &pi = m.pipes[p];
        // The lowering's seeds (Cursor.h); a named barrier has none.
        if (!pi.named)
          for (const CursorSeed &seed :
               getCursorSeeds(PipelineOp(pi.op).getConfig(), warps))
            a.seed[p][static_cast<unsigned>(seed.cursor)] =
                getSeedLane(seed, split ? w : 0, lb);
        for (StepRole r : {Acquire, Commit, Wait, Release})
          if ((usedRoles[p] >> r) & 1)
            a.usedCursors[p] |= 1u << pi.cursorOf(r);
        if ((usedRoles[p] >> Drain) & 1)
          a.usedCursors[p] |= 1u << pi.drainCursor(usedRoles[p]);
      }
      t.agents.push_back(m.agents.size());
      m.agents.push_back(std::move(a));
    }
  }

  // Nominal participants of every barrier: agents whose role cursor lane
  // covers the stage. Arrive counts are counted in agents (R52-R54 relate
  // them to the hardware counts, which the verifier has checked).
  m.count.assign(m.numBarriers, 0);
  m.nominal.assign(m.numBarriers, {});
  for (unsigned ai = 0; ai < m.agents.size(); ++ai) {
    const AgentInfo &a = m.agents[ai];
    for (unsigned p = 0; p < m.pipes.size(); ++p) {
      const PipeInfo &pi = m.pipes[p];
      for (StepRole r : {Acquire, Commit, Wait, Release}) {
        if (!((a.usedRoles[p] >> r) & 1))
          continue;
        int64_t k = pi.strideOf(r);
        int64_t lane = a.seed[p][pi.cursorOf(r)] % k;
        bool full = r == Commit || r == Wait;
        for (int64_t s = 0; s < pi.stages; ++s) {
          if (s % k != lane)
            continue;
          unsigned b = m.barrier(p, full, s);
          m.nominal[b][r].push_back(ai);
          if (r == Commit || r == Release)
            ++m.count[b];
        }
      }
    }
  }

  // Components: agents linked through pipelines.
  llvm::EquivalenceClasses<unsigned> ec;
  for (unsigned ai = 0; ai < m.agents.size(); ++ai)
    ec.insert(ai);
  for (unsigned p = 0; p < m.pipes.size(); ++p) {
    int first = -1;
    for (unsigned ai = 0; ai < m.agents.size(); ++ai)
      if (m.agents[ai].usedRoles[p]) {
        if (first < 0)
          first = ai;
        else
          ec.unionSets(first, ai);
      }
  }
  // Split agents of one task share their trip count: keep them together.
  for (const TaskInfo &t : m.tasks)
    for (unsigned ai : t.agents)
      ec.unionSets(t.agents.front(), ai);
  llvm::DenseMap<unsigned, unsigned> leaderIdx;
  for (unsigned ai = 0; ai < m.agents.size(); ++ai) {
    unsigned leader = ec.getLeaderValue(ai);
    auto [it, inserted] = leaderIdx.try_emplace(leader, m.numComponents);
    if (inserted)
      ++m.numComponents;
    m.agents[ai].component = it->second;
  }
  return m;
}

//===----------------------------------------------------------------------===//
// Generator
//===----------------------------------------------------------------------===//

Generator::Generator(const Model &m, unsigned agent, int64_t trips)
    : m(m), agent(m.agents[agent]), task(m.tasks[m.agents[agent].task]),
      trips(trips) {
  pos = this->agent.seed;
  // Steps that recur on an endless loop: unguarded, every(...), and
  // conditions that hold in this run.
  bodyHasAlways = llvm::any_of(task.body, [&](const Step &s) {
    return s.guard != Guard::First && s.guard != Guard::Last &&
           stepRuns(m, s, s.start, -1);
  });
}

bool Generator::emitDrain(Event &e) {
  const PipeInfo &p = m.pipes[drainPipe];
  uint8_t roles = agent.usedRoles[drainPipe];
  CursorId c = p.drainCursor(roles);
  int64_t &x = pos[drainPipe][c];
  e = {drainOp,      m.barrier(drainPipe, false, x % p.stages),
       Drain,        true,
       x / p.stages, -2};
  x += p.drainStride(roles);
  --drainLeft;
  return true;
}

bool Generator::emit(const Step &s, Event &e) {
  const PipeInfo &p = m.pipes[s.pipe];
  int64_t iterTag = section == Section::Loop   ? iter
                    : section == Section::Head ? -1
                                               : -2;
  if (p.named) {
    emitNamed(m, s, pos[s.pipe][CurP], iterTag, e, hasPending, pending);
    return true;
  }
  if (s.role == Drain) {
    drainPipe = s.pipe;
    drainOp = s.op;
    drainLeft = p.stages / p.drainStride(agent.usedRoles[s.pipe]);
    if (drainLeft <= 0)
      return false;
    emitDrain(e);
    e.iter = iterTag;
    return true;
  }
  CursorId c = p.cursorOf(s.role);
  int64_t &x = pos[s.pipe][c];
  int64_t stage = x % p.stages, visit = x / p.stages;
  switch (s.role) {
  case Acquire:
    // A producer cursor starts at phase 1: visit v passes once the empty
    // barrier has completed v phases.
    e = {s.op, m.barrier(s.pipe, false, stage), Acquire, true, visit, iterTag};
    if (p.advanceOnAcquire)
      x += p.strideOf(Acquire);
    return true;
  case Commit:
    e = {s.op, m.barrier(s.pipe, true, stage), Commit, false, 0, iterTag};
    x += p.strideOf(Commit);
    return true;
  case Wait:
    // A consumer cursor starts at phase 0: visit v needs v + 1 completions.
    e = {s.op, m.barrier(s.pipe, true, stage), Wait, true, visit + 1, iterTag};
    if (p.advanceOnWait)
      x += p.strideOf(Wait);
    return true;
  case Release:
    e = {s.op, m.barrier(s.pipe, false, stage), Release, false, 0, iterTag};
    x += p.strideOf(Release);
    return true;
  case Drain:
    break;
  }
  return false;
}

bool Generator::next(Event &e) {
  if (hasPending) {
    e = pending;
    hasPending = false;
    return true;
  }
  while (true) {
    if (drainLeft > 0) {
      int64_t tag = section == Section::Loop   ? iter
                    : section == Section::Head ? -1
                                               : -2;
      emitDrain(e);
      e.iter = tag;
      return true;
    }
    bool skipped = tile == task.skippedTile;
    switch (section) {
    case Section::Head:
      if (stepIdx < task.head.size()) {
        const Step &s = task.head[stepIdx++];
        if (!(skipped && s.skippable) && emit(s, e))
          return true;
        continue;
      }
      section = Section::Loop;
      stepIdx = 0;
      iter = 0;
      eventsThisIter = 0;
      if (trips == 0 || task.body.empty() || skipped)
        section = Section::Tail;
      continue;
    case Section::Loop:
      if (stepIdx < task.body.size()) {
        const Step &s = task.body[stepIdx++];
        if (!stepRuns(m, s, iter, trips))
          continue;
        if (emit(s, e)) {
          ++eventsThisIter;
          return true;
        }
        continue;
      }
      ++iter;
      stepIdx = 0;
      {
        // Jump over the iterations on which no body step runs (a long
        // `every` period): they emit nothing, and walking them one by one
        // would cost time linear in the period.
        int64_t next = std::numeric_limits<int64_t>::max();
        for (const Step &s : task.body)
          next = std::min(next, nextRunIter(m, s, iter, trips));
        if (next != std::numeric_limits<int64_t>::max())
          iter = next;
        else if (trips >= 0)
          iter = std::max(iter, trips);
      }
      if (trips >= 0 && iter >= trips) {
        section = Section::Tail;
        continue;
      }
      if (trips < 0 && !bodyHasAlways && iter >= 1) {
        // An endless loop whose body has no unguarded bracket: no more
        // events, but the task never finishes.
        idle = true;
        return false;
      }
      eventsThisIter = 0;
      continue;
    case Section::Tail:
      if (stepIdx < task.tail.size()) {
        const Step &s = task.tail[stepIdx++];
        if (!(skipped && s.skippable) && emit(s, e))
          return true;
        continue;
      }
      if (++tile < task.tiles) {
        // The next tile: the cursors carry on (TileModel.cpp).
        section = Section::Head;
        stepIdx = 0;
        continue;
      }
      section = Section::Drains;
      drainIdx = 0;
      continue;
    case Section::Drains:
      if (drainIdx < task.implicitDrains.size()) {
        drainPipe = task.implicitDrains[drainIdx++];
        drainOp = task.op;
        const PipeInfo &p = m.pipes[drainPipe];
        drainLeft = p.stages / p.drainStride(agent.usedRoles[drainPipe]);
        continue;
      }
      section = Section::Done;
      return false;
    case Section::Done:
      return false;
    }
  }
}
