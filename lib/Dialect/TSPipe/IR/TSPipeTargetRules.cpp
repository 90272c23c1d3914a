//===- TSPipeTargetRules.cpp - NVVM targets of a kernel's gpu.module ------===//
//
// Rule X7 at verification time: the `#nvvm.target`s of the gpu.module that
// holds a tspipe kernel name a chip the CUDA 13 toolkit (ptxas 13.0) and
// LLVM 22's NVPTX backend both know, with a PTX ISA version (`+ptxNN`
// feature, when one is given; without one LLVM emits the chip's least
// version) that chip accepts, and the pipeline types of the kernel run on
// it (tcgen05 and CLC on the Blackwell data-center family). Without these
// checks a wrong target ends in an LLVM fatal error or a ptxas failure
// long after the module was accepted (docs/Rules.md, X7; field bug B24).
//
// A gpu.module without a `targets` list is target-agnostic (the compile API
// or `gpu-module-to-binary` attaches one); a list with no NVVM target is an
// error.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeTargets.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

namespace {

/// A chip and the least PTX ISA version (x10) it needs (PTX ISA, release
/// notes; the same minimum LLVM 22's NVPTX backend enforces). The CUDA 13
/// toolkit dropped sm_101 (renamed sm_110), so it is not listed.
struct Chip {
  StringLiteral name;
  int minPtx;
};
constexpr Chip kChips[] = {
    {"sm_75", 63},   {"sm_80", 70},   {"sm_86", 71},   {"sm_87", 74},
    {"sm_88", 90},   {"sm_89", 78},   {"sm_90", 78},   {"sm_90a", 80},
    {"sm_100", 86},  {"sm_100a", 86}, {"sm_100f", 88}, {"sm_103", 88},
    {"sm_103a", 88}, {"sm_103f", 88}, {"sm_110", 90},  {"sm_110a", 90},
    {"sm_110f", 90}, {"sm_120", 87},  {"sm_120a", 87}, {"sm_120f", 88},
    {"sm_121", 88},  {"sm_121a", 88}, {"sm_121f", 88}};
/// The newest PTX ISA version LLVM 22 and ptxas 13.0 know (9.0).
constexpr int kMaxPtx = 90;
/// Chips tspipe lowers tcgen05 pipelines for. sm_103a, sm_110a and the `f`
/// forms have tcgen05 too, but LLVM 22.1.8's NVVM dialect accepts
/// `tcgen05.commit` only for sm_100a and sm_101a (and CUDA 13 renamed
/// sm_101a), so the lowering would reject them: say so at verification,
/// when the target is known, not only when lowering.
constexpr StringLiteral kTcgen05Chips[] = {"sm_100a"};

const Chip *findChip(StringRef name) {
  for (const Chip &c : kChips)
    if (c.name == name)
      return &c;
  return nullptr;
}

/// PTX ISA versions (x10) that LLVM 22's NVPTX backend knows as `ptxNN`
/// subtarget features (`llc -march=nvptx64 -mattr=help`), from sm_75's
/// least (6.3) on.
bool isKnownPtx(int v) {
  return v == 63 || v == 64 || v == 65 || (v >= 70 && v <= 78) ||
         (v >= 80 && v <= 88) || v == 90;
}

/// The parsed `features` of an `#nvvm.target`: the PTX version (x10) of its
/// `+ptxNN` entry, if any, or the first entry tspipe does not accept.
struct Features {
  std::optional<int> ptx;
  std::optional<std::string> bad;
};

/// Entries are separated by commas. tspipe accepts one `+ptxNN` (its
/// version is checked by the caller): LLVM's subtarget parser asserts on an entry without
/// a leading `+`/`-` (an abort, not a diagnostic), ignores unknown
/// features with a warning, and an `sm_*` feature would contradict the
/// target's `chip`.
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

bool isTcgen05Type(PipelineType t) {
  return getPipelineTypeFacts(t).minChip == PipeMinChip::Tcgen05;
}

/// The SM number of a chip name (100 for sm_100a), 0 if it has none.
unsigned smNumber(StringRef chip) {
  unsigned sm = 0;
  chip.consume_front("sm_");
  (void)chip.take_while(llvm::isDigit).getAsInteger(10, sm);
  return sm;
}

} // namespace

