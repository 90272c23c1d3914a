//===- TSPipePdlRules.cpp - programmatic dependent launch rules -----------===//
//
// The rules of a kernel launched after another grid with programmatic
// dependent launch (docs/Rules.md):
//  - R37 (TS): a task that produces a pipeline the kernel attribute
//    `tspipe.pdl_pipelines` lists (TS's dependency edge from a
//    PdlWaitBarrier to the resource) runs tspipe.pdl_wait before its first
//    bracket on that pipeline, in schedule order.
//  - X20: every access, in any task and any role, of a kernel argument
//    marked `tspipe.pdl_input` (memory the previous grid writes), or of an
//    address computed from one, is dominated by a tspipe.pdl_wait of its
//    task. TS's R37 follows the dependency graph only, so a task that reads
//    the previous grid's output without being on such an edge (an MMA warp
//    that loads scales, a scheduler that reads tile counts) passes TS and
//    reads stale data on the GPU (Dao-AILab quack issue 206; flash-attention
//    PR 2481).
//  - X21: the PDL ops sit in a task; `tspipe.pdl_input` marks pointer
//    arguments of the kernel function; `tspipe.pdl_pipelines` names
//    pipelines of the kernel.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tspipe;

static constexpr StringLiteral kPdlInputAttr = "tspipe.pdl_input";
static constexpr StringLiteral kPdlPipelinesAttr = "tspipe.pdl_pipelines";

//===----------------------------------------------------------------------===//
// Op verifiers (X21)
//===----------------------------------------------------------------------===//

static LogicalResult verifyPdlPlacement(Operation *op, StringRef what) {
  if (op->getParentOfType<TaskOp>())
    return success();
  return op->emitOpError()
         << "[X21] must be inside a tspipe.task: " << what
         << " is executed by the threads of a task; put it in the task "
            "whose threads "
         << (isa<PdlWaitOp>(op) ? "read the previous grid's output"
                                : "finished the writes the next grid reads");
}

LogicalResult PdlWaitOp::verify() {
  return verifyPdlPlacement(*this, "griddepcontrol.wait");
}

LogicalResult PdlLaunchDependentsOp::verify() {
  return verifyPdlPlacement(*this, "griddepcontrol.launch_dependents");
}

//===----------------------------------------------------------------------===//
// Kernel rules
//===----------------------------------------------------------------------===//

namespace {

/// Values computed from PDL inputs without touching memory (addresses), and
/// the ops that touch memory through one of them.
struct PdlAccesses {
  /// Access op -> the PDL input argument it reaches back to.
  llvm::MapVector<Operation *, BlockArgument> accesses;
};

/// Follows the PDL inputs of `func` through memory-effect-free ops
/// (getelementptr, casts, integer arithmetic); every other user of such a
/// value accesses the input's memory.
PdlAccesses findAccesses(FunctionOpInterface func,
                         ArrayRef<BlockArgument> inputs) {
  PdlAccesses out;
  for (BlockArgument input : inputs) {
    llvm::SetVector<Value> seen;
    SmallVector<Value> work{input};
    seen.insert(input);
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (user->getNumRegions() == 0 && isMemoryEffectFree(user)) {
          for (Value r : user->getResults())
            if (seen.insert(r))
              work.push_back(r);
          continue;
        }
        out.accesses.insert({user, input});
      }
    }
  }
  return out;
}

std::string argName(FunctionOpInterface func, BlockArgument arg) {
  return "argument " + std::to_string(arg.getArgNumber()) + " of @" +
         func.getName().str();
}

class PdlChecker {
public:
  explicit PdlChecker(KernelOp kernel) : kernel(kernel) {}

