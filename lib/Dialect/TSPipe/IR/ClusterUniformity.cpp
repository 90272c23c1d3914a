//===- ClusterUniformity.cpp - values that differ between a cluster's CTAs ===//
//
// See ClusterUniformity.h. Divergence is found by walking a value's
// definition backwards (operands, region yields, the operands of the op
// that owns a block argument), memoized per value; a cycle through a loop's
// carried values is cut by taking the value as uniform while it is being
// decided (the other paths into the cycle still decide it). Evaluation per
// rank folds integer arithmetic on APInt with the widths of the IR (index:
// 64 bits).
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/ClusterUniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

/// The dimension (0: x, 1: y, 2: z) of a gpu dialect op's `dimension`
/// attribute (compared as text: the IR library does not depend on the GPU
/// dialect), or -1.
int gpuDimension(Operation *op) {
  Attribute attr = op->getAttr("dimension");
  if (!attr)
    return -1;
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  if (text.empty())
    return -1;
  switch (text[text.size() - (text.back() == '>' ? 2 : 1)]) {
  case 'x':
    return 0;
  case 'y':
    return 1;
  case 'z':
    return 2;
  default:
    return -1;
  }
}

/// The dimension of a special register read of `prefix` followed by
/// ".x" / ".y" / ".z", or -1.
int sregDimension(StringRef name, StringRef prefix) {
  if (!name.consume_front(prefix) || name.size() != 2 || name[0] != '.')
    return -1;
  return name[1] == 'x' ? 0 : name[1] == 'y' ? 1 : name[1] == 'z' ? 2 : -1;
}

/// What an operation reads of the CTA's position.
enum class Position {
  None,         // not a position read
  Rank,         // the CTA's rank in the cluster
  ClusterCoord, // its coordinate in the cluster along `dim`
  GridCoord,    // its block index in the grid along `dim`
  Other,        // differs between CTAs in a way not modeled (SM id, clock)
};

Position positionRead(Operation *op, int &dim) {
  StringRef name = op->getName().getStringRef();
  dim = -1;
  if (name == "nvvm.read.ptx.sreg.cluster.ctarank")
    return Position::Rank;
  if ((dim = sregDimension(name, "nvvm.read.ptx.sreg.cluster.ctaid")) >= 0)
    return Position::ClusterCoord;
  if ((dim = sregDimension(name, "nvvm.read.ptx.sreg.ctaid")) >= 0)
    return Position::GridCoord;
  if (name == "gpu.cluster_block_id") {
    dim = gpuDimension(op);
    return dim >= 0 ? Position::ClusterCoord : Position::Other;
  }
  if (name == "gpu.block_id" || name == "gpu.global_id") {
    dim = gpuDimension(op);
    return dim >= 0 ? Position::GridCoord : Position::Other;
  }
  if (name == "nvvm.read.ptx.sreg.smid" ||
      name.starts_with("nvvm.read.ptx.sreg.clock") ||
      name.starts_with("nvvm.read.ptx.sreg.globaltimer"))
    return Position::Other;
  return Position::None;
}

unsigned widthOf(Type t) {
  if (t.isIndex())
    return 64;
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth();
  return 0;
}

} // namespace

ClusterUniformity::ClusterUniformity(ArrayRef<int64_t> ext) {
  for (int d = 0; d < 3; ++d)
    extents[d] = d < static_cast<int>(ext.size()) ? std::max<int64_t>(ext[d], 1)
                                                  : 1;
}

Operation *ClusterUniformity::divergenceSource(Value v) {
  auto it = sources.find(v);
  if (it != sources.end())
    return it->second;
  sources[v] = nullptr; // while deciding: cuts cycles through loops
  Operation *src = computeSource(v);
  sources[v] = src;
  return src;
}

