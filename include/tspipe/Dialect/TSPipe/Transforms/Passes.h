//===- Passes.h - tspipe transformation passes --------------------*- C++
//-*-===//

#ifndef TSPIPE_DIALECT_TSPIPE_TRANSFORMS_PASSES_H
#define TSPIPE_DIALECT_TSPIPE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

namespace mlir::tspipe {

#define GEN_PASS_DECL
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h.inc"

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_TRANSFORMS_PASSES_H
