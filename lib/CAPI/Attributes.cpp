//===- Attributes.cpp - C API of tspipe's attributes and types ------------===//

#include "tspipe-c/Attributes.h"

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tspipe;

MlirType tspipeStageTypeGet(MlirContext ctx) {
  return wrap(StageType::get(unwrap(ctx)));
}

bool tspipeTypeIsAStage(MlirType type) { return isa<StageType>(unwrap(type)); }

MlirAttribute tspipeCooperativeGroupAttrGetChecked(MlirLocation cLoc,
                                                   uint32_t agent,
                                                   int64_t size) {
  Location loc = unwrap(cLoc);
  std::optional<Agent> kind = symbolizeAgent(agent);
  if (!kind) {
    emitError(loc) << "[R8] unknown cooperative group agent " << agent
                   << "; expected thread, warp, thread_block or "
                      "thread_block_cluster";
    return MlirAttribute{nullptr};
  }
  return wrap(CooperativeGroupAttr::getChecked([&] { return emitError(loc); },
                                               loc.getContext(), *kind, size));
}

bool tspipeAttributeIsACooperativeGroup(MlirAttribute attr) {
  return isa<CooperativeGroupAttr>(unwrap(attr));
}

uint32_t tspipeCooperativeGroupAttrGetAgent(MlirAttribute attr) {
  return static_cast<uint32_t>(
      cast<CooperativeGroupAttr>(unwrap(attr)).getAgent());
}

int64_t tspipeCooperativeGroupAttrGetSize(MlirAttribute attr) {
  return cast<CooperativeGroupAttr>(unwrap(attr)).getSize();
}

bool tspipeAttributeIsAPipelineConfig(MlirAttribute attr) {
  return isa<PipelineConfigAttr>(unwrap(attr));
}

namespace {
/// `value` as the enum `E`, or a diagnostic at `loc` naming `field` and the
/// rule (the parser's R1-R3 for an unknown keyword).
template <typename E>
std::optional<E> toEnum(Location loc, std::optional<E> symbol, uint32_t value,
                        StringRef field, StringRef rule) {
  if (!symbol) {
    InFlightDiagnostic diag = emitError(loc);
    if (!rule.empty())
      diag << "[" << rule << "] ";
    diag << "invalid " << field << " value " << value;
  }
  return symbol;
}
} // namespace

MlirAttribute
tspipePipelineConfigAttrGetChecked(MlirLocation cLoc,
                                   const TSPipePipelineConfigFields *f) {
  Location loc = unwrap(cLoc);
  MLIRContext *ctx = loc.getContext();
  auto type = toEnum(loc, symbolizePipelineType(f->pipelineType),
                     f->pipelineType, "pipeline type", "");
  auto producerSignaling =
      toEnum(loc, symbolizeSignalingThreads(f->producerSignaling),
             f->producerSignaling, "producer_signaling", "R1");
  auto consumerSignaling =
      toEnum(loc, symbolizeSignalingThreads(f->consumerSignaling),
             f->consumerSignaling, "consumer_signaling", "R1");
  std::optional<SignalingThreads> waitSignaling;
  bool waitOk = true;
  if (f->hasConsumerWaitSignaling) {
    waitSignaling =
        toEnum(loc, symbolizeSignalingThreads(f->consumerWaitSignaling),
               f->consumerWaitSignaling, "consumer_wait_signaling", "R1");
    waitOk = waitSignaling.has_value();
  }
  auto asyncOp = toEnum(loc, symbolizePipelineOpKind(f->asyncProducerOp),
                        f->asyncProducerOp, "async_producer_op", "R2");
  auto ummaOp =
      toEnum(loc, symbolizePipelineOpKind(f->ummaConsumerProducerOp),
             f->ummaConsumerProducerOp, "umma_consumer_producer_op", "R3");
  auto producerGroup =
      dyn_cast_or_null<CooperativeGroupAttr>(unwrap(f->producerGroup));
  auto consumerGroup =
      dyn_cast_or_null<CooperativeGroupAttr>(unwrap(f->consumerGroup));
  if (!producerGroup || !consumerGroup)
    emitError(loc) << "[R8] producer_group and consumer_group must be "
                      "#tspipe.group attributes";
  if (!type || !producerSignaling || !consumerSignaling || !waitOk ||
      !asyncOp || !ummaOp || !producerGroup || !consumerGroup)
    return MlirAttribute{nullptr};
  std::optional<int64_t> bytesPerWarp;
  if (f->hasNumBytesPerWarpPerCta)
    bytesPerWarp = f->numBytesPerWarpPerCta;
  return wrap(PipelineConfigAttr::getChecked(
      [&] { return emitError(loc); }, ctx, *type, f->numStages, f->numBytes,
      producerGroup, consumerGroup,
      ArrayRef<int64_t>(f->ctaLayoutVmnk, f->numCtaLayoutVmnk),
      *producerSignaling, *consumerSignaling, waitSignaling, *asyncOp, *ummaOp,
      f->advanceOnWait, f->advanceOnAcquire,
      ArrayRef<int64_t>(f->interleaveStride, f->numInterleaveStride),
      bytesPerWarp, ArrayRef<int64_t>(f->mcastModeMn, f->numMcastModeMn)));
}

