//===- TripCount.cpp - domain bounds as exact integer expressions ---------===//
//
// See TripCount.h. Exact evaluation follows the arith dialect's semantics;
// the quasi-affine reduction records, for every step that is floor division
// only on a nonnegative operand (divsi, divui, ceildivui, zero extension,
// unsigned min / max), from which X on the operand is nonnegative.
//
//===----------------------------------------------------------------------===//

#include "TripCount.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress::detail;
using llvm::APInt;
using Kind = ExprTable::Kind;

namespace {

/// Coefficients are kept below 2^36 in magnitude, so that a X + b stays
/// below 2^62 for every X the checker evaluates (below 2^26).
constexpr int64_t kMaxCoeff = int64_t(1) << 36;

bool fits(int64_t v) { return v > -kMaxCoeff && v < kMaxCoeff; }

bool mulOk(int64_t x, int64_t y, int64_t &r) {
  return !__builtin_mul_overflow(x, y, &r) && fits(r);
}
bool addOk(int64_t x, int64_t y, int64_t &r) {
  return !__builtin_add_overflow(x, y, &r) && fits(r);
}

int64_t floorDiv64(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t ceilDiv64(int64_t a, int64_t b) { return -floorDiv64(-a, b); }

using QA = std::optional<QuasiAffine>;

/// d == 1 and mul == 1 where the floor is the identity.
QA normalize(QuasiAffine e) {
  if (e.sym < 0) {
    int64_t v;
    if (!mulOk(e.mul, floorDiv64(e.b, e.d), v) || !addOk(v, e.add, v))
      return std::nullopt;
    QuasiAffine c;
    c.add = v;
    c.from = e.from;
    return c;
  }
  if (e.d == 1 && e.mul != 1) {
    int64_t a, b;
    if (!mulOk(e.a, e.mul, a) || !mulOk(e.b, e.mul, b) || !addOk(b, e.add, b))
      return std::nullopt;
    e.a = a;
    e.b = b;
    e.mul = 1;
    e.add = 0;
  }
  if (e.linear() && e.add != 0) {
    if (!addOk(e.b, e.add, e.b))
      return std::nullopt;
    e.add = 0;
  }
  if (e.a == 0 || e.mul == 0) {
    QuasiAffine c;
    c.add = e.mul * floorDiv64(e.b, e.d) + e.add;
    c.from = e.from;
    return c;
  }
  return e;
}

bool isConst(const QuasiAffine &e) { return e.sym < 0; }
int64_t constValue(const QuasiAffine &e) {
  return e.mul * floorDiv64(e.b, e.d) + e.add;
}
/// Nondecreasing and unbounded in X.
bool growing(const QuasiAffine &e) {
  return e.sym >= 0 && e.a > 0 && e.mul > 0;
}

QA addConst(QuasiAffine e, int64_t k) {
  if (!addOk(e.add, k, e.add))
    return std::nullopt;
  return normalize(e);
}

QA add(const QuasiAffine &l, const QuasiAffine &r) {
  if (isConst(r)) {
    QA e = addConst(l, constValue(r));
    if (e)
      e->from = std::max(e->from, r.from);
    return e;
  }
  if (isConst(l))
    return add(r, l);
  if (l.sym != r.sym || !l.linear() || !r.linear())
    return std::nullopt;
  QuasiAffine e = l;
  if (!addOk(l.a, r.a, e.a) || !addOk(l.b, r.b, e.b))
    return std::nullopt;
  e.from = std::max(l.from, r.from);
  return normalize(e);
}

QA mulConst(QuasiAffine e, int64_t k) {
  if (e.sym < 0) {
    QuasiAffine c;
    c.from = e.from;
    if (!mulOk(constValue(e), k, c.add))
      return std::nullopt;
    return c;
  }
  if (e.linear()) {
    if (!mulOk(e.a, k, e.a) || !mulOk(e.b, k, e.b))
      return std::nullopt;
  } else if (!mulOk(e.mul, k, e.mul) || !mulOk(e.add, k, e.add)) {
    return std::nullopt;
  }
  return normalize(e);
}

QA sub(const QuasiAffine &l, const QuasiAffine &r) {
  QA neg = mulConst(r, -1);
  if (!neg)
    return std::nullopt;
  return add(l, *neg);
}

/// floor(e / k) for k > 0.
QA floorDivConst(QuasiAffine e, int64_t k) {
  if (k <= 0)
    return std::nullopt;
  if (isConst(e)) {
    QuasiAffine c;
    c.add = floorDiv64(constValue(e), k);
    c.from = e.from;
    return c;
  }
  if (e.mul == 1) {
    // floor((floor((aX + b) / d) + add) / k) = floor((aX + b + add d) / (d k))
    int64_t ad, d;
    if (!mulOk(e.add, e.d, ad) || !addOk(e.b, ad, e.b) || !mulOk(e.d, k, d))
      return std::nullopt;
    e.d = d;
    e.add = 0;
  } else if (e.mul % k == 0) {
    // floor((mul F + add) / k) = (mul / k) F + floor(add / k)
    e.mul /= k;
    e.add = floorDiv64(e.add, k);
  } else {
    return std::nullopt;
  }
  return normalize(e);
}

/// Raises `from` so that e >= 0 for every X >= from; fails when e is not
/// eventually nonnegative.
QA nonnegative(QuasiAffine e) {
  if (isConst(e))
    return constValue(e) >= 0 ? QA(e) : std::nullopt;
  if (!growing(e))
    return std::nullopt;
  std::optional<int64_t> x = minXFor(e, 0);
  if (!x)
    return std::nullopt;
  e.from = std::max(e.from, *x);
  return e;
}

/// max(e, c) (or min(e, c)) for a growing e: e (or c) from where e >= c.
QA clampConst(QuasiAffine e, int64_t c, bool isMax) {
  if (!growing(e))
    return std::nullopt;
  std::optional<int64_t> x = minXFor(e, c);
  if (!x)
    return std::nullopt;
  int64_t from = std::max(e.from, *x);
  if (isMax) {
    e.from = from;
    return e;
  }
  QuasiAffine k;
  k.add = c;
  k.from = from;
  return k;
}

bool isSigned(Kind k) {
  return k == Kind::DivS || k == Kind::CeilDivS || k == Kind::FloorDivS ||
         k == Kind::RemS || k == Kind::MinS || k == Kind::MaxS;
}

} // namespace

std::optional<int64_t> progress::detail::minXFor(const QuasiAffine &e,
                                                 int64_t need) {
  if (e.sym < 0 || e.a == 0 || e.mul == 0)
    return constValue(e) >= need ? std::optional<int64_t>(0) : std::nullopt;
  if (e.a < 0 || e.mul < 0)
    return std::nullopt;
  // floor((a X + b) / d) >= f, f = ceil((need - add) / mul)
  int64_t f = ceilDiv64(need - e.add, e.mul), fd;
  if (__builtin_mul_overflow(f, e.d, &fd))
    return std::nullopt;
  int64_t x = ceilDiv64(fd - e.b, e.a);
  if (x < 0)
    x = 0;
  if (x >= (int64_t(1) << 62))
    return std::nullopt;
  return x;
}

std::optional<QuasiAffine>
progress::detail::tripCountForm(std::optional<QuasiAffine> lb,
                                std::optional<QuasiAffine> ub,
                                std::optional<QuasiAffine> step) {
  if (!lb || !ub || !step || !isConst(*step))
    return std::nullopt;
  int64_t k = constValue(*step);
  if (k == 0)
    return std::nullopt;
  if (k < 0) {
    std::swap(lb, ub);
    k = -k;
  }
  if (lb->sym >= 0 && ub->sym >= 0 && lb->sym != ub->sym)
    return std::nullopt;
  // ceil((ub - lb) / k) = floor((ub - lb + k - 1) / k)
  QA diff = sub(*ub, *lb);
  diff = diff ? addConst(*diff, k - 1) : std::nullopt;
  diff = diff ? floorDivConst(*diff, k) : std::nullopt;
  if (diff)
    diff->from = std::max({diff->from, lb->from, ub->from, step->from});
  return diff;
}

int ExprTable::intern(Node n) {
  auto key = std::make_tuple(
      static_cast<int>(n.kind), n.width, n.lhs, n.rhs,
      n.kind == Kind::Const ? llvm::toString(n.value, 16, true) : std::string(),
      n.leaf);
  auto [it, inserted] = index.try_emplace(key, nodes.size());
  if (inserted)
    nodes.push_back(std::move(n));
  return it->second;
}

static unsigned widthOfType(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth();
  return 64; // index (and anything else, which becomes a leaf)
}

int ExprTable::leafNode(Value v, unsigned width) {
  // Pure ops with the same name, attributes and operands compute the same
  // value: give them one leaf (e.g. two tasks' own `gpu.block_dim x`).
  std::string key;
  llvm::raw_string_ostream os(key);
  Operation *def = v.getDefiningOp();
  if (def && def->getNumRegions() == 0 && isMemoryEffectFree(def)) {
    os << "o" << def->getName().getStringRef() << ":"
       << def->getAttrDictionary().getAsOpaquePointer() << ":"
       << cast<OpResult>(v).getResultNumber();
    for (Value operand : def->getOperands()) {
      if (operand.getType().isIntOrIndex())
        os << ",n" << build(operand);
      else
        os << ",v" << operand.getAsOpaquePointer();
    }
  } else if (auto arg = dyn_cast<BlockArgument>(v);
             arg && isa_and_nonnull<mlir::tspipe::WorkTileLoopOp>(
                        arg.getOwner()->getParentOp())) {
    // Every task walks the kernel's one work queue (R35), so coordinate i
    // of the tile is the same value in every task's tile loop (and its
    // skip_if): one leaf (docs/ProgressChecker.md, Persistent tile loops).
    os << "tile" << arg.getArgNumber();
  } else {
    os << "v" << v.getAsOpaquePointer();
  }
  auto [it, inserted] = opaqueKeys.try_emplace(key, -1);
  if (inserted) {
    std::string name;
    llvm::raw_string_ostream ns(name);
    // The kernel is verified before the checker runs; without
    // assumeVerified the printer verifies the whole function again first.
    v.printAsOperand(ns, OpPrintingFlags().assumeVerified());
    leafList.push_back({v, name});
    Node n(Kind::Leaf, width);
    n.leaf = leafList.size() - 1;
    it->second = intern(std::move(n));
  }
  return it->second;
}

/// The initial value of `v` when `v` is a value a tspipe.domain_loop carries
/// (a block argument after the iteration, or a result) and its yield hands
/// the block argument back unchanged; null otherwise. A carried value that
/// changes stays a leaf: the checker reads it as one unknown size.
static Value invariantCarriedInit(Value v) {
  DomainLoopOp loop;
  unsigned pos = 0;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    loop = dyn_cast_or_null<DomainLoopOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return {};
    pos = arg.getArgNumber() - 1;
  } else if ((loop = v.getDefiningOp<DomainLoopOp>())) {
    pos = cast<OpResult>(v).getResultNumber();
  } else {
    return {};
  }
  YieldOp yield = loop.getYield();
  if (!yield || pos >= yield.getValues().size() ||
      pos >= loop.getInitArgs().size() ||
      yield.getValues()[pos] != loop.getRegionIterArgs()[pos])
    return {};
  return loop.getInitArgs()[pos];
}

