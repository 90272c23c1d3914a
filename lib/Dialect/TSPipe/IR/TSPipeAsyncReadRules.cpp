//===- TSPipeAsyncReadRules.cpp - async MMA reads retire before release ---===//
//
// X25. A warpgroup MMA (`wgmma.mma_async`, upstream's nvvm.wgmma.mma_async
// or nvgpu.warpgroup.mma) reads its shared-memory operands asynchronously:
// the instruction returns at once, and the reads go on until a
// `wgmma.wait_group N` finds at most N newer groups pending (PTX ISA,
// "wgmma.commit_group", "wgmma.wait_group"). A consumer_release of the stage
// those operands lie in hands it to the producer, whose next copy may
// overwrite it while the MMA still reads: triton PR 2868's hang with one
// stage (field bug B16), and the race the drain before every release
// prevents. The check runs each task that issues such MMAs: its schedule
// is executed abstractly (head, domain loop, tail, for several domain
// lengths and tile counts, with every combination of its when_true /
// when_false conditions), counting the waits and releases of each pipeline
// (release r frees the stage of wait r, in the nested and in the split
// form alike) and the MMA groups in flight; at each release, no read of
// the stage it frees may still be uncommitted or pending. So a release one
// iteration behind its wait (advance_on_wait: a head wait, the loop, a tail
// release) that waits until one group is pending is proven, and a release
// with the stage's own group in flight is rejected.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "tspipe/Dialect/TSPipe/IR/TSPipeGuards.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <numeric>
#include <set>

using namespace mlir;
using namespace mlir::tspipe;

namespace {

/// A read of the stage that wait `gen` of pipeline `pipe` (interned index)
/// obtained.
using Read = std::pair<unsigned, int64_t>;

/// The warpgroup MMA groups of one point of the schedule: reads issued but
/// not committed, and the committed groups not yet known complete (oldest
/// first).
struct GroupState {
  std::set<Read> open;
  std::vector<std::set<Read>> committed;

  bool operator==(const GroupState &o) const {
    return open == o.open && committed == o.committed;
  }
  void commit() {
    committed.push_back(std::move(open));
    open.clear();
  }
  /// `wgmma.wait_group n`: all but the newest n committed groups complete.
  void waitGroup(uint64_t n) {
    if (committed.size() > n)
      committed.erase(committed.begin(),
                      committed.end() - static_cast<ptrdiff_t>(n));
  }
  /// The state after either of two paths: the groups aligned from the
  /// newest, each the union of both paths' (a read pending on either path
  /// is pending).
  static GroupState merge(const GroupState &a, const GroupState &b) {
    GroupState m;
    m.open = a.open;
    m.open.insert(b.open.begin(), b.open.end());
    size_t n = std::max(a.committed.size(), b.committed.size());
    m.committed.resize(n);
    for (size_t d = 0; d < n; ++d) {
      std::set<Read> &dst = m.committed[n - 1 - d];
      if (d < a.committed.size())
        dst.insert(a.committed[a.committed.size() - 1 - d].begin(),
                   a.committed[a.committed.size() - 1 - d].end());
      if (d < b.committed.size())
        dst.insert(b.committed[b.committed.size() - 1 - d].begin(),
                   b.committed[b.committed.size() - 1 - d].end());
    }
    return m;
  }
};

/// Where the stage a read addresses comes from: a consumer_wait (the stage
/// of its latest run) or a consumer `current_stage` (the stage the next
/// release frees).
struct ReadSource {
  Operation *origin;
  unsigned pipe;
};

bool isMma(Operation *op) {
  return isa<NVVM::WgmmaMmaAsyncOp, nvgpu::WarpgroupMmaOp>(op);
}

/// One scenario of a task's run: domain length, tile count, and the value
/// of each when_true / when_false condition.
struct Scenario {
  int64_t trips = 0;
  int64_t tiles = 1;
  llvm::DenseMap<Value, bool> conds;
};

class TaskSimulator {
public:
  explicit TaskSimulator(TaskOp task) : task(task) {}

