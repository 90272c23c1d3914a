//===- DialectPlugin.cpp - tspipe dialect plugin for mlir-opt -------------===//
//
// `mlir-opt --load-dialect-plugin=TSPipeDialectPlugin.so` inserts the tspipe
// dialect into mlir-opt's registry (mlir-opt registers the upstream dialects
// itself).
//
//===----------------------------------------------------------------------===//

#include "tspipe/InitTSPipe.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TSPipe", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::tspipe::registerTSPipeDialect(*registry);
          }};
}
