//===- TSPipeCopyRules.cpp - the operations that fill and drain stages ----===//
//
// Where the IR shows which operation completes on a stage's barrier, it
// must fit the pipeline (tspipe rules X5 and X6, docs/Rules.md):
//
// * X5: a bulk copy (`nvvm.cp.async.bulk.*`) completes its bytes only on the
//   full barrier of a TMA pipeline (tma_async, tma_umma); a
//   `nvvm.tcgen05.commit` arrives only on a side that tcgen05 signals (the
//   full barrier of umma_async / umma_umma, the empty barrier of tma_umma /
//   async_umma / umma_umma).
// * X6: every bulk copy moves a multiple of 16 bytes (PTX ISA,
//   cp.async.bulk; B19), and where the copies completing on the full
//   barrier of one acquired stage all have constant sizes and no multicast,
//   they add up to the bytes one arm expects: num_bytes_per_warp_per_cta
//   when declared, else num_bytes (B18).
//
// A barrier is followed from its tspipe.full_barrier / empty_barrier
// accessor through address-space casts. Copies that this walk cannot see
// (in a called function, in inline assembly) are not checked, so a TMA
// bracket without a visible copy is accepted.
//
//===----------------------------------------------------------------------===//

#include "TSPipeNVGPUCopies.h"
#include "TSPipeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::rules;

