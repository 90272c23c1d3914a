//===- TSPipeBracketRules.cpp - bracket order and schedule shape ----------===//
//
// Rules on the order of a task's brackets on each pipeline: stage accesses
// sit between the wait and the release (R32) or the acquire and the commit
// (R33) of the same iteration, a try form is followed by its blocking form
// (R34), head and loop producer work (R40, a warning), ping-pong pipelines
// (R65), brackets closed only on a guarded iteration (X8), and pipelines
// that some task uses on one side while no task uses the other (X6).
//
// Like TS, each task's schedule is read as one sequence: its head, its
// domain loop body once (guards included) and its tail, in program order
// (nested regions in pre-order). Stage accessors (tspipe.stage_index,
// full_barrier, empty_barrier, stage_buffer) are the work steps: each reads
// the stage of the bracket that made its handle.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeGuards.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

namespace {

enum class Kind {
  TryAcquire,
  Acquire,
  Commit,
  ProducerWork,
  TryWait,
  Wait,
  Release,
  ConsumerWork
};
enum class Section { Head, Loop, Tail };

struct Event {
  Kind kind;
  Operation *op;
  StringRef pipe;
  Section section;
  bool guarded; // inside a loop guard (TSPipeGuards.h)
  unsigned pos; // index in the task's whole event list
};

/// The events of one task, in schedule order, and per pipeline.
struct TaskEvents {
  SmallVector<Event> all;
  llvm::MapVector<StringRef, SmallVector<Event>> byPipe;
};

/// Where `op` runs relative to the task's domain loop: in it, before it
/// or after it, in the innermost block around the loop that holds `op` (a
/// persistent task's loop sits in its work_tile_loop, or a skippable of
/// it: the tile's steps around the loop are its head and tail).
Section sectionOf(Operation *op, DomainLoopOp loop) {
  if (!loop)
    return Section::Head;
  if (loop->isAncestor(op))
    return Section::Loop;
  for (Operation *l = loop; l && l->getBlock(); l = l->getParentOp())
    if (Operation *a = l->getBlock()->findAncestorOpInBlock(*op))
      return a->isBeforeInBlock(l) ? Section::Head : Section::Tail;
  return Section::Head;
}

TaskEvents collectEvents(TaskOp task) {
  TaskEvents ev;
  DomainLoopOp loop = task.getDomainLoop();
  for (Operation &top : task.getBody().front()) {
    top.walk<WalkOrder::PreOrder>([&](Operation *op) {
      Section section = sectionOf(op, loop);
      std::optional<Kind> kind;
      SmallVector<StringRef, 4> pipes;
      if (isa<StageIndexOp, FullBarrierOp, EmptyBarrierOp, StageBufferOp>(op)) {
        bool producer = false;
        PipelineOp p = stagePipeline(op->getOperand(0), producer);
        if (!p)
          return;
        pipes.push_back(p.getSymName());
        kind = producer ? Kind::ProducerWork : Kind::ConsumerWork;
      } else if (op->getAttrOfType<FlatSymbolRefAttr>("pipeline")) {
        // A group-level bracket is an event on every member.
        pipes = getBracketPipelines(op);
        kind = llvm::TypeSwitch<Operation *, std::optional<Kind>>(op)
                   .Case([](ProducerTryAcquireOp) { return Kind::TryAcquire; })
                   .Case([](ProducerAcquireOp) { return Kind::Acquire; })
                   .Case([](ProducerCommitOp) { return Kind::Commit; })
                   .Case([](ConsumerTryWaitOp) { return Kind::TryWait; })
                   .Case([](ConsumerWaitOp) { return Kind::Wait; })
                   .Case([](ConsumerReleaseOp) { return Kind::Release; })
                   .Default([](Operation *) { return std::nullopt; });
      }
      if (!kind)
        return;
      bool guarded = getLoopGuard(op).isGuarded();
      for (StringRef pipe : pipes) {
        Event e{*kind,   op,      pipe,
                section, guarded, static_cast<unsigned>(ev.all.size())};
        ev.all.push_back(e);
        ev.byPipe[pipe].push_back(e);
      }
    });
  }
  return ev;
}

/// Pipelines fed from each pipeline: an edge U -> D for every task that
/// uses U on the consumer side and D on the producer side (TS's resource
/// dependency graph, derived from the IR).
using Graph = llvm::StringMap<llvm::SetVector<StringRef>>;

Graph buildGraph(KernelOp kernel, const KernelUses &uses) {
  // Per task, the pipelines it consumes and produces.
  llvm::MapVector<Operation *,
                  std::pair<SmallVector<StringRef>, SmallVector<StringRef>>>
      sides;
  for (auto pipe : kernel.getBody().getOps<PipelineOp>())
    for (const TaskUse &u : uses.of(pipe.getSymName())) {
      auto &[consumed, produced] = sides[u.task];
      if (u.consumerSide())
        consumed.push_back(pipe.getSymName());
      if (u.producerSide())
        produced.push_back(pipe.getSymName());
    }
  Graph g;
  for (auto &[task, lists] : sides)
    for (StringRef u : lists.first)
      for (StringRef d : lists.second)
        if (u != d)
          g[u].insert(d);
  return g;
}

bool isDownstream(const Graph &g, StringRef from, StringRef to) {
  llvm::SetVector<StringRef> seen;
  SmallVector<StringRef> stack{from};
  while (!stack.empty()) {
    StringRef cur = stack.pop_back_val();
    auto it = g.find(cur);
    if (it == g.end())
      continue;
    for (StringRef next : it->second) {
      if (next == to)
        return true;
      if (seen.insert(next))
        stack.push_back(next);
    }
  }
  return false;
}

/// True when the domain loop of `task` runs at least once (constant bounds).
bool runsAtLeastOnce(TaskOp task) {
  DomainLoopOp loop = task.getDomainLoop();
  APInt lb, ub, step;
  return loop && matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) &&
         matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) &&
         matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
         step.isStrictlyPositive() && lb.slt(ub);
}

