//===- Passes.h - tspipe conversion passes ------------------------*- C++
//-*-===//

#ifndef TSPIPE_CONVERSION_PASSES_H
#define TSPIPE_CONVERSION_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
}
namespace scf {
class SCFDialect;
}
namespace LLVM {
class LLVMDialect;
}
namespace NVVM {
class NVVMDialect;
}
} // namespace mlir

namespace mlir::tspipe {

#define GEN_PASS_DECL
#include "tspipe/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tspipe/Conversion/Passes.h.inc"

/// Registers the `tspipe-to-nvvm` pass pipeline: tspipe-allocate-smem,
/// convert-tspipe-to-nvvm, then the upstream lowering of the GPU module to
/// LLVM + NVVM (scf-to-cf, gpu-to-nvvm, nvvm-to-llvm, reconcile casts), ready
/// for `gpu-module-to-binary`. Defined in MLIRTSPipeLowering, with the
/// pipeline builder: tspipe/Conversion/TSPipeToNVVM/Pipeline.h.
void registerTSPipeToNVVMPipeline();

/// Sets the NVPTX backend options tspipe's lowering relies on: 32-bit
/// shared memory pointers (`nvptx-short-ptr`) and no
/// `separate-const-offset-from-gep` (see Pipeline.cpp). They are LLVM
/// command-line options, read when gpu-module-to-binary builds its target
/// machine and codegen pipeline, so they hold for the whole process: LLVM
/// 22 has no per-module or per-target-attribute switch for either (the
/// pointer width is part of the NVPTX data layout the target machine
/// derives from the option). `convert-tspipe-to-nvvm` and the
/// `tspipe-to-nvvm` pipeline both call it.
void configureNVPTXBackend();

} // namespace mlir::tspipe

#endif // TSPIPE_CONVERSION_PASSES_H
