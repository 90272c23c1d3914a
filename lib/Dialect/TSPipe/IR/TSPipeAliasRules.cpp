//===- TSPipeAliasRules.cpp - race-free reuse of aliased storage (X23) ----===//
//
// The members of a tspipe.alias_group share storage, phase after phase. The
// reuse is race-free only if every use of a resource of an earlier phase is
// finished before a resource of a later phase is first written (rule X23).
// TS finds such races by exploring interleavings of its schedules; tspipe
// derives the order from the IR instead and requires it:
//
//  * in one task, program order: an op after the domain loop follows every
//    iteration, an op in the loop follows the ops before it from the first
//    iteration on (loop guards run once);
//  * across tasks, the barriers: the k-th wait on a pipeline follows the
//    k-th commit of every producer task; the k-th acquire follows the
//    (k - num_stages)-th release of every consumer task; a producer_tail
//    follows the releases of every stage its task committed; the k-th
//    sync of a named barrier follows every listed task's k-th sync or
//    arrive. Counts are linear in the domain loop's trip count, compared
//    for loops of equal (constant or identical) bounds.
//
// A use is finished at its task's last use of the resource; a pipeline's
// consumer reads at its last consumer-side bracket, except for consumers
// that read asynchronously (tma_umma, async_umma, umma_umma: the MMA reads
// after the release is issued): those reads are finished only when the
// release's own tcgen05.commit arrives (observed by the pipeline's next
// acquire) or when a later tcgen05 commit of the same task on an
// umma_async / umma_umma pipeline is waited on (TS's exhaustive checker
// clears them the same two ways). A resource's first write is its first
// producer-side op. A tspipe.buffer (or TMEM column) is accessed by the ops
// with memory effects that use its address (through pure address
// arithmetic); taking the address alone is no access.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <climits>
#include <tuple>

using namespace mlir;
using namespace mlir::tspipe;

namespace {

enum class Section : uint8_t { Head, Loop, Tail };
enum class Guard : uint8_t { None, First, Last };

/// Where an op runs in its task's schedule: the section, the index of its
/// ancestor in the section's block and, in a loop guard, its ancestor's
/// index in the guard (+1).
struct Pos {
  Section sec = Section::Head;
  int idx = 0;
  int sub = 0;
  Guard guard = Guard::None;

  auto key() const { return std::make_tuple(int(sec), idx, sub); }
  bool operator<(const Pos &o) const { return key() < o.key(); }
  bool operator==(const Pos &o) const { return key() == o.key(); }
};

/// After every iteration of the domain loop (before the tail).
const Pos kLoopEnd{Section::Loop, INT_MAX, INT_MAX, Guard::None};
/// After the whole schedule.
const Pos kEnd{Section::Tail, INT_MAX, INT_MAX, Guard::None};

/// The tspipe.pipeline `name` of `kernel`, or null.
PipelineOp pipelineIn(KernelOp kernel, StringRef name) {
  return dyn_cast_or_null<PipelineOp>(SymbolTable::lookupSymbolIn(
      kernel, StringAttr::get(kernel.getContext(), name)));
}

/// A count `a + b * N`, N the trip count of the task's domain loop.
struct Lin {
  int64_t a = 0, b = 0;
};

/// One task's schedule: positions of its ops and the barrier events that
/// order it against the others.
struct Schedule {
  mutable TaskOp task; // op handles are not const-callable
  mutable DomainLoopOp loop;
  std::optional<int64_t> trip;
  llvm::DenseMap<Operation *, int> index; // ops of the task, loop, guards
  llvm::StringMap<SmallVector<Pos>> commits, waits, releases, acquires, tails,
      barrierUses, barrierSyncs;

