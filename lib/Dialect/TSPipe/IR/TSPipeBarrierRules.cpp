//===- TSPipeBarrierRules.cpp - CTA, cluster and named barriers in tasks --===//
//
// A task runs on a warp range of the CTA, so a barrier that waits for every
// thread of the CTA (or of the cluster) inside a task that does not span
// it never completes (rule X12; NVIDIA/Fuser PR 4187, triton PRs 9456,
// 9786). The tool for synchronizing some tasks is tspipe.named_barrier,
// whose id and thread count tspipe allocates (rule X13). The progress
// checker does not model named barriers yet, so X13 admits only the uses
// that cannot hang by themselves: every listed task runs the same schedule
// (the same brackets and named-barrier ops in the same places, over the
// same domain), and no task only arrives in a loop (flashinfer PR 4732,
// vllm PR 26026: an arrive-only side runs a phase ahead and the barrier
// mixes two phases' arrivals).
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tspipe;

/// Named barrier ids tspipe may give (PTX: 16 per CTA; id 0 is the
/// kernel's init barrier, bar.sync 0).
static constexpr int64_t kMaxNamedBarriers = 15;

NamedBarrierOp mlir::tspipe::lookupNamedBarrier(Operation *from,
                                                FlatSymbolRefAttr name) {
  auto kernel = from->getParentOfType<KernelOp>();
  if (!kernel || !name)
    return {};
  return dyn_cast_or_null<NamedBarrierOp>(
      SymbolTable::lookupSymbolIn(kernel, name.getAttr()));
}

int64_t NamedBarrierOp::getBarrierId() {
  int64_t id = 1;
  for (auto other : (*this)
                        ->getParentOfType<KernelOp>()
                        .getBody()
                        .getOps<NamedBarrierOp>()) {
    if (other == *this)
      return id;
    ++id;
  }
  return id;
}

int64_t NamedBarrierOp::getThreadCount() {
  int64_t warps = 0;
  auto kernel = (*this)->getParentOfType<KernelOp>();
  for (Attribute a : getTasks()) {
    auto task = dyn_cast_or_null<TaskOp>(SymbolTable::lookupSymbolIn(
        kernel, cast<FlatSymbolRefAttr>(a).getAttr()));
    if (!task)
      return 0;
    warps += task.getNumWarps();
  }
  return 32 * warps;
}

LogicalResult mlir::tspipe::verifyNamedBarrierUse(Operation *op,
                                                  FlatSymbolRefAttr name) {
  auto task = op->getParentOfType<TaskOp>();
  if (!task)
    return op->emitOpError() << "[X13] must be inside a tspipe.task";
  NamedBarrierOp barrier = lookupNamedBarrier(op, name);
  if (!barrier)
    return op->emitOpError()
           << "[X13] " << name
           << " does not name a tspipe.named_barrier of the enclosing "
              "tspipe.kernel; declare 'tspipe.named_barrier "
           << name << " tasks [@" << task.getSymName() << ", ...]'";
  for (Attribute a : barrier.getTasks())
    if (cast<FlatSymbolRefAttr>(a).getValue() == task.getSymName())
      return success();
  return op->emitOpError()
         << "[X13] task '@" << task.getSymName() << "' is not listed by "
         << "named barrier " << name
         << ", whose thread count counts only the threads of the tasks it "
            "lists; add @"
         << task.getSymName() << " to its tasks";
}

