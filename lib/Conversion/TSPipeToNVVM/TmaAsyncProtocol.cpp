//===- TmaAsyncProtocol.cpp - TmaAsync bracket sequences ------------------===//
//
// A TMA bulk copy fills a stage (completing transaction bytes on its full
// barrier), threads drain it (docs/Protocols.md, TmaAsync). One CTA only.
//
//   bracket  | emitted
//   acquire  | WAIT E[p]; one elected thread per producer warp (per task
//            | with task_warp_leader): ARRIVE.EXPECT_TX F[p], num_bytes
//   commit   | nothing (the copy completes the bytes); the cursor advances
//   wait     | WAIT F[c]
//   release  | FENCE.PROXY.ASYNC; release(lane): syncwarp, then lane 0 of
//            | each warp ARRIVE E[c]; release(all_threads): every thread
//            | ARRIVE E[c]
//   tail     | num_stages / stride x WAIT E[p]
//
// The release form is read from the pipeline (set by tspipe-normalize).
// FENCE.PROXY.ASYNC is `fence.proxy.async.shared::cta` in every consumer
// thread: the next fill of the stage is an async-proxy write.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

class TmaAsyncProtocol final : public PipelineProtocol {
public:
  LogicalResult checkSupported(PipelineOp pipe) const override {
    PipelineConfigAttr cfg = pipe.getConfig();
    if (cfg.getClusterSize() > 1)
      return pipe.emitOpError()
             << "lowering of tma_async pipelines across a "
             << cfg.getClusterSize()
             << "-CTA cluster (multicast release) is not implemented yet; "
                "use a single-CTA cta_layout_vmnk";
    return success();
  }

  Value acquire(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    Cursor &c = ctx.cursors.producer;
    Value index = c.index;
    SignalingThreads sig = cfg.getProducerSignaling();
    bool twl = bitEnumContainsAny(sig, SignalingThreads::TaskWarpLeader);
    // With TaskWarpLeader every CTA waits; only the arm is gated.
    Value gate = twl ? Value() : ctx.ctaGate(sig);
    waitEmpty(ctx, index, gate);
    // One elected thread per producer warp arms the full barrier with the
    // stage's transaction bytes; with TaskWarpLeader only the task's first
    // warp does.
    Value armGate = twl ? ctx.ctaGate(sig) : gate;
    Value warpGate;
    if (twl)
      warpGate = arith::CmpIOp::create(
          ctx.b, ctx.loc, arith::CmpIPredicate::eq, ctx.kernel.warpIdx(),
          ctx.constI32(ctx.task.getWarpIdx()));
    ctx.emitIf(ctx.andGates(armGate, warpGate), [&] {
      Value elected =
          NVVM::ElectSyncOp::create(ctx.b, ctx.loc, ctx.b.getI1Type(), Value());
      ctx.emitIf(elected, [&] {
        NVVM::MBarrierArriveExpectTxOp::create(
            ctx.b, ctx.loc, Type(), ctx.fullBarrier(index),
            ctx.constI32(cfg.getNumBytes()), NVVM::MemScopeKind::CTA, false,
            Value());
      });
    });
    if (cfg.getAdvanceOnAcquire())
      ctx.advanceAfterGated(c, cfg.getAcquireStride(), gate);
    return index;
  }

  void commit(BracketContext &ctx) const override {
    // The bulk copies complete the transaction bytes; no arrive. The state
    // advance runs on every CTA (docs/Protocols.md, Cursors).
    auto [c, stride] = commitCursor(ctx);
    ctx.advance(*c, stride);
  }

  void release(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    Cursor &c = cfg.getAdvanceOnWait() ? ctx.cursors.consumerRelease
                                       : ctx.cursors.consumer;
    Value gate = ctx.ctaGate(cfg.getConsumerSignaling());
    Value signaling = gate;
    // The next fill of the stage is a bulk copy, a write of the async proxy,
    // while the consumer read the stage through the generic proxy. Without a
    // proxy fence the copy may land before those reads have returned
    // (measured on an H200: a stage released right after its shared-memory
    // loads came back holding the next tile). PTX ISA, "membar / fence"
    // (fence.proxy.async).
    NVVM::FenceProxyOp::create(
        ctx.b, ctx.loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(ctx.b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    if (ctx.pipeline.op.getReleaseForm() != ReleaseForm::AllThreads) {
      // Lane 0 of each consumer warp arrives once, for the whole warp, so
      // every lane must be done reading the stage first.
      NVVM::SyncWarpOp::create(ctx.b, ctx.loc, ctx.constI32(-1));
      Value lane0 =
          arith::CmpIOp::create(ctx.b, ctx.loc, arith::CmpIPredicate::eq,
                                ctx.kernel.laneIdx(), ctx.constI32(0));
      signaling = ctx.andGates(gate, lane0);
    }
    Value index = c.index;
    ctx.emitIf(signaling, [&] {
      NVVM::MBarrierArriveOp::create(ctx.b, ctx.loc, Type(),
                                     ctx.emptyBarrier(index), Value(),
                                     NVVM::MemScopeKind::CTA, false);
    });
    ctx.advanceAfterGated(c, cfg.getReleaseStride(), gate);
  }
};

} // namespace

const PipelineProtocol &mlir::tspipe::getTmaAsyncProtocol() {
  static const TmaAsyncProtocol protocol;
  return protocol;
}