int ExprTable::build(Value v) {
  auto cached = valueNodes.find(v.getAsOpaquePointer());
  if (cached != valueNodes.end())
    return cached->second;
  unsigned width = widthOfType(v.getType());
  auto result = [&](int node) {
    valueNodes[v.getAsOpaquePointer()] = node;
    return node;
  };
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c))) {
    Node n(Kind::Const, width);
    n.value = c.sextOrTrunc(width);
    return result(intern(std::move(n)));
  }
  // A value a domain loop carries unchanged (its yield forwards the block
  // argument) equals its initial value, in the body and after the loop.
  if (Value init = invariantCarriedInit(v))
    return result(build(init));
  Operation *def = v.getDefiningOp();
  if (!def || !v.getType().isIntOrIndex())
    return result(leafNode(v, width));
  auto binary = [&](Kind k) {
    Node n(k, width);
    n.lhs = build(def->getOperand(0));
    n.rhs = build(def->getOperand(1));
    return result(intern(std::move(n)));
  };
  auto cast = [&](bool isSigned) {
    int in = build(def->getOperand(0));
    unsigned from = nodes[in].width;
    if (from == width)
      return result(in);
    Node n(from > width ? Kind::Trunc
           : isSigned   ? Kind::SExt
                        : Kind::ZExt,
           width);
    n.lhs = in;
    return result(intern(std::move(n)));
  };
  if (isa<arith::AddIOp>(def))
    return binary(Kind::Add);
  if (isa<arith::SubIOp>(def))
    return binary(Kind::Sub);
  if (isa<arith::MulIOp>(def))
    return binary(Kind::Mul);
  if (isa<arith::DivUIOp>(def))
    return binary(Kind::DivU);
  if (isa<arith::DivSIOp>(def))
    return binary(Kind::DivS);
  if (isa<arith::CeilDivUIOp>(def))
    return binary(Kind::CeilDivU);
  if (isa<arith::CeilDivSIOp>(def))
    return binary(Kind::CeilDivS);
  if (isa<arith::FloorDivSIOp>(def))
    return binary(Kind::FloorDivS);
  if (isa<arith::RemUIOp>(def))
    return binary(Kind::RemU);
  if (isa<arith::RemSIOp>(def))
    return binary(Kind::RemS);
  if (isa<arith::MinSIOp>(def))
    return binary(Kind::MinS);
  if (isa<arith::MaxSIOp>(def))
    return binary(Kind::MaxS);
  if (isa<arith::MinUIOp>(def))
    return binary(Kind::MinU);
  if (isa<arith::MaxUIOp>(def))
    return binary(Kind::MaxU);
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(def))
    return cast(true);
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(def))
    return cast(false);
  return result(leafNode(v, width));
}

