//===- TSPipeStageLifetimeRules.cpp - uses of stage pointers (R32, R33) ---===//
//
// R32 / R33 place the stage accessors between the bracket's open and close;
// a pointer the accessor returns outlives it, though: a CLC response read
// through it after the release that frees the slot (tilelang PR 2420), or a
// stage written through it after the commit that handed it over, reads or
// writes a stage the other side already owns. Every use of a value derived
// from a tspipe.stage_buffer (through llvm.getelementptr, casts,
// ptrtoint / inttoptr, integer arithmetic, region results) must lie before
// the release (consumer) or commit (producer) that closes the bracket in
// the accessor's block. Values loaded through the pointer are not derived
// from it and may be used later.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

/// True for an op that computes an address (or part of one) from its
/// operands without touching memory: the use chain continues through its
/// results.
bool derivesAddress(Operation *op) {
  return isa<LLVM::GEPOp, LLVM::AddrSpaceCastOp, LLVM::BitcastOp,
             LLVM::PtrToIntOp, LLVM::IntToPtrOp, LLVM::ZExtOp, LLVM::SExtOp,
             LLVM::TruncOp, LLVM::AddOp, LLVM::SubOp, LLVM::AndOp, LLVM::OrOp,
             LLVM::XOrOp, LLVM::ShlOp, LLVM::LShrOp>(op) ||
         isa_and_nonnull<arith::ArithDialect>(op->getDialect());
}

/// The op that closes the bracket that made `stage` (the release of a
/// consumer stage, the commit of a producer stage) in the bracket's block,
/// or null.
Operation *closingBracket(Value stage) {
  Operation *open = stage.getDefiningOp();
  if (!open)
    return nullptr;
  auto ref = open->getAttrOfType<FlatSymbolRefAttr>("pipeline");
  if (!ref)
    return nullptr;
  bool producer = isa<ProducerAcquireOp>(open);
  if (!producer && !isa<ConsumerWaitOp>(open))
    return nullptr;
  StringRef pipe = ref.getValue();
  for (Operation *op = open->getNextNode(); op; op = op->getNextNode()) {
    bool closes =
        producer ? isa<ProducerCommitOp>(op) : isa<ConsumerReleaseOp>(op);
    if (closes && llvm::is_contained(getBracketPipelines(op), pipe))
      return op;
  }
  return nullptr;
}

/// R32 / R33 for the uses of one stage accessor's result.
bool checkAccessor(Operation *accessor) {
  Value stage = accessor->getOperand(0);
  Operation *close = closingBracket(stage);
  if (!close)
    return true;
  bool producer = isa<ProducerCommitOp>(close);
  // A consumer stage on a DMA edge: R36 reports its late reads
  // (TSPipeDependencyRules.cpp).
  if (!producer &&
      rules::hasDmaEdge(accessor->getParentOfType<TaskOp>(),
                        close->getAttrOfType<FlatSymbolRefAttr>("pipeline")
                            .getValue(),
                        nullptr))
    return true;
  Block *block = close->getBlock();
  SmallVector<Value> worklist{accessor->getResult(0)};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (derivesAddress(user)) {
        for (Value r : user->getResults())
          worklist.push_back(r);
        continue;
      }
      if (isa<scf::YieldOp>(user)) {
        for (Value r : user->getParentOp()->getResults())
          worklist.push_back(r);
        continue;
      }
      Operation *at = block->findAncestorOpInBlock(*user);
      if (at && at->isBeforeInBlock(close))
        continue;
      auto pipe = close->getAttrOfType<FlatSymbolRefAttr>("pipeline");
      user->emitOpError()
          << "[" << (producer ? "R33" : "R32") << "] uses a pointer into the "
          << (producer ? "producer" : "consumer") << " stage of " << pipe
          << " (from the '" << accessor->getName() << "' at "
          << accessor->getLoc() << ") after the " << close->getName()
          << " that "
          << (producer ? "hands the stage to the consumers"
                       : "frees it for the producer")
          << ", when the other side may already "
          << (producer ? "read" : "refill")
          << " it (tilelang PR 2420); move the access before the "
          << close->getName()
          << ", or load the value before it and use the loaded value";
      return false;
    }
  }
  return true;
}

} // namespace

LogicalResult mlir::tspipe::rules::verifyStageLifetimeRules(KernelOp kernel) {
  bool ok = true;
  for (auto task : kernel.getBody().getOps<TaskOp>())
    task.walk([&](StageBufferOp buffer) { ok &= checkAccessor(buffer); });
  return success(ok);
}
