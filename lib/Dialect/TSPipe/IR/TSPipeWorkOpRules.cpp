//===- TSPipeWorkOpRules.cpp - attributes of the user's ops (rule X14) ----===//
//
// LLVM's translation takes an op's alignment as an `llvm::Align`, which
// asserts that it is a power of two and at most 2^32: an `llvm.load` with
// `alignment = 3` (or -2^63) in a work step passed verification and then
// aborted the process translating it. Rule X14 rejects such attributes
// first, with the op and the value (docs/Rules.md).
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeWorkOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

/// LLVM's largest alignment (llvm::Value::MaxAlignmentExponent = 32).
static constexpr uint64_t kMaxAlignment = uint64_t(1) << 32;

/// True when `attr` is an alignment LLVM accepts: 0 (none) or a power of
/// two of at most 2^32 bytes.
static bool validAlignment(IntegerAttr attr) {
  APInt v = attr.getValue();
  if (v.isZero())
    return true;
  if (v.isNegative() && attr.getType().isSignedInteger())
    return false;
  // Signless values are read as signed: -2^63 is not an alignment.
  if (v.getSignificantBits() > 34 || v.isNegative())
    return false;
  uint64_t bytes = v.getZExtValue();
  return llvm::isPowerOf2_64(bytes) && bytes <= kMaxAlignment;
}

static void reportAlignment(Operation *op, StringRef where, IntegerAttr attr) {
  std::string value = llvm::toString(
      attr.getValue(), 10, /*Signed=*/!attr.getType().isUnsignedInteger());
  op->emitOpError() << "[X14] has " << where << " = " << value
                    << ", but an alignment is a power of two of at most 2^32 "
                       "bytes (or 0 for none); LLVM cannot translate any "
                       "other value: use 1, 2, 4, 8, 16, ...";
}

LogicalResult mlir::tspipe::verifyWorkOpAttrs(Operation *root) {
  bool ok = true;
  root->walk([&](Operation *op) {
    if (auto align = op->getAttrOfType<IntegerAttr>("alignment"))
      if (!validAlignment(align)) {
        reportAlignment(op, "alignment", align);
        ok = false;
      }
    if (auto argAttrs = op->getAttrOfType<ArrayAttr>("arg_attrs"))
      for (auto [i, a] : llvm::enumerate(argAttrs)) {
        auto dict = dyn_cast<DictionaryAttr>(a);
        auto align = dict ? dict.getAs<IntegerAttr>("llvm.align") : nullptr;
        if (align && !validAlignment(align)) {
          reportAlignment(op, ("llvm.align of operand " + Twine(i)).str(),
                          align);
          ok = false;
        }
      }
  });
  return success(ok);
}