namespace {

/// A stage barrier a value addresses: the pipeline, the side of the
/// accessor's stage and whether it is the full (true) or empty barrier.
struct StageBarrier {
  PipelineOp pipe;
  Operation *accessor; // tspipe.full_barrier / tspipe.empty_barrier
  bool full;
};

std::optional<StageBarrier> barrierOf(Value v) {
  v = rules::throughNVGPUBridge(v);
  while (auto cast = v.getDefiningOp<LLVM::AddrSpaceCastOp>())
    v = cast.getArg();
  // The pair leader's full barrier: the peer-bit idiom on a stage barrier
  // (TSPipeRoutingRules.cpp) names the same stage's barrier in the leader.
  if (Value inner = peerBitCleared(v))
    v = inner;
  Operation *def = v.getDefiningOp();
  if (!isa_and_nonnull<FullBarrierOp, EmptyBarrierOp>(def))
    return std::nullopt;
  bool producer = false;
  PipelineOp pipe = stagePipeline(def->getOperand(0), producer);
  if (!pipe)
    return std::nullopt;
  return StageBarrier{pipe, def, !isa<EmptyBarrierOp>(def)};
}

/// A bulk copy completing on an mbarrier: its barrier, its byte count when
/// constant, and whether it multicasts.
struct BulkCopy {
  Operation *op;
  Value mbar;
  std::optional<int64_t> bytes; // none: tensor copy or dynamic size
  bool multicast;
};

std::optional<BulkCopy> asBulkCopy(Operation *op) {
  auto constant = [](Value size) -> std::optional<int64_t> {
    APInt c;
    if (matchPattern(size, m_ConstantInt(&c)))
      return c.getSExtValue();
    return std::nullopt;
  };
  if (auto c = dyn_cast<NVVM::CpAsyncBulkGlobalToSharedClusterOp>(op))
    return BulkCopy{op, c.getMbar(), constant(c.getSize()),
                    static_cast<bool>(c.getMulticastMask())};
  if (auto c = dyn_cast<NVVM::CpAsyncBulkSharedCTAToSharedClusterOp>(op))
    return BulkCopy{op, c.getMbar(), constant(c.getSize()), false};
  if (auto c = dyn_cast<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(op))
    return BulkCopy{op, c.getMbar(), std::nullopt,
                    static_cast<bool>(c.getMulticastMask())};
  // nvgpu's tensor copy: its box (the tensor-map type's tile) is known.
  if (std::optional<rules::NVGPUTmaCopy> c = rules::asNVGPUTmaCopy(op))
    return BulkCopy{op, c->barriers, c->boxBytes, c->multicast};
  return std::nullopt;
}

bool fillsWithTma(PipelineType t) {
  return getPipelineTypeFacts(t).producer.unit == PipeUnit::Tma;
}
bool fillsWithTcgen05(PipelineType t) {
  return getPipelineTypeFacts(t).producer.unit == PipeUnit::Umma;
}
bool drainsWithTcgen05(PipelineType t) {
  return getPipelineTypeFacts(t).consumer.unit == PipeUnit::Umma;
}

/// X5 on a bulk copy or tcgen05.commit; X6 (16-byte multiple) on a copy.
bool checkSignal(Operation *op) {
  bool ok = true;
  if (std::optional<BulkCopy> copy = asBulkCopy(op)) {
    if (copy->bytes && *copy->bytes % 16 != 0) {
      ok = false;
      op->emitOpError() << "[X6] copies " << *copy->bytes
                        << " bytes, not a multiple of 16 (bulk copies move "
                           "16-byte multiples; other sizes are undefined); "
                           "round the size to a multiple of 16";
    }
    std::optional<StageBarrier> bar = barrierOf(copy->mbar);
    if (!bar)
      return ok;
    PipelineType type = bar->pipe.getConfig().getPipelineType();
    if (!bar->full || !fillsWithTma(type)) {
      ok = false;
      op->emitOpError() << "[X5] completes its bytes on the "
                        << (bar->full ? "full" : "empty") << " barrier of '@"
                        << bar->pipe.getSymName() << "', a "
                        << stringifyPipelineType(type)
                        << " pipeline, but only the full barrier of a TMA "
                           "pipeline (tma_async, tma_umma) counts "
                           "transaction bytes; declare the pipeline as a "
                           "TMA type or signal the stage with its own "
                           "bracket";
    }
    return ok;
  }
  if (auto commit = dyn_cast<NVVM::Tcgen05CommitOp>(op)) {
    std::optional<StageBarrier> bar = barrierOf(commit.getAddr());
    if (!bar)
      return true;
    PipelineType type = bar->pipe.getConfig().getPipelineType();
    bool fits = bar->full ? fillsWithTcgen05(type) : drainsWithTcgen05(type);
    if (fits)
      return true;
    op->emitOpError() << "[X5] arrives with tcgen05 on the "
                      << (bar->full ? "full" : "empty") << " barrier of '@"
                      << bar->pipe.getSymName() << "', but the "
                      << (bar->full ? "producer" : "consumer") << " side of a "
                      << stringifyPipelineType(type)
                      << " pipeline is signalled by threads or TMA; use a "
                         "pipeline type whose "
                      << (bar->full ? "producer" : "consumer")
                      << " is tcgen05 or let the bracket signal the stage";
    return false;
  }
  return true;
}

/// The bytes the copies of one bracket deliver to a stage's full barrier on
/// the paths through it: every path delivers between `min` and `max`.
/// `skipped` names why no count is possible (dynamic control flow).
struct ByteRange {
  int64_t min = 0, max = 0;
  std::optional<std::string> skipped;
  ByteRange &operator+=(const ByteRange &o) {
    if (!skipped)
      skipped = o.skipped;
    if (__builtin_add_overflow(min, o.min, &min) ||
        __builtin_add_overflow(max, o.max, &max))
      skipped = "a byte count beyond 64 bits";
    return *this;
  }
};

/// True when `cond` is (an `arith.andi` with) the result of
/// `nvvm.elect.sync`: one lane of each warp takes the branch.
bool isElect(Value cond) {
  Operation *def = cond.getDefiningOp();
  if (isa_and_nonnull<NVVM::ElectSyncOp>(def))
    return true;
  if (auto both = dyn_cast_or_null<arith::AndIOp>(def))
    return isElect(both.getLhs()) || isElect(both.getRhs());
  return false;
}

std::string describe(Operation *op, StringRef why) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << why << " ('" << op->getName() << "' at " << op->getLoc() << ")";
  return text;
}

/// Counts the bytes of the copies in `ours` over the ops of `ops` (the
/// bracket's ops after the acquire, or a nested block): a static `scf.for`
/// multiplies its body by its trip count, the arms of an `scf.if` are
/// alternatives (an elected branch is the path of the lane that issues the
/// copy), anything else that holds one of the copies cannot be counted.
template <typename Range>
ByteRange countBytes(Range &&ops, const DenseMap<Operation *, int64_t> &ours);