/// One side of a pipeline, as the bracket walk sees it.
struct Side {
  const char *rule;       // R32 / R33
  Kind open, close, work; // wait/release/consumer work, acquire/commit/...
  Kind probe;             // try_wait / try_acquire
  const char *openName, *closeName, *flag;
  bool split; // advance_on_wait / advance_on_acquire
};

class BracketChecker {
public:
  BracketChecker(KernelOp kernel, const KernelUses &uses)
      : kernel(kernel), uses(uses), graph(buildGraph(kernel, uses)) {
    for (auto pipe : kernel.getBody().getOps<PipelineOp>())
      pipes[pipe.getSymName()] = pipe;
  }

  bool run() {
    for (auto task : kernel.getBody().getOps<TaskOp>()) {
      TaskEvents ev = collectEvents(task);
      for (auto &[name, events] : ev.byPipe) {
        PipelineOp pipe = pipes.lookup(name);
        if (!pipe)
          continue;
        PipelineConfigAttr cfg = pipe.getConfig();
        Side consumer{"R32",
                      Kind::Wait,
                      Kind::Release,
                      Kind::ConsumerWork,
                      Kind::TryWait,
                      "tspipe.consumer_wait",
                      "tspipe.consumer_release",
                      "advance_on_wait",
                      cfg.getAdvanceOnWait()};
        Side producer{"R33",
                      Kind::Acquire,
                      Kind::Commit,
                      Kind::ProducerWork,
                      Kind::TryAcquire,
                      "tspipe.producer_acquire",
                      "tspipe.producer_commit",
                      "advance_on_acquire",
                      cfg.getAdvanceOnAcquire()};
        checkSide(task, pipe, ev, events, consumer);
        checkSide(task, pipe, ev, events, producer);
        checkHeadAndLoopWork(pipe, events);
      }
    }
    for (auto &[name, pipe] : pipes)
      checkBothSides(pipe);
    return ok;
  }

private:
  /// R32 / R33 (and R34, X8) for one side of `pipe` in `task`.
  void checkSide(TaskOp task, PipelineOp pipe, const TaskEvents &ev,
                 ArrayRef<Event> events, const Side &s) {
    StringRef name = pipe.getSymName();
    bool hasOpen =
        llvm::any_of(events, [&](const Event &e) { return e.kind == s.open; });
    bool hasClose =
        llvm::any_of(events, [&](const Event &e) { return e.kind == s.close; });
    // R34: a probe is followed by its blocking form.
    for (auto [i, e] : llvm::enumerate(events))
      if (e.kind == s.probe &&
          llvm::none_of(events.drop_front(i + 1),
                        [&](const Event &l) { return l.kind == s.open; }))
        fail(e.op) << "[R34] probes '@" << name << "' but no later "
                   << s.openName
                   << " of this task follows it; add the blocking "
                   << s.openName << " @" << name
                   << " (pass the probe as its ready operand)";

    bool producerSide = s.open == Kind::Acquire;
    if (!hasOpen) {
      // A split side: the other bracket is in another task. The producer
      // side needs its own commit cursor for that (advance_on_acquire); the
      // consumer side gets advance_on_wait from the normalizing pass (R66).
      if (producerSide && hasClose && !s.split)
        fail(llvm::find_if(events,
                           [&](const Event &e) { return e.kind == s.close; })
                 ->op)
            << "[R33] commits '@" << name
            << "' in a task that never acquires it, but the pipeline has no "
               "advance_on_acquire (separate commit cursor); acquire in this "
               "task, or set advance_on_acquire = true";
      // Work with no bracket of its own needs the wait (acquire) of a
      // pipeline fed from this one earlier in the task (TS's proxy).
      for (const Event &e : events) {
        if (e.kind != s.work)
          continue;
        bool proxied = llvm::any_of(ev.all, [&](const Event &p) {
          return p.pos < e.pos && p.kind == s.open &&
                 isDownstream(graph, name, p.pipe);
        });
        if (!proxied)
          fail(e.op) << "[" << s.rule << "] accesses a stage of '@" << name
                     << "' in a task that has no " << s.openName
                     << " on it and no earlier one on a pipeline fed from "
                        "it; add "
                     << s.openName << " @" << name << " before the access";
      }
      return;
    }
    if (producerSide && !hasClose && !s.split) {
      auto first = llvm::find_if(
          events, [&](const Event &e) { return e.kind == s.open; });
      fail(first->op) << "[R33] acquires '@" << name
                      << "' but the task never commits it, so the stage is "
                         "never filled and the acquire of the next round "
                         "waits on it; add tspipe.producer_commit @"
                      << name
                      << " after the producer work (or set "
                         "advance_on_acquire = true and commit in another "
                         "task)";
      return;
    }

    if (s.split) {
      // Counted brackets: opens and closes need not nest.
      int64_t opens = 0, closes = 0;
      bool worked = false;
      for (const Event &e : events) {
        if (e.kind == s.open) {
          ++opens;
        } else if (e.kind == s.work) {
          worked = true;
          if (opens <= closes)
            fail(e.op) << "[" << s.rule << "] accesses a stage of '@" << name
                       << "' when every " << s.openName
                       << " before it is already closed; move the access "
                          "after a "
                       << s.openName;
        } else if (e.kind == s.close) {
          if (opens <= closes)
            fail(e.op) << "[" << s.rule << "] " << s.closeName << " @" << name
                       << " comes before the " << s.openName
                       << " it closes; move it after that " << s.openName;
          else
            ++closes;
        }
      }
      if (hasClose && worked && opens > closes)
        fail(events.back().op)
            << "[" << s.rule << "] the task opens '@" << name << "' " << opens
            << " time(s) but closes it " << closes
            << " time(s); add the missing " << s.closeName;
      return;
    }

    // Nested brackets: open, work, close.
    const Event *open = nullptr;
    bool runsOnce = runsAtLeastOnce(task);
    for (const Event &e : events) {
      if (e.kind == s.open) {
        if (open && producerSide)
          fail(e.op) << "[R33] acquires '@" << name
                     << "' again before committing the stage it acquired "
                        "last; add tspipe.producer_commit @"
                     << name << " between the two acquires";
        open = &e;
      } else if (e.kind == s.work) {
        if (!open)
          fail(e.op) << "[" << s.rule << "] accesses a stage of '@" << name
                     << "' outside a " << s.openName << " ... " << s.closeName
                     << " bracket of this iteration; move "
                     << "the access after " << s.openName << " @" << name
                     << (hasClose ? std::string(" and before ") + s.closeName
                                  : std::string());
      } else if (e.kind == s.close) {
        if (!open) {
          fail(e.op) << "[" << s.rule << "] " << s.closeName << " @" << name
                     << " is not preceded by a " << s.openName
                     << " of this iteration; " << s.openName
                     << " first, or move the " << s.closeName << " after it";
          continue;
        }
        // X8: a bracket opened in the head and closed only on a guarded
        // iteration stays open when the domain is empty.
        if (open->section == Section::Head && e.guarded && !runsOnce)
          fail(e.op) << "[X8] closes the " << s.openName << " @" << name
                     << " of the task head only on a guarded iteration; "
                        "with an empty domain it never runs and the stage "
                        "stays "
                     << (producerSide ? "acquired" : "held")
                     << "; move it to the task tail (after the domain loop)";
        open = nullptr;
      }
    }
    if (open && hasClose)
      fail(open->op) << "[" << s.rule << "] " << s.openName << " @" << name
                     << " is not followed by a " << s.closeName
                     << "; add it after the work on the stage";
  }