  /// Collects the MMAs that read consumer stages; false when there are none.
  bool collect();
  /// Runs every scenario; reports each release that frees a stage an MMA
  /// may still read, once.
  bool run();

private:
  unsigned pipeIndex(StringRef name) {
    auto [it, added] = pipeIds.try_emplace(name, pipeNames.size());
    if (added)
      pipeNames.push_back(name);
    return it->second;
  }
  void exec(Block &block, GroupState &st);
  void execOp(Operation *op, GroupState &st);
  void read(Operation *mma, GroupState &st);
  void release(ConsumerReleaseOp op, GroupState &st);
  void runScenario(const Scenario &sc);

  TaskOp task;
  llvm::StringMap<unsigned> pipeIds;
  SmallVector<StringRef> pipeNames;
  /// The MMAs that read consumer stages, and what they read.
  llvm::MapVector<Operation *, SmallVector<ReadSource, 2>> mmas;
  /// Ops whose regions hold an event (a bracket, an MMA, a commit, a wait).
  llvm::DenseSet<Operation *> holdsEvent;
  /// Domain-loop guards' conditions, and the periods of tspipe.every.
  llvm::SetVector<Value> conds;
  int64_t period = 1;
  bool persistent = false;

  // The scenario being run.
  const Scenario *scenario = nullptr;
  int64_t iteration = -1;
  std::vector<int64_t> waits, releases;
  llvm::DenseMap<Operation *, int64_t> genOf;
  /// A read's first MMA (for the note).
  std::map<Read, Operation *> readOp;
  llvm::DenseSet<Operation *> reported;
  bool ok = true;
};

/// Adds to `out` the stage reads reachable from `root` (a stage_buffer's
/// result): through address arithmetic, casts, views, region results and
/// the warpgroup descriptors built from them, to the MMAs that take them.
void mmasReading(Value root, SmallVectorImpl<Operation *> &out) {
  SmallVector<Value> worklist{root};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (isMma(user)) {
        out.push_back(user);
        continue;
      }
      if (rules::derivesStageAddress(user) ||
          isa<nvgpu::WarpgroupGenerateDescriptorOp>(user)) {
        worklist.append(user->result_begin(), user->result_end());
        continue;
      }
      if (isa<scf::YieldOp>(user))
        worklist.append(user->getParentOp()->result_begin(),
                        user->getParentOp()->result_end());
    }
  }
}

bool TaskSimulator::collect() {
  task.walk([&](StageBufferOp buffer) {
    Operation *origin = buffer.getOperand().getDefiningOp();
    bool producer = false;
    PipelineOp pipe = rules::stagePipeline(buffer.getOperand(), producer);
    if (!pipe || producer)
      return;
    SmallVector<Operation *> readers;
    mmasReading(buffer.getResult(), readers);
    for (Operation *mma : readers) {
      ReadSource src{origin, pipeIndex(pipe.getSymName())};
      auto &list = mmas[mma];
      if (llvm::none_of(list, [&](const ReadSource &s) {
            return s.origin == src.origin;
          }))
        list.push_back(src);
    }
  });
  if (mmas.empty())
    return false;
  task.walk([&](Operation *op) {
    bool event = isMma(op) ||
                 isa<NVVM::WgmmaGroupSyncAlignedOp, NVVM::WgmmaWaitGroupSyncOp,
                     ConsumerWaitOp, ConsumerReleaseOp>(op);
    if (auto every = dyn_cast<EveryOp>(op))
      period = std::lcm(period, std::max<int64_t>(1, static_cast<int64_t>(
                                                         every.getPeriod())));
    if (isa<WhenTrueOp, WhenFalseOp>(op))
      conds.insert(op->getOperand(0));
    if (isa<WorkTileLoopOp>(op))
      persistent = true;
    if (!event)
      return;
    for (Operation *p = op->getParentOp(); p && p != task.getOperation();
         p = p->getParentOp())
      holdsEvent.insert(p);
    if (auto wait = dyn_cast<ConsumerWaitOp>(op))
      pipeIndex(wait.getPipeline());
    if (auto rel = dyn_cast<ConsumerReleaseOp>(op))
      for (StringRef p : getBracketPipelines(rel))
        pipeIndex(p);
  });
  return true;
}

void TaskSimulator::read(Operation *mma, GroupState &st) {
  for (const ReadSource &src : mmas.lookup(mma)) {
    int64_t gen;
    if (isa<ConsumerWaitOp>(src.origin)) {
      auto it = genOf.find(src.origin);
      if (it == genOf.end())
        continue; // its wait has not run in this scenario
      gen = it->second;
    } else {
      gen = releases[src.pipe]; // current_stage: the stage of the next release
    }
    Read r{src.pipe, gen};
    readOp.try_emplace(r, mma);
    st.open.insert(r);
  }
}

