//===- Dialects.h - C API of the tspipe dialect -------------------*- C -*-===//

#ifndef TSPIPE_C_DIALECTS_H
#define TSPIPE_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TSPipe, tspipe);

/// Registers the tspipe passes and the `tspipe-to-nvvm` pipeline with the
/// global pass registry (so PassManager.parse can name them), once per
/// process: later calls do nothing.
MLIR_CAPI_EXPORTED void tspipeRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif // TSPIPE_C_DIALECTS_H