/// A name both LLVM's NVPTX backend and ptxas take for a `.entry`. PTX ISA
/// 4.4 (Identifiers): a letter followed by letters, digits, `_` or `$`; or
/// `_`, `$` or `%` followed by at least one of them. LLVM's assembly
/// printer has no quoting for NVPTX and stops with a fatal error on a name
/// with a `%` ("Symbol name with unsupported characters"), so `%` is out.
static bool isEntryIdentifier(StringRef name) {
  auto follow = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  if (name.empty() || !llvm::all_of(name.drop_front(), follow))
    return false;
  if (llvm::isAlpha(name.front()))
    return true;
  return (name.front() == '_' || name.front() == '$') && name.size() > 1;
}

/// PTX's predefined identifiers without a `%` (PTX ISA 10, Special
/// Registers and 4.4, Predefined Identifiers), which ptxas rejects as a
/// `.entry` name. Those starting with `%` are not identifiers here anyway.
constexpr StringLiteral kReservedPtxNames[] = {"WARP_SZ"};

/// X10: the gpu.func holding a kernel becomes a PTX `.entry`, whose name
/// must be one LLVM and ptxas accept (LLVM's NVPTX backend otherwise stops
/// with a fatal error, ptxas with a syntax error).
static LogicalResult verifyEntryName(KernelOp kernel) {
  Operation *func = kernel->getParentOp();
  if (!func || func->getName().getStringRef() != "gpu.func")
    return success();
  auto name =
      func->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
  if (!name)
    return success();
  // Without `kernel` the function lowers to a PTX `.func`, which no launch
  // can start: the tasks would never run.
  if (!func->hasAttr("gpu.kernel"))
    return kernel.emitOpError()
           << "[X9] the enclosing gpu.func '@" << name.getValue()
           << "' is not a kernel, so it would become a PTX .func that no "
              "launch starts; mark it: gpu.func @"
           << name.getValue() << "(...) kernel";
  if (llvm::is_contained(kReservedPtxNames, name.getValue()))
    return kernel.emitOpError()
           << "[X10] the enclosing gpu.func '@" << name.getValue()
           << "' becomes a PTX .entry, but '" << name.getValue()
           << "' is a predefined PTX identifier, which ptxas rejects as a "
              "name; rename the function";
  if (isEntryIdentifier(name.getValue()))
    return success();
  return kernel.emitOpError()
         << "[X10] the enclosing gpu.func '@\"" << name.getValue()
         << "\"' becomes a PTX .entry, but its name is not a PTX identifier "
            "that LLVM can emit (a letter, or _ or $ and one more character, "
            "followed by letters, digits, _ or $); rename the function";
}

/// The symbol the lowering gives the dynamic shared memory every pipeline
/// lives in (TSPipeToNVVM.cpp); a user symbol of that name would be taken
/// for it.
constexpr StringLiteral kReservedSmemName = "__tspipe_dynamic_smem";