Operation *ClusterUniformity::computeSource(Value v) {
  // The values a region op's results and block arguments come from: its
  // operands (condition, bounds, initial values) and what its regions yield.
  auto fromRegionOp = [&](Operation *op) -> Operation * {
    for (Value operand : op->getOperands())
      if (Operation *s = divergenceSource(operand))
        return s;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (Operation *term = block.mightHaveTerminator()
                                  ? block.getTerminator()
                                  : nullptr)
          for (Value operand : term->getOperands())
            if (Operation *s = divergenceSource(operand))
              return s;
    return nullptr;
  };

  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    // A function's arguments are the kernel's: the same on every CTA.
    if (!owner || owner->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return nullptr;
    return fromRegionOp(owner);
  }

  Operation *op = v.getDefiningOp();
  int dim = -1;
  switch (positionRead(op, dim)) {
  case Position::Rank:
    return numCtas() > 1 ? op : nullptr;
  case Position::ClusterCoord:
  case Position::GridCoord:
    return extents[dim] > 1 ? op : nullptr;
  case Position::Other:
    return op;
  case Position::None:
    break;
  }

  // block index / c with c a multiple of the cluster's extent: the
  // cluster's index along that dimension, the same on every CTA.
  if (isa<arith::DivUIOp, arith::DivSIOp, LLVM::UDivOp, LLVM::SDivOp>(op)) {
    Operation *lhs = op->getOperand(0).getDefiningOp();
    while (lhs && isa<arith::IndexCastOp, arith::IndexCastUIOp, LLVM::ZExtOp,
                      arith::ExtUIOp>(lhs))
      lhs = lhs->getOperand(0).getDefiningOp();
    APInt c;
    if (lhs && positionRead(lhs, dim) == Position::GridCoord &&
        matchPattern(op->getOperand(1), m_ConstantInt(&c)) &&
        c.getSExtValue() > 0 && c.getSExtValue() % extents[dim] == 0)
      return nullptr;
  }

  if (op->getNumRegions() > 0)
    return fromRegionOp(op);
  for (Value operand : op->getOperands())
    if (Operation *s = divergenceSource(operand))
      return s;
  return nullptr;
}

