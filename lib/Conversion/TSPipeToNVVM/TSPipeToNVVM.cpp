//===- TSPipeToNVVM.cpp - lower tspipe kernels to NVVM --------------------===//
//
// Lowers each `tspipe.kernel` as one unit: barrier storage and init for all
// of its pipelines, then every task as a warp-range branch whose brackets
// become the per-type mbarrier sequences of docs/Protocols.md, with the task's
// pipeline cursors carried through the domain loop.
//
// Protocol emission (which thread does what for a bracket) lives in one
// `<Type>Protocol.cpp` per pipeline type (Protocol.h); this file walks the
// structure (kernel, tasks, domain loop, guards), keeps the cursors and
// dispatches each bracket op to its pipeline's protocol.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"
#include "WorkQueueLowering.h"
#include "tspipe/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tspipe {
#define GEN_PASS_DEF_CONVERTTSPIPETONVVM
#include "tspipe/Conversion/Passes.h.inc"
} // namespace mlir::tspipe

using namespace mlir;
using namespace mlir::tspipe;

namespace {

/// Name of the dynamic shared memory symbol of a gpu.module.
constexpr StringLiteral kDynSmemName = "__tspipe_dynamic_smem";

//===----------------------------------------------------------------------===//
// Task lowering: cursors through head, domain loop, guards and tail
//===----------------------------------------------------------------------===//

class TaskLowering final : public TileLoopHost {
public:
  TaskLowering(KernelLowering &kernel, TaskOp task, OpBuilder &b)
      : k(kernel), task(task), b(b), workQueue(kernel, task, *this) {}

  // TileLoopHost (WorkQueueLowering.cpp).
  OpBuilder &builder() override { return b; }
  IRMapping &valueMapping() override { return mapping; }
  SmallVector<Cursor *> cursorsAdvancedIn(Operation *op) override {
    llvm::SetVector<Cursor *> advanced;
    op->walk([&](Operation *inner) { collectAdvanced(inner, advanced); });
    return advanced.takeVector();
  }
  SmallVector<Cursor *> &carriedCursors() override { return carried; }
  LogicalResult lowerBlockOps(Block &block) override {
    return lowerBlock(block);
  }
  std::pair<PipelineLowering *, Value> loweredStage(Value stage) override {
    auto it = stages.find(stage);
    if (it == stages.end())
      return {nullptr, Value()};
    return it->second;
  }

  LogicalResult lower() {
    Location loc = task.getLoc();
    // Cursors of every pipeline the task touches.
    for (StringRef name : symbolNames(task.getProducesAttr()))
      addPipeline(name);
    for (StringRef name : symbolNames(task.getConsumesAttr()))
      addPipeline(name);
    seedLanes(loc);
    if (failed(lowerBlock(task.getBody().front())))
      return failure();
    // TS drains every produced pipeline at task exit (docs/Protocols.md,
    // Producer drain).
    for (StringRef name : symbolNames(task.getProducesAttr())) {
      if (drained.contains(name))
        continue;
      BracketContext ctx = context(name, loc);
      ctx.pipeline.protocol->producerTail(ctx);
    }
    return success();
  }

private:
  static SmallVector<StringRef> symbolNames(ArrayAttr list) {
    SmallVector<StringRef> names;
    if (list)
      for (Attribute a : list)
        names.push_back(cast<FlatSymbolRefAttr>(a).getValue());
    return names;
  }

  void addPipeline(StringRef name) {
    if (cursors.count(name))
      return;
    PipelineLowering &p = k.pipeline(name);
    cursors[name] = TaskCursors::initial(b, task.getLoc(), p.config);
    order.push_back(name.str());
  }