std::optional<APInt> ExprTable::eval(int id,
                                     ArrayRef<int64_t> leafValues) const {
  const Node &n = nodes[id];
  switch (n.kind) {
  case Kind::Const:
    return n.value;
  case Kind::Leaf:
    return APInt(64, leafValues[n.leaf], /*isSigned=*/true)
        .sextOrTrunc(n.width);
  case Kind::SExt:
  case Kind::ZExt:
  case Kind::Trunc: {
    std::optional<APInt> x = eval(n.lhs, leafValues);
    if (!x)
      return std::nullopt;
    return n.kind == Kind::SExt   ? x->sext(n.width)
           : n.kind == Kind::ZExt ? x->zext(n.width)
                                  : x->trunc(n.width);
  }
  default:
    break;
  }
  std::optional<APInt> l = eval(n.lhs, leafValues), r = eval(n.rhs, leafValues);
  if (!l || !r)
    return std::nullopt;
  bool divides = n.kind == Kind::DivU || n.kind == Kind::DivS ||
                 n.kind == Kind::CeilDivU || n.kind == Kind::CeilDivS ||
                 n.kind == Kind::FloorDivS || n.kind == Kind::RemU ||
                 n.kind == Kind::RemS;
  if (divides && r->isZero())
    return std::nullopt;
  if (divides && isSigned(n.kind) && l->isMinSignedValue() && r->isAllOnes())
    return std::nullopt;
  switch (n.kind) {
  case Kind::Add:
    return *l + *r;
  case Kind::Sub:
    return *l - *r;
  case Kind::Mul:
    return *l * *r;
  case Kind::DivU:
    return l->udiv(*r);
  case Kind::DivS: // rounds toward zero
    return l->sdiv(*r);
  case Kind::CeilDivU: {
    APInt q = l->udiv(*r);
    return l->urem(*r).isZero() ? q : q + 1;
  }
  case Kind::CeilDivS: {
    APInt q = l->sdiv(*r), rem = l->srem(*r);
    return (!rem.isZero() && rem.isNegative() == r->isNegative()) ? q + 1 : q;
  }
  case Kind::FloorDivS: {
    APInt q = l->sdiv(*r), rem = l->srem(*r);
    return (!rem.isZero() && rem.isNegative() != r->isNegative()) ? q - 1 : q;
  }
  case Kind::RemU:
    return l->urem(*r);
  case Kind::RemS:
    return l->srem(*r);
  case Kind::MinS:
    return llvm::APIntOps::smin(*l, *r);
  case Kind::MaxS:
    return llvm::APIntOps::smax(*l, *r);
  case Kind::MinU:
    return llvm::APIntOps::umin(*l, *r);
  case Kind::MaxU:
    return llvm::APIntOps::umax(*l, *r);
  default:
    return std::nullopt;
  }
}

