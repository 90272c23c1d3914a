//===- TSPipeRoutingRules.cpp - 2-CTA routing of copies and work (X5) ----===//
//
// With a CTA pair (cta_layout_vmnk V = 2) only the pair's leader CTA (rank
// % 2 == 0) arms a TMA stage's full barrier, for the bytes of both CTAs, so
// both CTAs' copies must complete on the leader's barrier, and the work of
// a side that TS signals from the leader only (CtaLeader) must be issued by
// the leader only (triton PRs 9460, 9510). Rule X5 (docs/Rules.md):
//
//  * `tspipe.full_barrier %s {pair_leader}` names the leader's full barrier
//    (lowered to the stage's full barrier address with the peer bit, bit 24
//    of the shared::cluster window, cleared): only on a producer stage of a
//    TMA pipeline with V = 2;
//  * the address a bulk copy completes on is followed from its stage
//    accessor through address-space casts, and through the peer-bit idiom
//    (ptrtoint, `and` with ~(1 << 24), inttoptr), which addresses the
//    leader's barrier like {pair_leader}; any other
//    arithmetic on a stage barrier's address is rejected (the check cannot
//    tell which barrier it names);
//  * with V = 2 a copy completing on the CTA's own full barrier of a TMA
//    stage is rejected: on the peer that barrier is never armed;
//  * in a task whose side of a V = 2 pipeline has cta_leader signaling,
//    tcgen05 work (nvvm.tcgen05.mma*, tcgen05.cp, tcgen05.commit) must run
//    on the leader CTAs only: under scf.if conditions that, modeled on every
//    CTA of the cluster (ClusterUniformity), hold on leader ranks only, or
//    in a task pinned with cta(n).
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/ClusterUniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

namespace {

/// The peer bit of a shared::cluster window address: clearing it addresses
/// the even CTA of a pair (PTX ISA, tcgen05 CTA pairs).
constexpr int64_t kPeerBit = int64_t(1) << 24;

bool fillsWithTma(PipelineOp pipe) {
  return getPipelineTypeFacts(pipe.getConfig().getPipelineType())
             .producer.unit == PipeUnit::Tma;
}

/// The bulk copies from global memory (the ones a CTA pair routes) and
/// their mbarrier operand.
Value routedCopyBarrier(Operation *op) {
  if (auto c = dyn_cast<NVVM::CpAsyncBulkGlobalToSharedClusterOp>(op))
    return c.getMbar();
  if (auto c = dyn_cast<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(op))
    return c.getMbar();
  return {};
}

/// True for an op that computes an integer or address from its operands.
bool isAddressArithmetic(Operation *op) {
  return isa<LLVM::PtrToIntOp, LLVM::IntToPtrOp, LLVM::GEPOp,
             LLVM::AddrSpaceCastOp, LLVM::AddOp, LLVM::SubOp, LLVM::AndOp,
             LLVM::OrOp, LLVM::XOrOp, LLVM::ZExtOp, LLVM::TruncOp>(op) ||
         isa_and_nonnull<arith::ArithDialect>(op->getDialect());
}

/// A stage barrier accessor that `v` is computed from through address
/// arithmetic (any path), or null.
Operation *barrierAccessorBehind(Value v) {
  SmallVector<Value> worklist{v};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value x = worklist.pop_back_val();
    if (!seen.insert(x).second)
      continue;
    Operation *def = x.getDefiningOp();
    if (!def)
      continue;
    if (isa<FullBarrierOp, EmptyBarrierOp>(def))
      return def;
    if (isAddressArithmetic(def))
      worklist.append(def->operand_begin(), def->operand_end());
  }
  return nullptr;
}

} // namespace