  /// Interleaved pipelines: each strided cursor starts at the task's lane
  /// (Cursor.h, getCursorSeeds; docs/Protocols.md, Interleaved lanes).
  void seedLanes(Location loc) {
    DomainLoopOp loop = task.getDomainLoop();
    for (StringRef name : order) {
      PipelineLowering &p = k.pipeline(name);
      TaskCursors &c = cursors[name];
      for (const CursorSeed &seed :
           getCursorSeeds(p.config, task.getNumWarps())) {
        Value lane;
        if (seed.source == LaneSource::WarpLane) {
          lane = arith::SubIOp::create(b, loc, k.warpIdx(),
                                       k.constI32(b, loc, task.getWarpIdx()));
        } else {
          Value lb = mapping.lookupOrDefault(loop.getLowerBound());
          Value lb32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), lb);
          lane = arith::RemUIOp::create(b, loc, lb32,
                                        k.constI32(b, loc, seed.stride));
        }
        c.get(seed.cursor).index = lane;
      }
    }
  }

  /// The cursors a bracket op advances (docs/Protocols.md, Cursors); the
  /// try forms and current_stage only read theirs.
  void collectAdvanced(Operation *op, llvm::SetVector<Cursor *> &out) {
    auto ref = op->getAttrOfType<FlatSymbolRefAttr>("pipeline");
    if (!ref || !isa_and_nonnull<TSPipeDialect>(op->getDialect()))
      return;
    // A group-level bracket advances the cursor of every member.
    for (StringRef pipe : getBracketPipelines(op))
      collectAdvanced(op, pipe, out);
  }
  void collectAdvanced(Operation *op, StringRef pipe,
                       llvm::SetVector<Cursor *> &out) {
    PipelineConfigAttr cfg = k.pipeline(pipe).config;
    TaskCursors &c = cursors[pipe];
    bool splitProducer = cfg.getAdvanceOnAcquire();
    bool splitConsumer = cfg.getAdvanceOnWait();
    TypeSwitch<Operation *>(op)
        .Case([&](ProducerAcquireOp) {
          if (splitProducer)
            out.insert(&c.producer);
        })
        .Case<ProducerCommitOp, ProducerTailOp>([&](Operation *) {
          out.insert(splitProducer ? &c.producerCommit : &c.producer);
        })
        .Case([&](ConsumerWaitOp) {
          if (splitConsumer)
            out.insert(&c.consumer);
        })
        .Case([&](ConsumerReleaseOp) {
          out.insert(splitConsumer ? &c.consumerRelease : &c.consumer);
        });
  }

  /// The carried cursor values in a fixed order (loop iter_args, guard
  /// results): only the cursors the domain loop advances, so the loop
  /// carries per task O(pipelines it advances), not every cursor of every
  /// pipeline.
  SmallVector<Value> flatten() {
    SmallVector<Value> values;
    for (Cursor *c : carried) {
      values.push_back(c->index);
      values.push_back(c->phase);
    }
    return values;
  }
  void unflatten(ValueRange values) {
    unsigned pos = 0;
    for (Cursor *c : carried) {
      c->index = values[pos++];
      c->phase = values[pos++];
    }
  }

  LogicalResult lowerBlock(Block &block) {
    for (Operation &op : block) {
      if (failed(lowerOp(op)))
        return failure();
    }
    return success();
  }

  /// The context of a bracket on `pipeline` at the current insertion point.
  BracketContext context(StringRef pipeline, Location loc,
                         Value ready = Value()) {
    return BracketContext{
        b, loc, k, k.pipeline(pipeline), task, cursors[pipeline], ready};
  }

  LogicalResult lowerOp(Operation &op) {
    Location loc = op.getLoc();
    auto readyOf = [&](Value token) {
      return token ? mapping.lookup(token) : Value();
    };
    return TypeSwitch<Operation *, LogicalResult>(&op)
        .Case([&](DomainLoopOp loop) { return lowerDomainLoop(loop); })
        .Case([&](WorkTileLoopOp l) { return workQueue.lowerTileLoop(l); })
        .Case([&](SkippableOp s) { return workQueue.lowerSkippable(s); })
        .Case([&](AdvanceWorkTileOp a) { return workQueue.lowerAdvance(a); })
        .Case([&](FetchWorkTileOp f) { return workQueue.lowerFetch(f); })
        // The domain loop's yield becomes the scf.yield its lowering builds.
        .Case([&](YieldOp) { return success(); })
        .Case<FirstIterOp, LastIterOp, EveryOp, WhenTrueOp, WhenFalseOp>(
            [&](Operation *guard) { return lowerGuard(*guard); })
        .Case([&](PdlWaitOp) {
          NVVM::GriddepcontrolOp::create(b, loc,
                                         NVVM::GridDepActionKind::wait);
          return success();
        })
        .Case([&](PdlLaunchDependentsOp) {
          NVVM::GriddepcontrolOp::create(
              b, loc, NVVM::GridDepActionKind::launch_dependents);
          return success();
        })
        .Case([&](ProducerTryAcquireOp acq) {
          BracketContext ctx = context(acq.getPipeline(), loc);
          mapping.map(acq.getReady(), ctx.pipeline.protocol->tryAcquire(ctx));
          return success();
        })
        .Case([&](ProducerAcquireOp acq) {
          BracketContext ctx =
              context(acq.getPipeline(), loc, readyOf(acq.getReady()));
          stages[acq.getStage()] = {&ctx.pipeline,
                                    ctx.pipeline.protocol->acquire(ctx)};
          return success();
        })
        .Case([&](ProducerCommitOp commit) {
          SmallVector<StringRef, 4> pipes =
              leadFirst(getBracketPipelines(commit));
          BracketContext ctx = context(pipes.front(), loc);
          ctx.pipeline.protocol->commit(ctx);
          followFirstMember(pipes, /*producer=*/true);
          return success();
        })
        .Case([&](ProducerTailOp tail) {
          BracketContext ctx = context(tail.getPipeline(), loc);
          ctx.pipeline.protocol->producerTail(ctx);
          drained.insert(tail.getPipeline());
          return success();
        })
        .Case([&](ConsumerTryWaitOp tw) {
          // On a fused_merge group: the lead's probe of the shared full
          // barrier.
          SmallVector<StringRef, 4> pipes = leadFirst(getBracketPipelines(tw));
          BracketContext ctx = context(pipes.front(), loc);
          mapping.map(tw.getReady(), ctx.pipeline.protocol->tryWait(ctx));
          return success();
        })
        .Case([&](ConsumerWaitOp wait) {
          // On a fused_merge group: the lead's wait on the shared full
          // barrier, whose consumer cursor every member then follows.
          SmallVector<StringRef, 4> pipes =
              leadFirst(getBracketPipelines(wait));
          BracketContext ctx =
              context(pipes.front(), loc, readyOf(wait.getReady()));
          stages[wait.getStage()] = {&ctx.pipeline,
                                     ctx.pipeline.protocol->wait(ctx)};
          followLead(pipes, CursorKind::Consumer);
          return success();
        })
        .Case([&](ConsumerReleaseOp rel) {
          SmallVector<StringRef, 4> pipes = leadFirst(getBracketPipelines(rel));
          BracketContext ctx = context(pipes.front(), loc);
          if (pipes.size() > 1 && ctx.pipeline.proxyFenceBeforeRelease)
            // A merge whose members include TMA-filled stages
            // (GroupLowering.cpp).
            ctx.fenceAsyncProxy();
          ctx.pipeline.protocol->release(ctx);
          followFirstMember(pipes, /*producer=*/false);
          return success();
        })
        .Case<NamedBarrierSyncOp, NamedBarrierArriveOp>(
            [&](Operation *use) { return lowerNamedBarrier(*use); })
        .Case([&](CurrentStageOp cur) { return lowerCurrentStage(cur); })
        .Case<StageIndexOp, FullBarrierOp, EmptyBarrierOp, StageBufferOp>(
            [&](Operation *accessor) { return lowerStageAccessor(*accessor); })
        .Case<BufferAddressOp, TmemColumnOp>([&](Operation *accessor) {
          FailureOr<Value> v = lowerAliasAccessor(b, k, *accessor);
          if (failed(v))
            return failure();
          mapping.map(accessor->getResult(0), *v);
          return success();
        })
        .Default([&](Operation *other) { return lowerWorkOp(*other); });
  }

  /// A named-barrier sync / arrive: `bar.sync` / `bar.arrive id, count`
  /// with the id and thread count tspipe gives the barrier (rule X13).
  LogicalResult lowerNamedBarrier(Operation &use) {
    Location loc = use.getLoc();
    NamedBarrierOp barrier = lookupNamedBarrier(
        &use, use.getAttrOfType<FlatSymbolRefAttr>("barrier"));
    if (!barrier || barrier.getThreadCount() == 0)
      return use.emitOpError("names no lowered tspipe.named_barrier");
    Value id = arith::ConstantIntOp::create(b, loc, barrier.getBarrierId(), 32);
    Value count =
        arith::ConstantIntOp::create(b, loc, barrier.getThreadCount(), 32);
    if (isa<NamedBarrierSyncOp>(use))
      NVVM::BarrierOp::create(b, loc, TypeRange{}, id, count, {}, Value());
    else
      NVVM::BarrierArriveOp::create(b, loc, id, count);
    return success();
  }

  /// The pipelines of a bracket with a group's lead member first.
  SmallVector<StringRef, 4> leadFirst(SmallVector<StringRef, 4> pipes) {
    for (auto [i, pipe] : llvm::enumerate(pipes))
      if (k.pipeline(pipe).groupLead) {
        std::swap(pipes[0], pipes[i]);
        break;
      }
    return pipes;
  }

  /// After a group-level bracket (a fork group's commit, a merge group's
  /// release), lowered as the lead member's: the one arrive on the shared
  /// barrier serves every member, whose commit (release) cursors move with
  /// the first member's. They start equal (same strides, so the same lane
  /// seeds, R67) and only group-level brackets move them (R24), so they stay
  /// equal (docs/Protocols.md, Pipeline groups).
  void followFirstMember(ArrayRef<StringRef> pipes, bool producer) {
    if (pipes.size() < 2)
      return;
    PipelineConfigAttr cfg = k.pipeline(pipes.front()).config;
    followLead(pipes, getBracketCursor(cfg, producer ? BracketRole::Commit
                                                     : BracketRole::Release));
  }

  /// Sets cursor `which` of every member of `pipes` to the first one's
  /// (members of one group agree on advance_on_acquire / advance_on_wait,
  /// R67).
  void followLead(ArrayRef<StringRef> pipes, CursorKind which) {
    if (pipes.size() < 2)
      return;
    Cursor first = cursors[pipes.front()].get(which);
    for (StringRef pipe : pipes.drop_front())
      cursors[pipe].get(which) = first;
  }

  LogicalResult lowerCurrentStage(CurrentStageOp cur) {
    PipelineLowering &p = k.pipeline(cur.getPipeline());
    TaskCursors &c = cursors[cur.getPipeline()];
    Value index;
    index =
        c.of(p.config, cur.getRole() == Role::Producer ? BracketRole::Commit
                                                       : BracketRole::Release)
            .index;
    stages[cur.getStage()] = {&p, index};
    return success();
  }

  /// The pair leader's copy of a CTA-local barrier, for
  /// `tspipe.full_barrier %s {pair_leader}` (tspipe rule X5,
  /// TSPipeRoutingRules.cpp): the 32-bit shared address with the peer bit
  /// (bit 24 of the shared::cluster window) cleared, the address a
  /// cta_group::2 copy completes on.
  Value leaderBarrier(Location loc, Value barrier) {
    Type i32 = b.getI32Type();
    Value addr = LLVM::PtrToIntOp::create(b, loc, i32, barrier);
    Value mask =
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(~(1 << 24)));
    Value lead = arith::AndIOp::create(b, loc, addr, mask);
    return LLVM::IntToPtrOp::create(b, loc, barrier.getType(), lead);
  }

  LogicalResult lowerStageAccessor(Operation &op) {
    Location loc = op.getLoc();
    auto it = stages.find(op.getOperand(0));
    if (it == stages.end())
      return op.emitOpError(
          "stage handle does not come from a bracket of this task");
    PipelineLowering &p = *it->second.first;
    Value index = it->second.second;
    Value result;
    if (isa<StageIndexOp>(op))
      result = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
    else if (isa<FullBarrierOp>(op) && op.hasAttr("pair_leader"))
      result = leaderBarrier(loc, p.fullBarrier(b, loc, index));
    else if (isa<FullBarrierOp>(op))
      result = p.fullBarrier(b, loc, index);
    else if (isa<EmptyBarrierOp>(op))
      result = p.emptyBarrier(b, loc, index);
    else
      result = p.stageBuffer(b, loc, index);
    mapping.map(op.getResult(0), result);
    return success();
  }

  LogicalResult lowerWorkOp(Operation &op) {
    if (op.getDialect() && isa<TSPipeDialect>(op.getDialect()))
      return op.emitOpError("cannot be lowered inside a task");

    // Work ops: copy them, unless a tspipe op hides in one of their regions
    // (the cursors could not follow it).
    WalkResult nested = op.walk([&](Operation *inner) {
      if (inner != &op && inner->getDialect() &&
          isa<TSPipeDialect>(inner->getDialect())) {
        inner->emitOpError()
            << "must be a direct child of the task, its domain loop or a "
               "loop guard (pipeline cursors cannot be carried through '"
            << op.getName() << "')";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (nested.wasInterrupted())
      return failure();
    b.clone(op, mapping);
    return success();
  }

  LogicalResult lowerDomainLoop(DomainLoopOp loop) {
    // A constant step is not negative (X11, the domain_loop verifier).
    Location loc = loop.getLoc();
    llvm::SetVector<Cursor *> advanced;
    loop.walk([&](Operation *op) { collectAdvanced(op, advanced); });
    carried = advanced.takeVector();
    // The trip counter is an i32, as in TS (a 64-bit counter costs
    // instructions on every iteration); domain bounds must fit in 32 bits.
    Type i32 = b.getI32Type();
    auto toI32 = [&](Value v) -> Value {
      return arith::IndexCastOp::create(b, loc, i32,
                                        mapping.lookupOrDefault(v));
    };
    Value lb = toI32(loop.getLowerBound());
    Value ub = toI32(loop.getUpperBound());
    Value step = toI32(loop.getStep());
    loopBounds = {lb, ub, step};
    // The scf.for carries the advanced cursors, then the task's own
    // carried values (iter_args) in their order.
    SmallVector<Value> inits = flatten();
    unsigned numCursors = inits.size();
    for (Value init : loop.getInitArgs())
      inits.push_back(mapping.lookupOrDefault(init));
    auto forOp = scf::ForOp::create(b, loc, lb, ub, step, inits);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(forOp.getBody());
      currentIv = forOp.getInductionVar();
      mapping.map(
          loop.getInductionVar(),
          arith::IndexCastOp::create(b, loc, b.getIndexType(), currentIv));
      unflatten(forOp.getRegionIterArgs().take_front(numCursors));
      mapping.map(loop.getRegionIterArgs(),
                  forOp.getRegionIterArgs().drop_front(numCursors));
      if (failed(lowerBlock(loop.getBody().front())))
        return failure();
      // scf.for only gets an implicit yield when it carries no values.
      if (!forOp.getBody()->mightHaveTerminator()) {
        b.setInsertionPointToEnd(forOp.getBody());
        SmallVector<Value> next = flatten();
        if (YieldOp yield = loop.getYield())
          for (Value v : yield.getValues())
            next.push_back(mapping.lookupOrDefault(v));
        scf::YieldOp::create(b, loc, next);
      }
    }
    currentIv = Value();
    b.setInsertionPointAfter(forOp);
    unflatten(forOp.getResults().take_front(numCursors));
    mapping.map(loop.getResults(), forOp.getResults().drop_front(numCursors));
    return success();
  }

  LogicalResult lowerGuard(Operation &op) {
    Location loc = op.getLoc();
    auto [lb, ub, step] = loopBounds;
    Value cond;
    if (isa<FirstIterOp>(op)) {
      cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, currentIv,
                                   lb);
    } else if (isa<LastIterOp>(op)) {
      Value next = arith::AddIOp::create(b, loc, currentIv, step);
      cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, next, ub);
    } else if (auto every = dyn_cast<EveryOp>(op)) {
      // Zero-based iteration count k = (iv - lb) / step (step > 0, R17);
      // the body runs when k mod period == start.
      Value k0 = arith::SubIOp::create(b, loc, currentIv, lb);
      Value count = arith::DivUIOp::create(b, loc, k0, step);
      Value rem = arith::RemUIOp::create(
          b, loc, count,
          arith::ConstantIntOp::create(b, loc, every.getPeriod(), 32));
      cond = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, rem,
          arith::ConstantIntOp::create(b, loc, every.getStart(), 32));
    } else {
      bool whenTrue = isa<WhenTrueOp>(op);
      cond = mapping.lookupOrDefault(op.getOperand(0));
      if (!whenTrue)
        cond = arith::XOrIOp::create(
            b, loc, cond, arith::ConstantIntOp::create(b, loc, 1, 1));
    }
    SmallVector<Value> before = flatten();
    auto ifOp = scf::IfOp::create(b, loc, ValueRange(before).getTypes(), cond,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      if (failed(lowerBlock(op.getRegion(0).front())))
        return failure();
      scf::YieldOp::create(b, loc, flatten());
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, loc, before);
    }
    unflatten(ifOp.getResults());
    return success();
  }

  KernelLowering &k;
  TaskOp task;
  OpBuilder &b;
  IRMapping mapping;
  /// Cursors per pipeline; StringMap values do not move, so `carried` can
  /// point into it.
  llvm::StringMap<TaskCursors> cursors;
  SmallVector<std::string> order;
  /// The cursors the domain loop carries.
  SmallVector<Cursor *> carried;
  llvm::StringSet<> drained;
  DenseMap<Value, std::pair<PipelineLowering *, Value>> stages;
  std::tuple<Value, Value, Value> loopBounds;
  Value currentIv;
  WorkQueueLowering workQueue;
};

