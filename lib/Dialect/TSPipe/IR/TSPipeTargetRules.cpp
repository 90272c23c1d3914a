//===- TSPipeTargetRules.cpp - NVVM targets of a kernel's gpu.module ------===//
//
// Rule X7 at verification time: the `#nvvm.target`s of the gpu.module that
// holds a tspipe kernel name a chip the CUDA 13 toolkit (ptxas 13.0) and
// LLVM 22's NVPTX backend both know, with a PTX ISA version (`+ptxNN`
// feature, when one is given; without one LLVM emits the chip's least
// version) that chip accepts, and the pipeline types of the kernel run on
// it (tcgen05 and CLC on the Blackwell data-center family); rule X19: the
// nvgpu warpgroup MMAs of work steps need sm_90a. Without these
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
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeTargets.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

namespace {

bool isTcgen05Type(PipelineType t) {
  return getPipelineTypeFacts(t).minChip == PipeMinChip::Tcgen05;
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
  auto name = func->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
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

/// Whether `op` is nvgpu's warpgroup MMA, which lowers to `wgmma.*`. (The
/// NVVM wgmma ops carry their own chip requirement, checked by the NVVM
/// dialect against the gpu.module's target; nvgpu's has none.)
static bool isWarpgroupMma(Operation *op) {
  return isa<nvgpu::WarpgroupMmaOp>(op);
}

/// X19: wgmma exists on sm_90a alone (PTX ISA, wgmma; the Blackwell chips
/// have tcgen05.mma instead, and sm_90 without `a` has no
/// architecture-specific instructions). Reports the first nvgpu warpgroup
/// MMA of the kernel for `chip`.
static LogicalResult verifyWarpgroupMmaTarget(KernelOp kernel, StringRef chip,
                                              StringRef moduleName) {
  if (chip == "sm_90a")
    return success();
  Operation *found = nullptr;
  kernel.walk([&](Operation *op) {
    if (!isWarpgroupMma(op))
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  if (!found)
    return success();
  return found->emitOpError()
         << "[X19] issues a warpgroup MMA (wgmma), which only sm_90a has, "
            "but gpu.module '@"
         << moduleName << "' targets chip = \"" << chip
         << "\"; target sm_90a, or use tcgen05.mma on the sm_100a family";
}

/// The symbol the lowering gives the dynamic shared memory every pipeline
/// lives in (TSPipeToNVVM.cpp); a user symbol of that name would be taken
/// for it.
constexpr StringLiteral kReservedSmemName = "__tspipe_dynamic_smem";

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
           << "[X9] the gpu.module defines '@" << kReservedSmemName << "' ('"
           << taken->getName()
           << "'), a name tspipe reserves for the kernel's dynamic shared "
              "memory; rename that symbol";
  auto targets = module->getAttrOfType<ArrayAttr>("targets");
  if (!targets)
    return success();
  StringRef moduleName =
      module->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName())
          ? module->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName())
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
    const ChipInfo *info = lookupChip(chip);
    // The lowered protocol uses mbarrier transaction counts, elect.sync and
    // TMA (PTX ISA: sm_90 and newer).
    if (!info->lowers) {
      ok = false;
      kernel.emitOpError()
          << "[X7] tspipe kernels need an sm_90 or newer target (mbarrier "
             "transaction counts, elect.sync, TMA), but the gpu.module "
             "targets chip = \""
          << chip << "\"; use sm_90a or sm_100a";
      continue;
    }
    // registers(n) lowers to setmaxnreg, which only the
    // architecture-specific targets have.
    if (!info->archSpecific) {
      std::string archChip =
          (chip.ends_with("f") ? chip.drop_back() : chip).str() + "a";
      for (auto task : kernel.getBody().getOps<TaskOp>())
        if (task.getNumRegisters()) {
          ok = false;
          task.emitOpError()
              << "[X7] registers(" << *task.getNumRegisters()
              << ") lowers to setmaxnreg, which needs an "
                 "architecture-specific target, but the gpu.module targets "
                 "chip = \""
              << chip << "\"; use \"" << archChip << "\"";
        }
    }
    if (failed(verifyWarpgroupMmaTarget(kernel, chip, moduleName)))
      ok = false;
    for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
      PipelineType type = pipe.getConfig().getPipelineType();
      bool fits = true;
      switch (getPipelineTypeFacts(type).minChip) {
      case PipeMinChip::Sm90:
        break;
      case PipeMinChip::Clc:
        fits = info->hasClc;
        break;
      case PipeMinChip::Tcgen05:
        fits = info->hasTcgen05;
        break;
      }
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
