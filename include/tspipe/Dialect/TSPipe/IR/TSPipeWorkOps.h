//===- TSPipeWorkOps.h - attributes of the user's ops (rule X14) -*- C++
//-*-===//
//
// The check of the attributes of the ops a user writes in a kernel (work
// steps, setup code) that LLVM's translation assumes valid and asserts on
// otherwise, shared by the kernel verifier and the tspipe-to-nvvm pass
// (which applies it to every gpu.module it lowers).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_TSPIPEWORKOPS_H
#define TSPIPE_DIALECT_TSPIPE_IR_TSPIPEWORKOPS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tspipe {

/// Rule X14 over every op nested in `root`: an `alignment` of llvm.load,
/// llvm.store, llvm.alloca, llvm.atomicrmw, llvm.cmpxchg and an `llvm.align`
/// argument attribute of llvm.intr.memcpy / memmove / memset is 0 (none) or
/// a power of two of at most 2^32 bytes (LLVM's limit; LLVM asserts on any
/// other value when it translates the op). Every violation is reported.
LogicalResult verifyWorkOpAttrs(Operation *root);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_TSPIPEWORKOPS_H
