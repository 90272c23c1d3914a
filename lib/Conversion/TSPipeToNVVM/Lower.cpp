//===- Lower.cpp - lowerKernel and lowerToPTX -----------------------------===//

#include "tspipe/Conversion/TSPipeToNVVM/Pipeline.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

LogicalResult mlir::tspipe::lowerKernel(ModuleOp module,
                                        const TSPipeToNVVMOptions &options) {
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  buildTSPipeToNVVMPipeline(pm, options);
  return pm.run(module);
}

FailureOr<SmallVector<tspipe::PTXModule>>
mlir::tspipe::lowerToPTX(ModuleOp module, const TSPipeToNVVMOptions &options) {
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  buildTSPipeToNVVMPipeline(pm, options);
  GpuModuleToBinaryPassOptions binaryOptions;
  binaryOptions.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binaryOptions));
  if (failed(pm.run(module)))
    return failure();

  SmallVector<PTXModule> result;
  WalkResult walk = module.walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects()) {
      auto obj = dyn_cast<gpu::ObjectAttr>(object);
      if (!obj) {
        binary.emitError("gpu.binary object is not a #gpu.object; expected "
                         "the output of gpu-module-to-binary{format=isa}");
        return WalkResult::interrupt();
      }
      PTXModule ptx;
      ptx.name = binary.getSymName().str();
      if (auto target = dyn_cast<NVVM::NVVMTargetAttr>(obj.getTarget()))
        ptx.chip = target.getChip().str();
      ptx.ptx = obj.getObject().getValue().str();
      result.push_back(std::move(ptx));
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return result;
}
