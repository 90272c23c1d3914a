//===- AliasLayout.h - storage placement with alias groups ------*- C++ -*-===//
//
// Where the shared- or tensor-memory storage of a kernel's resources goes
// when some of them share it through tspipe.alias_group (docs/Protocols.md,
// Alias groups). tspipe-allocate-smem places data buffers and TMEM columns
// with it; R44 counts the columns the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_ALIASLAYOUT_H
#define TSPIPE_DIALECT_TSPIPE_IR_ALIASLAYOUT_H

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tspipe {

/// Lays out the storage of `kernel` in one space (`tmem`: columns of
/// `tmem_columns`, else bytes of `smem_bytes`) from `base`, each block
/// aligned to `align` (a power of two): first every pipeline and
/// tspipe.buffer with storage in that space that no alias group of the
/// space lists, in declaration order (so a kernel without alias groups
/// keeps the layout it always had), then each alias group of the space, in
/// declaration order, as one block: every phase laid out from the block's
/// start (its members one after the other, each aligned), the block as
/// large as the largest phase. Calls `place(resource, offset)` once per
/// resource. Sums saturate at UINT64_MAX. Returns the end offset.
uint64_t layoutStorage(KernelOp kernel, bool tmem, uint64_t base,
                       uint64_t align,
                       llvm::function_ref<void(Operation *, uint64_t)> place);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_ALIASLAYOUT_H
