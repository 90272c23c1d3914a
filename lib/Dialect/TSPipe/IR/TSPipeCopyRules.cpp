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

#include "TSPipeRules.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
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
  while (auto cast = v.getDefiningOp<LLVM::AddrSpaceCastOp>())
    v = cast.getArg();
  Operation *def = v.getDefiningOp();
  if (!isa_and_nonnull<FullBarrierOp, EmptyBarrierOp>(def))
    return std::nullopt;
  bool producer = false;
  PipelineOp pipe = stagePipeline(def->getOperand(0), producer);
  if (!pipe)
    return std::nullopt;
  return StageBarrier{pipe, def, isa<FullBarrierOp>(def)};
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
  return std::nullopt;
}

bool fillsWithTma(PipelineType t) {
  return t == PipelineType::TmaAsync || t == PipelineType::TmaUmma;
}
bool fillsWithTcgen05(PipelineType t) {
  return t == PipelineType::UmmaAsync || t == PipelineType::UmmaUmma;
}
bool drainsWithTcgen05(PipelineType t) {
  return t == PipelineType::TmaUmma || t == PipelineType::AsyncUmma ||
         t == PipelineType::UmmaUmma;
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
                        << (bar->full ? "full" : "empty")
                        << " barrier of '@" << bar->pipe.getSymName()
                        << "', a " << stringifyPipelineType(type)
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

/// X6 (B18): the static copies on the full barrier of one acquired stage
/// add up to the bytes the arm expects.
bool checkStageBytes(ProducerAcquireOp acquire) {
  PipelineOp pipe = acquire.getPipelineOp();
  if (!pipe || !fillsWithTma(pipe.getConfig().getPipelineType()))
    return true;
  PipelineConfigAttr cfg = pipe.getConfig();
  SmallVector<BulkCopy> copies;
  SmallVector<Value> worklist;
  for (Operation *user : acquire.getStage().getUsers())
    if (isa<FullBarrierOp>(user))
      worklist.push_back(user->getResult(0));
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<LLVM::AddrSpaceCastOp>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      std::optional<BulkCopy> copy = asBulkCopy(user);
      // Any other use may complete bytes the walk cannot count.
      if (!copy || copy->mbar != v || !copy->bytes || copy->multicast)
        return true;
      copies.push_back(*copy);
    }
  }
  if (copies.empty())
    return true;
  int64_t sum = 0;
  for (const BulkCopy &c : copies)
    sum += *c.bytes;
  std::optional<int64_t> perWarp = cfg.getNumBytesPerWarpPerCta();
  int64_t expected = perWarp ? *perWarp : cfg.getNumBytes();
  if (sum == expected)
    return true;
  acquire.emitOpError()
      << "[X6] the " << copies.size() << " copies completing on the full "
      << "barrier of this stage of '@" << pipe.getSymName() << "' deliver "
      << sum << " bytes, but the stage is armed for " << expected
      << (perWarp ? " (num_bytes_per_warp_per_cta)" : " (num_bytes)")
      << ", so its phase "
      << (sum < expected ? "never completes" : "overflows its byte count")
      << "; make the copies add up to " << expected
      << " or change the config";
  return false;
}

} // namespace

LogicalResult rules::verifyCopyRules(KernelOp kernel) {
  bool ok = true;
  for (auto task : kernel.getBody().getOps<TaskOp>())
    task.walk([&](Operation *op) {
      ok &= checkSignal(op);
      if (auto acquire = dyn_cast<ProducerAcquireOp>(op))
        ok &= checkStageBytes(acquire);
    });
  return success(ok);
}
