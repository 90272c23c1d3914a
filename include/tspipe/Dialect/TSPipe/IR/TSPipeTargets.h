//===- TSPipeTargets.h - NVVM target checks (rule X7) -----------*- C++ -*-===//
//
// The check of one `#nvvm.target`, shared by the kernel verifier and the
// tspipe-to-nvvm pass (which applies it to every gpu.module it sees).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_TSPIPETARGETS_H
#define TSPIPE_DIALECT_TSPIPE_IR_TSPIPETARGETS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tspipe {

/// Rule X7 for one `#nvvm.target` of gpu.module `moduleName`: a chip the
/// CUDA 13 toolkit knows and `features` empty or one `+ptxNN` with a PTX ISA
/// version LLVM knows, in range for the chip. The error is emitted at
/// `diagAt`. Checked for every gpu.module, with or without a tspipe kernel,
/// before LLVM's NVPTX backend sees the target (it aborts on a malformed
/// feature string). Returns the least PTX ISA version (x10) the chip needs,
/// or failure; an attribute other than an `#nvvm.target` gives 0.
FailureOr<int> verifyNVVMTarget(Operation *diagAt, StringRef moduleName,
                                Attribute target);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_TSPIPETARGETS_H
