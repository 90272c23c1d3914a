//===- KernelLowering.cpp - kernel-wide pieces of tspipe-to-nvvm ----------===//
//
// Thread and warp ids, barrier storage addresses, barrier initialization
// (docs/Protocols.md, Barrier storage and initialization), task predicates and
// register hints.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tspipe;

/// Pipelines of up to this many stages get their barrier inits
/// straight-line (cheaper than a loop, for ptxas and for LLVM when a kernel
/// has many pipelines); longer rings are initialized by a loop.
static constexpr int64_t kUnrolledStages = 8;

//===----------------------------------------------------------------------===//
// TaskCursors / PipelineLowering
//===----------------------------------------------------------------------===//

TaskCursors TaskCursors::initial(OpBuilder &b, Location loc,
                                 PipelineConfigAttr) {
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  TaskCursors c;
  for (CursorKind kind : {CursorKind::Producer, CursorKind::ProducerCommit,
                          CursorKind::Consumer, CursorKind::ConsumerRelease})
    c.get(kind) = {zero, getInitialPhase(kind) ? one : zero};
  return c;
}

static Value gepBytes(OpBuilder &b, Location loc, Value base, Value offset) {
  auto ptrTy = cast<LLVM::LLVMPointerType>(base.getType());
  return LLVM::GEPOp::create(b, loc, ptrTy, b.getI8Type(), base,
                             ValueRange{offset});
}

static Value gepBarrier(OpBuilder &b, Location loc, Value base, Value index) {
  auto ptrTy = cast<LLVM::LLVMPointerType>(base.getType());
  return LLVM::GEPOp::create(b, loc, ptrTy, b.getI64Type(), base,
                             ValueRange{index});
}

Value PipelineLowering::fullBarrier(OpBuilder &b, Location loc,
                                    Value index) const {
  return gepBarrier(b, loc, fullBase, index);
}
Value PipelineLowering::emptyBarrier(OpBuilder &b, Location loc,
                                     Value index) const {
  return gepBarrier(b, loc, emptyBase, index);
}
Value PipelineLowering::stageBuffer(OpBuilder &b, Location loc,
                                    Value index) const {
  Value bytes = arith::ConstantIntOp::create(b, loc, stageBytes, 32);
  Value offset = arith::MulIOp::create(b, loc, index, bytes);
  return gepBytes(b, loc, bufferBase, offset);
}

//===----------------------------------------------------------------------===//
// KernelLowering
//===----------------------------------------------------------------------===//

Value KernelLowering::constI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

Value KernelLowering::ctaRank(OpBuilder &b, Location loc) {
  if (!rank) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(tid);
    rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
  }
  return rank;
}

Value KernelLowering::broadcastLane0(OpBuilder &b, Location loc, Value v) {
  return NVVM::ShflOp::create(
      b, loc, v.getType(), constI32(b, loc, -1), v, constI32(b, loc, 0),
      constI32(b, loc, 31),
      NVVM::ShflKindAttr::get(b.getContext(), NVVM::ShflKind::idx), UnitAttr());
}

Value KernelLowering::sharedBase(OpBuilder &b, Location loc,
                                 LLVM::GlobalOp smem) {
  Value symbol = LLVM::AddressOfOp::create(b, loc, smem);
  Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), symbol);
  return LLVM::IntToPtrOp::create(b, loc, symbol.getType(),
                                  broadcastLane0(b, loc, addr));
}

LogicalResult KernelLowering::prepare(OpBuilder &b, LLVM::GlobalOp smem) {
  Location loc = kernel.getLoc();
  tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  // The warp index, broadcast from lane 0 with shfl.sync so that ptxas can
  // prove it warp-uniform: task dispatch on it then needs no warp
  // reconvergence (WARPSYNC, BSSY/BSYNC) around the elect and wait loops.
  Value warpOfThread =
      arith::DivUIOp::create(b, loc, tid, constI32(b, loc, 32));
  warp = broadcastLane0(b, loc, warpOfThread);
  lane = arith::RemUIOp::create(b, loc, tid, constI32(b, loc, 32));
  Value base = sharedBase(b, loc, smem);
  smemBase = base;

  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    PipelineConfigAttr cfg = pipe.getConfig();
    PipelineType type = cfg.getPipelineType();
    const PipelineProtocol *protocol = &getPipelineProtocol(type);
    if (!pipe.getBarrierOffset())
      return pipe.emitOpError(
          "has no barrier_offset; run tspipe-allocate-smem first");

    PipelineLowering p;
    p.op = pipe;
    p.config = cfg;
    p.protocol = protocol;
    int64_t stages = cfg.getNumStages();
    p.fullBase =
        gepBytes(b, loc, base, constI32(b, loc, *pipe.getBarrierOffset()));
    // A group member's empty barriers may lie in a shared array.
    int64_t emptyOffset = pipe.getEmptyBarrierOffset()
                              ? *pipe.getEmptyBarrierOffset()
                              : *pipe.getBarrierOffset() + 8 * stages;
    p.emptyBase = gepBytes(b, loc, base, constI32(b, loc, emptyOffset));
    p.fullInitCount = cfg.getFullArriveCount();
    p.emptyInitCount = cfg.getEmptyArriveCount();
    p.txBytes = cfg.getNumBytes();
    if (auto offset = pipe.getBufferOffset()) {
      p.bufferBase = gepBytes(b, loc, base, constI32(b, loc, *offset));
      p.stageBytes = *pipe.getSmemBytes() / stages;
    }
    pipelines[pipe.getSymName()] = p;
  }
  if (failed(prepareGroups()))
    return failure();
  prepareProxyFences();
  return success();
}

