//===- Targets.cpp - C API of the chips tspipe knows ----------------------===//

#include "tspipe-c/Targets.h"

#include "tspipe/Dialect/TSPipe/IR/TSPipeTargets.h"

#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::tspipe;

static const ChipInfo *chipOf(MlirStringRef chip) {
  return lookupChip(unwrap(chip));
}

intptr_t tspipeChipCount(void) { return getChips().size(); }

MlirStringRef tspipeChipName(intptr_t index) {
  ArrayRef<ChipInfo> chips = getChips();
  if (index < 0 || static_cast<size_t>(index) >= chips.size())
    return mlirStringRefCreate(nullptr, 0);
  return wrap(StringRef(chips[index].name));
}

bool tspipeChipIsKnown(MlirStringRef chip) { return chipOf(chip); }

bool tspipeChipIsSupported(MlirStringRef chip) {
  const ChipInfo *c = chipOf(chip);
  return c && c->lowers;
}

bool tspipeChipIsArchSpecific(MlirStringRef chip) {
  const ChipInfo *c = chipOf(chip);
  return c && c->archSpecific;
}

bool tspipeChipHasTcgen05(MlirStringRef chip) {
  const ChipInfo *c = chipOf(chip);
  return c && c->hasTcgen05;
}

bool tspipeChipHasClc(MlirStringRef chip) {
  const ChipInfo *c = chipOf(chip);
  return c && c->hasClc;
}

int32_t tspipeChipMinPtxVersion(MlirStringRef chip) {
  const ChipInfo *c = chipOf(chip);
  return c ? c->minPtx : -1;
}

int64_t tspipeChipSmemBytesPerBlock(MlirStringRef chip) {
  const ChipInfo *c = chipOf(chip);
  return c ? c->smemBytesPerBlock : 0;
}

bool tspipeChipPtxFeatures(MlirStringRef chip, MlirStringCallback callback,
                           void *userData) {
  if (!chipOf(chip))
    return false;
  std::string features = getPtxFeatures(unwrap(chip));
  callback(wrap(StringRef(features)), userData);
  return true;
}

bool tspipeVerifyTarget(MlirStringRef moduleName, MlirStringRef chip,
                        MlirStringRef features, MlirStringCallback callback,
                        void *userData) {
  std::optional<std::string> problem =
      checkTarget(unwrap(moduleName), unwrap(chip), unwrap(features));
  if (!problem)
    return true;
  callback(wrap(StringRef(*problem)), userData);
  return false;
}
