//===- TSPipeWorkQueueRules.cpp - work queues across a kernel -------------===//
//
// The rules of persistent kernels that relate tasks to each other and to
// the kernel's work queue (ts-semantics 3 C/D, 4.1):
//
//   R22  a persistent task's body is its work_tile_loop and nothing of
//        tspipe beside it but the PDL points, which run once before and
//        after the persistent loop (TS: only auxiliary steps and barrier
//        resources around the loop).
//   R35  one work queue per kernel, walked by every task or by none; a CLC
//        queue names a clc_fetch_async pipeline that exactly one scheduler
//        task produces (and nothing else) and every task consumes; the
//        queue's steps sit in each tile's tail, in TS's order:
//          data task:  [try_wait] wait, advance, release
//          scheduler:  [try_acquire] acquire, fetch, commit,
//                      [try_wait] wait, advance, release
//        and a static queue's tail has the advance alone.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

/// The queue steps of one tile body, in order, as one-letter codes:
/// t try_acquire, a acquire, f fetch, c commit, y try_wait, w wait,
/// x advance, r release.
std::string queueSteps(WorkTileLoopOp loop, StringRef clcPipe,
                       Operation *&misplaced) {
  std::string steps;
  bool afterDomain = false;
  misplaced = nullptr;
  for (Operation &op : loop.getBody().front()) {
    if (isa<DomainLoopOp, SkippableOp>(op)) {
      bool holdsDomain = isa<DomainLoopOp>(op) ||
                         !op.getRegion(0).getOps<DomainLoopOp>().empty();
      afterDomain |= holdsDomain;
      // No queue step inside the domain loop or a skippable (R22 e, R35).
      op.walk([&](Operation *inner) {
        auto ref = inner->getAttrOfType<FlatSymbolRefAttr>("pipeline");
        if (!misplaced && ((ref && ref.getValue() == clcPipe) ||
                           isa<FetchWorkTileOp>(inner)))
          misplaced = inner;
      });
      continue;
    }
    char code = 0;
    auto ref = op.getAttrOfType<FlatSymbolRefAttr>("pipeline");
    if (isa<AdvanceWorkTileOp>(op))
      code = 'x';
    else if (isa<FetchWorkTileOp>(op))
      code = 'f';
    else if (ref && !clcPipe.empty() && ref.getValue() == clcPipe)
      code = isa<ProducerTryAcquireOp>(op)  ? 't'
             : isa<ProducerAcquireOp>(op)   ? 'a'
             : isa<ProducerCommitOp>(op)    ? 'c'
             : isa<ConsumerTryWaitOp>(op)   ? 'y'
             : isa<ConsumerWaitOp>(op)      ? 'w'
             : isa<ConsumerReleaseOp>(op)   ? 'r'
                                            : 0;
    if (!code)
      continue;
    if (!afterDomain && !misplaced)
      misplaced = &op;
    steps.push_back(code);
  }
  return steps;
}

/// TS spells of the step codes, for diagnostics.
std::string spell(StringRef steps) {
  std::string out;
  for (char c : steps) {
    if (!out.empty())
      out += ", ";
    switch (c) {
    case 't': out += "producer_try_acquire"; break;
    case 'a': out += "producer_acquire"; break;
    case 'f': out += "fetch_work_tile"; break;
    case 'c': out += "producer_commit"; break;
    case 'y': out += "consumer_try_wait"; break;
    case 'w': out += "consumer_wait"; break;
    case 'x': out += "advance_work_tile"; break;
    case 'r': out += "consumer_release"; break;
    }
  }
  return out.empty() ? "nothing" : out;
}

bool matchesOrder(StringRef steps, bool clc, bool scheduler) {
  if (!clc)
    return steps == "x";
  std::string s = steps.str();
  auto dropOptional = [&](char c, size_t at) {
    if (at < s.size() && s[at] == c)
      s.erase(at, 1);
  };
  if (scheduler) {
    dropOptional('t', 0);
    dropOptional('y', 3);
    return s == "afcwxr";
  }
  dropOptional('y', 0);
  return s == "wxr";
}

} // namespace