void KernelLowering::emitBarrierInit(OpBuilder &b) {
  Location loc = kernel.getLoc();
  Value isWarp0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp,
                                        constI32(b, loc, 0));
  auto inWarp0 = scf::IfOp::create(b, loc, isWarp0, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&inWarp0.getThenRegion().front());
    Value elected = NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
    auto ifElected = scf::IfOp::create(b, loc, elected, false);
    b.setInsertionPointToStart(&ifElected.getThenRegion().front());
    // Up to kUnrolledStages stages straight-line, beyond that one i32 loop
    // over the stages per pipeline: code size and lowering time stay linear
    // in num_stages.
    for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
      PipelineLowering &p = pipelines[pipe.getSymName()];
      Value fullCount = constI32(b, loc, p.fullInitCount);
      Value emptyCount = constI32(b, loc, p.emptyInitCount);
      if (p.config.getNumStages() <= kUnrolledStages) {
        for (int64_t i = 0, e = p.config.getNumStages(); i < e; ++i) {
          Value idx = constI32(b, loc, i);
          if (p.initFull)
            NVVM::MBarrierInitOp::create(b, loc, p.fullBarrier(b, loc, idx),
                                         fullCount, Value());
          if (p.initEmpty)
            NVVM::MBarrierInitOp::create(b, loc, p.emptyBarrier(b, loc, idx),
                                         emptyCount, Value());
        }
        continue;
      }
      auto loop = scf::ForOp::create(b, loc, constI32(b, loc, 0),
                                     constI32(b, loc, p.config.getNumStages()),
                                     constI32(b, loc, 1));
      OpBuilder::InsertionGuard stageGuard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value idx = loop.getInductionVar();
      if (p.initFull)
        NVVM::MBarrierInitOp::create(b, loc, p.fullBarrier(b, loc, idx),
                                     fullCount, Value());
      if (p.initEmpty)
        NVVM::MBarrierInitOp::create(b, loc, p.emptyBarrier(b, loc, idx),
                                     emptyCount, Value());
    }
    // Make the inits visible to the async proxy and to peer CTAs.
    NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  if (kernel.getNumCtasInCluster() > 1) {
    NVVM::ClusterArriveRelaxedOp::create(b, loc, b.getUnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  } else {
    NVVM::Barrier0Op::create(b, loc);
  }
}

Value KernelLowering::taskPredicate(OpBuilder &b, TaskOp task,
                                    bool withCta) {
  Location loc = task.getLoc();
  int64_t lo = task.getWarpIdx(), hi = lo + task.getNumWarps();
  Value pred;
  if (lo == 0 && hi == kernel.getNumWarps()) {
    pred = arith::ConstantIntOp::create(b, loc, 1, 1);
  } else if (hi == lo + 1) {
    pred = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp,
                                 constI32(b, loc, lo));
  } else {
    Value geLo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, warp,
                                       constI32(b, loc, lo));
    Value ltHi = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, warp,
                                       constI32(b, loc, hi));
    pred = arith::AndIOp::create(b, loc, geLo, ltHi);
  }
  if (auto cta = task.getRunOnlyOnCtaId(); cta && withCta) {
    Value onCta =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ctaRank(b, loc),
                              constI32(b, loc, *cta));
    pred = arith::AndIOp::create(b, loc, pred, onCta);
  }
  return pred;
}

void KernelLowering::emitRegisterHint(OpBuilder &b, TaskOp task) {
  std::optional<uint64_t> regs = task.getNumRegisters();
  if (!regs)
    return;
  // TS's default per-thread budget (docs/Rules.md, R42).
  int64_t defaultRegs = getDefaultRegistersPerThread(kernel.getNumWarps());
  auto action = static_cast<int64_t>(*regs) > defaultRegs
                    ? NVVM::SetMaxRegisterAction::increase
                    : NVVM::SetMaxRegisterAction::decrease;
  NVVM::SetMaxRegisterOp::create(b, task.getLoc(), *regs, action);
}