namespace {

/// True for a barrier that waits for every thread of the CTA (cluster:
/// every thread of the cluster).
bool isCtaWideBarrier(Operation *op, bool &cluster) {
  cluster = false;
  if (op->getName().getStringRef() == "gpu.barrier" ||
      isa<NVVM::Barrier0Op>(op))
    return true;
  if (auto bar = dyn_cast<NVVM::BarrierOp>(op))
    return !bar.getNumberOfThreads();
  if (isa<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp,
          NVVM::ClusterWaitOp>(op)) {
    cluster = true;
    return true;
  }
  return false;
}

/// X12 on one task.
bool checkCtaWideBarriers(KernelOp kernel, TaskOp task) {
  bool spansCta =
      task.getWarpIdx() == 0 && task.getNumWarps() == kernel.getNumWarps();
  bool spansCluster = spansCta && !task.getRunOnlyOnCtaIdAttr();
  bool ok = true;
  task.walk([&](Operation *op) {
    bool cluster = false;
    if (!isCtaWideBarrier(op, cluster))
      return;
    if (cluster ? spansCluster : spansCta)
      return;
    ok = false;
    InFlightDiagnostic diag = op->emitOpError();
    diag << "[X12] waits for every thread of the "
         << (cluster ? "cluster" : "CTA") << ", but task '@"
         << task.getSymName() << "' runs on warps [" << task.getWarpIdx()
         << ", " << task.getWarpIdx() + task.getNumWarps() << ") of "
         << kernel.getNumWarps() << "";
    if (cluster && spansCta)
      diag << " on CTA " << task.getRunOnlyOnCtaIdAttr().getInt() << " only";
    diag << ", so the other " << (cluster ? "threads of the cluster" : "warps")
         << " never arrive and the barrier never completes; ";
    if (cluster)
      diag << "synchronize the CTAs through a pipeline spanning the "
              "cluster instead";
    else
      diag << "declare 'tspipe.named_barrier @b tasks [@" << task.getSymName()
           << ", ...]' and use 'tspipe.named_barrier_sync @b'";
  });
  return ok;
}

/// One step of a task's schedule as X13 compares them: the op's name, the
/// symbol it names and its nesting (the names of its enclosing ops up to
/// the task).
std::string scheduleStep(Operation *op, TaskOp task) {
  std::string text;
  llvm::raw_string_ostream os(text);
  SmallVector<StringRef> nest;
  for (Operation *p = op->getParentOp(); p && p != task; p = p->getParentOp())
    nest.push_back(p->getName().getStringRef());
  for (StringRef n : llvm::reverse(nest))
    os << n << "/";
  // An arrive (outside loops) and a sync are the same meeting point.
  if (isa<NamedBarrierSyncOp, NamedBarrierArriveOp>(op))
    os << "named_barrier";
  else
    os << op->getName().getStringRef();
  for (StringRef attr : {"pipeline", "group", "barrier"})
    if (auto ref = op->getAttrOfType<FlatSymbolRefAttr>(attr))
      os << " @" << ref.getValue();
  return text;
}

bool isScheduleOp(Operation *op) {
  return isa<ProducerTryAcquireOp, ProducerAcquireOp, ProducerCommitOp,
             ProducerTailOp, ConsumerTryWaitOp, ConsumerWaitOp,
             ConsumerReleaseOp, NamedBarrierSyncOp, NamedBarrierArriveOp>(op);
}

SmallVector<std::string> schedule(TaskOp task) {
  SmallVector<std::string> steps;
  task.walk([&](Operation *op) {
    if (isScheduleOp(op))
      steps.push_back(scheduleStep(op, task));
  });
  return steps;
}

bool sameValue(Value a, Value b) {
  if (a == b)
    return true;
  APInt ca, cb;
  return matchPattern(a, m_ConstantInt(&ca)) &&
         matchPattern(b, m_ConstantInt(&cb)) && ca == cb;
}

bool sameDomain(TaskOp a, TaskOp b) {
  DomainLoopOp la = a.getDomainLoop(), lb = b.getDomainLoop();
  if (!la || !lb)
    return !la && !lb;
  return sameValue(la.getLowerBound(), lb.getLowerBound()) &&
         sameValue(la.getUpperBound(), lb.getUpperBound()) &&
         sameValue(la.getStep(), lb.getStep());
}

/// X13 on one named barrier.
bool checkNamedBarrier(KernelOp kernel, NamedBarrierOp barrier,
                       int64_t position) {
  bool ok = true;
  if (position >= kMaxNamedBarriers) {
    barrier.emitOpError()
        << "[X13] is the kernel's named barrier number " << position + 1
        << ", but a CTA has 16 barrier ids and id 0 is the kernel's init "
           "barrier, so at most "
        << kMaxNamedBarriers << " named barriers fit; merge some of them";
    ok = false;
  }
  SmallVector<TaskOp> tasks;
  llvm::StringSet<> seen;
  for (Attribute a : barrier.getTasks()) {
    auto ref = cast<FlatSymbolRefAttr>(a);
    auto task = dyn_cast_or_null<TaskOp>(
        SymbolTable::lookupSymbolIn(kernel, ref.getAttr()));
    if (!task) {
      barrier.emitOpError() << "[X13] lists " << ref
                            << ", which is not a tspipe.task of the kernel";
      ok = false;
      continue;
    }
    if (!seen.insert(ref.getValue()).second) {
      barrier.emitOpError()
          << "[X13] lists task " << ref << " twice; list each task once";
      ok = false;
      continue;
    }
    tasks.push_back(task);
  }
  if (barrier.getTasks().empty()) {
    barrier.emitOpError() << "[X13] lists no task; list the tasks whose "
                             "threads meet at the barrier";
    return false;
  }
  if (!ok)
    return false;

  // Every listed task meets at the barrier, on the same CTAs.
  for (TaskOp task : tasks) {
    if (task.getRunOnlyOnCtaIdAttr() != tasks.front().getRunOnlyOnCtaIdAttr()) {
      barrier.emitOpError()
          << "[X13] tasks '@" << tasks.front().getSymName() << "' and '@"
          << task.getSymName()
          << "' run on different CTAs (cta(...)), so their threads never "
             "meet at one CTA's barrier; list tasks of the same CTAs";
      ok = false;
    }
    bool used = false;
    task.walk([&](Operation *op) {
      auto ref = op->getAttrOfType<FlatSymbolRefAttr>("barrier");
      if (isa<NamedBarrierSyncOp, NamedBarrierArriveOp>(op) && ref &&
          ref.getValue() == barrier.getSymName())
        used = true;
    });
    if (!used) {
      barrier.emitOpError()
          << "[X13] lists task '@" << task.getSymName()
          << "', which never syncs or arrives at it, so the barrier's thread "
             "count ("
          << barrier.getThreadCount()
          << ") is never reached; drop the task from the list or use the "
             "barrier in it";
      ok = false;
    }
  }

  // An arrive-only side in a loop runs a phase ahead of the syncing side.
  for (TaskOp task : tasks)
    task.walk([&](NamedBarrierArriveOp arrive) {
      if (arrive.getBarrier() != barrier.getSymName())
        return;
      for (Operation *p = arrive->getParentOp(); p && p != task;
           p = p->getParentOp())
        if (isa<DomainLoopOp, scf::ForOp, scf::WhileOp, scf::ParallelOp>(p)) {
          arrive.emitOpError()
              << "[X13] arrives at named barrier '@" << barrier.getSymName()
              << "' inside a loop without waiting, so task '@"
              << task.getSymName()
              << "' can arrive for the next iteration before the other "
                 "tasks' sync of this one completed and the barrier counts "
                 "two phases' arrivals as one (a hang: flashinfer PR 4732, "
                 "vllm PR 26026); use tspipe.named_barrier_sync, or hand the "
                 "data through a pipeline";
          ok = false;
          return;
        }
    });
  if (!ok)
    return false;

  // The progress checker does not model named barriers: admit only tasks
  // that reach the barrier the same number of times at the same point of
  // one schedule over one domain.
  SmallVector<std::string> ref = schedule(tasks.front());
  for (TaskOp task : ArrayRef(tasks).drop_front()) {
    if (schedule(task) == ref && sameDomain(task, tasks.front()))
      continue;
    barrier.emitOpError()
        << "[X13] tasks '@" << tasks.front().getSymName() << "' and '@"
        << task.getSymName()
        << "' do not run the same schedule (the same brackets and "
           "named-barrier ops, in the same places, over the same domain "
           "loop bounds); the progress checker does not model named "
           "barriers yet, so only tasks that reach the barrier together by "
           "construction may share one; give them one schedule or "
           "synchronize them through a pipeline";
    ok = false;
  }
  return ok;
}

} // namespace

LogicalResult mlir::tspipe::rules::verifyBarrierRules(KernelOp kernel) {
  bool ok = true;
  for (auto task : kernel.getBody().getOps<TaskOp>())
    ok &= checkCtaWideBarriers(kernel, task);
  int64_t position = 0;
  for (auto barrier : kernel.getBody().getOps<NamedBarrierOp>())
    ok &= checkNamedBarrier(kernel, barrier, position++);
  return success(ok);
}