void TaskSimulator::release(ConsumerReleaseOp op, GroupState &st) {
  for (StringRef name : getBracketPipelines(op)) {
    unsigned pipe = pipeIndex(name);
    int64_t gen = releases[pipe]++;
    if (reported.contains(op))
      continue;
    // The oldest pending read of a stage this release (or an earlier one)
    // freed.
    std::optional<Read> bad;
    int64_t later = -1; // committed groups after the read's; -1: uncommitted
    for (size_t i = 0; i < st.committed.size() && !bad; ++i)
      for (const Read &r : st.committed[i])
        if (r.first == pipe && r.second <= gen) {
          bad = r;
          later = static_cast<int64_t>(st.committed.size() - 1 - i);
          break;
        }
    for (const Read &r : st.open)
      if (!bad && r.first == pipe && r.second <= gen)
        bad = r;
    if (!bad)
      continue;
    reported.insert(op);
    ok = false;
    auto diag = op.emitOpError();
    diag << "[X25] releases a stage of @" << name
         << " that a warpgroup MMA may still read: ";
    if (later < 0)
      diag << "the MMA's group is not committed (no wgmma.commit_group "
              "after it) before the release";
    else
      diag << "its group is still in flight (no wgmma.wait_group of at most "
           << later << " since it was committed; " << later
           << " newer group(s) committed after it)";
    diag << "; the producer may overwrite the stage while the MMA reads it "
            "(PTX ISA wgmma.wait_group; triton PR 2868, B16). Found on "
         << (iteration >= 0 ? "iteration " + std::to_string(iteration) +
                                  " of a domain loop of "
                            : std::string("a run with a domain loop of "))
         << scenario->trips << " iteration(s)";
    if (persistent)
      diag << " per tile, over " << scenario->tiles << " tile(s)";
    diag << ". Fix: ";
    if (later < 0)
      diag << "commit the MMAs (nvvm.wgmma.commit.group.sync.aligned), then ";
    diag << "wait until at most " << (later < 0 ? 0 : later)
         << " group(s) are pending (nvvm.wgmma.wait.group.sync.aligned "
         << (later < 0 ? 0 : later)
         << ") before the release, or release the stage one iteration later "
            "(advance_on_wait: wait in the head, release behind the wait in "
            "the loop and once more in the tail; docs/gemm.md)";
    diag.attachNote(readOp[*bad]->getLoc())
        << "the warpgroup MMA that reads the stage";
  }
}

void TaskSimulator::exec(Block &block, GroupState &st) {
  for (Operation &op : block)
    execOp(&op, st);
}

