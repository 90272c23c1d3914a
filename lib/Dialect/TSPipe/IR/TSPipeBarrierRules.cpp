//===- TSPipeBarrierRules.cpp - CTA, cluster and named barriers in tasks --===//
//
// A task runs on a warp range of the CTA, so a barrier that waits for every
// thread of the CTA (or of the cluster) inside a task that does not span
// it never completes (rule X12; NVIDIA/Fuser PR 4187, triton PRs 9456,
// 9786). The tool for synchronizing some tasks is tspipe.named_barrier,
// whose id and thread count tspipe allocates (rule X13). Whether the listed
// tasks meet at every phase (an arrive-only side that runs a phase ahead
// hangs: flashinfer PR 4732, vllm PR 26026) is decided by the progress
// checker, which models each barrier's phases (rule X30).
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
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

  // Where the listed tasks meet is the progress checker's to decide: it
  // models each barrier's phases (Analysis/NamedBarriers.cpp, rule X30).
  // It can place every use in a schedule, since X15 keeps the uses where
  // the brackets are: in the task, its domain loop or a loop guard.
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
