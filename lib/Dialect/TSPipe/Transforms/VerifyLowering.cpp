//===- VerifyLowering.cpp - what the lowering needs, checked first --------===//
//
// Implements tspipe-verify-lowering (Passes.td): X7 for every gpu.module's
// NVVM targets and for tcgen05 kernels without one, X9 for kernels outside
// a gpu.func of a gpu.module, X14 for the attributes of every op of a
// gpu.module, X32 for the CTA group of every gpu.func's tcgen05
// instructions. convert-tspipe-to-nvvm assumes these hold, and X15 (tspipe
// ops nested in other ops' regions), which the kernel verifier checks.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeGuards.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeTargets.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeTcgen05Rules.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeWorkOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tspipe {
#define GEN_PASS_DEF_TSPIPEVERIFYLOWERING
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h.inc"
} // namespace mlir::tspipe

using namespace mlir;
using namespace mlir::tspipe;

namespace {

Operation *enclosing(Operation *op, StringRef name) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (p->getName().getStringRef() == name)
      return p;
  return nullptr;
}

/// X9: the kernel sits in a gpu.func of a gpu.module; X7: a kernel with a
/// tcgen05 pipeline has an NVVM target to lower for.
LogicalResult verifyKernel(KernelOp kernel) {
  Operation *module = enclosing(kernel, "gpu.module");
  if (!module || !enclosing(kernel, "gpu.func"))
    return kernel.emitOpError(
        "[X9] must be nested in a gpu.func of a gpu.module to be lowered; "
        "put it in gpu.module @m { gpu.func @k(...) kernel { ... } }");
  auto targets = module->getAttrOfType<ArrayAttr>("targets");
  if (targets && llvm::any_of(targets, [](Attribute t) {
        return isa<NVVM::NVVMTargetAttr>(t);
      }))
    return success();
  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    PipelineType type = pipe.getConfig().getPipelineType();
    if (getPipelineTypeFacts(type).minChip != PipeMinChip::Tcgen05)
      continue;
    return pipe.emitOpError()
           << "[X7] " << stringifyPipelineType(type)
           << " pipelines lower to tcgen05.commit, which needs an "
              "sm_100a-family target, but the gpu.module has no NVVM target; "
              "add #nvvm.target<chip = \"sm_100a\"> to its targets";
  }
  return success();
}

struct TSPipeVerifyLowering
    : public tspipe::impl::TSPipeVerifyLoweringBase<TSPipeVerifyLowering> {
  using Base::Base;

  void runOnOperation() override {
    bool ok = succeeded(verifyGPUModuleTargets(getOperation()));
    // X14 for every op of a gpu.module, the setup code outside tspipe
    // kernels too: LLVM's translation asserts on an invalid alignment.
    getOperation()->walk([&](Operation *op) {
      if (op->getName().getStringRef() != "gpu.module")
        return WalkResult::advance();
      ok &= succeeded(verifyWorkOpAttrs(op));
      return WalkResult::skip();
    });
    // X32: one tcgen05 CTA group per kernel function (ptxas's rule).
    getOperation()->walk([&](Operation *op) {
      if (op->getName().getStringRef() != "gpu.func")
        return WalkResult::advance();
      ok &= succeeded(verifyTcgen05CtaGroups(op));
      return WalkResult::skip();
    });
    getOperation()->walk([&](KernelOp kernel) {
      ok &= succeeded(verifyKernel(kernel));
      return WalkResult::skip();
    });
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
