//===- Pipeline.cpp - the tspipe-to-nvvm pass pipeline --------------------===//

#include "tspipe/Conversion/Passes.h"
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

namespace {
/// Makes the NVPTX backend use 32-bit pointers for shared (and const,
/// local) memory, as TS's kernels do: barrier and buffer addresses then
/// live in 32-bit registers and the mbarrier / TMA instructions take
/// them directly, instead of 64-bit addresses and conversions around every
/// barrier operation. The backend reads the LLVM option `nvptx-short-ptr`
/// when gpu-module-to-binary creates its target machine; nothing happens
/// when the NVPTX backend is not linked in.
void useShortSharedPointers() {
  auto options = llvm::cl::getRegisteredOptions();
  auto it = options.find("nvptx-short-ptr");
  if (it == options.end())
    return;
  if (auto *flag = static_cast<llvm::cl::opt<bool> *>(it->second))
    flag->setValue(true);
}

struct TSPipeToNVVMPipelineOptions
    : public PassPipelineOptions<TSPipeToNVVMPipelineOptions> {
  PassOptions::Option<int64_t> debugHangTimeout{
      *this, "debug-hang-timeout",
      llvm::cl::desc("if > 0, blocking waits trap after this many polls"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> checkProgress{
      *this, "check-progress",
      llvm::cl::desc("run tspipe-check-progress first (R70, R71, X8)"),
      llvm::cl::init(true)};
};
} // namespace

void mlir::tspipe::registerTSPipeToNVVMPipeline() {
  PassPipelineRegistration<TSPipeToNVVMPipelineOptions>(
      "tspipe-to-nvvm",
      "Lower tspipe kernels in gpu.modules to LLVM + NVVM, ready for "
      "gpu-module-to-binary",
      [](OpPassManager &pm, const TSPipeToNVVMPipelineOptions &options) {
        useShortSharedPointers();
        // tspipe passes run on the whole module, so that a kernel outside a
        // gpu.module is reported rather than left behind.
        pm.addPass(tspipe::createTSPipeNormalize());
        // Shared memory first (R43 bounds the ring sizes the checker has to
        // simulate), then a kernel that can hang is rejected before it is
        // lowered.
        pm.addPass(tspipe::createTSPipeAllocateSmem());
        if (options.checkProgress)
          pm.addPass(tspipe::createTSPipeCheckProgress());
        tspipe::ConvertTSPipeToNVVMOptions convOpts;
        convOpts.debugHangTimeout = options.debugHangTimeout;
        pm.addPass(tspipe::createConvertTSPipeToNVVM(convOpts));
        OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
        gpuPm.addPass(createCanonicalizerPass());
        gpuPm.addPass(createCSEPass());
        gpuPm.addPass(createSCFToControlFlowPass());
        gpuPm.addPass(createConvertGpuOpsToNVVMOps());
        gpuPm.addPass(createConvertNVVMToLLVMPass());
        gpuPm.addPass(createCanonicalizerPass());
        gpuPm.addPass(createCSEPass());
        pm.addPass(createReconcileUnrealizedCastsPass());
      });
}