bool holdsCopy(Operation *op, const DenseMap<Operation *, int64_t> &ours) {
  bool found = false;
  op->walk([&](Operation *inner) {
    if (ours.count(inner)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

ByteRange countOp(Operation *op, const DenseMap<Operation *, int64_t> &ours) {
  ByteRange r;
  if (auto it = ours.find(op); it != ours.end()) {
    r.min = r.max = it->second;
    return r;
  }
  if (op->getNumRegions() == 0 || !holdsCopy(op, ours))
    return r;
  auto region = [&](Region &reg) {
    return reg.empty() ? ByteRange() : countBytes(reg.front(), ours);
  };
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    APInt lb, ub, st;
    if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
        !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
        !matchPattern(loop.getStep(), m_ConstantInt(&st)) ||
        !st.isStrictlyPositive() || lb.getSignificantBits() > 32 ||
        ub.getSignificantBits() > 32 || st.getSignificantBits() > 32) {
      r.skipped = describe(op, "a copy in a loop with a dynamic trip count");
      return r;
    }
    int64_t span = ub.getSExtValue() - lb.getSExtValue();
    int64_t step = st.getSExtValue();
    int64_t trips = span <= 0 ? 0 : (span + step - 1) / step;
    ByteRange body = region(loop.getRegion());
    r.skipped = body.skipped;
    if (__builtin_mul_overflow(body.min, trips, &r.min) ||
        __builtin_mul_overflow(body.max, trips, &r.max))
      r.skipped = describe(op, "a byte count beyond 64 bits");
    return r;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    ByteRange thenR = region(branch.getThenRegion());
    // The lane elect.sync picks issues the copy; the others deliver none.
    if (isElect(branch.getCondition()) ||
        matchPattern(branch.getCondition(), m_One()))
      return thenR;
    ByteRange elseR = region(branch.getElseRegion());
    r.min = std::min(thenR.min, elseR.min);
    r.max = std::max(thenR.max, elseR.max);
    r.skipped = thenR.skipped ? thenR.skipped : elseR.skipped;
    return r;
  }
  r.skipped = describe(op, "a copy inside an operation whose control flow "
                           "the check does not follow");
  return r;
}

template <typename Range>
ByteRange countBytes(Range &&ops, const DenseMap<Operation *, int64_t> &ours) {
  ByteRange sum;
  for (Operation &op : ops)
    sum += countOp(&op, ours);
  return sum;
}

/// X6: a copy that no `nvvm.elect.sync` branch guards is issued by
/// every lane of the task's warps, so the stage receives 32 times the bytes
/// of one copy per warp. Decided only where every op between the copy and
/// the task is a loop, a loop guard or an `scf.if` on a constant true: any
/// other condition may select one lane.
bool checkElected(Operation *copy, Operation *task) {
  for (Operation *p = copy->getParentOp(); p && p != task;
       p = p->getParentOp()) {
    if (auto branch = dyn_cast<scf::IfOp>(p)) {
      if (!matchPattern(branch.getCondition(), m_One()))
        return true;
      continue;
    }
    if (!isa<scf::ForOp, DomainLoopOp, FirstIterOp, LastIterOp, EveryOp>(p))
      return true;
  }
  copy->emitOpError()
      << "[X6] is issued by every thread of the task (no nvvm.elect.sync "
         "branch guards it), so each of the 32 lanes of a warp delivers its "
         "bytes and the stage receives 32 times what one copy moves; issue "
         "it under %e = nvvm.elect.sync -> i1, scf.if %e";
  return false;
}

/// True when `v` is the lane of the thread: nvvm.read.ptx.sreg.laneid, or
/// a thread id taken modulo 32 (`remui` by 32, `andi` with 31), through
/// casts.
bool isLaneId(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
            arith::TruncIOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    if (def->getName().getStringRef() == "nvvm.read.ptx.sreg.laneid")
      return true;
    APInt c;
    if (isa<arith::RemUIOp>(def) &&
        matchPattern(def->getOperand(1), m_ConstantInt(&c)) && c == 32)
      return true;
    if (isa<arith::AndIOp>(def) &&
        matchPattern(def->getOperand(1), m_ConstantInt(&c)) && c == 31)
      return true;
    return false;
  }
  return false;
}

/// True when `copy` sits under an `scf.if` on `lane == 0`.
bool underLaneZeroGuard(Operation *copy) {
  for (Operation *p = copy->getParentOp(); p; p = p->getParentOp()) {
    auto branch = dyn_cast<scf::IfOp>(p);
    if (!branch)
      continue;
    auto cmp = branch.getCondition().getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
      continue;
    if ((isLaneId(cmp.getLhs()) && matchPattern(cmp.getRhs(), m_Zero())) ||
        (isLaneId(cmp.getRhs()) && matchPattern(cmp.getLhs(), m_Zero())))
      return true;
  }
  return false;
}

/// X6 (B18): the copies on the full barrier of one acquired stage add up,
/// on every path through the bracket, to the bytes the arm expects; a
/// stage armed for bytes whose bracket takes its full barrier but hands it
/// to no operation never completes.
bool checkStageBytes(ProducerAcquireOp acquire) {
  PipelineOp pipe = acquire.getPipelineOp();
  if (!pipe || !fillsWithTma(pipe.getConfig().getPipelineType()))
    return true;
  PipelineConfigAttr cfg = pipe.getConfig();
  std::optional<int64_t> perWarp = cfg.getNumBytesPerWarpPerCta();
  int64_t expected = perWarp ? *perWarp : cfg.getNumBytes();
  StringRef field = perWarp ? " (num_bytes_per_warp_per_cta)" : " (num_bytes)";
  rules::StageCopies stage = rules::getStageCopies(acquire);
  // With a CTA pair the leader arms num_bytes for both CTAs' copies, and
  // each CTA's bracket delivers its half (TmaUmma, R56).
  if (stage.leader && !perWarp && cfg.getV() == 2) {
    expected = cfg.getNumBytes() / 2;
    field = " (num_bytes / 2: the pair leader's barrier counts both CTAs)";
  }
  const DenseMap<Operation *, int64_t> &ours = stage.copies;
  bool counted = stage.counted;
  bool ok = true;
  Operation *task = acquire->getParentOfType<TaskOp>();
  for (auto &entry : ours)
    ok &= checkElected(entry.first, task);
  // Say where the count stops (tspipe issue 17, item 5): a remark at the
  // copy the walk cannot count.
  if (!counted && stage.uncounted && ok)
    mlir::emitRemark(stage.uncounted->getLoc())
        << "[X6] bytes of this stage of '@" << pipe.getSymName()
        << "' not counted against " << expected << field << ": "
        << stage.why;
  if (!counted || !ok)
    return ok;
  if (ours.empty()) {
    // Nothing can complete the stage's bytes: its full barrier is not
    // handed to any operation. Decided only for a bracket that takes the
    // stage's full barrier (where its copies would complete); one that does
    // not stands for work the IR does not show.
    if (expected == 0 || !stage.shown)
      return true;
    // A warning: kernels written against the IR alone (tests, ports) take
    // the barrier without showing the copy.
    mlir::emitWarning(acquire.getLoc())
        << "[X6] no copy completes on the full barrier of this stage of '@"
        << pipe.getSymName() << "', but the stage is armed for " << expected
        << field
        << " bytes, so its phase never completes and the consumers wait "
           "forever; issue the TMA copies of the stage on its "
           "tspipe.full_barrier, or set num_bytes = 0";
    return true;
  }
  ByteRange bytes =
      countBytes(llvm::make_range(std::next(acquire->getIterator()),
                                  acquire->getBlock()->end()),
                 ours);
  if (bytes.skipped) {
    // At the location: an op remark prints the op, which verifies the
    // kernel again from inside its own verifier.
    mlir::emitRemark(acquire.getLoc())
        << "[X6] bytes of this stage of '@" << pipe.getSymName()
        << "' not checked: " << *bytes.skipped;
    return true;
  }
  if (bytes.min == expected && bytes.max == expected)
    return true;
  InFlightDiagnostic diag = acquire.emitOpError();
  if (bytes.min == bytes.max)
    diag << "[X6] the " << ours.size() << " copies completing on the full "
         << "barrier of this stage of '@" << pipe.getSymName() << "' deliver "
         << bytes.min << " bytes";
  else
    diag << "[X6] the copies completing on the full barrier of this stage "
         << "of '@" << pipe.getSymName() << "' deliver between " << bytes.min
         << " and " << bytes.max << " bytes, depending on the scf.if arm";
  int64_t off = bytes.min != expected ? bytes.min : bytes.max;
  diag << ", but the stage is armed for " << expected << field
       << ", so its phase "
       << (off < expected ? "never completes" : "overflows its byte count")
       << "; make the copies of every path add up to " << expected
       << " or change the config";
  if (bytes.min != bytes.max && llvm::any_of(ours, [](auto &entry) {
        return underLaneZeroGuard(entry.first);
      }))
    diag << "; a branch on lane == 0 picks one lane per warp, which the "
            "check cannot tell from any other condition: write it as "
            "%e = nvvm.elect.sync -> i1, scf.if %e";
  return false;
}

/// X5: a multicast copy writes and signals the stages of the peer CTAs in
/// its mask, so those peers' releases must gate the producer: the pipeline
/// must span the CTAs (cta_layout_vmnk with more than one CTA, which makes
/// the empty-barrier arrivals cross CTAs). On a CTA-local pipeline the
/// producer refills a peer's stage while that peer still reads it.
bool checkMulticast(Operation *op) {
  std::optional<BulkCopy> copy = asBulkCopy(op);
  if (!copy || !copy->multicast)
    return true;
  std::optional<StageBarrier> bar = barrierOf(copy->mbar);
  if (!bar || !bar->full ||
      !fillsWithTma(bar->pipe.getConfig().getPipelineType()))
    return true;
  PipelineConfigAttr cfg = bar->pipe.getConfig();
  if (cfg.getV() * cfg.getM() * cfg.getN() * cfg.getL() > 1)
    return true;
  op->emitOpError() << "[X5] multicasts into the stages of '@"
                    << bar->pipe.getSymName()
                    << "', but its cta_layout_vmnk is one CTA, so the peer "
                       "CTAs' releases never reach this producer and it "
                       "overwrites stages they still read; give the "
                       "pipeline the cluster's cta_layout_vmnk and "
                       "mcast_mode_mn, or copy without multicast_mask";
  return false;
}

} // namespace

