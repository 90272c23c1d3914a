//===- Targets.h - C API of the chips tspipe knows ---------------*- C -*-===//
//
// The chip list of tspipe/Dialect/TSPipe/IR/TSPipeTargets.h (rule X7): which
// chips tspipe kernels lower for, their tcgen05 and cluster launch control
// support, the `#nvvm.target` features the compile API gives them, their
// shared memory capacity, and the X7 check of a target, so that front ends
// keep no list of their own. `chip` is an `#nvvm.target` chip name
// ("sm_90a").
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_C_TARGETS_H
#define TSPIPE_C_TARGETS_H

#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The number of chips the CUDA 13 toolkit and LLVM 22 both know.
MLIR_CAPI_EXPORTED intptr_t tspipeChipCount(void);
/// The name of chip `index` (0 .. count - 1, in SM order); empty when out of
/// range.
MLIR_CAPI_EXPORTED MlirStringRef tspipeChipName(intptr_t index);

/// The chip is known (any `#nvvm.target` chip X7 accepts).
MLIR_CAPI_EXPORTED bool tspipeChipIsKnown(MlirStringRef chip);
/// tspipe kernels lower for the chip (sm_90 or newer).
MLIR_CAPI_EXPORTED bool tspipeChipIsSupported(MlirStringRef chip);
/// The chip is architecture-specific (`a`): registers(n) (setmaxnreg).
MLIR_CAPI_EXPORTED bool tspipeChipIsArchSpecific(MlirStringRef chip);
/// tspipe lowers tcgen05 pipelines (tma_umma, umma_async, async_umma,
/// umma_umma) for the chip.
MLIR_CAPI_EXPORTED bool tspipeChipHasTcgen05(MlirStringRef chip);
/// The chip has cluster launch control (clc_fetch_async).
MLIR_CAPI_EXPORTED bool tspipeChipHasClc(MlirStringRef chip);
/// The least PTX ISA version (x10, 80 for 8.0) the chip accepts; -1 for an
/// unknown chip.
MLIR_CAPI_EXPORTED int32_t tspipeChipMinPtxVersion(MlirStringRef chip);
/// Shared memory bytes one CTA may use on the chip (232448 on sm_90 and the
/// sm_100 family, 101376 on sm_120); 0 for a chip tspipe does not lower for
/// or an unknown one.
MLIR_CAPI_EXPORTED int64_t tspipeChipSmemBytesPerBlock(MlirStringRef chip);

/// The `features` the compile API gives the chip's `#nvvm.target`
/// ("+ptx80" for sm_90a), written through `callback`; nothing for an
/// unknown chip. Returns whether the chip is known.
MLIR_CAPI_EXPORTED bool tspipeChipPtxFeatures(MlirStringRef chip,
                                              MlirStringCallback callback,
                                              void *userData);

/// Rule X7 for an `#nvvm.target` of gpu.module `moduleName` with `chip` and
/// `features`. Returns true when the target is fine; otherwise writes the
/// diagnostic (with its `[X7]` tag and the fix) through `callback` and
/// returns false.
MLIR_CAPI_EXPORTED bool tspipeVerifyTarget(MlirStringRef moduleName,
                                           MlirStringRef chip,
                                           MlirStringRef features,
                                           MlirStringCallback callback,
                                           void *userData);

#ifdef __cplusplus
}
#endif

#endif // TSPIPE_C_TARGETS_H
