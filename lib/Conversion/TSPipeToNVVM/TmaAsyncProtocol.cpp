//===- TmaAsyncProtocol.cpp - TmaAsync bracket sequences ------------------===//
//
// A TMA bulk copy fills a stage (completing transaction bytes on its full
// barrier), threads drain it (docs/Protocols.md, TmaAsync; ts-semantics
// 2.2).
//
//   bracket  | emitted
//   acquire  | WAIT E[p]; one elected thread per producer warp (per task
//            | with task_warp_leader): ARRIVE.EXPECT_TX F[p], num_bytes on
//            | this CTA's own full barrier (every CTA arms its own)
//   commit   | nothing (the copy completes the bytes); the cursor advances
//   wait     | WAIT F[c]
//   release  | FENCE.PROXY.ASYNC in every consumer thread, then:
//            | release(lane), one CTA: syncwarp, lane 0 of each warp
//            | ARRIVE E[c]
//            | release(lane), cluster of T CTAs: syncwarp, then lane l < T
//            | of each warp, when CTA l is in this CTA's multicast set,
//            | ARRIVE E[c] of CTA l (mapa + shared::cluster form)
//            | release(all_threads), one CTA: every thread ARRIVE E[c]
//   tail     | num_stages / stride x WAIT E[p]
//
// The release form is read from the pipeline (set by tspipe-normalize).
// All-thread release with more than one CTA is rejected (X4): its local
// arrivals never reach the multicast peers whose copies wrote the stage.
// FENCE.PROXY.ASYNC is `fence.proxy.async.shared::cta`: the next fill of the
// stage is an async-proxy write.
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
    ctx.armFullElected(index, ctx.andGates(armGate, ctx.firstWarpGate(twl)));
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
    Cursor &c = ctx.cursors.of(cfg, BracketRole::Release);
    Value gate = ctx.ctaGate(cfg.getConsumerSignaling());
    // The next fill of the stage is a bulk copy, a write of the async proxy,
    // while the consumer read the stage through the generic proxy. Without a
    // proxy fence the copy may land before those reads have returned
    // (measured on an H200: a stage released right after its shared-memory
    // loads came back holding the next tile). PTX ISA, "membar / fence"
    // (fence.proxy.async).
    ctx.fenceAsyncProxy();
    Value index = c.index;
    if (ctx.pipeline.op.getReleaseForm() == ReleaseForm::AllThreads) {
      // Every consumer thread arrives on this CTA's empty barrier (one CTA
      // only, X4).
      ctx.emitIf(gate, [&] {
        NVVM::MBarrierArriveOp::create(ctx.b, ctx.loc, Type(),
                                       ctx.emptyBarrier(index), Value(),
                                       NVVM::MemScopeKind::CTA, false);
      });
    } else {
      // A few lanes of each consumer warp arrive for the whole warp, so
      // every lane must be done reading the stage first.
      NVVM::SyncWarpOp::create(ctx.b, ctx.loc, ctx.constI32(-1));
      if (cfg.getClusterSize() == 1)
        releaseLocal(ctx, gate, index);
      else
        releaseMulticast(ctx, gate, index);
    }
    ctx.advanceAfterGated(c, cfg.getReleaseStride(), gate);
  }

private:
  /// One CTA: lane 0 of the warp arrives on the local E[index].
  static void releaseLocal(BracketContext &ctx, Value gate, Value index) {
    Value lane0 =
        arith::CmpIOp::create(ctx.b, ctx.loc, arith::CmpIPredicate::eq,
                              ctx.kernel.laneIdx(), ctx.constI32(0));
    ctx.emitIf(ctx.andGates(gate, lane0), [&] {
      NVVM::MBarrierArriveOp::create(ctx.b, ctx.loc, Type(),
                                     ctx.emptyBarrier(index), Value(),
                                     NVVM::MemScopeKind::CTA, false);
    });
  }

  /// A cluster of T CTAs (ts-semantics 2.2, consumer-release lane
  /// selection): lane l of the warp signals CTA l when l < T and CTA l is in
  /// this CTA's multicast set, i.e. has the same V and L coordinates and
  /// the same M (mcast_mode_mn[0]: an operand indexed by M multicast across
  /// N) or the same N (mcast_mode_mn[1]); this CTA is always in its own
  /// set. Each warp so makes N, M or M + N - 1 arrivals, one per CTA whose
  /// copies wrote the stage, each on that CTA's E[index] (remote arrive).
  static void releaseMulticast(BracketContext &ctx, Value gate, Value index) {
    PipelineConfigAttr cfg = ctx.config();
    OpBuilder &b = ctx.b;
    Location loc = ctx.loc;
    auto eq = [&](Value x, Value y) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
    };
    auto orI = [&](Value x, Value y) {
      return arith::OrIOp::create(b, loc, x, y);
    };
    Value lane = ctx.kernel.laneIdx();
    Value dst = lane;
    Value inCluster =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                              ctx.constI32(cfg.getClusterSize()));
    std::array<Value, 4> me = ctx.ctaCoords(ctx.ctaRank());
    std::array<Value, 4> peer = ctx.ctaCoords(dst);
    Value sameM = eq(me[1], peer[1]);
    Value sameN = eq(me[2], peer[2]);
    ArrayRef<int64_t> mcast = cfg.getMcastModeMn();
    // mcast_mode_mn[0]: the CTAs of this CTA's M coordinate share the
    // stage; [1]: those of its N coordinate; neither: this CTA alone.
    Value inSet = mcast[0] && mcast[1] ? orI(sameM, sameN)
                  : mcast[0]           ? sameM
                  : mcast[1]           ? sameN
                                       : ctx.andGates(sameM, sameN);
    inSet = ctx.andGates(inSet, eq(me[0], peer[0]));
    inSet = ctx.andGates(inSet, eq(me[3], peer[3]));
    Value signaling = ctx.andGates(gate, ctx.andGates(inCluster, inSet));
    ctx.emitIf(signaling,
               [&] { ctx.remoteArrive(ctx.emptyBarrier(index), dst); });
  }
};

} // namespace

const PipelineProtocol &mlir::tspipe::getTmaAsyncProtocol() {
  static const TmaAsyncProtocol protocol;
  return protocol;
}