  explicit Schedule(TaskOp t) : task(t) {
    loop = task.getDomainLoop();
    auto number = [&](Block &block) {
      int i = 0;
      for (Operation &op : block)
        index[&op] = i++;
    };
    number(task.getBody().front());
    if (loop) {
      number(loop.getBody().front());
      for (Operation &op : loop.getBody().front())
        if (isa<FirstIterOp, LastIterOp>(op))
          number(op.getRegion(0).front());
      trip = constantTrip();
    }
    task.walk([&](Operation *op) {
      std::optional<Pos> at = position(op);
      if (!at)
        return;
      auto add = [&](llvm::StringMap<SmallVector<Pos>> &map) {
        for (StringRef pipe : getBracketPipelines(op))
          map[pipe].push_back(*at);
      };
      if (isa<ProducerCommitOp>(op))
        add(commits);
      else if (isa<ConsumerWaitOp>(op))
        add(waits);
      else if (isa<ConsumerReleaseOp>(op))
        add(releases);
      else if (isa<ProducerAcquireOp>(op))
        add(acquires);
      else if (isa<ProducerTailOp>(op))
        add(tails);
      else if (isa<NamedBarrierSyncOp, NamedBarrierArriveOp>(op)) {
        StringRef nb = op->getAttrOfType<FlatSymbolRefAttr>("barrier")
                           .getValue();
        barrierUses[nb].push_back(*at);
        if (isa<NamedBarrierSyncOp>(op))
          barrierSyncs[nb].push_back(*at);
      }
    });
    for (auto *map : {&commits, &waits, &releases, &acquires, &tails,
                      &barrierUses, &barrierSyncs})
      for (auto &entry : *map)
        llvm::stable_sort(entry.second);
  }

  std::optional<int64_t> constantTrip() const {
    llvm::APInt lb, ub, step;
    if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
        !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
        !matchPattern(loop.getStep(), m_ConstantInt(&step)))
      return std::nullopt;
    int64_t l = lb.getSExtValue(), u = ub.getSExtValue(),
            s = step.getSExtValue();
    if (s <= 0)
      return std::nullopt;
    return u <= l ? 0 : (u - l + s - 1) / s;
  }

  /// The position of `op` (nested anywhere in the task), or none for the
  /// domain loop and guard ops themselves.
  std::optional<Pos> position(Operation *op) const {
    Block &top = task.getBody().front();
    Operation *a = top.findAncestorOpInBlock(*op);
    if (!a)
      return std::nullopt;
    if (a != loop.getOperation()) {
      Section sec = loop && loop->isBeforeInBlock(a) ? Section::Tail
                                                      : Section::Head;
      return Pos{sec, index.lookup(a), 0, Guard::None};
    }
    if (op == a)
      return std::nullopt;
    Block &body = loop.getBody().front();
    Operation *b = body.findAncestorOpInBlock(*op);
    if (!b)
      return std::nullopt;
    Pos pos{Section::Loop, index.lookup(b), 0, Guard::None};
    if (isa<FirstIterOp, LastIterOp>(b)) {
      if (op == b)
        return std::nullopt;
      Operation *c = b->getRegion(0).front().findAncestorOpInBlock(*op);
      pos.sub = c ? index.lookup(c) + 1 : 0;
      pos.guard = isa<FirstIterOp>(b) ? Guard::First : Guard::Last;
    }
    return pos;
  }
};

/// How many of `events` have happened when `p` first runs.
Lin countAt(ArrayRef<Pos> events, const Pos &p) {
  Lin c;
  for (const Pos &e : events) {
    bool upTo = !(p < e); // e at or before p
    switch (e.sec) {
    case Section::Head:
      if (p.sec != Section::Head || upTo)
        c.a += 1;
      break;
    case Section::Tail:
      if (p.sec == Section::Tail && upTo)
        c.a += 1;
      break;
    case Section::Loop:
      if (p.sec == Section::Head)
        break;
      if (p.sec == Section::Tail || p == kLoopEnd) {
        (e.guard == Guard::None ? c.b : c.a) += 1;
        break;
      }
      if (p.guard == Guard::Last) { // p first runs on the last iteration
        if (e.guard == Guard::None) {
          c.b += 1;
          if (!upTo)
            c.a -= 1;
        } else if (e.guard == Guard::First || upTo) {
          c.a += 1;
        }
      } else if (upTo && e.guard != Guard::Last) {
        c.a += 1;
      }
      break;
    }
  }
  return c;
}