FailureOr<int> mlir::tspipe::verifyNVVMTarget(Operation *diagAt,
                                              StringRef moduleName,
                                              Attribute target) {
  auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
  if (!nvvm)
    return 0;
  StringRef chip = nvvm.getChip();
  const Chip *known = findChip(chip);
  if (!known) {
    diagAt->emitOpError()
        << "[X7] gpu.module '@" << moduleName << "' targets chip = \""
        << chip
        << "\", which the CUDA 13 toolkit does not know; use a known "
           "chip such as sm_90a, sm_100a, sm_103a, sm_110a or sm_120a";
    return failure();
  }
  // Without a `+ptxNN` feature LLVM's NVPTX backend emits the least PTX
  // ISA version the chip accepts, which is always in range.
  Features features = parseFeatures(nvvm.getFeatures());
  if (features.bad) {
    diagAt->emitOpError()
        << "[X7] gpu.module '@" << moduleName << "' targets features = \""
        << nvvm.getFeatures() << "\", but the entry '" << *features.bad
        << "' is not a PTX ISA version; features must be empty or one "
           "'+ptxNN' with a version LLVM knows (e.g. \"+ptx"
        << known->minPtx << "\" for " << chip
        << "); give the chip with chip = \"...\", not as a feature";
    return failure();
  }
  std::optional<int> ptx = features.ptx;
  if (ptx && (*ptx < known->minPtx || *ptx > kMaxPtx || !isKnownPtx(*ptx))) {
    InFlightDiagnostic diag = diagAt->emitOpError()
                              << "[X7] chip \"" << chip
                              << "\" needs PTX ISA " << ptxName(known->minPtx)
                              << " or newer (at most " << ptxName(kMaxPtx)
                              << "), but the target's features are \""
                              << nvvm.getFeatures() << "\"";
    if (!isKnownPtx(*ptx))
      diag << " (PTX ISA " << ptxName(*ptx) << " does not exist)";
    diag << "; use features = \"+ptx" << known->minPtx << "\"";
    return failure();
  }
  return known->minPtx;
}

LogicalResult rules::verifyTargetRules(KernelOp kernel) {
  if (failed(verifyEntryName(kernel)))
    return failure();
  Operation *module = kernel->getParentOp();
  while (module && module->getName().getStringRef() != "gpu.module")
    module = module->getParentOp();
  if (!module)
    return success();
  if (Operation *taken = SymbolTable::lookupSymbolIn(module, kReservedSmemName))
    return kernel.emitOpError()
           << "[X9] the gpu.module defines '@" << kReservedSmemName
           << "' ('" << taken->getName()
           << "'), a name tspipe reserves for the kernel's dynamic shared "
              "memory; rename that symbol";
  auto targets = module->getAttrOfType<ArrayAttr>("targets");
  if (!targets)
    return success();
  StringRef moduleName =
      module->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName())
          ? module->getAttrOfType<StringAttr>(
                    SymbolTable::getSymbolAttrName())
                .getValue()
          : StringRef("?");
  bool ok = true;
  bool anyNvvm = false;
  for (Attribute t : targets) {
    auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(t);
    if (!nvvm)
      continue;
    anyNvvm = true;
    StringRef chip = nvvm.getChip();
    if (failed(verifyNVVMTarget(kernel, moduleName, nvvm))) {
      ok = false;
      continue;
    }
    for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
      PipelineType type = pipe.getConfig().getPipelineType();
      bool fits = true;
      if (isTcgen05Type(type))
        fits = llvm::is_contained(kTcgen05Chips, chip);
      else if (getPipelineTypeFacts(type).minChip == PipeMinChip::Clc)
        fits = smNumber(chip) >= 100;
      if (fits)
        continue;
      ok = false;
      pipe.emitOpError() << "[X7] a " << stringifyPipelineType(type)
                         << " pipeline needs "
                         << (isTcgen05Type(type)
                                 ? "tcgen05 as tspipe lowers it, for sm_100a "
                                   "only (sm_103a and sm_110a have tcgen05, "
                                   "but LLVM 22's NVVM dialect takes "
                                   "tcgen05.commit for sm_100a alone)"
                                 : "cluster launch control (sm_100 or newer)")
                         << ", but gpu.module '@" << moduleName
                         << "' targets chip = \"" << chip
                         << "\"; target a chip that has it";
    }
  }
  if (!anyNvvm) {
    ok = false;
    kernel.emitOpError() << "[X7] gpu.module '@" << moduleName
                         << "' lists targets but no #nvvm.target, so the "
                            "kernel cannot be compiled for an NVIDIA GPU; add "
                            "#nvvm.target<chip = \"sm_90a\", features = "
                            "\"+ptx80\"> (or another chip) to its targets";
  }
  return success(ok);
}
