//===- TSPipeTcgen05Rules.cpp - one CTA group per kernel (rule X32) -------===//
//
// A kernel function's tcgen05 instructions must all use one `.cta_group`:
// ptxas rejects a function that mixes cta_group::1 and cta_group::2 ("uses
// single CTA and CTA pair granularity"), without a location. The kernel's
// tcgen05 pipelines fix the group of the commits they lower to (V of
// cta_layout_vmnk: 2 for a CTA pair), so a work step's tcgen05.mma or the
// setup code's tcgen05.alloc must use that group as well. Rule X32 names
// the op and the pipeline it disagrees with (docs/Rules.md).
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/TSPipeTcgen05Rules.h"

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tspipe;

/// "cta_group::1" / "cta_group::2".
static std::string groupName(NVVM::CTAGroupKind kind) {
  return kind == NVVM::CTAGroupKind::CTA_2 ? "cta_group::2" : "cta_group::1";
}

/// The CTA group a tcgen05 op names, if it names one.
static std::optional<NVVM::CTAGroupKind> opGroup(Operation *op) {
  if (!op->getName().getStringRef().starts_with("nvvm.tcgen05."))
    return std::nullopt;
  for (NamedAttribute attr : op->getAttrs())
    if (auto group = dyn_cast<NVVM::CTAGroupKindAttr>(attr.getValue()))
      return group.getValue();
  return std::nullopt;
}

LogicalResult mlir::tspipe::verifyTcgen05CtaGroups(Operation *func) {
  bool ok = true;
  // The group the first tcgen05 pipeline commits with fixes the function's.
  PipelineOp reference;
  NVVM::CTAGroupKind group = NVVM::CTAGroupKind::CTA_1;
  func->walk([&](PipelineOp pipe) {
    PipelineConfigAttr cfg = pipe.getConfig();
    if (!getPipelineTypeFacts(cfg.getPipelineType()).usesTcgen05)
      return;
    NVVM::CTAGroupKind own = cfg.getV() == 2 ? NVVM::CTAGroupKind::CTA_2
                                             : NVVM::CTAGroupKind::CTA_1;
    if (!reference) {
      reference = pipe;
      group = own;
      return;
    }
    if (own == group)
      return;
    ok = false;
    pipe.emitOpError()
        << "[X32] commits with tcgen05 " << groupName(own) << " (V = "
        << cfg.getV() << "), but pipeline '@" << reference.getSymName()
        << "' of the same kernel commits with " << groupName(group)
        << "; the tcgen05 instructions of a kernel must all use one CTA "
           "group (ptxas rejects the mix): give both the same V in "
           "cta_layout_vmnk";
  });
  // Without a tcgen05 pipeline the first tcgen05 op with a group fixes it.
  Operation *first = nullptr;
  func->walk([&](Operation *op) {
    std::optional<NVVM::CTAGroupKind> own = opGroup(op);
    if (!own)
      return;
    if (!reference && !first) {
      first = op;
      group = *own;
      return;
    }
    if (*own == group)
      return;
    ok = false;
    InFlightDiagnostic diag = op->emitOpError()
                              << "[X32] uses " << groupName(*own) << ", but ";
    if (reference)
      diag << "pipeline '@" << reference.getSymName()
           << "' of this kernel commits with tcgen05 " << groupName(group)
           << " (V = " << reference.getConfig().getV()
           << " in its cta_layout_vmnk)";
    else
      diag << "'" << first->getName() << "' of this kernel uses "
           << groupName(group);
    diag << "; the tcgen05 instructions of a kernel must all use one CTA "
            "group (ptxas rejects the mix): use #nvvm.cta_group<"
         << (group == NVVM::CTAGroupKind::CTA_2 ? "cta_2" : "cta_1") << ">";
  });
  return success(ok);
}
