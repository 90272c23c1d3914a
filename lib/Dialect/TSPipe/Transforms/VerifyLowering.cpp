//===- VerifyLowering.cpp - what the lowering needs, checked first --------===//
//
// Implements tspipe-verify-lowering (Passes.td): X7 for every gpu.module's
// NVVM targets and for tcgen05 kernels without one, X9 for kernels outside
// a gpu.func of a gpu.module, X14 for the attributes of every op of a
// gpu.module, X15 for tspipe ops nested in other ops' regions.
// convert-tspipe-to-nvvm assumes these hold.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeGuards.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeTargets.h"
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

/// X15: every tspipe op of a task (brackets, stage accessors, the domain
/// loop and its guards) is a direct child of the task, its domain loop or a
/// loop guard. The lowering carries each pipeline's cursors through exactly
/// these regions; a bracket inside another op's region (an scf.if, a loop)
/// would move a cursor the enclosing code does not see. (The kernel
/// verifier accepts such IR: tspipe-check-progress reports it as not
/// modeled.)
LogicalResult verifyPlacement(KernelOp kernel) {
  bool ok = true;
  for (auto task : kernel.getBody().getOps<TaskOp>())
    task.walk([&](Operation *op) {
      if (op == task.getOperation() ||
          !isa_and_nonnull<TSPipeDialect>(op->getDialect()))
        return WalkResult::advance();
      Operation *parent = op->getParentOp();
      if (isa<TaskOp, DomainLoopOp>(parent) || isLoopGuardOp(parent))
        return WalkResult::advance();
      ok = false;
      op->emitOpError() << "[X15] must be a direct child of the task, its "
                           "domain loop or a loop guard (pipeline cursors "
                           "cannot be carried through '"
                        << parent->getName()
                        << "'); move it out of that region (a loop guard, "
                           "tspipe.first_iter or tspipe.last_iter, runs it "
                           "on some iterations)";
      return WalkResult::skip();
    });
  return success(ok);
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
    getOperation()->walk([&](KernelOp kernel) {
      ok &= succeeded(verifyKernel(kernel));
      ok &= succeeded(verifyPlacement(kernel));
      return WalkResult::skip();
    });
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
