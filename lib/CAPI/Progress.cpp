//===- Progress.cpp - C API of the progress checker -----------------------===//

#include "tspipe-c/Progress.h"

#include "tspipe/Dialect/TSPipe/Analysis/Progress.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::tspipe;

void tspipeCheckProgress(MlirOperation op, bool withDot,
                         MlirStringCallback callback, void *userData) {
  unsigned ordinal = 0;
  unwrap(op)->walk([&](KernelOp kernel) {
    progress::ProgressResult result = progress::checkKernel(kernel);
    std::string json = progress::reportJson(
        kernel, progress::kernelName(kernel, ordinal++), result, withDot);
    callback(mlirStringRefCreate(json.data(), json.size()), userData);
  });
}
