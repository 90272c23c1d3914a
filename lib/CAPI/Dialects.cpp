//===- Dialects.cpp - C API of the tspipe dialect -------------------------===//

#include "tspipe-c/Dialects.h"

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"
#include "tspipe/InitTSPipe.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TSPipe, tspipe,
                                      mlir::tspipe::TSPipeDialect)

void tspipeRegisterPasses(void) { mlir::tspipe::registerAllTSPipePasses(); }
