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
// the bracket's block (or inside a later op of that block, a loop guard).
// The derivation is followed through memref views and casts
// (memref.subview / view / reinterpret_cast / cast: any view-like or cast
// op, unrealized casts, LLVM struct insert/extract of a memref descriptor)
// and through a local slot: a derived pointer stored to an llvm.alloca (or
// memref.alloca) is followed to the loads of that slot. A derived pointer
// stored anywhere else escapes the check and is rejected. Values loaded
// through the pointer are not derived from it and may be used later.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::tspipe;

bool mlir::tspipe::rules::derivesStageAddress(Operation *op) {
  return isa<LLVM::GEPOp, LLVM::AddrSpaceCastOp, LLVM::BitcastOp,
             LLVM::PtrToIntOp, LLVM::IntToPtrOp, LLVM::ZExtOp, LLVM::SExtOp,
             LLVM::TruncOp, LLVM::AddOp, LLVM::SubOp, LLVM::AndOp, LLVM::OrOp,
             LLVM::XOrOp, LLVM::ShlOp, LLVM::LShrOp, LLVM::InsertValueOp,
             LLVM::ExtractValueOp, UnrealizedConversionCastOp>(op) ||
         isa<ViewLikeOpInterface, CastOpInterface>(op) ||
         isa_and_nonnull<arith::ArithDialect>(op->getDialect());
}

namespace {

/// The local slot (an llvm.alloca or memref.alloca, compared by name: the
/// IR library does not depend on the MemRef dialect) an address points
/// into, through GEPs and casts; null for any other memory.
Operation *localSlot(Value addr) {
  while (Operation *def = addr.getDefiningOp()) {
    if (isa<LLVM::AllocaOp>(def) ||
        def->getName().getStringRef() == "memref.alloca")
      return def;
    if (!isa<LLVM::GEPOp, LLVM::AddrSpaceCastOp, LLVM::BitcastOp>(def) &&
        !isa<ViewLikeOpInterface>(def))
      return nullptr;
    addr = def->getOperand(0);
  }
  return nullptr;
}

/// The values loaded from `slot` (through GEPs, casts and views of it).
void loadsOf(Operation *slot, SmallVectorImpl<Value> &out) {
  SmallVector<Value> addrs(slot->getResults());
  DenseSet<Value> seen;
  while (!addrs.empty()) {
    Value a = addrs.pop_back_val();
    if (!seen.insert(a).second)
      continue;
    for (Operation *user : a.getUsers()) {
      if (isa<LLVM::LoadOp>(user) ||
          user->getName().getStringRef() == "memref.load") {
        out.append(user->result_begin(), user->result_end());
      } else if (isa<LLVM::GEPOp, LLVM::AddrSpaceCastOp, LLVM::BitcastOp>(
                     user) ||
                 isa<ViewLikeOpInterface>(user)) {
        out.append(user->result_begin(), user->result_end());
      }
    }
  }
}

/// The value a store writes (LLVM or memref), and the address it writes to.
bool asStore(Operation *op, Value &value, Value &addr) {
  if (auto st = dyn_cast<LLVM::StoreOp>(op)) {
    value = st.getValue();
    addr = st.getAddr();
    return true;
  }
  if (op->getName().getStringRef() == "memref.store" &&
      op->getNumOperands() >= 2) {
    value = op->getOperand(0);
    addr = op->getOperand(1);
    return true;
  }
  return false;
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
  auto closes = [&](Operation *op) {
    return (producer ? isa<ProducerCommitOp>(op)
                     : isa<ConsumerReleaseOp>(op)) &&
           llvm::is_contained(getBracketPipelines(op), pipe);
  };
  for (Operation *op = open->getNextNode(); op; op = op->getNextNode()) {
    if (closes(op))
      return op;
    // A close nested in a later op of the block (a loop guard).
    Operation *nested = nullptr;
    op->walk([&](Operation *inner) {
      if (!nested && inner != op && closes(inner))
        nested = inner;
    });
    if (nested)
      return nested;
  }
  return nullptr;
}

/// True when `user` runs after `close`: in the innermost block around the
/// close that also holds `user` (at most `block`, the block of the bracket
/// that opened the stage), the user's op comes after the close's. A use
/// after a loop guard that closes the bracket counts: on the guard's
/// iteration it runs after the close.
bool isAfterClose(Operation *user, Operation *close, Block *block) {
  for (Block *b = close->getBlock(); b;) {
    if (Operation *u = b->findAncestorOpInBlock(*user)) {
      Operation *c = b->findAncestorOpInBlock(*close);
      return u != c && c->isBeforeInBlock(u);
    }
    if (b == block)
      return false;
    Operation *parent = b->getParentOp();
    b = parent ? parent->getBlock() : nullptr;
  }
  return false;
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
      rules::hasDmaEdge(
          accessor->getParentOfType<TaskOp>(),
          close->getAttrOfType<FlatSymbolRefAttr>("pipeline").getValue(),
          nullptr))
    return true;
  Block *block = stage.getDefiningOp()->getBlock();
  auto pipe = close->getAttrOfType<FlatSymbolRefAttr>("pipeline");
  SmallVector<Value> worklist{accessor->getResult(0)};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (rules::derivesStageAddress(user)) {
        for (Value r : user->getResults())
          worklist.push_back(r);
        continue;
      }
      if (isa<scf::YieldOp>(user)) {
        for (Value r : user->getParentOp()->getResults())
          worklist.push_back(r);
        continue;
      }
      // The pointer itself stored: followed through a local slot to its
      // reloads, rejected anywhere else (the check cannot follow it).
      Value stored, addr;
      if (asStore(user, stored, addr) && stored == v) {
        Operation *slot = localSlot(addr);
        if (!slot) {
          user->emitOpError()
              << "[" << (producer ? "R33" : "R32") << "] stores a pointer "
              << "into the " << (producer ? "producer" : "consumer")
              << " stage of " << pipe << " (from the '" << accessor->getName()
              << "' at " << accessor->getLoc()
              << ") to memory other than a local llvm.alloca / memref.alloca "
                 "slot, where the check that every use lies before the "
              << close->getName()
              << " cannot follow it; pass the pointer as a value, or keep it "
                 "in a local slot";
          return false;
        }
        SmallVector<Value> reloads;
        loadsOf(slot, reloads);
        worklist.append(reloads.begin(), reloads.end());
      }
      if (!isAfterClose(user, close, block))
        continue;
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