void tspipePipelineConfigAttrGetFields(MlirAttribute attr,
                                       TSPipePipelineConfigFields *f) {
  auto config = cast<PipelineConfigAttr>(unwrap(attr));
  f->pipelineType = static_cast<uint32_t>(config.getPipelineType());
  f->numStages = config.getNumStages();
  f->numBytes = config.getNumBytes();
  f->producerGroup = wrap(config.getProducerGroup());
  f->consumerGroup = wrap(config.getConsumerGroup());
  f->numCtaLayoutVmnk = config.getCtaLayoutVmnk().size();
  f->ctaLayoutVmnk = config.getCtaLayoutVmnk().data();
  f->producerSignaling = static_cast<uint32_t>(config.getProducerSignaling());
  f->consumerSignaling = static_cast<uint32_t>(config.getConsumerSignaling());
  std::optional<SignalingThreads> wait = config.getConsumerWaitSignaling();
  f->hasConsumerWaitSignaling = wait.has_value();
  f->consumerWaitSignaling = wait ? static_cast<uint32_t>(*wait) : 0;
  f->asyncProducerOp = static_cast<uint32_t>(config.getAsyncProducerOp());
  f->ummaConsumerProducerOp =
      static_cast<uint32_t>(config.getUmmaConsumerProducerOp());
  f->advanceOnWait = config.getAdvanceOnWait();
  f->advanceOnAcquire = config.getAdvanceOnAcquire();
  f->numInterleaveStride = config.getInterleaveStride().size();
  f->interleaveStride = config.getInterleaveStride().data();
  std::optional<int64_t> bytesPerWarp = config.getNumBytesPerWarpPerCta();
  f->hasNumBytesPerWarpPerCta = bytesPerWarp.has_value();
  f->numBytesPerWarpPerCta = bytesPerWarp.value_or(0);
  f->numMcastModeMn = config.getMcastModeMn().size();
  f->mcastModeMn = config.getMcastModeMn().data();
}

void tspipePipelineConfigAttrGetFacts(MlirAttribute attr,
                                      TSPipePipelineConfigFacts *f) {
  auto config = cast<PipelineConfigAttr>(unwrap(attr));
  f->strides[0] = config.getAcquireStride();
  f->strides[1] = config.getCommitStride();
  f->strides[2] = config.getWaitStride();
  f->strides[3] = config.getReleaseStride();
  f->barrierBytes = config.getBarrierBytes();
  f->clusterSize = config.getClusterSize();
  f->fullArriveCount = config.getFullArriveCount();
  f->emptyArriveCount = config.getEmptyArriveCount();
}

bool tspipeAttributeIsANVVMTarget(MlirAttribute attr) {
  return isa<NVVM::NVVMTargetAttr>(unwrap(attr));
}

MlirStringRef tspipeNVVMTargetAttrGetChip(MlirAttribute attr) {
  return wrap(cast<NVVM::NVVMTargetAttr>(unwrap(attr)).getChip());
}

MlirStringRef tspipeNVVMTargetAttrGetFeatures(MlirAttribute attr) {
  return wrap(cast<NVVM::NVVMTargetAttr>(unwrap(attr)).getFeatures());
}

int tspipeNVVMTargetAttrGetOptLevel(MlirAttribute attr) {
  return cast<NVVM::NVVMTargetAttr>(unwrap(attr)).getO();
}
