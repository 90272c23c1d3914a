//===- ProxyFences.cpp - where a bracket needs fence.proxy.async ----------===//
//
// A stage of shared memory that one side accesses through the generic proxy
// (ld.shared / st.shared by threads) and the other through the async proxy
// (TMA copies, wgmma and tcgen05 operand reads, the CLC response write)
// needs `fence.proxy.async.shared::cta` between the two, issued by the
// threads of the generic accesses before they hand the stage over (PTX ISA,
// "Memory Consistency Model", proxies; docs/Protocols.md, Proxy fences):
//
// * before a commit, when the producer's threads wrote the stage and the
//   consumer reads it through the async proxy: AsyncUmma (the MMA reads the
//   operands; FlashKDA issue 24), AsyncAsync whose consumer bracket issues
//   a TMA store or an MMA from the stage (TransformerEngine PR 3417);
// * before a release, when the consumer's threads read the stage and the
//   producer's next fill is an async-proxy write: TmaAsync (its protocol
//   always fences), ClcFetchAsync (the response read, cudnn-frontend PR
//   894), TmaUmma whose consumer bracket reads the stage with loads
//   (DeepGEMM PR 389).
//
// No fence where both sides are generic (AsyncAsync without such work).
// Producers that fill with cp.async (async_load) are not fenced: their
// writes land after the commit, which a fence of the issuing thread cannot
// order.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tspipe;

namespace {

/// How one side of a pipeline type accesses the stage's shared memory.
enum class Proxy {
  /// Threads load or store (generic proxy).
  Generic,
  /// TMA, wgmma / tcgen05 operand reads, the CLC response (async proxy).
  Async,
  /// The side touches no shared memory of the stage (tensor-memory
  /// stages: the tcgen05 accumulators of UmmaAsync and UmmaUmma).
  None,
};

/// The side's proxy from the pipeline-type table; a stage an MMA fills
/// (producer unit tcgen05) is an accumulator in tensor memory, which
/// neither side reaches through shared memory.
Proxy stageProxy(PipelineType type, bool producer) {
  const PipelineTypeFacts &facts = getPipelineTypeFacts(type);
  if (facts.producer.unit == PipeUnit::Umma)
    return Proxy::None;
  const PipeSideFacts &side = producer ? facts.producer : facts.consumer;
  return side.proxy == PipeProxy::Async ? Proxy::Async : Proxy::Generic;
}

/// Ops that read shared memory through the async proxy.
bool isAsyncProxyAccess(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name.starts_with("nvvm.cp.async.bulk.global.shared.cta") ||
         name.starts_with("nvvm.cp.async.bulk.tensor.global.shared.cta") ||
         name.starts_with("nvvm.cp.async.bulk.tensor.reduce") ||
         name.starts_with("nvvm.wgmma.mma_async") ||
         name.starts_with("nvvm.tcgen05.mma") ||
         name.starts_with("nvvm.tcgen05.cp");
}

/// True when a value derived from `root` (through any op) is the address
/// of a load, store or atomic, or reaches a call: a generic-proxy access of
/// the memory `root` points to, or one the lowering cannot see.
bool reachesGenericAccess(Value root) {
  SmallVector<Value> worklist{root};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto load = dyn_cast<LLVM::LoadOp>(user))
        if (load.getAddr() == v)
          return true;
      if (auto store = dyn_cast<LLVM::StoreOp>(user))
        if (store.getAddr() == v)
          return true;
      if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp, LLVM::CallOp>(user) ||
          user->getName().getStringRef() == "func.call")
        return true;
      for (Value r : user->getResults())
        worklist.push_back(r);
    }
  }
  return false;
}

/// The ops of the consumer brackets of `pipeline`: from each wait on it to
/// the release that ends the bracket (or the end of the wait's block).
template <typename Fn>
void forEachConsumerBracketOp(KernelOp kernel, StringRef pipeline, Fn fn) {
  kernel.walk([&](ConsumerWaitOp wait) {
    if (wait.getPipeline() != pipeline)
      return;
    fn(wait.getOperation());
    for (Operation *op = wait->getNextNode(); op; op = op->getNextNode()) {
      if (auto rel = dyn_cast<ConsumerReleaseOp>(op))
        if (llvm::is_contained(getBracketPipelines(rel), pipeline))
          break;
      op->walk([&](Operation *inner) { fn(inner); });
    }
  });
}

} // namespace

void KernelLowering::prepareProxyFences() {
  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    PipelineLowering &p = pipelines[pipe.getSymName()];
    PipelineConfigAttr cfg = p.config;
    PipelineType type = cfg.getPipelineType();
    Proxy producer = stageProxy(type, /*producer=*/true);
    Proxy consumer = stageProxy(type, /*producer=*/false);
    bool asyncWork = false, genericWork = false;
    forEachConsumerBracketOp(kernel, pipe.getSymName(), [&](Operation *op) {
      asyncWork |= isAsyncProxyAccess(op);
      if (auto buffer = dyn_cast<StageBufferOp>(op))
        genericWork |= reachesGenericAccess(buffer.getBuffer());
      if (auto wait = dyn_cast<ConsumerWaitOp>(op))
        for (Operation *user : wait.getStage().getUsers())
          if (auto buffer = dyn_cast<StageBufferOp>(user))
            genericWork |= reachesGenericAccess(buffer.getBuffer());
    });
    bool threadFilled =
        (type == PipelineType::AsyncAsync &&
         cfg.getAsyncProducerOp() != PipelineOpKind::AsyncLoad) ||
        (type == PipelineType::AsyncUmma &&
         cfg.getUmmaConsumerProducerOp() != PipelineOpKind::AsyncLoad);
    p.fenceBeforeCommit = producer == Proxy::Generic && threadFilled &&
                          (consumer == Proxy::Async || asyncWork);
    // TmaAsync fences every release in its protocol already.
    p.fenceBeforeRelease = producer == Proxy::Async &&
                           type != PipelineType::TmaAsync &&
                           (consumer == Proxy::Generic || genericWork);
  }
  // A group-level bracket is lowered by the lead: it fences for every
  // member whose own bracket would.
  for (auto group : kernel.getBody().getOps<PipelineGroupOp>()) {
    PipelineLowering *lead = nullptr;
    bool commit = false, release = false;
    for (Attribute a : group.getMembers()) {
      PipelineLowering &m = pipelines[cast<FlatSymbolRefAttr>(a).getValue()];
      if (m.groupLead)
        lead = &m;
      commit |= m.fenceBeforeCommit;
      release |= m.fenceBeforeRelease;
    }
    if (!lead)
      continue;
    if (group.getMode() == GroupMode::Fork)
      lead->fenceBeforeCommit |= commit;
    else
      lead->fenceBeforeRelease |= release;
  }
}
