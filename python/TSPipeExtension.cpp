//===- TSPipeExtension.cpp - the `_tspipe` Python extension ---------------===//
//
// `tspipe._mlir_libs._tspipe`: registers the tspipe dialect (and the upstream
// dialects a tspipe kernel needs) and the tspipe passes. C API only: every
// MLIR C++ symbol lives in the aggregate CAPI library.
//
// `tspipe._mlir_libs._site_initialize_0` calls `register_dialects` for every
// Context the package creates and `register_passes` once at import.
//
//===----------------------------------------------------------------------===//

#include "TSPipeRegistration.h"
#include "tspipe-c/Dialects.h"

#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <mutex>

namespace nb = nanobind;

NB_MODULE(_tspipe, m) {
  m.doc() = "tspipe dialect and pass registration (C API)";

  m.def(
      "register_dialects",
      [](MlirDialectRegistry registry) {
        tspipeRegisterCompilationDialects(registry);
      },
      nb::arg("registry"),
      "Inserts tspipe, gpu, nvvm, llvm, arith, scf, func, memref, cf, index, "
      "math and ub (plus their to-LLVM interfaces, the NVVM target and the "
      "LLVM IR translations) into a DialectRegistry.");

  m.def(
      "register_dialect",
      [](MlirContext context, bool load) {
        MlirDialectHandle handle = mlirGetDialectHandle__tspipe__();
        mlirDialectHandleRegisterDialect(handle, context);
        if (load)
          mlirDialectHandleLoadDialect(handle, context);
      },
      nb::arg("context").none() = nb::none(), nb::arg("load") = true,
      "Registers the tspipe dialect in `context` (default: the current "
      "Context) and loads it unless load=False. Contexts made by "
      "tspipe.ir.Context already have it.");

  m.def(
      "register_passes",
      []() {
        // Registering a pass pipeline twice is fatal in MLIR: do it once.
        static std::once_flag once;
        std::call_once(once, [] {
          tspipeRegisterPasses();
          tspipeRegisterCompilationPasses();
        });
      },
      "Registers the tspipe passes, the tspipe-to-nvvm pipeline and the "
      "upstream passes it builds on (idempotent).");
}
