//===- Lowering.h - C API of the tspipe lowering ------------------*- C -*-===//
//
// Runs tspipe's lowering (the tspipe-to-nvvm pipeline) on a module and, on
// request, serializes the result to PTX. The module's context must hold the
// dialects tspipeRegisterCompilationDialects (tspipe-c/Registration.h)
// inserts. Errors (verifier rules, lowering failures) go to the context's
// diagnostic handlers; the functions return a failed MlirLogicalResult after
// any of them. C++: tspipe/Conversion/TSPipeToNVVM/Pipeline.h.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_C_LOWERING_H
#define TSPIPE_C_LOWERING_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Options of the tspipe-to-nvvm pipeline.
typedef struct {
  /// If > 0, every blocking barrier wait traps after this many failed polls;
  /// 0 waits forever.
  int64_t debugHangTimeout;
  /// Run tspipe-check-progress (R70, R71, X8) before lowering.
  bool checkProgress;
} TSPipeLoweringOptions;

/// The defaults: no hang timeout, progress check on.
MLIR_CAPI_EXPORTED TSPipeLoweringOptions tspipeLoweringOptionsGetDefault(void);

/// Appends the tspipe-to-nvvm pipeline to `passManager` (anchored on
/// builtin.module), so that it runs inside a caller's own pipeline.
/// `options` may be NULL (the defaults).
MLIR_CAPI_EXPORTED void
tspipeBuildTSPipeToNVVMPipeline(MlirOpPassManager passManager,
                                const TSPipeLoweringOptions *options);

/// Runs tspipe-to-nvvm on `module` in place. `options` may be NULL.
MLIR_CAPI_EXPORTED MlirLogicalResult
tspipeLowerToNVVM(MlirModule module, const TSPipeLoweringOptions *options);

/// tspipeLowerToNVVM, then gpu-module-to-binary{format=isa}; calls
/// `callback` once per gpu.module and target with the module's name, the
/// target chip (e.g. "sm_90a") and the PTX text. `options` may be NULL.
/// `callback` is not called when the lowering fails.
MLIR_CAPI_EXPORTED MlirLogicalResult
tspipeLowerToPTX(MlirModule module, const TSPipeLoweringOptions *options,
                 void (*callback)(MlirStringRef name, MlirStringRef chip,
                                  MlirStringRef ptx, void *userData),
                 void *userData);

#ifdef __cplusplus
}
#endif

#endif // TSPIPE_C_LOWERING_H
