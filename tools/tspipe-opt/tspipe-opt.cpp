//===- tspipe-opt.cpp - tspipe optimizer driver ---------------------------===//
//
// mlir-opt with the tspipe dialect and passes, the upstream dialects GPU
// kernels use, and the NVVM target (for gpu-module-to-binary).
//
//===----------------------------------------------------------------------===//

#include "tspipe/Conversion/Passes.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tspipe::registerTSPipePasses();
  mlir::tspipe::registerTSPipeConversionPasses();
  mlir::tspipe::registerTSPipeToNVVMPipeline();

  mlir::DialectRegistry registry;
  registry.insert<mlir::tspipe::TSPipeDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tspipe optimizer driver\n", registry));
}