rules::StageCopies rules::getStageCopies(ProducerAcquireOp acquire) {
  StageCopies out;
  SmallVector<Value> worklist;
  for (Operation *user : acquire.getStage().getUsers()) {
    if (isa<FullBarrierOp>(user))
      worklist.push_back(user->getResult(0));
    out.leader |= isPairLeaderBarrier(user);
  }
  out.shown = !worklist.empty();
  llvm::SmallPtrSet<Operation *, 8> followed;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<LLVM::AddrSpaceCastOp>(user) ||
          (rules::isNVGPUBridgeStep(user) && user->getNumResults() == 1)) {
        // The nvgpu bridge puts the barrier in a descriptor (two inserts of
        // the same pointer): follow each step once.
        if (followed.insert(user).second)
          worklist.push_back(user->getResult(0));
        continue;
      }
      // The peer-bit idiom: ptrtoint, and with ~(1 << 24), inttoptr.
      if (auto toInt = dyn_cast<LLVM::PtrToIntOp>(user)) {
        bool idiom = false;
        for (Operation *mask : toInt->getUsers())
          for (Operation *toPtr : mask->getUsers())
            if (isa<LLVM::IntToPtrOp>(toPtr) &&
                peerBitCleared(toPtr->getResult(0)) == v) {
              worklist.push_back(toPtr->getResult(0));
              out.leader = idiom = true;
            }
        if (idiom)
          continue;
      }
      std::optional<BulkCopy> copy = asBulkCopy(user);
      // Any other use may complete bytes the walk cannot count.
      if (!copy || copy->mbar != v || !copy->bytes || copy->multicast) {
        if (out.counted) {
          out.uncounted = user;
          out.why = !copy || copy->mbar != v
                        ? "it is not a bulk copy completing on the barrier"
                    : copy->multicast
                        ? "it multicasts: each destination CTA's barrier "
                          "receives its bytes"
                    : isa<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(user)
                        ? "it is a tensor copy, whose bytes are the box of "
                          "its tensor map"
                        : "its size is not a constant";
        }
        out.counted = false;
      } else
        out.copies[user] = *copy->bytes;
    }
  }
  return out;
}

