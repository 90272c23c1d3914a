//===- ClcFetchAsyncProtocol.cpp - ClcFetchAsync bracket sequences --------===//
//
// Cluster launch control fetches the next work tile; every task of every CTA
// consumes it (docs/Protocols.md, ClcFetchAsync; ts-semantics 2.7). The
// producer is the scheduler task of cluster rank 0; its work issues the
// multicast `clusterlaunchcontrol.try_cancel`, whose 16-byte response lands
// in every CTA's response record and completes `num_bytes` on every CTA's
// own F[p]. T is the cluster size, `P` the producer gate: rank == 0 when
// producer_signaling has cta_leader (and the task has no cta(n)), else none.
//
//   bracket      | emitted
//   try_acquire  | nothing (the token is false, so acquire blocks)
//   acquire      | under P: WAIT E[p]; then every thread with lane < T:
//                | ARRIVE.EXPECT_TX F[p] of CTA lane, num_bytes
//                | (shared::cluster form; T = 1: lane 0, local form).
//                | Every CTA's full barrier is armed (field bug B2).
//   commit       | nothing; the cursor advances under P only
//   try_wait     | nothing (false token)
//   wait         | WAIT F[c] on every CTA (its own barrier)
//   release      | every consumer thread: ARRIVE E[c] of CTA 0
//                | (shared::cluster form; T = 1: local)
//   tail         | under P: num_stages x WAIT E[p]
//
// Needs an sm_100-family target (X7): try_cancel exists from sm_100 on.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

class ClcFetchAsyncProtocol final : public PipelineProtocol {
public:
  Value tryAcquire(BracketContext &ctx) const override {
    // TS skips the probe; a false token makes the acquire block.
    return arith::ConstantIntOp::create(ctx.b, ctx.loc, 0, 1);
  }

  Value acquire(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    Cursor &c = ctx.cursors.producer;
    Value index = c.index;
    Value gate = producerGate(ctx);
    waitEmpty(ctx, index, gate);
    int64_t t = cfg.getClusterSize();
    Value lane = ctx.kernel.laneIdx();
    // Each lane l < T arms CTA l's full barrier: the multicast response
    // completes num_bytes on every CTA's barrier, so each needs its expect.
    Value arming = arith::CmpIOp::create(
        ctx.b, ctx.loc, arith::CmpIPredicate::ult, lane, ctx.constI32(t));
    ctx.emitIf(ctx.andGates(gate, arming), [&] {
      if (t == 1) {
        ctx.expectTx(index);
        return;
      }
      ctx.remoteArriveExpectTx(ctx.fullBarrier(index), lane, cfg.getNumBytes());
    });
    if (cfg.getAdvanceOnAcquire())
      ctx.advance(c, cfg.getAcquireStride(), gate);
    return index;
  }

  void commit(BracketContext &ctx) const override {
    // No instruction: the try_cancel response completes the bytes. The
    // producer cursor lives on the signaling CTA only.
    auto [c, stride] = commitCursor(ctx);
    ctx.advance(*c, stride, producerGate(ctx));
  }

  void producerTail(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    auto [c, stride] = drainCursor(ctx);
    Value gate = producerGate(ctx);
    for (int64_t i = 0, e = cfg.getNumStages() / stride; i < e; ++i) {
      Value index = c->index;
      Value phase = c->phase;
      ctx.emitIf(gate, [&] {
        ctx.waitParity(ctx.emptyBarrier(index), phase, Value(),
                       "empty barrier (producer tail)", index);
      });
      ctx.advance(*c, stride);
    }
  }

  Value tryWait(BracketContext &ctx) const override {
    return arith::ConstantIntOp::create(ctx.b, ctx.loc, 0, 1);
  }

  void release(BracketContext &ctx) const override {
    PipelineConfigAttr cfg = ctx.config();
    Cursor &c = ctx.cursors.of(cfg, BracketRole::Release);
    // The consumers read the response with loads (generic proxy); the next
    // try_cancel writes the slot through the async proxy (ProxyFences.cpp;
    // cudnn-frontend PR 894).
    if (ctx.pipeline.fenceBeforeRelease)
      ctx.fenceAsyncProxy();
    Value gate = ctx.ctaGate(cfg.getConsumerSignaling());
    Value index = c.index;
    ctx.emitIf(gate, [&] {
      if (cfg.getClusterSize() == 1) {
        NVVM::MBarrierArriveOp::create(ctx.b, ctx.loc, Type(),
                                       ctx.emptyBarrier(index), Value(),
                                       NVVM::MemScopeKind::CTA, false);
        return;
      }
      // The producer's empty barriers live on CTA 0.
      ctx.remoteArrive(ctx.emptyBarrier(index), ctx.constI32(0));
    });
    ctx.advanceAfterGated(c, cfg.getReleaseStride(), gate);
  }

private:
  /// The CLC producer gate: `%cluster_ctarank == 0` under cta_leader
  /// (ts-semantics 1.6: the one rank-0 gate), null otherwise.
  static Value producerGate(BracketContext &ctx) {
    PipelineConfigAttr cfg = ctx.config();
    if (!bitEnumContainsAny(cfg.getProducerSignaling(),
                            SignalingThreads::CtaLeader) ||
        ctx.task.getRunOnlyOnCtaId() || cfg.getClusterSize() == 1)
      return Value();
    return arith::CmpIOp::create(ctx.b, ctx.loc, arith::CmpIPredicate::eq,
                                 ctx.ctaRank(), ctx.constI32(0));
  }
};

} // namespace

const PipelineProtocol &mlir::tspipe::getClcFetchAsyncProtocol() {
  static const ClcFetchAsyncProtocol protocol;
  return protocol;
}
