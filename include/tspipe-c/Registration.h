//===- Registration.h - C API: what a tspipe compilation registers -*- C
//-*-===//
//
// C entry points that make a context able to go from tspipe IR to PTX: the
// tspipe dialect and the upstream dialects a tspipe kernel sits in or is
// lowered through (gpu, nvvm, nvgpu, llvm, arith, scf, func, memref, cf,
// index, math, ub, vector, affine), the ConvertToLLVM interfaces
// convert-gpu-to-nvvm relies on, the NVVM target and the LLVM IR
// translations gpu-module-to-binary needs, and the upstream passes of the
// tspipe-to-nvvm pipeline by name. The tspipe passes themselves:
// tspipeRegisterPasses (tspipe-c/Dialects.h).
//
// The C++ equivalents are in tspipe/InitTSPipe.h.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_C_REGISTRATION_H
#define TSPIPE_C_REGISTRATION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Inserts the tspipe dialect, the upstream dialects listed above and their
/// extensions (to-LLVM interfaces, NVVM target, LLVM IR translations) into
/// `registry`.
MLIR_CAPI_EXPORTED void
tspipeRegisterCompilationDialects(MlirDialectRegistry registry);

/// Registers, once per process, the upstream passes a tspipe compilation
/// names in textual pipelines: canonicalize, cse and the other core
/// transforms, the GPU passes (gpu-module-to-binary, nvvm-attach-target, ...),
/// lower-affine and the conversions to LLVM/NVVM (convert-nvgpu-to-nvvm
/// among them).
MLIR_CAPI_EXPORTED void tspipeRegisterCompilationPasses(void);

#ifdef __cplusplus
}
#endif

#endif // TSPIPE_C_REGISTRATION_H
