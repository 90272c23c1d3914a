//===- TSPipeLoopState.cpp - values carried by a domain loop (X26) --------===//
//
// A `tspipe.domain_loop` carries task-local state through `iter_args`: the
// body's block arguments after the iteration, the `tspipe.yield` that ends
// the body and the op's results. Rule X26 keeps the three in step (one
// block argument, one yield operand and one result per initial value, each
// of the initial value's type) and keeps stage handles and bracket tokens
// out of the carried state (the lowering maps each of them to the cursor of
// the bracket that made it, which a later iteration no longer names).
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

using namespace mlir;
using namespace mlir::tspipe;

LogicalResult rules::verifyCarriedState(DomainLoopOp loop) {
  Block &body = loop.getBody().front();
  unsigned n = loop.getInitArgs().size();
  if (body.getNumArguments() != n + 1)
    return loop.emitOpError()
           << "[X26] body has " << body.getNumArguments() - 1
           << " carried block arguments after the iteration but " << n
           << " initial values; give one iter_args entry per carried value";
  if (loop.getNumResults() != n)
    return loop.emitOpError()
           << "[X26] has " << loop.getNumResults() << " results but carries "
           << n << " values; the results are the carried values after the "
              "last iteration";
  for (unsigned i = 0; i < n; ++i) {
    Type init = loop.getInitArgs()[i].getType();
    if (body.getArgument(i + 1).getType() != init ||
        loop.getResult(i).getType() != init)
      return loop.emitOpError()
             << "[X26] carried value #" << i << " starts as " << init
             << " but its block argument is "
             << body.getArgument(i + 1).getType() << " and its result "
             << loop.getResult(i).getType() << "; use one type for all three";
    if (isa<TSPipeDialect>(init.getDialect()))
      return loop.emitOpError()
             << "[X26] carried value #" << i << " is a " << init
             << ": stage handles and bracket tokens belong to one bracket "
                "and cannot be carried into the next iteration; carry the "
                "data read through the stage instead";
  }
  YieldOp yield = loop.getYield();
  if (!yield) {
    if (n == 0)
      return success();
    return loop.emitOpError()
           << "[X26] carries " << n
           << " values but its body does not end with tspipe.yield; end it "
              "with `tspipe.yield` of the next value of each";
  }
  if (yield.getValues().size() != n)
    return yield.emitOpError()
           << "[X26] yields " << yield.getValues().size()
           << " values but the domain loop carries " << n
           << "; yield one next value per iter_args entry";
  for (unsigned i = 0; i < n; ++i)
    if (yield.getValues()[i].getType() != loop.getInitArgs()[i].getType())
      return yield.emitOpError()
             << "[X26] yielded value #" << i << " is "
             << yield.getValues()[i].getType() << " but the carried value is "
             << loop.getInitArgs()[i].getType();
  return success();
}