LogicalResult rules::verifyCopyRules(KernelOp kernel) {
  bool ok = true;
  for (auto task : kernel.getBody().getOps<TaskOp>())
    task.walk([&](Operation *op) {
      ok &= checkSignal(op);
      ok &= checkMulticast(op);
      if (auto acquire = dyn_cast<ProducerAcquireOp>(op))
        ok &= checkStageBytes(acquire);
    });
  return success(ok);
}

/// X6 (B20): what fills a stage has someone to drain it and the other way
/// round: a pipeline that a task uses on one side needs a task on the other.
LogicalResult rules::verifyBothSidesUsed(PipelineOp pipe,
                                         ArrayRef<TaskUse> uses) {
  bool produced =
      llvm::any_of(uses, [](const TaskUse &u) { return u.producerSide(); });
  bool consumed =
      llvm::any_of(uses, [](const TaskUse &u) { return u.consumerSide(); });
  if (produced == consumed)
    return success();
  return pipe.emitOpError()
         << "[X6] '@" << pipe.getSymName() << "' is "
         << (produced ? "produced" : "consumed") << " by a task but "
         << (produced ? "consumed" : "produced") << " by none, so "
         << (produced ? "its stages are never released and the producer "
                        "stalls after num_stages stages"
                      : "its stages are never filled and every wait hangs")
         << "; add a task with the "
         << (produced ? "consumer_wait/consumer_release"
                      : "producer_acquire/producer_commit")
         << " brackets";
}

