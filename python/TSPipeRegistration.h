//===- TSPipeRegistration.h - upstream registration for Python ----*- C -*-===//
//
// C entry points the `_tspipe` extension calls to make a Python context able
// to go from tspipe IR to PTX: the upstream dialects a tspipe kernel sits in
// (gpu, nvvm, llvm, arith, scf, func, memref, cf, index, math, ub), the
// to-LLVM conversion interfaces that convert-gpu-to-nvvm relies on, the NVVM
// target and the LLVM IR translations gpu-module-to-binary needs, and the
// upstream passes of the tspipe-to-nvvm pipeline by name.
//
// They are defined in the aggregate CAPI library (C++ inside), so the Python
// extension itself stays on the C API.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_PYTHON_TSPIPEREGISTRATION_H
#define TSPIPE_PYTHON_TSPIPEREGISTRATION_H

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
/// transforms, the GPU passes (gpu-module-to-binary, nvvm-attach-target, ...)
/// and the conversions to LLVM/NVVM.
MLIR_CAPI_EXPORTED void tspipeRegisterCompilationPasses(void);

#ifdef __cplusplus
}
#endif

#endif // TSPIPE_PYTHON_TSPIPEREGISTRATION_H
