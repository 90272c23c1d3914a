//===- consumer.cpp - a tool outside tspipe that uses tspipe --------------===//
//
// Usage: tspipe-consumer FILE.mlir
// Parses FILE, verifies it (tspipe's rules), lowers it with tspipe's
// lowering and prints one line per PTX module: its name, chip, size and
// `.entry` names. Diagnostics go to stderr; exit status 1 after any.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Conversion/TSPipeToNVVM/Pipeline.h"
#include "tspipe/InitTSPipe.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: " << argv[0] << " FILE.mlir\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  mlir::tspipe::registerTSPipeCompilationDialects(registry);
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  if (mlir::failed(mlir::verify(*module))) {
    llvm::errs() << "verification failed\n";
    return 1;
  }
  auto ptx = mlir::tspipe::lowerToPTX(*module);
  if (mlir::failed(ptx)) {
    llvm::errs() << "lowering failed\n";
    return 1;
  }
  for (const mlir::tspipe::PTXModule &m : *ptx) {
    llvm::outs() << "module " << m.name << " chip " << m.chip << " bytes "
                 << m.ptx.size() << "\n";
    llvm::StringRef text(m.ptx);
    while (!text.empty()) {
      auto [line, rest] = text.split('\n');
      if (line.contains(".entry"))
        llvm::outs() << "  " << line.trim() << "\n";
      text = rest;
    }
  }
  return 0;
}