bool sameBounds(const Schedule &x, const Schedule &y) {
  if (!x.loop || !y.loop)
    return false;
  auto same = [](Value a, Value b) {
    if (a == b)
      return true;
    llvm::APInt ca, cb;
    return matchPattern(a, m_ConstantInt(&ca)) &&
           matchPattern(b, m_ConstantInt(&cb)) && ca == cb;
  };
  return same(x.loop.getLowerBound(), y.loop.getLowerBound()) &&
         same(x.loop.getUpperBound(), y.loop.getUpperBound()) &&
         same(x.loop.getStep(), y.loop.getStep());
}

/// True when count `m` of task `y` is at least count `n` of task `x` for
/// every trip count the IR allows.
bool provedAtLeast(Lin m, const Schedule &y, Lin n, const Schedule &x) {
  if (m.b == 0 && n.b == 0)
    return m.a >= n.a;
  if (x.trip && y.trip)
    return m.a + m.b * *y.trip >= n.a + n.b * *x.trip;
  if (sameBounds(x, y) || n.b == 0)
    return m.b >= n.b && m.a >= n.a;
  return false;
}

/// The first position after which everything is ordered after an event
/// that `p` observes on its first run.
Pos after(const Pos &p) {
  return p.sec == Section::Loop && p.guard == Guard::Last ? kLoopEnd : p;
}

/// The happens-after frontier of one event: per task, the position after
/// which every op of that task follows the event (none: no order).
class Frontier {
public:
  Frontier(ArrayRef<Schedule> all, KernelOp kernel)
      : all(all), kernel(kernel), safe(all.size()) {}

  /// Every op of task `t` after `p` follows the event.
  void reach(size_t t, Pos p) {
    if (safe[t] && !(p < *safe[t]))
      return;
    safe[t] = p;
    work.push_back(t);
  }

  /// The event is ordered before count `n` of commits of `pipe` in task
  /// `x`: every wait of `pipe` that counts past it follows it.
  void fromCommit(size_t x, StringRef pipe, Lin n) {
    for (auto [y, sched] : llvm::enumerate(all)) {
      auto it = sched.waits.find(pipe);
      if (it == sched.waits.end())
        continue;
      for (const Pos &w : it->second)
        if (provedAtLeast(countAt(it->second, w), sched, n, all[x])) {
          reach(y, after(w));
          break;
        }
    }
  }

  /// The event is ordered before release count `n` of `pipe` in task `x`.
  void fromRelease(size_t x, StringRef pipe, Lin n) {
    int64_t stages = stagesOf(pipe);
    for (auto [y, sched] : llvm::enumerate(all)) {
      if (auto it = sched.acquires.find(pipe); it != sched.acquires.end())
        for (const Pos &a : it->second) {
          Lin m = countAt(it->second, a);
          m.a -= stages;
          if (provedAtLeast(m, sched, n, all[x])) {
            reach(y, after(a));
            break;
          }
        }
      auto it = sched.tails.find(pipe);
      if (it == sched.tails.end())
        continue;
      SmallVector<Pos> commits = sched.commits.lookup(pipe);
      for (const Pos &t : it->second)
        if (provedAtLeast(countAt(commits, t), sched, n, all[x])) {
          reach(y, after(t));
          break;
        }
    }
  }

