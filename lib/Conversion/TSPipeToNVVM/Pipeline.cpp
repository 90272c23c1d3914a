//===- Pipeline.cpp - the tspipe-to-nvvm pass pipeline --------------------===//

#include "tspipe/Conversion/TSPipeToNVVM/Pipeline.h"

#include "TensorMapParams.h"

#include "tspipe/Conversion/Passes.h"
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
/// Canonicalization patterns the tspipe pipeline leaves out, under both
/// spellings compilers give an anonymous namespace in a pattern's debug
/// name. MLIR's RegionBranchOpInterface pattern that looks for duplicate
/// loop-carried values compares every pair of them, every time the greedy
/// driver visits the loop: quadratic in the cursors a domain loop carries
/// (1000 pipelines: 80 % of the canonicalizer's time). The lowering never
/// carries one cursor twice, so the pattern has nothing to find.
const char *const kSkippedPatterns[] = {
    "{anonymous}::RemoveDuplicateSuccessorInputUses",
    "(anonymous namespace)::RemoveDuplicateSuccessorInputUses",
};

/// The canonicalizer with its default options (top-down, normal region
/// simplification), less kSkippedPatterns.
std::unique_ptr<Pass> createCanonicalizer() {
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(true).setRegionSimplificationLevel(
      GreedySimplifyRegionLevel::Normal);
  SmallVector<std::string> disabled(std::begin(kSkippedPatterns),
                                    std::end(kSkippedPatterns));
  return createCanonicalizerPass(config, disabled);
}

/// The textual options of the registered pipeline.
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

void mlir::tspipe::buildTSPipeToNVVMPipeline(
    OpPassManager &pm, const TSPipeToNVVMOptions &options) {
  tspipe::configureNVPTXBackend();
  // tspipe passes run on the whole module, so that a kernel outside a
  // gpu.module is reported rather than left behind.
  // What the lowering needs beyond the op verifiers (X7 on every
  // gpu.module's targets, X9, nested brackets), before anything else runs.
  pm.addPass(tspipe::createTSPipeVerifyLowering());
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
  // Work steps may use upstream's nvgpu ops (TMA, warpgroup MMA; the
  // bridge of tspipe.ts.nvgpu_bridge, docs/gemm.md): lowered here, before
  // the cleanup, so that the bridge's casts meet nvgpu's own.
  gpuPm.addPass(createConvertNVGPUToNVVMPass());
  gpuPm.addPass(createCanonicalizer());
  gpuPm.addPass(createCSEPass());
  gpuPm.addPass(createSCFToControlFlowPass());
  gpuPm.addPass(createConvertGpuOpsToNVVMOps());
  // Tensor-map parameters: byval, 64-byte aligned, __grid_constant__.
  gpuPm.addPass(tspipe::createTensorMapParamsPass());
  gpuPm.addPass(createConvertNVVMToLLVMPass());
  gpuPm.addPass(createCanonicalizer());
  gpuPm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::tspipe::registerTSPipeToNVVMPipeline() {
  PassPipelineRegistration<TSPipeToNVVMPipelineOptions>(
      "tspipe-to-nvvm",
      "Lower tspipe kernels in gpu.modules to LLVM + NVVM, ready for "
      "gpu-module-to-binary",
      [](OpPassManager &pm, const TSPipeToNVVMPipelineOptions &options) {
        TSPipeToNVVMOptions plain;
        plain.debugHangTimeout = options.debugHangTimeout;
        plain.checkProgress = options.checkProgress;
        buildTSPipeToNVVMPipeline(pm, plain);
      });
}
