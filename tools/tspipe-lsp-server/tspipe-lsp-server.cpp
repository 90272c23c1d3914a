//===- tspipe-lsp-server.cpp - MLIR LSP server with tspipe ----------------===//
//
// mlir-lsp-server with the tspipe dialect and every upstream dialect and
// extension (the NVVM target among them): diagnostics of tspipe's verifiers,
// hovers, go-to-definition and completion in any editor speaking LSP.
//
//===----------------------------------------------------------------------===//

#include "tspipe/InitTSPipe.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::tspipe::registerTSPipeCompilationDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
