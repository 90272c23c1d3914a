//===- InitTSPipe.h - registration of tspipe and what it builds on -*- C++
//-*-===//
//
// MLIR-style registration entry points for tools and compilers that embed
// tspipe (library `MLIRTSPipeRegistration`, CMake package target
// `TSPipe::TSPipeRegistration`). A typical driver:
//
//   mlir::DialectRegistry registry;
//   mlir::tspipe::registerTSPipeCompilationDialects(registry);
//   mlir::MLIRContext context(registry);
//   mlir::tspipe::registerAllTSPipePasses();        // only for textual
//   pipelines mlir::tspipe::registerTSPipeCompilationPasses(); // upstream ones
//   they name
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_INITTSPIPE_H
#define TSPIPE_INITTSPIPE_H

namespace mlir {
class DialectRegistry;
namespace tspipe {

/// Inserts the tspipe dialect alone into `registry`.
void registerTSPipeDialect(DialectRegistry &registry);

/// Inserts the tspipe dialect and the upstream dialects a tspipe kernel sits
/// in or is lowered through (gpu, nvvm, nvgpu, llvm, arith, scf, func,
/// memref, cf, index, math, ub, vector, affine), the ConvertToLLVM
/// interfaces convert-gpu-to-nvvm relies on, the `#nvvm.target`
/// serialization and the LLVM IR translations gpu-module-to-binary needs.
void registerTSPipeCompilationDialects(DialectRegistry &registry);

/// Registers with the global pass registry, once per process (later calls do
/// nothing): the tspipe passes (tspipe-normalize, tspipe-allocate-smem,
/// tspipe-check-progress, ...), convert-tspipe-to-nvvm and the
/// tspipe-to-nvvm pipeline.
void registerAllTSPipePasses();

/// Registers, once per process, the upstream passes a tspipe compilation
/// names in textual pipelines: canonicalize, cse and the other core
/// transforms, the GPU passes (gpu-module-to-binary, nvvm-attach-target,
/// ...), lower-affine and the conversions to LLVM/NVVM (including
/// convert-nvgpu-to-nvvm).
void registerTSPipeCompilationPasses();

} // namespace tspipe
} // namespace mlir

#endif // TSPIPE_INITTSPIPE_H
