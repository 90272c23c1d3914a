//===- TSPipePlacementRules.cpp - tspipe ops where cursors reach (X15) ----===//
//
// The lowering carries each pipeline's cursors through the task, its domain
// loop and the loop guards only, and the progress checker models exactly
// those regions. A bracket (or stage accessor, domain loop, guard) inside
// another op's region (an scf.if, scf.for, scf.while, scf.execute_region)
// would move a cursor the enclosing code does not see: the next bracket of
// the task then addresses the wrong stage or waits for the wrong phase.
// Rule X15 (docs/Rules.md) rejects it when the kernel is verified, so that
// no pass, and no Python build(), accepts such a kernel.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeGuards.h"

using namespace mlir;
using namespace mlir::tspipe;

LogicalResult mlir::tspipe::rules::verifyPlacementRules(KernelOp kernel) {
  bool ok = true;
  for (auto task : kernel.getBody().getOps<TaskOp>())
    task.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == task.getOperation() ||
          !isa_and_nonnull<TSPipeDialect>(op->getDialect()))
        return WalkResult::advance();
      Operation *parent = op->getParentOp();
      if (isa<TaskOp, DomainLoopOp, WorkTileLoopOp, SkippableOp>(parent) ||
          isLoopGuardOp(parent))
        return WalkResult::advance();
      ok = false;
      op->emitOpError() << "[X15] must be a direct child of the task, its "
                           "domain loop or a loop guard (pipeline cursors "
                           "cannot be carried through '"
                        << parent->getName()
                        << "'); move it out of that region (a loop guard, "
                           "tspipe.first_iter or tspipe.last_iter, runs it "
                           "on one iteration)";
      return WalkResult::skip();
    });
  return success(ok);
}
