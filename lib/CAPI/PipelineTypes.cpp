//===- PipelineTypes.cpp - C API of the pipeline-type facts ---------------===//

#include "tspipe-c/PipelineTypes.h"

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"

#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::tspipe;

// The C enums mirror the C++ ones.
static_assert(TSPIPE_UNIT_CLC == static_cast<int>(PipeUnit::Clc));
static_assert(TSPIPE_PROXY_ASYNC == static_cast<int>(PipeProxy::Async));
static_assert(TSPIPE_ARRIVAL_TCGEN05_COMMIT ==
              static_cast<int>(PipeArrival::Tcgen05Commit));
static_assert(TSPIPE_REACH_CLUSTER_LEADER ==
              static_cast<int>(PipeReach::ClusterLeader));
static_assert(TSPIPE_WIDEN_CLUSTERED == static_cast<int>(PipeWiden::Clustered));
static_assert(TSPIPE_MIN_CHIP_TCGEN05 ==
              static_cast<int>(PipeMinChip::Tcgen05));

namespace {

const PipelineTypeFacts *facts(int32_t type) {
  if (type < 0 || static_cast<unsigned>(type) >= getNumPipelineTypes())
    return nullptr;
  return &getPipelineTypeFacts(static_cast<PipelineType>(type));
}

const PipeSideFacts *side(int32_t type, int32_t which) {
  const PipelineTypeFacts *f = facts(type);
  if (!f || (which != 0 && which != 1))
    return nullptr;
  return which == 0 ? &f->producer : &f->consumer;
}

template <typename T> int32_t asInt(T value) {
  return static_cast<int32_t>(value);
}

} // namespace

int32_t tspipePipelineTypeCount(void) { return getNumPipelineTypes(); }

MlirStringRef tspipePipelineTypeName(int32_t type) {
  if (!facts(type))
    return mlirStringRefCreate(nullptr, 0);
  return wrap(stringifyPipelineType(static_cast<PipelineType>(type)));
}

int32_t tspipePipelineTypeSideUnit(int32_t type, int32_t which) {
  const PipeSideFacts *s = side(type, which);
  return s ? asInt(s->unit) : -1;
}

int32_t tspipePipelineTypeSideProxy(int32_t type, int32_t which) {
  const PipeSideFacts *s = side(type, which);
  return s ? asInt(s->proxy) : -1;
}

bool tspipePipelineTypeSideInterleaves(int32_t type, int32_t which) {
  const PipeSideFacts *s = side(type, which);
  return s && s->interleaves;
}

int32_t tspipePipelineTypeSideArrival(int32_t type, int32_t which) {
  const PipeSideFacts *s = side(type, which);
  return s ? asInt(s->arrival) : -1;
}

int32_t tspipePipelineTypeSideWidenedReach(int32_t type, int32_t which) {
  const PipeSideFacts *s = side(type, which);
  return s ? asInt(s->widenedReach) : -1;
}

int32_t tspipePipelineTypeSideWiden(int32_t type, int32_t which) {
  const PipeSideFacts *s = side(type, which);
  return s ? asInt(s->widen) : -1;
}

int32_t tspipePipelineTypeMinChip(int32_t type) {
  const PipelineTypeFacts *f = facts(type);
  return f ? asInt(f->minChip) : -1;
}

bool tspipePipelineTypeUsesTcgen05(int32_t type) {
  const PipelineTypeFacts *f = facts(type);
  return f && f->usesTcgen05;
}

bool tspipePipelineTypeNeedsCtaLayout(int32_t type) {
  const PipelineTypeFacts *f = facts(type);
  return f && f->needsCtaLayout;
}

bool tspipePipelineTypeAllowsPingPong(int32_t type) {
  const PipelineTypeFacts *f = facts(type);
  return f && f->pingPong;
}

bool tspipePipelineTypeIsGroupable(int32_t type) {
  const PipelineTypeFacts *f = facts(type);
  return f && f->groupable;
}

bool tspipePipelineTypeHasBulkCopyBytes(int32_t type) {
  const PipelineTypeFacts *f = facts(type);
  return f && f->bulkCopyBytes;
}

bool tspipePipelineTypeHasReleaseForm(int32_t type) {
  const PipelineTypeFacts *f = facts(type);
  return f && f->hasReleaseForm;
}

bool tspipePipelineTypeInterleavesOnOneCtaOnly(int32_t type) {
  const PipelineTypeFacts *f = facts(type);
  return f && f->interleavesOnOneCtaOnly;
}

int32_t tspipePipelineTypeDefaultProducerSignaling(int32_t type) {
  const PipelineTypeFacts *f = facts(type);
  return f ? asInt(f->defaultProducerSignaling) : -1;
}