  /// Propagates to a fixed point.
  void run() {
    while (!work.empty()) {
      size_t x = work.pop_back_val();
      const Schedule &s = all[x];
      Pos k = *safe[x];
      auto firstAfter = [&](ArrayRef<Pos> events) -> const Pos * {
        for (const Pos &e : events)
          if (k < e)
            return &e;
        return nullptr;
      };
      for (auto &entry : s.commits)
        if (const Pos *c = firstAfter(entry.second))
          fromCommit(x, entry.first(), countAt(entry.second, *c));
      for (auto &entry : s.releases)
        if (const Pos *r = firstAfter(entry.second))
          fromRelease(x, entry.first(), countAt(entry.second, *r));
      for (auto &entry : s.barrierUses) {
        const Pos *u = firstAfter(entry.second);
        if (!u)
          continue;
        Lin n = countAt(entry.second, *u);
        for (auto [y, sched] : llvm::enumerate(all)) {
          if (y == x)
            continue;
          auto it = sched.barrierSyncs.find(entry.first());
          if (it == sched.barrierSyncs.end())
            continue;
          SmallVector<Pos> uses = sched.barrierUses.lookup(entry.first());
          for (const Pos &p : it->second)
            if (provedAtLeast(countAt(uses, p), sched, n, s)) {
              reach(y, after(p));
              break;
            }
        }
      }
    }
  }

  const std::optional<Pos> &at(size_t t) const { return safe[t]; }

private:
  int64_t stagesOf(StringRef pipe) {
    if (PipelineOp p = pipelineIn(kernel, pipe))
      return p.getConfig().getNumStages();
    return 1;
  }

  ArrayRef<Schedule> all;
  KernelOp kernel;
  SmallVector<std::optional<Pos>> safe;
  SmallVector<size_t> work;
};

/// True for pipeline types whose consumer (an MMA) reads after its release
/// is issued.
bool readsAsynchronously(PipelineType type) {
  return type == PipelineType::TmaUmma || type == PipelineType::AsyncUmma ||
         type == PipelineType::UmmaUmma;
}

/// True for pipeline types whose producer commit is a tcgen05.commit that
/// arrives once the task's earlier MMAs are complete.
bool commitTracksMma(PipelineType type) {
  return type == PipelineType::UmmaAsync || type == PipelineType::UmmaUmma;
}

/// One task's accesses of one alias-group member.
struct Access {
  size_t task;
  Operation *first = nullptr, *last = nullptr; // program order
  Pos firstPos, lastPos;
  bool producer = false, consumer = false;
  Operation *lastRelease = nullptr;
  Pos lastReleasePos;
};

void note(Access &a, Operation *op, const Pos &p) {
  if (!a.first || p < a.firstPos) {
    a.first = op;
    a.firstPos = p;
  }
  if (!a.last || a.lastPos < p) {
    a.last = op;
    a.lastPos = p;
  }
}

/// Every task's accesses of `member` (a tspipe.pipeline or tspipe.buffer).
SmallVector<Access> accessesOf(Operation *member, ArrayRef<Schedule> all) {
  StringRef name = SymbolTable::getSymbolName(member).getValue();
  SmallVector<Access> out;
  for (auto [t, sched] : llvm::enumerate(all)) {
    Access acc{t};
    Access prod{t}, cons{t};
    prod.producer = cons.consumer = true;
    sched.task.walk([&](Operation *op) {
      std::optional<Pos> p = sched.position(op);
      if (!p)
        return;
      // A buffer's address or a TMEM column: the op and every op that uses
      // what it computes, up to (and including) the first op with memory
      // effects on each chain.
      if ((isa<BufferAddressOp>(op) &&
           cast<BufferAddressOp>(op).getBuffer() == name) ||
          (isa<TmemColumnOp>(op) &&
           cast<TmemColumnOp>(op).getResource() == name)) {
        bool producerTask = sched.task.producesPipeline(name);
        Access &into = isa<BufferOp>(member) ? acc
                       : producerTask        ? prod
                                             : cons;
        SmallVector<Value> work(op->getResults().begin(),
                                op->getResults().end());
        DenseSet<Operation *> seen;
        while (!work.empty()) {
          Value v = work.pop_back_val();
          for (Operation *user : v.getUsers()) {
            if (!seen.insert(user).second)
              continue;
            if (isMemoryEffectFree(user) && user->getNumRegions() == 0) {
              llvm::append_range(work, user->getResults());
              continue;
            }
            // An op with memory effects (or regions) on the address: an
            // access; computing the address is none.
            if (std::optional<Pos> up = sched.position(user))
              note(into, user, *up);
          }
        }
        return;
      }
      bool producerSide;
      if (isa<StageIndexOp, FullBarrierOp, EmptyBarrierOp, StageBufferOp>(
              op)) {
        PipelineOp pipe = rules::stagePipeline(op->getOperand(0),
                                               producerSide);
        if (pipe && pipe.getSymName() == name)
          note(producerSide ? prod : cons, op, *p);
        return;
      }
      if (!llvm::is_contained(getBracketPipelines(op), name))
        return;
      if (isa<ProducerTryAcquireOp, ProducerAcquireOp, ProducerCommitOp>(op))
        note(prod, op, *p);
      else if (isa<ConsumerTryWaitOp, ConsumerWaitOp>(op))
        note(cons, op, *p);
      else if (isa<ConsumerReleaseOp>(op)) {
        note(cons, op, *p);
        if (!cons.lastRelease || cons.lastReleasePos < *p) {
          cons.lastRelease = op;
          cons.lastReleasePos = *p;
        }
      }
    });
    for (Access *a : {&acc, &prod, &cons})
      if (a->first)
        out.push_back(*a);
  }
  return out;
}