void ExprTable::leavesOf(int id, std::vector<int> &out) const {
  const Node &n = nodes[id];
  if (n.kind == Kind::Leaf) {
    if (std::find(out.begin(), out.end(), n.leaf) == out.end())
      out.push_back(n.leaf);
    return;
  }
  if (n.lhs >= 0)
    leavesOf(n.lhs, out);
  if (n.rhs >= 0)
    leavesOf(n.rhs, out);
}

std::optional<QuasiAffine> ExprTable::affine(int id) const {
  const Node &n = nodes[id];
  std::vector<int> leaves;
  leavesOf(id, leaves);
  if (leaves.empty()) {
    // A constant expression: its exact value.
    std::optional<APInt> v = eval(id, {});
    if (!v || v->getSignificantBits() > 62)
      return std::nullopt;
    QuasiAffine c;
    c.add = v->getSExtValue();
    if (!fits(c.add))
      return std::nullopt;
    return c;
  }
  if (leaves.size() > 1)
    return std::nullopt;
  switch (n.kind) {
  case Kind::Leaf: {
    QuasiAffine e;
    e.sym = n.leaf;
    e.a = 1;
    return e;
  }
  case Kind::SExt:
  case Kind::Trunc:
    // Nonnegative sizes; the bound arithmetic is taken not to wrap.
    return affine(n.lhs);
  case Kind::ZExt: {
    QA x = affine(n.lhs);
    return x ? nonnegative(*x) : std::nullopt;
  }
  default:
    break;
  }
  QA l = affine(n.lhs), r = affine(n.rhs);
  if (!l || !r)
    return std::nullopt;
  switch (n.kind) {
  case Kind::Add:
    return add(*l, *r);
  case Kind::Sub:
    return sub(*l, *r);
  case Kind::Mul:
    if (isConst(*r))
      return mulConst(*l, constValue(*r));
    if (isConst(*l))
      return mulConst(*r, constValue(*l));
    return std::nullopt;
  default:
    break;
  }
  bool commutes = n.kind == Kind::MaxS || n.kind == Kind::MinS ||
                  n.kind == Kind::MaxU || n.kind == Kind::MinU;
  if (commutes && isConst(*l) && !isConst(*r))
    std::swap(l, r);
  if (!isConst(*r))
    return std::nullopt;
  int64_t k = constValue(*r);
  auto withFrom = [&](QA e) {
    if (e)
      e->from = std::max(e->from, r->from);
    return e;
  };
  switch (n.kind) {
  case Kind::FloorDivS:
    return withFrom(floorDivConst(*l, k));
  case Kind::DivS: // toward zero: floor only where the dividend is >= 0
  case Kind::DivU: {
    QA x = nonnegative(*l);
    return x ? withFrom(floorDivConst(*x, k)) : std::nullopt;
  }
  case Kind::CeilDivS: { // ceil(y / k) = floor((y + k - 1) / k), any sign
    QA x = k > 0 ? addConst(*l, k - 1) : std::nullopt;
    return x ? withFrom(floorDivConst(*x, k)) : std::nullopt;
  }
  case Kind::CeilDivU: {
    QA x = nonnegative(*l);
    x = x && k > 0 ? addConst(*x, k - 1) : std::nullopt;
    return x ? withFrom(floorDivConst(*x, k)) : std::nullopt;
  }
  case Kind::MaxS:
  case Kind::MinS:
    return withFrom(clampConst(*l, k, n.kind == Kind::MaxS));
  case Kind::MaxU:
  case Kind::MinU: {
    QA x = k >= 0 ? nonnegative(*l) : std::nullopt;
    return x ? withFrom(clampConst(*x, k, n.kind == Kind::MaxU)) : std::nullopt;
  }
  default:
    return std::nullopt; // remainders: not quasi-affine
  }
}