//===----------------------------------------------------------------------===//
// Kernel lowering
//===----------------------------------------------------------------------===//

/// Returns (creating it once) the dynamic shared memory global of `module`.
LLVM::GlobalOp getOrCreateDynamicSmem(RewriterBase &rewriter,
                                      gpu::GPUModuleOp module) {
  if (auto g = module.lookupSymbol<LLVM::GlobalOp>(kDynSmemName))
    return g;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  RewriterBase &b = rewriter;
  auto arrayTy = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  auto global =
      LLVM::GlobalOp::create(b, module.getLoc(), arrayTy, /*isConstant=*/false,
                             LLVM::Linkage::External, kDynSmemName, Attribute(),
                             /*alignment=*/1024, /*addrSpace=*/3);
  return global;
}

LogicalResult lowerKernel(KernelOp kernel, int64_t hangTimeout) {
  // tspipe-verify-lowering (X9) and the kernel verifier (X7) checked the
  // placement and the targets.
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  auto func = kernel->getParentOfType<gpu::GPUFuncOp>();
  if (!module || !func)
    return kernel.emitOpError(
        "is not in a gpu.func of a gpu.module; run tspipe-verify-lowering "
        "first");
  if (!kernel.getSmemBytes())
    return kernel.emitOpError(
        "has no shared memory layout; run tspipe-allocate-smem first");
  if (!kernel.getNormalized())
    return kernel.emitOpError(
        "is not normalized (advance_on_wait of split consumers, release "
        "forms); run tspipe-normalize first");
  // Every mutation goes through one rewriter (listeners see all of them).
  IRRewriter b(kernel.getContext());
  LLVM::GlobalOp smem = getOrCreateDynamicSmem(b, module);
  b.setInsertionPoint(kernel);
  KernelLowering k(kernel, hangTimeout);
  if (failed(k.prepare(b, smem)))
    return failure();
  k.emitBarrierInit(b);

  // The tasks dispatch as one if / else-if chain: no two tasks share a warp
  // on one CTA (X9), so at most one task predicate holds for a thread, and
  // each task's code ends where the kernel does. (As a sequence of ifs, the
  // end of each task fell through into the next task's warp test, and ptxas
  // kept the retry loop of the task's last wait, the producer drain's, out
  // of line instead of ending it at the kernel's exit.)
  //
  // A task pinned to one CTA (cta(k)) with registers(n) sets its registers
  // on every CTA, for its warps: setmaxnreg is `.sync.aligned` over the
  // warpgroup, so a warp that skipped it on another CTA would leave the
  // other warps of its warpgroup waiting (docs/Protocols.md, Registers of
  // CTA-gated tasks). Alone on its warps, its branch tests the warps only,
  // sets the registers, then tests the CTA rank around the body. Sharing
  // its warps with a task of another CTA, it keeps its CTA test and a
  // registers-only branch at the end of the chain serves the CTAs where no
  // task claims those warps.
  SmallVector<TaskOp> tasks(kernel.getBody().getOps<TaskOp>());
  enum class Entry { Task, GatedRegisters, RegistersOnly };
  SmallVector<std::pair<TaskOp, Entry>> chain;
  SmallVector<TaskOp> registersOnly;
  bool cluster = kernel.getNumCtasInCluster() > 1;
  for (TaskOp task : tasks) {
    if (!cluster || !task.getRunOnlyOnCtaId() || !task.getNumRegisters()) {
      chain.push_back({task, Entry::Task});
      continue;
    }
    int64_t lo = task.getWarpIdx(), hi = lo + task.getNumWarps();
    bool alone = llvm::none_of(tasks, [&](TaskOp other) {
      int64_t oLo = other.getWarpIdx(), oHi = oLo + other.getNumWarps();
      return other != task && lo < oHi && oLo < hi;
    });
    chain.push_back({task, alone ? Entry::GatedRegisters : Entry::Task});
    if (!alone)
      registersOnly.push_back(task);
  }
  for (TaskOp task : registersOnly)
    chain.push_back({task, Entry::RegistersOnly});
  {
    OpBuilder::InsertionGuard chainGuard(b);
    for (auto [i, entry] : llvm::enumerate(chain)) {
      auto [task, kind] = entry;
      Location loc = task.getLoc();
      Value inTask = k.taskPredicate(b, task, kind == Entry::Task);
      bool more = i + 1 < chain.size();
      auto ifOp = scf::IfOp::create(b, loc, inTask, /*withElseRegion=*/more);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        k.emitRegisterHint(b, task);
        if (kind == Entry::GatedRegisters) {
          Value onCta = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq, k.ctaRank(b, loc),
              k.constI32(b, loc, *task.getRunOnlyOnCtaId()));
          auto gate = scf::IfOp::create(b, loc, onCta,
                                        /*withElseRegion=*/false);
          b.setInsertionPointToStart(&gate.getThenRegion().front());
        }
        if (kind != Entry::RegistersOnly) {
          TaskLowering lowering(k, task, b);
          if (failed(lowering.lower()))
            return failure();
        }
      }
      if (more)
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    }
  }

  // Launch parameters for drivers: threads per CTA, dynamic smem bytes.
  b.modifyOpInPlace(func, [&] {
    func->setAttr("tspipe.block_threads",
                  b.getI64IntegerAttr(32 * kernel.getNumWarps()));
    func->setAttr("tspipe.smem_bytes", kernel.getSmemBytesAttr());
    if (kernel.getNumCtasInCluster() > 1) {
      SmallVector<int64_t, 3> extents = kernel.getClusterExtents();
      func->setAttr("tspipe.cluster_shape", b.getDenseI64ArrayAttr(extents));
      // The required cluster shape reaches the PTX entry as
      // `.explicitcluster` + `.reqnctapercluster x, y, z`.
      SmallVector<int32_t, 3> dims(extents.begin(), extents.end());
      func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                    b.getDenseI32ArrayAttr(dims));
    }
    func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
        {static_cast<int32_t>(32 * kernel.getNumWarps()), 1, 1}));
    // ptxas honours setmaxnreg only when it knows the register count at
    // entry: the launch bound (.maxntid, from the known block size) and
    // .minnctapersm 1 (field bug B21; else info C7508 and no register
    // split).
    if (llvm::any_of(kernel.getBody().getOps<TaskOp>(),
                     [](TaskOp t) { return t.getNumRegisters().has_value(); }))
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    b.getI32IntegerAttr(1));
  });
  b.eraseOp(kernel);
  return success();
}

struct ConvertTSPipeToNVVM
    : public tspipe::impl::ConvertTSPipeToNVVMBase<ConvertTSPipeToNVVM> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    int64_t timeout = debugHangTimeout;
    if (timeout < 0)
      return emitError(UnknownLoc::get(context))
             << "convert-tspipe-to-nvvm: debug-hang-timeout = " << timeout
             << " must be >= 0 (0: blocking waits never give up; N > 0: "
                "trap after N failed polls)";
    configureNVPTXBackend();
    return success();
  }

  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation()->walk([&](KernelOp k) { kernels.push_back(k); });
    for (KernelOp kernel : kernels)
      if (failed(lowerKernel(kernel, debugHangTimeout)))
        return signalPassFailure();
  }
};

} // namespace
