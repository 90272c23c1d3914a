//===- Normalize.cpp - record derived pipeline facts in the IR ------------===//
//
// Implements tspipe-normalize: facts that follow from how a kernel's tasks
// use its pipelines are written into the IR once, so that the verifier and
// the lowering read them instead of deriving them each on their own:
//
// * R66: `advance_on_wait = true` on every pipeline with a split consumer
//   (a task that waits on it without releasing it), as TS sets it before
//   validating a kernel.
// * The release form of every TmaAsync pipeline (R54, docs/Protocols.md,
//   TmaAsync): `all_threads` when consumer_group counts 32 x W threads, W
//   being the warps of the releasing tasks, and that differs from the lane
//   count W x arrivals-per-warp; `lane` otherwise.
//
// The kernel is then marked `normalized`.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tspipe {
#define GEN_PASS_DEF_TSPIPENORMALIZE
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h.inc"
} // namespace mlir::tspipe

using namespace mlir;
using namespace mlir::tspipe;

namespace {

/// `config` with advance_on_wait set.
PipelineConfigAttr withAdvanceOnWait(PipelineConfigAttr c) {
  return PipelineConfigAttr::get(
      c.getContext(), c.getPipelineType(), c.getNumStages(), c.getNumBytes(),
      c.getProducerGroup(), c.getConsumerGroup(), c.getCtaLayoutVmnk(),
      c.getProducerSignaling(), c.getConsumerSignaling(),
      c.getConsumerWaitSignaling(), c.getAsyncProducerOp(),
      c.getUmmaConsumerProducerOp(), /*advanceOnWait=*/true,
      c.getAdvanceOnAcquire(), c.getInterleaveStride(),
      c.getNumBytesPerWarpPerCta(), c.getMcastModeMn());
}

/// How the tasks of a kernel use one pipeline's consumer side.
struct ConsumerUse {
  /// Some task waits on the pipeline without releasing it (R66).
  bool splitConsumer = false;
  /// Warps of the tasks that release the pipeline.
  int64_t releasingWarps = 0;
};

/// One walk over every task: the consumer use of each pipeline (linear in
/// the kernel's size, where asking per pipeline would be quadratic).
llvm::StringMap<ConsumerUse> collectConsumerUses(KernelOp kernel) {
  llvm::StringMap<ConsumerUse> uses;
  for (auto task : kernel.getBody().getOps<TaskOp>()) {
    llvm::StringMap<std::pair<bool, bool>> waitsReleases;
    task.walk([&](Operation *op) {
      // A fused_merge group's wait is a wait on every member.
      if (isa<ConsumerTryWaitOp, ConsumerWaitOp>(op)) {
        for (StringRef pipe : getBracketPipelines(op))
          waitsReleases[pipe].first = true;
      } else if (isa<ConsumerReleaseOp>(op)) {
        for (StringRef pipe : getBracketPipelines(op))
          waitsReleases[pipe].second = true;
      }
    });
    for (auto &entry : waitsReleases) {
      auto [waits, releases] = entry.second;
      ConsumerUse &use = uses[entry.first()];
      use.splitConsumer |= waits && !releases;
      if (releases)
        use.releasingWarps += task.getNumWarps();
    }
  }
  return uses;
}

/// The release form TS picks for a TmaAsync pipeline (R54).
ReleaseForm releaseFormOf(PipelineOp pipe, const ConsumerUse &use) {
  return mlir::tspipe::deriveReleaseForm(pipe.getConfig(), use.releasingWarps);
}

void normalize(RewriterBase &rewriter, KernelOp kernel) {
  llvm::StringMap<ConsumerUse> uses = collectConsumerUses(kernel);
  for (auto pipe : kernel.getBody().getOps<PipelineOp>()) {
    PipelineConfigAttr cfg = pipe.getConfig();
    const ConsumerUse &use = uses.lookup(pipe.getSymName());
    bool split = use.splitConsumer;
    bool setAdvance = split && !cfg.getAdvanceOnWait();
    std::optional<ReleaseForm> form;
    if (getPipelineTypeFacts(cfg.getPipelineType()).hasReleaseForm)
      form = releaseFormOf(pipe, use);
    if (!setAdvance && pipe.getReleaseForm() == form)
      continue;
    rewriter.modifyOpInPlace(pipe, [&] {
      if (setAdvance)
        pipe.setConfigAttr(withAdvanceOnWait(cfg));
      if (form)
        pipe.setReleaseForm(*form);
      else
        pipe.removeReleaseFormAttr();
    });
  }
  if (!kernel.getNormalized())
    rewriter.modifyOpInPlace(kernel, [&] { kernel.setNormalized(true); });
}

struct TSPipeNormalize
    : public tspipe::impl::TSPipeNormalizeBase<TSPipeNormalize> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](KernelOp kernel) { normalize(rewriter, kernel); });
  }
};

} // namespace
