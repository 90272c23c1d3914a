//===- TSPipeTargets.cpp - the chips tspipe knows (rule X7) ---------------===//
//
// The chip list (TSPipeTargets.h) and the check of one `#nvvm.target`.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/TSPipeTargets.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tspipe;

namespace {

constexpr int64_t KiB = 1024;
constexpr int64_t kSm90Smem = 227 * KiB;
constexpr int64_t kSm120Smem = 99 * KiB;

// name, sm, minPtx, lowers, archSpecific, hasTcgen05, hasClc, smem bytes.
// The CUDA 13 toolkit dropped sm_101 (renamed sm_110), so it is not listed.
constexpr ChipInfo kChips[] = {
    {"sm_75", 75, 63, false, false, false, false, 0},
    {"sm_80", 80, 70, false, false, false, false, 0},
    {"sm_86", 86, 71, false, false, false, false, 0},
    {"sm_87", 87, 74, false, false, false, false, 0},
    {"sm_88", 88, 90, false, false, false, false, 0},
    {"sm_89", 89, 78, false, false, false, false, 0},
    {"sm_90", 90, 78, true, false, false, false, kSm90Smem},
    {"sm_90a", 90, 80, true, true, false, false, kSm90Smem},
    {"sm_100", 100, 86, true, false, false, true, kSm90Smem},
    {"sm_100a", 100, 86, true, true, true, true, kSm90Smem},
    {"sm_100f", 100, 88, true, false, false, true, kSm90Smem},
    {"sm_103", 103, 88, true, false, false, true, kSm90Smem},
    {"sm_103a", 103, 88, true, true, false, true, kSm90Smem},
    {"sm_103f", 103, 88, true, false, false, true, kSm90Smem},
    {"sm_110", 110, 90, true, false, false, true, kSm90Smem},
    {"sm_110a", 110, 90, true, true, false, true, kSm90Smem},
    {"sm_110f", 110, 90, true, false, false, true, kSm90Smem},
    {"sm_120", 120, 87, true, false, false, true, kSm120Smem},
    {"sm_120a", 120, 87, true, true, false, true, kSm120Smem},
    {"sm_120f", 120, 88, true, false, false, true, kSm120Smem},
    {"sm_121", 121, 88, true, false, false, true, kSm120Smem},
    {"sm_121a", 121, 88, true, true, false, true, kSm120Smem},
    {"sm_121f", 121, 88, true, false, false, true, kSm120Smem},
};

/// The parsed `features` of an `#nvvm.target`: the PTX version (x10) of its
/// `+ptxNN` entry, if any, or the first entry tspipe does not accept.
struct Features {
  std::optional<int> ptx;
  std::optional<std::string> bad;
};

/// Entries are separated by commas. tspipe accepts one `+ptxNN` (its
/// version is checked by the caller): LLVM's subtarget parser asserts on an
/// entry without a leading `+`/`-` (an abort, not a diagnostic), ignores
/// unknown features with a warning, and an `sm_*` feature would contradict
/// the target's `chip`.
Features parseFeatures(StringRef features) {
  Features out;
  SmallVector<StringRef> parts;
  features.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef entry : parts) {
    // No trimming: LLVM splits at commas only (dropping empty entries), so
    // " +ptx80" reaches its parser with a leading space and aborts too.
    StringRef f = entry;
    int v = 0;
    if (!out.ptx && f.consume_front("+ptx") && !f.empty() && f.size() <= 3 &&
        llvm::all_of(f, llvm::isDigit) && !f.getAsInteger(10, v)) {
      out.ptx = v;
      continue;
    }
    out.bad = entry.str();
    return out;
  }
  return out;
}

std::string ptxName(int v) {
  return std::to_string(v / 10) + "." + std::to_string(v % 10);
}

} // namespace

ArrayRef<ChipInfo> mlir::tspipe::getChips() { return kChips; }

const ChipInfo *mlir::tspipe::lookupChip(StringRef name) {
  for (const ChipInfo &c : kChips)
    if (c.name == name)
      return &c;
  return nullptr;
}

std::string mlir::tspipe::getPtxFeatures(StringRef chip) {
  const ChipInfo *c = lookupChip(chip);
  if (!c)
    return "";
  return "+ptx" + std::to_string(std::max(c->minPtx, kLoweringMinPtx));
}