/// Where `op` of `sched`'s task has run for the last time: after it, or
/// after the loop when it runs in the loop.
Pos afterLast(const Pos &p) { return p.sec == Section::Loop ? kLoopEnd : p; }

std::string describe(const Schedule &s) {
  return ("'@" + s.task.getSymName() + "'").str();
}

/// X23 for one ordered pair of members: `early` (phase i) is finished
/// before `late` (phase j > i) is first written.
bool checkPair(AliasGroupOp group, Operation *early, size_t pi,
               Operation *late, size_t pj, ArrayRef<Schedule> all,
               KernelOp kernel) {
  SmallVector<Access> earlyAcc = accessesOf(early, all);
  SmallVector<Access> lateAcc = accessesOf(late, all);
  // The writers of `late`: its producer-side accesses, or every access of
  // a buffer (and of a pipeline no task produces).
  SmallVector<Access> writers;
  for (const Access &a : lateAcc)
    if (a.producer)
      writers.push_back(a);
  if (writers.empty())
    writers = lateAcc;
  if (writers.empty())
    return true;
  // The events after which `early` is finished: its consumers' last uses
  // (the producers' writes are complete before the consumers' waits), or
  // every access when nothing consumes it.
  SmallVector<Access> finishers;
  for (const Access &a : earlyAcc)
    if (a.consumer)
      finishers.push_back(a);
  if (finishers.empty())
    finishers = earlyAcc;
  auto pipe = dyn_cast<PipelineOp>(early);
  bool async =
      pipe && readsAsynchronously(pipe.getConfig().getPipelineType());
  StringRef earlyName = SymbolTable::getSymbolName(early).getValue();
  StringRef lateName = SymbolTable::getSymbolName(late).getValue();
  bool ok = true;
  for (const Access &fin : finishers) {
    const Schedule &c = all[fin.task];
    Frontier f(all, kernel);
    bool mma = async && fin.consumer && fin.lastRelease;
    if (mma) {
      // The MMA's reads end when the release's tcgen05.commit arrives (the
      // next acquire of the stage), or at a later tcgen05 commit of this
      // task that is waited on.
      f.fromRelease(fin.task, earlyName,
                    countAt(c.releases.lookup(earlyName), kEnd));
      Pos k = afterLast(fin.lastReleasePos);
      for (auto &entry : c.commits) {
        PipelineOp r = pipelineIn(kernel, entry.first());
        if (!r || !commitTracksMma(r.getConfig().getPipelineType()))
          continue;
        for (const Pos &cp : entry.second)
          if (k < cp) {
            f.fromCommit(fin.task, entry.first(), countAt(entry.second, cp));
            break;
          }
      }
    } else {
      f.reach(fin.task, afterLast(fin.lastPos));
      if (fin.lastRelease && fin.lastRelease == fin.last)
        f.fromRelease(fin.task, earlyName,
                      countAt(c.releases.lookup(earlyName), kEnd));
      if (isa<ProducerCommitOp>(fin.last))
        f.fromCommit(fin.task, earlyName,
                     countAt(c.commits.lookup(earlyName), kEnd));
    }
    f.run();
    for (const Access &w : writers) {
      const std::optional<Pos> &k = f.at(w.task);
      if (k && *k < w.firstPos)
        continue;
      ok = false;
      const Schedule &ws = all[w.task];
      Operation *lastUse = mma ? fin.lastRelease : fin.last;
      InFlightDiagnostic diag = group.emitOpError();
      diag << "[X23] reuses the storage of '@" << earlyName << "' (phase "
           << pi << ") for '@" << lateName << "' (phase " << pj
           << "), but task " << describe(ws) << " first writes '@" << lateName
           << "' before the IR orders it after task " << describe(c)
           << "'s last use of '@" << earlyName << "'";
      if (mma)
        diag << " (an MMA read, finished only when the release's "
                "tcgen05.commit arrives or a later tcgen05 commit of "
             << describe(c) << " is waited on)";
      diag << "; order them: have " << describe(c)
           << " commit a pipeline (or release one) that " << describe(ws)
           << " waits on (acquires) before the write, drain '@" << earlyName
           << "' with tspipe.producer_tail in " << describe(ws)
           << ", or sync a named barrier of both tasks";
      diag.attachNote(w.first->getLoc())
          << "first write of '@" << lateName << "' here";
      diag.attachNote(lastUse->getLoc())
          << "last use of '@" << earlyName << "' here";
    }
  }
  return ok;
}

} // namespace