std::optional<APInt> ClusterUniformity::evaluate(Value v, int64_t rank) {
  unsigned width = widthOf(v.getType());
  if (width == 0 || rank < 0 || rank >= numCtas())
    return std::nullopt;
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return c.zextOrTrunc(width);
  int dim = -1;
  switch (positionRead(op, dim)) {
  case Position::Rank:
    return APInt(width, rank);
  case Position::ClusterCoord: {
    int64_t coord = rank;
    for (int d = 0; d < dim; ++d)
      coord /= extents[d];
    return APInt(width, coord % extents[dim]);
  }
  case Position::GridCoord:
  case Position::Other:
    return std::nullopt;
  case Position::None:
    break;
  }
  auto operand = [&](unsigned i) { return evaluate(op->getOperand(i), rank); };

  // Casts.
  if (isa<arith::IndexCastOp, arith::ExtSIOp, LLVM::SExtOp>(op)) {
    auto a = operand(0);
    if (!a)
      return std::nullopt;
    return a->sextOrTrunc(width);
  }
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp, arith::TruncIOp, LLVM::ZExtOp,
          LLVM::TruncOp>(op)) {
    auto a = operand(0);
    if (!a)
      return std::nullopt;
    return a->zextOrTrunc(width);
  }
  if (isa<arith::SelectOp, LLVM::SelectOp>(op)) {
    auto cond = operand(0);
    if (!cond)
      return std::nullopt;
    return cond->isZero() ? operand(2) : operand(1);
  }
  if (op->getNumOperands() != 2)
    return std::nullopt;
  auto a = operand(0), b = operand(1);
  // A conjunction with a known zero (a disjunction with known ones) is
  // decided whatever the other operand, e.g. `elect.sync & is_pair_leader`
  // on the peer CTA.
  if (isa<arith::AndIOp, LLVM::AndOp>(op) && (a || b) && !(a && b)) {
    const APInt &known = a ? *a : *b;
    if (known.isZero())
      return known;
    return std::nullopt;
  }
  if (isa<arith::OrIOp, LLVM::OrOp>(op) && (a || b) && !(a && b)) {
    const APInt &known = a ? *a : *b;
    if (known.isAllOnes())
      return known;
    return std::nullopt;
  }
  if (!a || !b || a->getBitWidth() != b->getBitWidth())
    return std::nullopt;
  unsigned w = a->getBitWidth();
  auto predicate = [&](auto cmp) -> std::optional<APInt> {
    return APInt(1, cmp ? 1 : 0);
  };
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq:
      return predicate(a->eq(*b));
    case arith::CmpIPredicate::ne:
      return predicate(a->ne(*b));
    case arith::CmpIPredicate::slt:
      return predicate(a->slt(*b));
    case arith::CmpIPredicate::sle:
      return predicate(a->sle(*b));
    case arith::CmpIPredicate::sgt:
      return predicate(a->sgt(*b));
    case arith::CmpIPredicate::sge:
      return predicate(a->sge(*b));
    case arith::CmpIPredicate::ult:
      return predicate(a->ult(*b));
    case arith::CmpIPredicate::ule:
      return predicate(a->ule(*b));
    case arith::CmpIPredicate::ugt:
      return predicate(a->ugt(*b));
    case arith::CmpIPredicate::uge:
      return predicate(a->uge(*b));
    }
  }
  if (auto cmp = dyn_cast<LLVM::ICmpOp>(op)) {
    switch (cmp.getPredicate()) {
    case LLVM::ICmpPredicate::eq:
      return predicate(a->eq(*b));
    case LLVM::ICmpPredicate::ne:
      return predicate(a->ne(*b));
    case LLVM::ICmpPredicate::slt:
      return predicate(a->slt(*b));
    case LLVM::ICmpPredicate::sle:
      return predicate(a->sle(*b));
    case LLVM::ICmpPredicate::sgt:
      return predicate(a->sgt(*b));
    case LLVM::ICmpPredicate::sge:
      return predicate(a->sge(*b));
    case LLVM::ICmpPredicate::ult:
      return predicate(a->ult(*b));
    case LLVM::ICmpPredicate::ule:
      return predicate(a->ule(*b));
    case LLVM::ICmpPredicate::ugt:
      return predicate(a->ugt(*b));
    case LLVM::ICmpPredicate::uge:
      return predicate(a->uge(*b));
    }
  }
  if (isa<arith::AddIOp, LLVM::AddOp>(op))
    return *a + *b;
  if (isa<arith::SubIOp, LLVM::SubOp>(op))
    return *a - *b;
  if (isa<arith::MulIOp, LLVM::MulOp>(op))
    return *a * *b;
  if (isa<arith::AndIOp, LLVM::AndOp>(op))
    return *a & *b;
  if (isa<arith::OrIOp, LLVM::OrOp>(op))
    return *a | *b;
  if (isa<arith::XOrIOp, LLVM::XOrOp>(op))
    return *a ^ *b;
  if (isa<arith::MaxUIOp>(op))
    return a->uge(*b) ? *a : *b;
  if (isa<arith::MinUIOp>(op))
    return a->ule(*b) ? *a : *b;
  if (isa<arith::MaxSIOp>(op))
    return a->sge(*b) ? *a : *b;
  if (isa<arith::MinSIOp>(op))
    return a->sle(*b) ? *a : *b;
  // Shifts by the width or more and division by zero are poison in both
  // dialects: no value.
  if (isa<arith::ShLIOp, LLVM::ShlOp, arith::ShRUIOp, LLVM::LShrOp,
          arith::ShRSIOp, LLVM::AShrOp>(op)) {
    if (b->uge(w))
      return std::nullopt;
    unsigned s = b->getZExtValue();
    if (isa<arith::ShLIOp, LLVM::ShlOp>(op))
      return a->shl(s);
    if (isa<arith::ShRUIOp, LLVM::LShrOp>(op))
      return a->lshr(s);
    return a->ashr(s);
  }
  if (b->isZero())
    return std::nullopt;
  if (isa<arith::DivUIOp, LLVM::UDivOp>(op))
    return a->udiv(*b);
  if (isa<arith::RemUIOp, LLVM::URemOp>(op))
    return a->urem(*b);
  // Signed division rounds toward zero (APInt's sdiv / srem do too).
  bool overflows = a->isMinSignedValue() && b->isAllOnes();
  if (isa<arith::DivSIOp, LLVM::SDivOp>(op) && !overflows)
    return a->sdiv(*b);
  if (isa<arith::RemSIOp, LLVM::SRemOp>(op) && !overflows)
    return a->srem(*b);
  return std::nullopt;
}

bool ClusterUniformity::sameOnEveryCta(Value v, Operation *&source) {
  source = divergenceSource(v);
  if (!source)
    return true;
  std::optional<APInt> first = evaluate(v, 0);
  if (!first)
    return false;
  for (int64_t r = 1; r < numCtas(); ++r) {
    std::optional<APInt> other = evaluate(v, r);
    if (!other || *other != *first)
      return false;
  }
  source = nullptr;
  return true;
}

std::string mlir::tspipe::describeDivergenceSource(Operation *source) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << source->getName() << "'";
  if (Attribute dim = source->getAttr("dimension")) {
    os << " ";
    dim.print(os);
  }
  os << " at " << source->getLoc();
  return text;
}