Value rules::peerBitCleared(Value v) {
  while (auto cast = v.getDefiningOp<LLVM::AddrSpaceCastOp>())
    v = cast.getArg();
  auto toPtr = v.getDefiningOp<LLVM::IntToPtrOp>();
  if (!toPtr)
    return {};
  Operation *mask = toPtr.getArg().getDefiningOp();
  if (!isa_and_nonnull<arith::AndIOp, LLVM::AndOp>(mask))
    return {};
  for (unsigned i = 0; i < 2; ++i) {
    APInt c;
    auto toInt = mask->getOperand(i).getDefiningOp<LLVM::PtrToIntOp>();
    if (!toInt || !matchPattern(mask->getOperand(1 - i), m_ConstantInt(&c)))
      continue;
    // ~(1 << 24) in the integer's width: every bit but the peer bit.
    APInt expected = ~APInt(c.getBitWidth(), kPeerBit);
    if (c.getBitWidth() > 24 && c == expected)
      return toInt.getArg();
  }
  return {};
}

namespace {

class RoutingChecker {
public:
  explicit RoutingChecker(KernelOp kernel)
      : kernel(kernel), u(kernel.getClusterExtents()) {}

  bool run() {
    for (auto task : kernel.getBody().getOps<TaskOp>()) {
      task.walk([&](Operation *op) {
        if (isPairLeaderBarrier(op))
          checkLeaderAccessor(op);
        if (Value mbar = routedCopyBarrier(op))
          checkCopyBarrier(op, mbar);
      });
      checkLeaderWork(task);
    }
    return ok;
  }

private:
  /// `tspipe.full_barrier %s {pair_leader}` only on a producer stage of a
  /// TMA pipeline with a CTA pair.
  void checkLeaderAccessor(Operation *op) {
    bool producer = false;
    PipelineOp pipe = stagePipeline(op->getOperand(0), producer);
    if (!pipe)
      return; // R22, the accessor's own verifier
    PipelineConfigAttr cfg = pipe.getConfig();
    if (producer && fillsWithTma(pipe) && cfg.getV() == 2)
      return;
    ok = false;
    op->emitOpError()
        << "[X5] {pair_leader} names the pair leader's full barrier, which "
           "only a producer stage of a TMA pipeline (tma_async, tma_umma) "
           "with a CTA pair (cta_layout_vmnk V = 2) has, but '@"
        << pipe.getSymName() << "' is a "
        << stringifyPipelineType(cfg.getPipelineType())
        << " pipeline with V = " << cfg.getV()
        << (producer ? "" : " and this is a consumer stage")
        << "; drop {pair_leader}";
  }

  void checkCopyBarrier(Operation *copy, Value mbar) {
    Value base = mbar;
    while (auto cast = base.getDefiningOp<LLVM::AddrSpaceCastOp>())
      base = cast.getArg();
    Operation *def = base.getDefiningOp();
    if (isPairLeaderBarrier(def) || isa_and_nonnull<EmptyBarrierOp>(def))
      return; // the leader's barrier; an empty barrier is X5's (CopyRules)
    if (Value inner = peerBitCleared(base))
      if (inner.getDefiningOp<FullBarrierOp>())
        return; // the peer-bit idiom on the stage's full barrier
    if (auto full = dyn_cast_or_null<FullBarrierOp>(def)) {
      // (not {pair_leader}: returned above)
      bool producer = false;
      PipelineOp pipe = stagePipeline(full.getStage(), producer);
      if (!pipe || !fillsWithTma(pipe) || pipe.getConfig().getV() != 2)
        return;
      ok = false;
      copy->emitOpError()
          << "[X5] completes on this CTA's own full barrier of '@"
          << pipe.getSymName()
          << "', but with a CTA pair (cta_layout_vmnk V = 2) only the pair "
             "leader arms the stage's full barrier, for both CTAs' bytes: "
             "on the peer CTA this barrier is never armed and the leader's "
             "phase never receives the peer's bytes (triton PRs 9460, "
             "9510); complete the copy on the leader's barrier, %lead = "
             "tspipe.full_barrier %s {pair_leader} : !llvm.ptr<3>";
      return;
    }
    if (Operation *accessor = barrierAccessorBehind(base)) {
      ok = false;
      copy->emitOpError()
          << "[X5] completes on an address computed from the '"
          << accessor->getName() << "' at " << accessor->getLoc()
          << " with arithmetic the check cannot follow, so which barrier "
             "(and whose bytes) it counts is unknown; use the accessor's "
             "address (tspipe.full_barrier), or the pair leader's "
             "(tspipe.full_barrier %s {pair_leader}) with a CTA pair";
    }
  }

