//===- TripCount.h - domain bounds as exact integer expressions -*- C++ -*-===//
//
// Internal to the progress checker. The bounds of a domain loop are read
// into a table of integer expressions over *leaves* (values the checker
// cannot look into: kernel arguments, loads, special registers). Equal
// expressions share one entry: two tasks that compute the same bound with
// their own ops (the same ops on the same leaves and constants) get the same
// node, so their trip counts are recognized as equal.
//
// Each node can be
//  * evaluated exactly for given leaf values, with the semantics of the arith
//    op (divsi rounds toward zero, ceildivsi toward +inf, floordivsi toward
//    -inf, unsigned ops on the bit pattern, in the op's bit width);
//  * reduced, where possible, to a quasi-affine function of one leaf X,
//    mul * floor((a X + b) / d) + add, that equals the exact value for every
//    X >= `from` (e.g. `(x - 1) divsi 2` is floor((x - 1) / 2) only from
//    x = 1 on). The progress checker uses this form for its periodicity
//    argument and evaluates the exact form below `from`.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_DIALECT_TSPIPE_ANALYSIS_TRIPCOUNT_H
#define TSPIPE_LIB_DIALECT_TSPIPE_ANALYSIS_TRIPCOUNT_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace mlir::tspipe::progress::detail {

/// mul * floor((a X + b) / d) + add for X >= from, with d > 0; sym < 0 means
/// a constant (a = 0). All coefficients are exact 64-bit integers.
struct QuasiAffine {
  int sym = -1;
  int64_t a = 0, b = 0, d = 1, mul = 1, add = 0;
  int64_t from = 0;
  bool linear() const { return d == 1 && mul == 1; }
};

/// A table of interned integer expressions.
class ExprTable {
public:
  enum class Kind : uint8_t {
    Const,
    Leaf,
    Add,
    Sub,
    Mul,
    DivU,
    DivS,
    CeilDivU,
    CeilDivS,
    FloorDivS,
    RemU,
    RemS,
    MinS,
    MaxS,
    MinU,
    MaxU,
    SExt,
    ZExt,
    Trunc
  };
  struct Node {
    Node(Kind kind, unsigned width) : kind(kind), width(width) {}
    Kind kind;
    unsigned width;
    int lhs = -1, rhs = -1;
    llvm::APInt value; ///< Const
    int leaf = -1;     ///< Leaf
  };
  struct Leaf {
    Value value;
    std::string name;
  };

  /// The node of an integer or index value (index is 64 bits wide).
  int build(Value v);
  /// Exact value of `node` with leaf i set to leafValues[i] (each leaf is a
  /// nonnegative size below 2^(width - 1)); nullopt where the expression
  /// divides by zero or overflows a signed division.
  std::optional<llvm::APInt> eval(int node,
                                  llvm::ArrayRef<int64_t> leafValues) const;
  /// The quasi-affine form of `node`, when it has one in at most one leaf.
  std::optional<QuasiAffine> affine(int node) const;
  /// Leaves `node` depends on, appended to `out` (no duplicates).
  void leavesOf(int node, std::vector<int> &out) const;

  const std::vector<Leaf> &leaves() const { return leafList; }
  std::vector<Leaf> &leaves() { return leafList; }
  unsigned widthOf(int node) const { return nodes[node].width; }

private:
  int intern(Node n);
  int leafNode(Value v, unsigned width);
  std::vector<Node> nodes;
  std::vector<Leaf> leafList;
  std::map<std::tuple<int, unsigned, int, int, std::string, int>, int> index;
  /// Structural keys of opaque pure ops already made leaves.
  std::map<std::string, int> opaqueKeys;
  std::map<void *, int> valueNodes;
};

/// The quasi-affine form of max(0, ceil((ub - lb) / step)) (its max(0, .)
/// left to the caller) for a constant nonzero step, when the bounds have one
/// in the same symbol; a negative step counts from lb down to ub.
std::optional<QuasiAffine> tripCountForm(std::optional<QuasiAffine> lb,
                                         std::optional<QuasiAffine> ub,
                                         std::optional<QuasiAffine> step);

/// Smallest X >= 0 with mul * floor((a X + b) / d) + add >= need, for a
/// nondecreasing form (a >= 0, mul >= 0); nullopt when there is none or it
/// does not fit in 62 bits.
std::optional<int64_t> minXFor(const QuasiAffine &e, int64_t need);

} // namespace mlir::tspipe::progress::detail

#endif // TSPIPE_LIB_DIALECT_TSPIPE_ANALYSIS_TRIPCOUNT_H
