//===- TSPipeNVGPUCopies.cpp - nvgpu TMA copies on stage barriers ---------===//
//
// See TSPipeNVGPUCopies.h.
//
//===----------------------------------------------------------------------===//

#include "TSPipeNVGPUCopies.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tspipe;

std::optional<rules::NVGPUTmaCopy> rules::asNVGPUTmaCopy(Operation *op) {
  auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(op);
  if (!load)
    return std::nullopt;
  MemRefType box = load.getTensorMapDescriptor().getType().getTensor();
  int64_t bytes = box.getElementTypeBitWidth() / 8;
  for (int64_t dim : box.getShape())
    bytes = ShapedType::isDynamic(dim) ? 0 : bytes * dim;
  return NVGPUTmaCopy{load.getBarriers(), bytes,
                      static_cast<bool>(load.getMulticastMask())};
}

Value rules::throughNVGPUBridge(Value v) {
  if (auto cast = v.getDefiningOp<UnrealizedConversionCastOp>();
      cast && cast->getNumOperands() == 1)
    v = cast->getOperand(0);
  // The descriptor's aligned pointer (position 1) is the barrier.
  while (auto insert = v.getDefiningOp<LLVM::InsertValueOp>()) {
    if (insert.getPosition() == ArrayRef<int64_t>{1})
      return insert.getValue();
    v = insert.getContainer();
  }
  return v;
}

bool rules::isNVGPUBridgeStep(Operation *op) {
  return isa<LLVM::InsertValueOp, UnrealizedConversionCastOp>(op);
}
