//===- AliasLowering.cpp - addresses of buffers and TMEM columns ----------===//
//
// tspipe.buffer_address and tspipe.tmem_column lower to constants of the
// placement tspipe-allocate-smem recorded (docs/Protocols.md, Alias
// groups): the buffer's byte offset from the dynamic shared memory base,
// the resource's first tensor-memory column.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tspipe;

FailureOr<Value> mlir::tspipe::lowerAliasAccessor(OpBuilder &b,
                                                  KernelLowering &k,
                                                  Operation &op) {
  Location loc = op.getLoc();
  auto kernel = op.getParentOfType<KernelOp>();
  if (auto addr = dyn_cast<BufferAddressOp>(op)) {
    auto buffer = dyn_cast_or_null<BufferOp>(
        SymbolTable::lookupSymbolIn(kernel, addr.getBufferAttr().getAttr()));
    if (!buffer || !buffer.getBufferOffset()) {
      op.emitOpError() << addr.getBufferAttr()
                       << " has no buffer_offset; run tspipe-allocate-smem "
                          "first";
      return failure();
    }
    Value base = k.sharedMemoryBase();
    return LLVM::GEPOp::create(
               b, loc, base.getType(), b.getI8Type(), base,
               ValueRange{k.constI32(b, loc, *buffer.getBufferOffset())})
        .getResult();
  }
  auto col = cast<TmemColumnOp>(op);
  Operation *res =
      SymbolTable::lookupSymbolIn(kernel, col.getResourceAttr().getAttr());
  auto offset = res ? res->getAttrOfType<IntegerAttr>("tmem_offset")
                    : IntegerAttr();
  if (!offset) {
    op.emitOpError() << col.getResourceAttr()
                     << " has no tmem_offset; run tspipe-allocate-smem first";
    return failure();
  }
  return k.constI32(b, loc, offset.getInt());
}