  /// The first V = 2 pipeline on which `task` plays a side with cta_leader
  /// signaling, and that side's name.
  PipelineOp leaderSide(TaskOp task, const char *&side) {
    for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
      PipelineConfigAttr cfg = pipe.getConfig();
      if (cfg.getV() != 2)
        continue;
      StringRef name = pipe.getSymName();
      if (task.consumesPipeline(name) &&
          bitEnumContainsAny(cfg.getConsumerSignaling(),
                             SignalingThreads::CtaLeader)) {
        side = "consumer_signaling";
        return pipe;
      }
      if (task.producesPipeline(name) &&
          bitEnumContainsAny(cfg.getProducerSignaling(),
                             SignalingThreads::CtaLeader)) {
        side = "producer_signaling";
        return pipe;
      }
    }
    return {};
  }

  static bool isLeaderWork(Operation *op) {
    StringRef name = op->getName().getStringRef();
    // tcgen05.mma_smem_desc only computes a descriptor (no instruction).
    if (name == "nvvm.tcgen05.mma_smem_desc")
      return false;
    return name.starts_with("nvvm.tcgen05.mma") ||
           name == "nvvm.tcgen05.cp" || name == "nvvm.tcgen05.commit";
  }

  void checkLeaderWork(TaskOp task) {
    if (task.getRunOnlyOnCtaId() || kernel.getNumCtasInCluster() < 2)
      return;
    const char *side = nullptr;
    PipelineOp pipe = leaderSide(task, side);
    if (!pipe)
      return;
    task.walk([&](Operation *op) {
      if (!isLeaderWork(op))
        return;
      // The ranks the op runs on, from its enclosing conditions.
      SmallVector<int64_t> issuing;
      bool decided = true;
      // Only the peer ranks matter: whether a leader issues it (and under
      // which lane election) is the work's own business.
      for (int64_t r = 1; r < u.numCtas() && decided; r += 2) {
        bool runs = true;
        for (Operation *child = op, *up = op->getParentOp();
             up && up != task.getOperation();
             child = up, up = up->getParentOp()) {
          auto i = dyn_cast<scf::IfOp>(up);
          if (!i || !u.divergenceSource(i.getCondition()))
            continue;
          std::optional<APInt> c = u.evaluate(i.getCondition(), r);
          if (!c) {
            decided = false;
            break;
          }
          bool thenArm = child->getParentRegion() == &i.getThenRegion();
          runs &= c->isZero() != thenArm;
        }
        if (decided && runs)
          issuing.push_back(r);
      }
      auto peer = llvm::find_if(issuing, [](int64_t r) { return r % 2 != 0; });
      if (decided && peer == issuing.end())
        return;
      ok = false;
      InFlightDiagnostic d = op->emitOpError();
      d << "[X5] task '@" << task.getSymName() << "' plays the "
        << (StringRef(side) == "consumer_signaling" ? "consumer" : "producer")
        << " side of '@" << pipe.getSymName() << "' with " << side
        << " = cta_leader and a CTA pair (V = 2), so its barrier operations "
           "run on the pair leader only, but this tcgen05 op ";
      if (decided)
        d << "also runs on the peer CTA of rank " << *peer;
      else
        d << "runs under a condition the check cannot evaluate per CTA";
      d << ", without the wait that orders it (triton PRs 9460, 9510); "
           "issue it under scf.if on the pair leader (cluster rank % 2 == 0) "
           "or in a task pinned with cta(n)";
    });
  }

  KernelOp kernel;
  ClusterUniformity u;
  bool ok = true;
};

} // namespace

LogicalResult rules::verifyRoutingRules(KernelOp kernel) {
  return success(RoutingChecker(kernel).run());
}
