//===- Progress.h - C API of the progress checker -----------------*- C -*-===//
//
// Runs the progress checker (R70, R71, X8; docs/ProgressChecker.md) on the
// tspipe.kernel ops of an operation, in process, and hands back each verdict
// as structured data (JSON), without printing or re-parsing the IR.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_C_PROGRESS_H
#define TSPIPE_C_PROGRESS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Checks every `tspipe.kernel` nested in `op` (which must have passed the
/// dialect's verifiers) and calls `callback(json, userData)` once per kernel,
/// in program order. `json` is one object: `kernel`, `ok`, `warnings`,
/// `unproven`, `assume_progress`, `assignments_checked`,
/// `max_value_checked`, `text` (the diagnostics' text), on failure
/// `counterexample` (rule, kind, message, lengths, symbols, notes with their
/// fields, timeline) and, when `withDot`, `graph_dot` and `timeline_dot`
/// (null without a counterexample). Emits no diagnostics.
MLIR_CAPI_EXPORTED void tspipeCheckProgress(MlirOperation op, bool withDot,
                                            MlirStringCallback callback,
                                            void *userData);

#ifdef __cplusplus
}
#endif

#endif // TSPIPE_C_PROGRESS_H
