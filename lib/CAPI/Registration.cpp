//===- Registration.cpp - C API: what a tspipe compilation registers ------===//

#include "tspipe-c/Registration.h"

#include "tspipe/InitTSPipe.h"

#include "mlir/CAPI/IR.h"

void tspipeRegisterCompilationDialects(MlirDialectRegistry registry) {
  mlir::tspipe::registerTSPipeCompilationDialects(*unwrap(registry));
}

void tspipeRegisterCompilationPasses(void) {
  mlir::tspipe::registerTSPipeCompilationPasses();
}
