//===- Passes.h - tspipe conversion passes ------------------------*- C++ -*-===//

#ifndef TSPIPE_CONVERSION_PASSES_H
#define TSPIPE_CONVERSION_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith { class ArithDialect; }
namespace scf { class SCFDialect; }
namespace LLVM { class LLVMDialect; }
namespace NVVM { class NVVMDialect; }
} // namespace mlir

namespace mlir::tspipe {

#define GEN_PASS_DECL
#include "tspipe/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tspipe/Conversion/Passes.h.inc"

/// Registers the `tspipe-to-nvvm` pass pipeline: tspipe-allocate-smem,
/// convert-tspipe-to-nvvm, then the upstream lowering of the GPU module to
/// LLVM + NVVM (scf-to-cf, gpu-to-nvvm, nvvm-to-llvm, reconcile casts), ready
/// for `gpu-module-to-binary`.
void registerTSPipeToNVVMPipeline();

} // namespace mlir::tspipe

#endif // TSPIPE_CONVERSION_PASSES_H
