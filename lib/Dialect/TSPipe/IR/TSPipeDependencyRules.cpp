//===- TSPipeDependencyRules.cpp - the derived dependency graph (R31, R36) ===//
//
// TS checks its kernels against a resource dependency graph the user
// writes down (R26-R31, R36, R65). tspipe derives the graph from the IR: a
// task that consumes pipeline U and produces pipeline D makes the edge
// U -> D, a task on both sides of one pipeline the ping-pong self-edge.
// Derived, most of TS's graph rules hold by construction (docs/Rules.md,
// D); what is left is checked here:
//
//  * R31: every pipeline a task lists in `produces` (`consumes`) is used
//    by a producer-side (consumer-side) bracket of the task, so that the
//    lists, which the graph is derived from, say what the body does;
//  * R36: on an edge U -> D into a pipeline whose producer is a DMA
//    engine or the MMA (tma_async, tma_umma, umma_async, umma_umma,
//    clc_fetch_async), the release of U's stage comes after every op of
//    the task that reads the stage (an MMA, a copy: an op using an address
//    derived from the stage's tspipe.stage_buffer or tspipe.stage_index);
//    released earlier, the producer of U may refill the stage under the
//    read. (TS asks for D's producer work before each release of U.)
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tspipe;

/// True for the pipeline types whose producer writes the stage with a DMA
/// engine or the tensor cores (TS's R36 set).
static bool hasDmaProducer(PipelineType type) {
  switch (type) {
  case PipelineType::TmaAsync:
  case PipelineType::TmaUmma:
  case PipelineType::UmmaAsync:
  case PipelineType::UmmaUmma:
  case PipelineType::ClcFetchAsync:
    return true;
  default:
    return false;
  }
}

bool mlir::tspipe::rules::hasDmaEdge(TaskOp task, StringRef upstream,
                                     StringRef *downstream) {
  if (!task || !task.consumesPipeline(upstream) || !task.getProduces())
    return false;
  for (Attribute a : *task.getProduces()) {
    auto ref = cast<FlatSymbolRefAttr>(a);
    if (ref.getValue() == upstream)
      continue; // a self-edge (ping-pong): TS's R36 skips it
    PipelineOp d = lookupPipeline(task, ref);
    if (d && hasDmaProducer(d.getConfig().getPipelineType())) {
      if (downstream)
        *downstream = d.getSymName();
      return true;
    }
  }
  return false;
}

/// R31 for one task.
static bool checkListedPipelinesUsed(TaskOp task) {
  llvm::StringSet<> producer, consumer;
  task.walk([&](Operation *op) {
    if (auto cur = dyn_cast<CurrentStageOp>(op)) {
      (cur.getRole() == Role::Producer ? producer : consumer)
          .insert(cur.getPipeline());
      return;
    }
    bool prod = isa<ProducerTryAcquireOp, ProducerAcquireOp, ProducerCommitOp,
                    ProducerTailOp>(op);
    bool cons = isa<ConsumerTryWaitOp, ConsumerWaitOp, ConsumerReleaseOp>(op);
    if (!prod && !cons)
      return;
    for (StringRef pipe : getBracketPipelines(op))
      (prod ? producer : consumer).insert(pipe);
  });
  bool ok = true;
  auto check = [&](std::optional<ArrayAttr> listed, const llvm::StringSet<> &used,
                   StringRef list, StringRef side, StringRef brackets) {
    if (!listed)
      return;
    for (Attribute a : *listed) {
      StringRef pipe = cast<FlatSymbolRefAttr>(a).getValue();
      if (used.contains(pipe))
        continue;
      ok = false;
      task.emitOpError()
          << "[R31] lists '@" << pipe << "' in " << list
          << " but no " << side << " bracket of its body uses it (TS: "
          << "declared but has no entries in the schedule); the dependency "
             "graph is derived from these lists, so remove '@"
          << pipe << "' from " << list << " or add the " << brackets
          << " that use it";
    }
  };
  check(task.getProduces(), producer, "produces", "producer",
        "producer_acquire / producer_commit");
  check(task.getConsumes(), consumer, "consumes", "consumer",
        "consumer_wait / consumer_release");
  return ok;
}

/// The consumer_release that closes the bracket `wait` opens, in its block.
static ConsumerReleaseOp closingRelease(ConsumerWaitOp wait) {
  StringRef pipe = wait.getPipeline();
  for (Operation *op = wait->getNextNode(); op; op = op->getNextNode())
    if (auto rel = dyn_cast<ConsumerReleaseOp>(op))
      if (llvm::is_contained(getBracketPipelines(rel), pipe))
        return rel;
  return {};
}

/// R36 for the stage of one consumer_wait on the upstream end of a DMA
/// edge: no op reads the stage after its release.
static bool checkDmaOrder(ConsumerWaitOp wait, StringRef downstream) {
  ConsumerReleaseOp rel = closingRelease(wait);
  if (!rel)
    return true;
  Block *block = rel->getBlock();
  SmallVector<Value> work;
  for (Operation *user : wait.getStage().getUsers())
    if (isa<StageBufferOp, StageIndexOp>(user))
      work.push_back(user->getResult(0));
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (isMemoryEffectFree(user) && user->getNumRegions() == 0) {
        llvm::append_range(work, user->getResults());
        continue;
      }
      if (isa<scf::YieldOp>(user)) {
        llvm::append_range(work, user->getParentOp()->getResults());
        continue;
      }
      Operation *at = block->findAncestorOpInBlock(*user);
      if (!at || at->isBeforeInBlock(rel))
        continue;
      InFlightDiagnostic diag = rel.emitOpError();
      diag << "[R36] releases the stage of '@" << wait.getPipeline()
           << "' before the '" << user->getName()
           << "' that reads it (on the edge '@" << wait.getPipeline()
           << "' -> '@" << downstream
           << "' this task makes): the producer may refill the stage under "
              "the read; move the consumer_release after the read (for an "
              "MMA, after the tcgen05.mma, so that its tcgen05.commit "
              "tracks it)";
      diag.attachNote(user->getLoc()) << "the read of the stage";
      return false;
    }
  }
  return true;
}

LogicalResult mlir::tspipe::rules::verifyDependencyRules(KernelOp kernel) {
  bool ok = true;
  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    ok &= checkListedPipelinesUsed(task);
    task.walk([&](ConsumerWaitOp wait) {
      StringRef downstream;
      if (hasDmaEdge(task, wait.getPipeline(), &downstream))
        ok &= checkDmaOrder(wait, downstream);
    });
  }
  return success(ok);
}
