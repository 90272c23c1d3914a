//===- PipelineTypes.h - C API of the pipeline-type facts --------*- C -*-===//
//
// The facts of each pipeline type (tspipe/Dialect/TSPipe/IR/
// PipelineTypeFacts.h), one getter per fact, so that front ends read the
// table the verifier and the lowering read instead of keeping a copy.
//
// `type` is a `PipelineType` case value (TSPipeEnums.td: async_async = 0 ...
// clc_fetch_async = 6); `side` is 0 for the producer side, 1 for the
// consumer side. Every getter returns -1 (or false, or an empty string) for
// a `type` or `side` out of range.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_C_PIPELINETYPES_H
#define TSPIPE_C_PIPELINETYPES_H

#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Values of the enum-valued getters (the C++ enums of PipelineTypeFacts.h).
enum {
  TSPIPE_UNIT_THREADS = 0,
  TSPIPE_UNIT_TMA = 1,
  TSPIPE_UNIT_UMMA = 2,
  TSPIPE_UNIT_CLC = 3,
};
enum { TSPIPE_PROXY_GENERIC = 0, TSPIPE_PROXY_ASYNC = 1 };
enum {
  TSPIPE_ARRIVAL_THREAD = 0,
  TSPIPE_ARRIVAL_CP_ASYNC = 1,
  TSPIPE_ARRIVAL_LANE = 2,
  TSPIPE_ARRIVAL_EXPECT_TX = 3,
  TSPIPE_ARRIVAL_TCGEN05_COMMIT = 4,
};
enum {
  TSPIPE_REACH_LOCAL = 0,
  TSPIPE_REACH_PAIR_LEADER = 1,
  TSPIPE_REACH_PAIR = 2,
  TSPIPE_REACH_TMA_ASYNC_MULTICAST = 3,
  TSPIPE_REACH_TMA_UMMA_MULTICAST = 4,
  TSPIPE_REACH_CLUSTER = 5,
  TSPIPE_REACH_CLUSTER_LEADER = 6,
};
enum {
  TSPIPE_WIDEN_NEVER = 0,
  TSPIPE_WIDEN_PAIRED = 1,
  TSPIPE_WIDEN_CLUSTERED = 2,
};
enum {
  TSPIPE_MIN_CHIP_SM90 = 0,
  TSPIPE_MIN_CHIP_CLC = 1,
  TSPIPE_MIN_CHIP_TCGEN05 = 2,
};

/// The number of pipeline types (valid `type` values are 0 .. count - 1).
MLIR_CAPI_EXPORTED int32_t tspipePipelineTypeCount(void);
/// The IR spelling of `type` ("tma_async"); empty when out of range.
MLIR_CAPI_EXPORTED MlirStringRef tspipePipelineTypeName(int32_t type);

/// The hardware unit of one side (TSPIPE_UNIT_*).
MLIR_CAPI_EXPORTED int32_t tspipePipelineTypeSideUnit(int32_t type,
                                                      int32_t side);
/// The memory proxy of one side's stage accesses (TSPIPE_PROXY_*).
MLIR_CAPI_EXPORTED int32_t tspipePipelineTypeSideProxy(int32_t type,
                                                       int32_t side);
/// Whether the side's strides may exceed 1 (R58, R60).
MLIR_CAPI_EXPORTED bool tspipePipelineTypeSideInterleaves(int32_t type,
                                                          int32_t side);
/// The instruction of the side's arrival (TSPIPE_ARRIVAL_*): the fill
/// (producer) or release (consumer) form before any config choice.
MLIR_CAPI_EXPORTED int32_t tspipePipelineTypeSideArrival(int32_t type,
                                                         int32_t side);
/// The CTAs the side's arrivals reach once widened (TSPIPE_REACH_*).
MLIR_CAPI_EXPORTED int32_t tspipePipelineTypeSideWidenedReach(int32_t type,
                                                              int32_t side);
/// When they widen: never, on a CTA pair, on a multicast cluster
/// (TSPIPE_WIDEN_*).
MLIR_CAPI_EXPORTED int32_t tspipePipelineTypeSideWiden(int32_t type,
                                                       int32_t side);

/// The least chip the type lowers for (TSPIPE_MIN_CHIP_*; X7).
MLIR_CAPI_EXPORTED int32_t tspipePipelineTypeMinChip(int32_t type);
/// A side is driven by tcgen05 (tensor memory may be declared, R44).
MLIR_CAPI_EXPORTED bool tspipePipelineTypeUsesTcgen05(int32_t type);
/// TS's factory has no default cta_layout_vmnk for the type (R10).
MLIR_CAPI_EXPORTED bool tspipePipelineTypeNeedsCtaLayout(int32_t type);
/// One task may drive both sides (a ping-pong buffer, R65).
MLIR_CAPI_EXPORTED bool tspipePipelineTypeAllowsPingPong(int32_t type);
/// The type may join a pipeline group (R67, R68).
MLIR_CAPI_EXPORTED bool tspipePipelineTypeIsGroupable(int32_t type);
/// num_bytes are TMA bulk-copy bytes, a multiple of 16 (X6).
MLIR_CAPI_EXPORTED bool tspipePipelineTypeHasBulkCopyBytes(int32_t type);
/// The consumers' release form is derived by tspipe-normalize (R54).
MLIR_CAPI_EXPORTED bool tspipePipelineTypeHasReleaseForm(int32_t type);
/// An interleaved pipeline of the type must run on one CTA (R59).
MLIR_CAPI_EXPORTED bool tspipePipelineTypeInterleavesOnOneCtaOnly(int32_t type);
/// The producer signaling TS's factory defaults to, as the SignalingThreads
/// bit set (All = 1, CtaLeader = 2, TaskWarpLeader = 4); -1 out of range.
MLIR_CAPI_EXPORTED int32_t
tspipePipelineTypeDefaultProducerSignaling(int32_t type);

#ifdef __cplusplus
}
#endif

#endif // TSPIPE_C_PIPELINETYPES_H
