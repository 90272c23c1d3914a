//===- Lowering.cpp - C API of the tspipe lowering ------------------------===//

#include "tspipe-c/Lowering.h"

#include "tspipe/Conversion/TSPipeToNVVM/Pipeline.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;

namespace {
tspipe::TSPipeToNVVMOptions toCpp(const TSPipeLoweringOptions *options) {
  tspipe::TSPipeToNVVMOptions result;
  if (options) {
    result.debugHangTimeout = options->debugHangTimeout;
    result.checkProgress = options->checkProgress;
  }
  return result;
}
} // namespace

TSPipeLoweringOptions tspipeLoweringOptionsGetDefault(void) {
  tspipe::TSPipeToNVVMOptions defaults;
  return TSPipeLoweringOptions{defaults.debugHangTimeout,
                               defaults.checkProgress};
}

void tspipeBuildTSPipeToNVVMPipeline(MlirOpPassManager passManager,
                                     const TSPipeLoweringOptions *options) {
  tspipe::buildTSPipeToNVVMPipeline(*unwrap(passManager), toCpp(options));
}

MlirLogicalResult tspipeLowerToNVVM(MlirModule module,
                                    const TSPipeLoweringOptions *options) {
  return wrap(tspipe::lowerKernel(unwrap(module), toCpp(options)));
}

MlirLogicalResult
tspipeLowerToPTX(MlirModule module, const TSPipeLoweringOptions *options,
                 void (*callback)(MlirStringRef name, MlirStringRef chip,
                                  MlirStringRef ptx, void *userData),
                 void *userData) {
  FailureOr<SmallVector<tspipe::PTXModule>> ptx =
      tspipe::lowerToPTX(unwrap(module), toCpp(options));
  if (failed(ptx))
    return mlirLogicalResultFailure();
  if (callback)
    for (const tspipe::PTXModule &m : *ptx)
      callback(mlirStringRefCreate(m.name.data(), m.name.size()),
               mlirStringRefCreate(m.chip.data(), m.chip.size()),
               mlirStringRefCreate(m.ptx.data(), m.ptx.size()), userData);
  return mlirLogicalResultSuccess();
}
