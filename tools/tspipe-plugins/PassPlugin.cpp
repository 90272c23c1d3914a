//===- PassPlugin.cpp - tspipe pass plugin for mlir-opt -------------------===//
//
// `mlir-opt --load-pass-plugin=TSPipePassPlugin.so` registers the tspipe
// passes, convert-tspipe-to-nvvm and the tspipe-to-nvvm pipeline. The
// dialect comes from TSPipeDialectPlugin.so (load both).
//
//===----------------------------------------------------------------------===//

#include "tspipe/InitTSPipe.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TSPipePasses", LLVM_VERSION_STRING,
          []() { mlir::tspipe::registerAllTSPipePasses(); }};
}
