//===- Attributes.h - C API of tspipe's attributes and types -----*- C -*-===//
//
// Builders and accessors for `#tspipe.group`, `#tspipe.config` and
// `!tspipe.stage`, so that front ends build them without writing IR text.
// The `...GetChecked` builders run the attribute's C++ verifier (rules R1-R10,
// R15 of docs/Rules.md): on failure they emit the diagnostics at `loc` and
// return a null attribute.
//
// Enum values are those of the ODS enums (TSPipeEnums.td): PipelineType,
// Agent and PipelineOpKind as their case values, SignalingThreads as its bit
// set (All = 1, CtaLeader = 2, TaskWarpLeader = 4).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_C_ATTRIBUTES_H
#define TSPIPE_C_ATTRIBUTES_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// !tspipe.stage
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED MlirType tspipeStageTypeGet(MlirContext ctx);
MLIR_CAPI_EXPORTED bool tspipeTypeIsAStage(MlirType type);

//===----------------------------------------------------------------------===//
// #tspipe.group<agent, size>
//===----------------------------------------------------------------------===//

/// A cooperative group; null (diagnostic at `loc`) for an unknown agent or a
/// size <= 0 (R8).
MLIR_CAPI_EXPORTED MlirAttribute tspipeCooperativeGroupAttrGetChecked(
    MlirLocation loc, uint32_t agent, int64_t size);
MLIR_CAPI_EXPORTED bool tspipeAttributeIsACooperativeGroup(MlirAttribute attr);
MLIR_CAPI_EXPORTED uint32_t
tspipeCooperativeGroupAttrGetAgent(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
tspipeCooperativeGroupAttrGetSize(MlirAttribute attr);

//===----------------------------------------------------------------------===//
// #tspipe.config<...>
//===----------------------------------------------------------------------===//

/// Every field of a pipeline config. Arrays are (count, pointer); an optional
/// field is unset when its `has...` flag is false.
typedef struct {
  uint32_t pipelineType;
  int64_t numStages;
  int64_t numBytes;
  MlirAttribute producerGroup;
  MlirAttribute consumerGroup;
  intptr_t numCtaLayoutVmnk;
  const int64_t *ctaLayoutVmnk;
  uint32_t producerSignaling;
  uint32_t consumerSignaling;
  bool hasConsumerWaitSignaling;
  uint32_t consumerWaitSignaling;
  uint32_t asyncProducerOp;
  uint32_t ummaConsumerProducerOp;
  bool advanceOnWait;
  bool advanceOnAcquire;
  intptr_t numInterleaveStride;
  const int64_t *interleaveStride;
  bool hasNumBytesPerWarpPerCta;
  int64_t numBytesPerWarpPerCta;
  intptr_t numMcastModeMn;
  const int64_t *mcastModeMn;
} TSPipePipelineConfigFields;

/// The config, verified by the attribute's C++ verifier; null (diagnostics
/// at `loc`, each tagged with its rule id) when a rule fails.
MLIR_CAPI_EXPORTED MlirAttribute tspipePipelineConfigAttrGetChecked(
    MlirLocation loc, const TSPipePipelineConfigFields *fields);
MLIR_CAPI_EXPORTED bool tspipeAttributeIsAPipelineConfig(MlirAttribute attr);
/// Reads every field back. The array pointers stay valid as long as the
/// attribute's context lives.
MLIR_CAPI_EXPORTED void
tspipePipelineConfigAttrGetFields(MlirAttribute attr,
                                  TSPipePipelineConfigFields *fields);

/// What a verified config implies, as the C++ side derives it (the
/// verifiers, the allocation and the lowering read the same getters).
typedef struct {
  /// Strides in stages of producer acquire, producer commit, consumer wait
  /// and consumer release (one `interleave_stride` applies to all four).
  int64_t strides[4];
  /// Bytes of barrier storage: a full and an empty 8-byte mbarrier per stage.
  int64_t barrierBytes;
  /// CTAs the config spans: V * M * N * L of `cta_layout_vmnk`.
  int64_t clusterSize;
  /// Arrive counts of the full and empty mbarriers (a group's size scaled by
  /// its agent: thread 1, warp 32).
  int64_t fullArriveCount;
  int64_t emptyArriveCount;
} TSPipePipelineConfigFacts;

MLIR_CAPI_EXPORTED void
tspipePipelineConfigAttrGetFacts(MlirAttribute attr,
                                 TSPipePipelineConfigFacts *facts);

//===----------------------------------------------------------------------===//
// #nvvm.target (read back without printing it)
//===----------------------------------------------------------------------===//

MLIR_CAPI_EXPORTED bool tspipeAttributeIsANVVMTarget(MlirAttribute attr);
/// The chip (`sm_90a`), the features (`+ptx80`, or empty) and the -O level of
/// an `#nvvm.target`. The strings live as long as the attribute's context.
MLIR_CAPI_EXPORTED MlirStringRef
tspipeNVVMTargetAttrGetChip(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirStringRef
tspipeNVVMTargetAttrGetFeatures(MlirAttribute attr);
MLIR_CAPI_EXPORTED int tspipeNVVMTargetAttrGetOptLevel(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif // TSPIPE_C_ATTRIBUTES_H