LogicalResult mlir::tspipe::rules::verifyAliasRules(KernelOp kernel) {
  auto groups = kernel.getBody().getOps<AliasGroupOp>();
  if (groups.empty())
    return success();
  bool ok = true;
  // X24: one group per resource and space.
  llvm::DenseMap<std::pair<Operation *, unsigned>, AliasGroupOp> owner;
  for (AliasGroupOp group : groups)
    for (auto &phase : group.getPhaseMembers())
      for (Operation *m : phase) {
        if (!m)
          continue;
        auto [it, fresh] =
            owner.try_emplace({m, unsigned(group.getTmem())}, group);
        if (fresh)
          continue;
        ok = false;
        group.emitOpError()
            << "[X24] '@" << SymbolTable::getSymbolName(m).getValue()
            << "' is already in alias group '@" << it->second.getSymName()
            << "'; a resource's storage has one place per space: merge the "
               "groups";
      }
  if (!ok)
    return failure();
  // The phase order is proved on a task's head, domain loop and tail; a
  // domain loop nested in a tspipe.work_tile_loop (or another region) has
  // per-tile phases this model does not see: say so rather than guess.
  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    DomainLoopOp loop = task.getDomainLoop();
    if (!loop || loop->getParentOp() == task.getOperation())
      continue;
    for (AliasGroupOp group : groups)
      group.emitOpError()
          << "[X23] cannot prove the phases of the group race-free: task '@"
          << task.getSymName() << "' runs its tspipe.domain_loop inside a '"
          << loop->getParentOp()->getName()
          << "', and X23 orders uses only in a task's head, domain loop and "
             "tail; keep aliased storage out of persistent (work_tile_loop) "
             "kernels, or give each phase its own storage";
    return failure();
  }
  SmallVector<Schedule> all;
  for (auto task : kernel.getBody().getOps<TaskOp>())
    all.emplace_back(task);
  for (AliasGroupOp group : groups) {
    auto phases = group.getPhaseMembers();
    for (size_t i = 0; i < phases.size(); ++i)
      for (size_t j = i + 1; j < phases.size(); ++j)
        for (Operation *early : phases[i])
          for (Operation *late : phases[j])
            ok &= checkPair(group, early, i, late, j, all, kernel);
  }
  return success(ok);
}