LogicalResult rules::verifyBytesArmed(PipelineOp pipe, ArrayRef<TaskUse> uses) {
  PipelineConfigAttr config = pipe.getConfig();
  PipelineType type = config.getPipelineType();
  if (getPipelineTypeFacts(type).producer.arrival != PipeArrival::ExpectTx ||
      config.getNumBytes() != 0 || config.getNumBytesPerWarpPerCta())
    return success();
  // A TMA stage armed for 0 bytes whose bracket issues copies on its full
  // barrier: the phase completes on the arrive alone, before the copies
  // land. (A bracket that shows no copy stands for work the IR does not
  // show, as in kernels written against the IR alone.)
  for (const TaskUse &use : uses) {
    if (!use.acquires)
      continue;
    Operation *copy = nullptr;
    use.task.walk([&](ProducerAcquireOp acquire) {
      if (copy || acquire.getPipelineOp() != pipe)
        return;
      StageCopies stage = getStageCopies(acquire);
      if (!stage.copies.empty())
        copy = stage.copies.begin()->first;
      else if (stage.uncounted && asBulkCopy(stage.uncounted))
        copy = stage.uncounted;
    });
    if (!copy)
      continue;
    InFlightDiagnostic d = pipe.emitOpError();
    d << "[X6] '@" << pipe.getSymName() << "' is a "
      << stringifyPipelineType(type)
      << " pipeline with num_bytes = 0 whose stages task '@"
      << use.task.getSymName()
      << "' fills with TMA copies: its full barrier is armed for 0 "
         "transaction bytes, so a phase completes on the producer's arrive "
         "alone, before the copies land, and the consumers read the stage "
         "early; set num_bytes to the bytes the copies of one stage deliver";
    d.attachNote(copy->getLoc()) << "a copy completing on the stage";
    return failure();
  }
  return success();
}
