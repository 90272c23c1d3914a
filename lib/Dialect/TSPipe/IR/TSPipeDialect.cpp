//===- TSPipeDialect.cpp - tspipe dialect registration --------------------===//

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tspipe;

#include "tspipe/Dialect/TSPipe/IR/TSPipeDialect.cpp.inc"
#include "tspipe/Dialect/TSPipe/IR/TSPipeEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tspipe/Dialect/TSPipe/IR/TSPipeTypes.cpp.inc"

void TSPipeDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tspipe/Dialect/TSPipe/IR/TSPipeOps.cpp.inc"
      >();
}

void TSPipeDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tspipe/Dialect/TSPipe/IR/TSPipeTypes.cpp.inc"
      >();
}