  /// R40 (warning): producer work on one pipeline in both the head and the
  /// loop of a task (both see iteration 0 of the domain).
  void checkHeadAndLoopWork(PipelineOp pipe, ArrayRef<Event> events) {
    auto isWork = [](Section sec) {
      return [sec](const Event &e) {
        return e.kind == Kind::ProducerWork && e.section == sec;
      };
    };
    auto loopWork = llvm::find_if(events, isWork(Section::Loop));
    if (loopWork == events.end() ||
        llvm::none_of(events, isWork(Section::Head)))
      return;
    // mlir::emitWarning, not Operation::emitWarning: the latter appends the
    // op printed in custom form, which verifies the op again and re-enters
    // this verifier without end (a stack overflow without
    // -verify-diagnostics).
    mlir::emitWarning(loopWork->op->getLoc())
        << "[R40] producer work on '@" << pipe.getSymName()
        << "' both in the task head and in its domain loop; both see "
           "iteration 0 of the domain";
  }

  /// R65: one task on both sides (ping-pong) needs a synchronous
  /// consumer. (A pipeline used on one side only is X6, TSPipeCopyRules.cpp.)
  void checkBothSides(PipelineOp pipe) {
    ArrayRef<TaskUse> uses = this->uses.of(pipe.getSymName());
    PipelineType type = pipe.getConfig().getPipelineType();
    bool pingPong = getPipelineTypeFacts(type).pingPong;
    for (const TaskUse &u : uses)
      if (!pingPong && u.producerSide() && u.consumerSide())
        fail(u.task) << "[R65] uses '@" << pipe.getSymName()
                     << "' on both sides (ping-pong), which needs a "
                        "synchronous (thread) consumer, but its type "
                     << stringifyPipelineType(type)
                     << " is consumed by tcgen05; use async_async, "
                        "tma_async or umma_async for a ping-pong buffer";
  }

  InFlightDiagnostic fail(Operation *op) {
    ok = false;
    return op->emitOpError();
  }

  KernelOp kernel;
  const KernelUses &uses;
  Graph graph;
  llvm::MapVector<StringRef, PipelineOp> pipes;
  bool ok = true;
};

} // namespace

LogicalResult rules::verifyBracketRules(KernelOp kernel,
                                        const KernelUses &uses) {
  return success(BracketChecker(kernel, uses).run());
}
