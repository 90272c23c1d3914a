//===- TSPipeTcgen05Rules.h - one CTA group per kernel (rule X32) -*- C++ -*-===//
//
// The check that every tcgen05 instruction of a kernel function uses one
// CTA group, the user's work-step and setup ops (tcgen05.alloc, .mma, ...)
// and the commits the kernel's pipelines lower to alike; run by
// tspipe-verify-lowering on every gpu.func.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_TSPIPETCGEN05RULES_H
#define TSPIPE_DIALECT_TSPIPE_IR_TSPIPETCGEN05RULES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tspipe {

/// Rule X32 over the function `func` (a gpu.func): every `nvvm.tcgen05.*`
/// op nested in it that names a CTA group (`group` or `ctaGroup`, a
/// #nvvm.cta_group) names the same one, and it is the group the tcgen05
/// pipelines of its tspipe kernels commit with (cta_group::2 when V = 2 in
/// their cta_layout_vmnk, else cta_group::1); the tcgen05 pipelines of one
/// function agree on it too. ptxas rejects a function that mixes the two
/// groups (PTX ISA, tcgen05 .cta_group). Every violation is reported.
LogicalResult verifyTcgen05CtaGroups(Operation *func);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_TSPIPETCGEN05RULES_H