void TaskSimulator::execOp(Operation *op, GroupState &st) {
  if (auto wait = dyn_cast<ConsumerWaitOp>(op)) {
    unsigned pipe = pipeIndex(wait.getPipeline());
    genOf[op] = waits[pipe]++;
    return;
  }
  if (auto rel = dyn_cast<ConsumerReleaseOp>(op))
    return release(rel, st);
  if (isMma(op)) {
    read(op, st);
    if (auto mma = dyn_cast<nvgpu::WarpgroupMmaOp>(op)) {
      // Lowers to the MMAs, one commit and a wait for `waitGroup`.
      st.commit();
      st.waitGroup(mma.getWaitGroup());
    }
    return;
  }
  if (isa<NVVM::WgmmaGroupSyncAlignedOp>(op))
    return st.commit();
  if (auto w = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(op))
    return st.waitGroup(w.getGroup());
  if (!holdsEvent.contains(op))
    return;
  if (auto loop = dyn_cast<DomainLoopOp>(op)) {
    int64_t saved = iteration;
    for (int64_t k = 0; k < scenario->trips; ++k) {
      iteration = k;
      exec(loop.getBody().front(), st);
    }
    iteration = saved;
    return;
  }
  if (isa<WorkTileLoopOp>(op)) {
    for (int64_t t = 0; t < scenario->tiles; ++t)
      for (Region &r : op->getRegions())
        for (Block &b : r)
          exec(b, st);
    return;
  }
  if (isLoopGuardOp(op)) {
    bool runs = true;
    int64_t n = scenario->trips;
    if (isa<FirstIterOp>(op))
      runs = iteration == 0;
    else if (isa<LastIterOp>(op))
      runs = iteration == n - 1;
    else if (auto every = dyn_cast<EveryOp>(op))
      runs = static_cast<int64_t>(every.getPeriod()) > 0 &&
             iteration % static_cast<int64_t>(every.getPeriod()) ==
                 static_cast<int64_t>(every.getStart());
    else if (isa<WhenTrueOp, WhenFalseOp>(op))
      runs = scenario->conds.lookup(op->getOperand(0)) == isa<WhenTrueOp>(op);
    if (runs)
      for (Region &r : op->getRegions())
        for (Block &b : r)
          exec(b, st);
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    IntegerAttr c;
    if (matchPattern(ifOp.getCondition(), m_Constant(&c))) {
      Region &taken =
          c.getValue().isZero() ? ifOp.getElseRegion() : ifOp.getThenRegion();
      if (!taken.empty())
        exec(taken.front(), st);
      return;
    }
    GroupState other = st;
    exec(ifOp.getThenRegion().front(), st);
    if (!ifOp.getElseRegion().empty())
      exec(ifOp.getElseRegion().front(), other);
    st = GroupState::merge(st, other);
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound()),
                           ub = getConstantIntValue(forOp.getUpperBound()),
                           step = getConstantIntValue(forOp.getStep());
    if (lb && ub && step && *step > 0 && *ub >= *lb &&
        (*ub - *lb + *step - 1) / *step <= 64) {
      for (int64_t i = *lb; i < *ub; i += *step)
        exec(*forOp.getBody(), st);
      return;
    }
    // Unknown trip count: zero, one or two runs, any of them.
    GroupState once = st;
    exec(*forOp.getBody(), once);
    GroupState twice = once;
    exec(*forOp.getBody(), twice);
    st = GroupState::merge(GroupState::merge(st, once), twice);
    return;
  }
  // Any other op with regions: each of its blocks once, in order.
  for (Region &r : op->getRegions())
    for (Block &b : r)
      exec(b, st);
}

void TaskSimulator::runScenario(const Scenario &sc) {
  scenario = &sc;
  iteration = -1;
  waits.assign(pipeNames.size(), 0);
  releases.assign(pipeNames.size(), 0);
  genOf.clear();
  readOp.clear();
  GroupState st;
  exec(task.getBody().front(), st);
}

bool TaskSimulator::run() {
  // Domain lengths: the constant one, or 0 .. L for a symbolic one, L
  // covering two periods of the tspipe.every guards and a few iterations
  // past the first and before the last.
  SmallVector<int64_t> lengths;
  std::optional<int64_t> constTrips;
  if (DomainLoopOp loop = task.getDomainLoop()) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                           ub = getConstantIntValue(loop.getUpperBound()),
                           step = getConstantIntValue(loop.getStep());
    if (lb && ub && step && *step > 0)
      constTrips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
  }
  int64_t limit = std::min<int64_t>(2 * period + 4, 40);
  if (constTrips) {
    // A long constant loop: as many iterations as the guards need, with
    // the same remainder modulo their period.
    int64_t n = *constTrips;
    if (n > limit)
      n = limit + (n - limit) % period;
    lengths.push_back(n);
  } else {
    for (int64_t n = 0; n <= limit; ++n)
      lengths.push_back(n);
  }
  SmallVector<int64_t, 2> tileCounts{1};
  if (persistent)
    tileCounts.push_back(2);
  size_t numConds = std::min<size_t>(conds.size(), 6);
  for (int64_t tiles : tileCounts)
    for (int64_t n : lengths)
      for (uint64_t mask = 0; mask < (uint64_t{1} << numConds); ++mask) {
        Scenario sc;
        sc.trips = n;
        sc.tiles = tiles;
        for (size_t i = 0; i < conds.size(); ++i)
          sc.conds[conds[i]] = i < numConds ? (mask >> i) & 1 : true;
        runScenario(sc);
      }
  return ok;
}

} // namespace

LogicalResult mlir::tspipe::rules::verifyAsyncReadRules(KernelOp kernel) {
  bool ok = true;
  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    TaskSimulator sim(task);
    if (sim.collect())
      ok &= sim.run();
  }
  return success(ok);
}
