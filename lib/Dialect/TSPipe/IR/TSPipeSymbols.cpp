//===- TSPipeSymbols.cpp - pipeline and group lookups ---------------------===//
//
// The symbol helpers of TSPipe.h, in one place: a bracket's pipeline or
// group, resolved in the enclosing kernel's symbol table. With a
// SymbolTableCollection (the op verifiers' verifySymbolUses passes one) the
// kernel's table is built once and every later lookup is O(1); without one
// each lookup walks the kernel's ops.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

using namespace mlir;
using namespace mlir::tspipe;

/// The op `name` names in the kernel enclosing `from`, or null.
static Operation *lookupInKernel(Operation *from, FlatSymbolRefAttr name,
                                 SymbolTableCollection *tables) {
  auto kernel = from->getParentOfType<KernelOp>();
  if (!kernel || !name)
    return nullptr;
  if (tables)
    return tables->lookupSymbolIn(kernel, name.getAttr());
  return SymbolTable::lookupSymbolIn(kernel, name.getAttr());
}

PipelineOp mlir::tspipe::lookupPipeline(Operation *from, FlatSymbolRefAttr name,
                                        SymbolTableCollection *tables) {
  return dyn_cast_or_null<PipelineOp>(lookupInKernel(from, name, tables));
}

PipelineGroupOp mlir::tspipe::lookupGroup(Operation *from,
                                          FlatSymbolRefAttr name,
                                          SymbolTableCollection *tables) {
  return dyn_cast_or_null<PipelineGroupOp>(lookupInKernel(from, name, tables));
}

SmallVector<StringRef, 4> mlir::tspipe::getBracketPipelines(Operation *op) {
  auto ref = op->getAttrOfType<FlatSymbolRefAttr>("pipeline");
  if (!ref)
    return {};
  SmallVector<StringRef, 4> pipes;
  if (PipelineGroupOp group = lookupGroup(op, ref)) {
    for (Attribute m : group.getMembers())
      pipes.push_back(cast<FlatSymbolRefAttr>(m).getValue());
    return pipes;
  }
  pipes.push_back(ref.getValue());
  return pipes;
}