LogicalResult rules::verifyWorkQueueRules(KernelOp kernel) {
  bool ok = true;
  SmallVector<WorkQueueOp> queues(kernel.getBody().getOps<WorkQueueOp>());
  SmallVector<TaskOp> tasks(kernel.getBody().getOps<TaskOp>());

  // R22 (a): the tile loop is the task's whole schedule.
  SmallVector<TaskOp> persistent, plain;
  for (TaskOp task : tasks) {
    unsigned loops = 0;
    for (Operation &op : task.getBody().front()) {
      if (isa<WorkTileLoopOp>(op)) {
        if (++loops == 2) {
          ok = false;
          op.emitOpError() << "[R22] task '@" << task.getSymName()
                           << "' has a second work_tile_loop; a task walks "
                              "its tiles with one loop: merge them";
        }
      }
    }
    (loops ? persistent : plain).push_back(task);
    if (!loops)
      continue;
    // PDL points run once per CTA wherever they are: before the tile loop
    // (TS's pre-loop head) or after it (post-loop tail) as well as inside.
    for (Operation &op : task.getBody().front())
      if (!isa<WorkTileLoopOp, PdlWaitOp, PdlLaunchDependentsOp>(op) &&
          isa_and_nonnull<TSPipeDialect>(op.getDialect())) {
        ok = false;
        op.emitOpError() << "[R22] only auxiliary work may surround the "
                            "work_tile_loop of task '@"
                         << task.getSymName()
                         << "' (this runs once, outside every tile); move it "
                            "into the tile loop's body";
        break;
      }
  }
  if (queues.empty())
    return success(ok); // a tile loop's unresolved queue is R19's

  // R35: one queue, shared by every task.
  if (queues.size() > 1) {
    ok = false;
    queues[1].emitOpError()
        << "[R35] a kernel has one work queue, but '@"
        << queues[0].getSymName() << "' is declared already; let every "
        << "task walk '@" << queues[0].getSymName() << "'";
  }
  WorkQueueOp queue = queues.front();
  if (persistent.empty()) {
    ok = false;
    queue.emitOpError() << "[R35] no task walks work queue '@"
                        << queue.getSymName()
                        << "'; give every task a tspipe.work_tile_loop @"
                        << queue.getSymName() << " or drop the queue";
    return success(ok);
  }
  if (!plain.empty()) {
    ok = false;
    plain.front().emitOpError()
        << "[R35] every task of a persistent kernel walks the tiles, but "
        << "task '@" << plain.front().getSymName()
        << "' has no work_tile_loop (tasks " << rules::taskList(persistent)
        << " have one); wrap its schedule in tspipe.work_tile_loop @"
        << queue.getSymName();
  }

  // R35: the CLC queue's pipeline and its scheduler task.
  StringRef clcPipe;
  TaskOp scheduler;
  if (queue.isClc()) {
    clcPipe = queue.getClcPipelineAttr().getValue();
    PipelineOp pipe = queue.getClcPipelineOp();
    if (!pipe || pipe.getConfig().getPipelineType() !=
                     PipelineType::ClcFetchAsync) {
      queue.emitOpError() << "[R35] clc(@" << clcPipe
                          << ") must name a clc_fetch_async pipeline of the "
                             "kernel (the try_cancel responses); declare "
                             "one with num_bytes = 16";
      return failure();
    }
    // The responses live in the pipeline's data buffer, one 16-byte record
    // per stage (fetch_work_tile writes it, advance_work_tile reads it).
    int64_t want = 16 * pipe.getConfig().getNumStages();
    std::optional<uint64_t> have = pipe.getSmemBytes();
    if (!have || static_cast<int64_t>(*have) != want) {
      ok = false;
      pipe.emitOpError() << "[R35] the pipeline of CLC work queue '@"
                         << queue.getSymName()
                         << "' holds one 16-byte try_cancel response per "
                            "stage: it needs smem_bytes("
                         << want << "), got "
                         << (have ? std::to_string(*have) : "none")
                         << "; write smem_bytes(" << want << ")";
    }
    SmallVector<TaskOp> producers;
    for (TaskOp task : tasks)
      if (task.producesPipeline(clcPipe))
        producers.push_back(task);
    if (producers.size() != 1) {
      ok = false;
      queue.emitOpError() << "[R35] a CLC work queue has exactly one "
                             "scheduler task producing '@"
                          << clcPipe << "', found " << producers.size()
                          << (producers.empty()
                                  ? "; add a one-warp task that produces it"
                                  : " (" + rules::taskList(producers) +
                                        "); keep one");
    } else {
      scheduler = producers.front();
      if (scheduler.getProducesAttr().size() != 1) {
        ok = false;
        scheduler.emitOpError()
            << "[R35] the scheduler task of CLC work queue '@"
            << queue.getSymName() << "' produces only '@" << clcPipe
            << "' (TS: its dst_resources are the WorkQueue alone); move the "
               "other produced pipelines to another task";
      }
    }
  }

  // R35: every tile loop walks the queue, with the queue's steps in order
  // in the tile's tail.
  for (TaskOp task : persistent) {
    WorkTileLoopOp loop = getWorkTileLoop(task);
    if (loop.getQueueAttr().getValue() != queue.getSymName())
      continue; // R19 / the second queue are reported
    Operation *misplaced = nullptr;
    std::string steps = queueSteps(loop, clcPipe, misplaced);
    bool isScheduler = scheduler && task == scheduler;
    if (misplaced) {
      ok = false;
      misplaced->emitOpError()
          << "[R35] the work queue's steps belong to the tile's tail, after "
             "the domain loop and outside tspipe.skippable (every tile is "
             "fetched and released, skipped or not); move it there";
      continue;
    }
    if (!matchesOrder(steps, queue.isClc(), isScheduler)) {
      ok = false;
      std::string want =
          !queue.isClc() ? "advance_work_tile"
          : isScheduler
              ? "[producer_try_acquire] producer_acquire, fetch_work_tile, "
                "producer_commit, [consumer_try_wait] consumer_wait, "
                "advance_work_tile, consumer_release"
              : "[consumer_try_wait] consumer_wait, advance_work_tile, "
                "consumer_release";
      loop.emitOpError() << "[R35] the tail of task '@" << task.getSymName()
                         << "' ends each tile with " << spell(steps)
                         << " on work queue '@" << queue.getSymName()
                         << "'; expected " << want
                         << (queue.isClc() ? " on @" + clcPipe.str() : "");
    }
  }
  return success(ok);
}