  bool run() {
    checkInputs();
    checkPipelines();
    return ok;
  }

private:
  /// X21 on `tspipe.pdl_input`, then X20.
  void checkInputs() {
    auto func = dyn_cast_or_null<FunctionOpInterface>(kernel->getParentOp());
    if (!func || func.isExternal())
      return;
    SmallVector<BlockArgument> inputs;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      Attribute a = func.getArgAttr(i, kPdlInputAttr);
      if (!a)
        continue;
      BlockArgument arg = func.getArgument(i);
      if (!isa<UnitAttr>(a)) {
        fail(func) << "[X21] " << kPdlInputAttr << " on "
                   << argName(func, arg)
                   << " must be a unit attribute (it marks memory the "
                      "previous grid writes), got "
                   << a;
        continue;
      }
      if (!isa<LLVM::LLVMPointerType, BaseMemRefType>(arg.getType())) {
        fail(func) << "[X21] " << kPdlInputAttr << " marks "
                   << argName(func, arg) << " of type " << arg.getType()
                   << "; it marks memory the previous grid writes, so it "
                      "belongs on a pointer (or memref) argument";
        continue;
      }
      inputs.push_back(arg);
    }
    if (inputs.empty())
      return;
    PdlAccesses acc = findAccesses(func, inputs);
    DominanceInfo dom(func);
    // One report per task (and one for the code outside the tasks).
    llvm::MapVector<Operation *, SmallVector<Operation *>> missing;
    for (auto &[op, input] : acc.accesses) {
      auto task = op->getParentOfType<TaskOp>();
      if (!task || task->getParentOp() != kernel.getOperation()) {
        // Not in a task of this kernel: no tspipe.pdl_wait can run before.
        missing[nullptr].push_back(op);
        continue;
      }
      bool waited = false;
      task.walk([&](PdlWaitOp w) {
        if (!waited && dom.properlyDominates(w.getOperation(), op))
          waited = true;
      });
      if (!waited)
        missing[task.getOperation()].push_back(op);
    }
    for (auto &[taskOp, ops] : missing) {
      Operation *first = ops.front();
      BlockArgument input = acc.accesses.lookup(first);
      std::string more =
          ops.size() > 1
              ? " (and " + std::to_string(ops.size() - 1) + " more access" +
                    (ops.size() > 2 ? "es" : "") + ")"
              : std::string();
      if (!taskOp) {
        fail(first) << "[X20] accesses " << argName(func, input)
                    << ", which the previous grid writes (" << kPdlInputAttr
                    << "), outside every task, where no tspipe.pdl_wait can "
                       "precede it"
                    << more
                    << "; move the access into a task, after its "
                       "tspipe.pdl_wait";
        continue;
      }
      auto task = cast<TaskOp>(taskOp);
      SmallVector<PdlWaitOp> waits;
      task.walk([&](PdlWaitOp w) { waits.push_back(w); });
      InFlightDiagnostic diag =
          fail(first)
          << "[X20] accesses " << argName(func, input)
          << ", which the previous grid writes (" << kPdlInputAttr
          << "), but no tspipe.pdl_wait of task '@" << task.getSymName()
          << "' dominates it" << more
          << "; every task that touches the previous grid's output must "
             "wait for that grid itself, whatever its role (the waits of "
             "other tasks do not order this task's accesses): add "
             "tspipe.pdl_wait at the start of @"
          << task.getSymName();
      for (PdlWaitOp w : waits)
        diag.attachNote(w.getLoc())
            << "this tspipe.pdl_wait does not run before the access on "
               "every path (it is in a guard, a branch or after it)";
    }
  }

  /// X21 on `tspipe.pdl_pipelines`, then R37.
  void checkPipelines() {
    Attribute attr = kernel->getAttr(kPdlPipelinesAttr);
    if (!attr)
      return;
    auto list = dyn_cast<ArrayAttr>(attr);
    SmallVector<StringRef> names;
    if (list)
      for (Attribute a : list) {
        auto ref = dyn_cast<FlatSymbolRefAttr>(a);
        if (!ref) {
          list = nullptr;
          break;
        }
        names.push_back(ref.getValue());
      }
    if (!list) {
      fail(kernel) << "[X21] " << kPdlPipelinesAttr
                   << " must be a list of pipeline symbols ([@a, @b]), got "
                   << attr;
      return;
    }
    llvm::StringSet<> pipes;
    for (auto p : kernel.getBody().getOps<PipelineOp>())
      pipes.insert(p.getSymName());
    for (auto group : kernel.getBody().getOps<PipelineGroupOp>())
      pipes.insert(group.getSymName());
    for (StringRef n : names)
      if (!pipes.contains(n))
        fail(kernel) << "[X21] " << kPdlPipelinesAttr << " names '@" << n
                     << "', which is no pipeline of this kernel";
    for (auto task : kernel.getBody().getOps<TaskOp>())
      for (StringRef n : names)
        if (task.producesPipeline(n))
          checkR37(task, n);
  }

  /// R37: in schedule order (pre-order), the first tspipe.pdl_wait of
  /// `task` precedes its first bracket or stage access on `pipe`.
  void checkR37(TaskOp task, StringRef pipe) {
    Operation *firstUse = nullptr;
    bool waited = false;
    task.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<PdlWaitOp>(op)) {
        waited = true;
        return WalkResult::advance();
      }
      bool uses = false;
      if (isa<StageIndexOp, FullBarrierOp, EmptyBarrierOp, StageBufferOp>(
              op)) {
        bool producer;
        PipelineOp p = rules::stagePipeline(op->getOperand(0), producer);
        uses = p && p.getSymName() == pipe;
      } else if (op->getAttrOfType<FlatSymbolRefAttr>("pipeline")) {
        uses = llvm::is_contained(getBracketPipelines(op), pipe);
      }
      if (!uses)
        return WalkResult::advance();
      firstUse = op;
      return WalkResult::interrupt();
    });
    if (!firstUse || waited)
      return;
    fail(firstUse) << "[R37] task '@" << task.getSymName() << "' uses '@"
                   << pipe << "', which " << kPdlPipelinesAttr
                   << " lists as fed by the previous grid, before waiting "
                      "for that grid; add tspipe.pdl_wait before the "
                      "task's first bracket on '@"
                   << pipe << "'";
  }

  InFlightDiagnostic fail(Operation *op) {
    ok = false;
    return op->emitOpError();
  }

  KernelOp kernel;
  bool ok = true;
};

} // namespace

LogicalResult rules::verifyPdlRules(KernelOp kernel) {
  return success(PdlChecker(kernel).run());
}
