//===- InitTSPipe.cpp - registration of tspipe and what it builds on ------===//

#include "tspipe/InitTSPipe.h"

#include "tspipe/Conversion/Passes.h"
#include "tspipe/Conversion/TSPipeToNVVM/Pipeline.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include <mutex>

using namespace mlir;

void tspipe::registerTSPipeDialect(DialectRegistry &registry) {
  registry.insert<tspipe::TSPipeDialect>();
}

void tspipe::registerTSPipeCompilationDialects(DialectRegistry &registry) {
  registerTSPipeDialect(registry);
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  index::IndexDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, nvgpu::NVGPUDialect, NVVM::NVVMDialect,
                  scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();

  // convert-gpu-to-nvvm (and convert-to-llvm) lower the ops of every loaded
  // dialect through its ConvertToLLVMPatternInterface.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);

  // gpu-module-to-binary: #nvvm.target serializes through LLVM IR.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void tspipe::registerAllTSPipePasses() {
  // Registering a pass pipeline twice is fatal in MLIR: do it once.
  static std::once_flag once;
  std::call_once(once, [] {
    tspipe::registerTSPipePasses();
    tspipe::registerTSPipeConversionPasses();
    tspipe::registerTSPipeToNVVMPipeline();
  });
}

void tspipe::registerTSPipeCompilationPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerTransformsPasses();
    registerGPUPasses();
    registerArithToLLVMConversionPass();
    registerConvertControlFlowToLLVMPass();
    registerConvertFuncToLLVMPass();
    registerConvertGpuOpsToNVVMOps();
    registerConvertIndexToLLVMPass();
    registerConvertMathToLLVMPass();
    registerConvertNVGPUToNVVMPass();
    registerConvertNVVMToLLVMPass();
    registerConvertToLLVMPass();
    registerFinalizeMemRefToLLVMConversionPass();
    registerLowerAffinePass();
    registerReconcileUnrealizedCastsPass();
    registerSCFToControlFlowPass();
    registerUBToLLVMConversionPass();
  });
}