/// PTX ISA versions (x10) that LLVM 22's NVPTX backend knows as `ptxNN`
/// subtarget features (`llc -march=nvptx64 -mattr=help`), from sm_75's
/// least (6.3) on.
bool mlir::tspipe::isKnownPtxVersion(int v) {
  return v == 63 || v == 64 || v == 65 || (v >= 70 && v <= 78) ||
         (v >= 80 && v <= 88) || v == 90;
}

std::optional<std::string> mlir::tspipe::checkTarget(StringRef moduleName,
                                                     StringRef chip,
                                                     StringRef features) {
  std::string msg;
  llvm::raw_string_ostream os(msg);
  const ChipInfo *known = lookupChip(chip);
  if (!known) {
    os << "[X7] gpu.module '@" << moduleName << "' targets chip = \"" << chip
       << "\", which the CUDA 13 toolkit does not know; use a known chip "
          "such as sm_90a, sm_100a, sm_103a, sm_110a or sm_120a";
    return msg;
  }
  // Without a `+ptxNN` feature LLVM's NVPTX backend emits the least PTX
  // ISA version the chip accepts, which is always in range.
  Features parsed = parseFeatures(features);
  if (parsed.bad) {
    os << "[X7] gpu.module '@" << moduleName << "' targets features = \""
       << features << "\", but the entry '" << *parsed.bad
       << "' is not a PTX ISA version; features must be empty or one "
          "'+ptxNN' with a version LLVM knows (e.g. \"+ptx"
       << known->minPtx << "\" for " << chip
       << "); give the chip with chip = \"...\", not as a feature";
    return msg;
  }
  std::optional<int> ptx = parsed.ptx;
  if (ptx && (*ptx < known->minPtx || *ptx > kMaxPtxVersion ||
              !isKnownPtxVersion(*ptx))) {
    os << "[X7] chip \"" << chip << "\" needs PTX ISA "
       << ptxName(known->minPtx) << " or newer (at most "
       << ptxName(kMaxPtxVersion) << "), but the target's features are \""
       << features << "\"";
    if (!isKnownPtxVersion(*ptx))
      os << " (PTX ISA " << ptxName(*ptx) << " does not exist)";
    os << "; use features = \"+ptx" << known->minPtx << "\"";
    return msg;
  }
  return std::nullopt;
}

FailureOr<int> mlir::tspipe::verifyNVVMTarget(Operation *diagAt,
                                              StringRef moduleName,
                                              Attribute target) {
  auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
  if (!nvvm)
    return 0;
  if (std::optional<std::string> problem =
          checkTarget(moduleName, nvvm.getChip(), nvvm.getFeatures())) {
    diagAt->emitOpError() << *problem;
    return failure();
  }
  return lookupChip(nvvm.getChip())->minPtx;
}

/// The `targets` of a gpu.module, or null (the dialect does not depend on
/// the GPU dialect, so the op is recognized by name).
static ArrayAttr getModuleTargets(Operation *op) {
  if (!op || op->getName().getStringRef() != "gpu.module")
    return {};
  return op->getAttrOfType<ArrayAttr>("targets");
}

static StringRef getModuleName(Operation *op) {
  auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
  return name ? name.getValue() : StringRef("?");
}

LogicalResult mlir::tspipe::verifyGPUModuleTargets(Operation *root) {
  bool ok = true;
  root->walk([&](Operation *op) {
    if (ArrayAttr targets = getModuleTargets(op))
      for (Attribute t : targets)
        ok &= succeeded(verifyNVVMTarget(op, getModuleName(op), t));
  });
  return success(ok);
}

int64_t mlir::tspipe::getSmemCapacity(Operation *module) {
  ArrayAttr targets = getModuleTargets(module);
  std::optional<int64_t> least;
  for (Attribute t : targets ? targets.getValue() : ArrayRef<Attribute>()) {
    auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(t);
    const ChipInfo *chip = nvvm ? lookupChip(nvvm.getChip()) : nullptr;
    if (!chip || !chip->lowers)
      continue;
    least = std::min(least.value_or(chip->smemBytesPerBlock),
                     chip->smemBytesPerBlock);
  }
  return least.value_or(kDefaultSmemBytesPerBlock);
}
