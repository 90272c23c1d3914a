//===- Pipeline.h - the public tspipe lowering API ----------------*- C++
//-*-===//
//
// The lowering of tspipe kernels to LLVM + NVVM (and on to PTX) as a library,
// for compilers that run it inside their own pass pipeline. Library:
// `MLIRTSPipeLowering` (CMake package target `TSPipe::TSPipeLowering`).
//
// The context the module lives in must have the dialects and extensions that
// `registerTSPipeCompilationDialects` (tspipe/InitTSPipe.h) inserts: the
// lowering creates gpu, nvvm, llvm, scf, cf and arith ops, converts them
// through their ConvertToLLVM interfaces and, for PTX, serializes
// `#nvvm.target`s through the LLVM IR translations.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_CONVERSION_TSPIPETONVVM_PIPELINE_H
#define TSPIPE_CONVERSION_TSPIPETONVVM_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace mlir::tspipe {

/// Options of the `tspipe-to-nvvm` pipeline (the pipeline's textual options
/// of the same names).
struct TSPipeToNVVMOptions {
  /// If > 0, every blocking barrier wait traps after this many failed polls
  /// (`debug-hang-timeout`); 0 waits forever.
  int64_t debugHangTimeout = 0;
  /// Run `tspipe-check-progress` (deadlock and credit balance: R70, R71, X8)
  /// before lowering (`check-progress`).
  bool checkProgress = true;
};

/// Appends the `tspipe-to-nvvm` pipeline to `pm`, which must be anchored on
/// `builtin.module`: tspipe-normalize, tspipe-allocate-smem (R43),
/// tspipe-check-progress (unless disabled), convert-tspipe-to-nvvm, then in
/// every gpu.module canonicalize, cse, convert-scf-to-cf,
/// convert-gpu-to-nvvm, convert-nvvm-to-llvm, canonicalize, cse, and finally
/// reconcile-unrealized-casts. The result is ready for
/// `gpu-module-to-binary`. Also sets the process-wide NVPTX backend options
/// (configureNVPTXBackend in tspipe/Conversion/Passes.h).
void buildTSPipeToNVVMPipeline(OpPassManager &pm,
                               const TSPipeToNVVMOptions &options = {});

/// Registers the pipeline above as `tspipe-to-nvvm` with the global pass
/// registry, with the textual options `debug-hang-timeout=N` and
/// `check-progress=true|false`. Registering it twice is fatal (MLIR's pass
/// registry): call it once per process (registerAllTSPipePasses does).
void registerTSPipeToNVVMPipeline();

/// Runs `tspipe-to-nvvm` on `module` in place. Verifier and lowering errors
/// are reported through the context's diagnostic handler; returns failure
/// after any of them (the module is then in an unspecified, partly lowered
/// state).
LogicalResult lowerKernel(ModuleOp module,
                          const TSPipeToNVVMOptions &options = {});

/// The PTX of one gpu.module for one of its targets.
struct PTXModule {
  /// The gpu.module's symbol name (also the gpu.binary's).
  std::string name;
  /// The target's chip, e.g. "sm_90a".
  std::string chip;
  /// The PTX text.
  std::string ptx;
};

/// lowerKernel, then `gpu-module-to-binary{format=isa}`: returns the PTX of
/// every gpu.module for each of its `#nvvm.target`s (a gpu.module with no
/// target is an error of gpu-module-to-binary). `module` holds the
/// gpu.binary ops afterwards. Fails, after reporting the diagnostics, when
/// either step does.
FailureOr<SmallVector<PTXModule>>
lowerToPTX(ModuleOp module, const TSPipeToNVVMOptions &options = {});

} // namespace mlir::tspipe

#endif // TSPIPE_CONVERSION_TSPIPETONVVM_PIPELINE_H
