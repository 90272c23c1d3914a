//===- TensorMapParams.h - tensor maps as __grid_constant__ params -*- C++ -*-===//
//
// Internal to the tspipe-to-nvvm pipeline (TensorMapParams.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_CONVERSION_TSPIPETONVVM_TENSORMAPPARAMS_H
#define TSPIPE_LIB_CONVERSION_TSPIPETONVVM_TENSORMAPPARAMS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::tspipe {

/// On a gpu.module after convert-gpu-to-nvvm: the parameters a kernel lists
/// in `tspipe.grid_constants` (argument positions) become byval
/// `!llvm.array<128 x i8>`, `llvm.align = 64`, `nvvm.grid_constant`.
/// Error [X28] for a listed argument that is not a generic `!llvm.ptr`.
std::unique_ptr<Pass> createTensorMapParamsPass();

} // namespace mlir::tspipe

#endif // TSPIPE_LIB_CONVERSION_TSPIPETONVVM_TENSORMAPPARAMS_H
