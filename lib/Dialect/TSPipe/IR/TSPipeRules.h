//===- TSPipeRules.h - kernel-wide rule checks (internal) -------*- C++ -*-===//
//
// The rule groups KernelOp's region verifier runs, one file each, and the
// facts about a kernel they share: which task uses which pipeline, and how.
// Every group reports all of its violations before it fails, so that one
// verification run lists every broken rule of a kernel (docs/Rules.md).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_DIALECT_TSPIPE_IR_TSPIPERULES_H
#define TSPIPE_LIB_DIALECT_TSPIPE_IR_TSPIPERULES_H

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

namespace mlir::tspipe::rules {

/// The bracket roles one task plays on one pipeline, as TS counts them
/// (ts rule R62): the acquire role covers try_acquire, acquire and producer
/// work, the wait role covers try_wait, wait and consumer work.
struct TaskUse {
  mutable TaskOp task;       // op handles are not const-callable
  bool acquires = false;     // producer_try_acquire / producer_acquire
  bool commits = false;      // producer_commit
  bool producerWork = false; // a stage accessor on a producer stage
  bool waits = false;        // consumer_try_wait / consumer_wait
  bool releases = false;     // consumer_release
  bool consumerWork = false; // a stage accessor on a consumer stage

  bool usesAcquireRole() const { return acquires || producerWork; }
  bool usesWaitRole() const { return waits || consumerWork; }
  bool producerSide() const { return acquires || commits || producerWork; }
  bool consumerSide() const { return waits || releases || consumerWork; }
};

/// Every task's uses of every pipeline of a kernel, from one walk of its
/// tasks (so that the rules stay linear in the size of the kernel).
class KernelUses {
public:
  explicit KernelUses(KernelOp kernel);
  /// The tasks that use `pipeline`, in task order, with their roles.
  ArrayRef<TaskUse> of(StringRef pipeline) const;

private:
  llvm::StringMap<SmallVector<TaskUse>> byPipe;
};

/// The pipeline and side (true: producer) a stage handle belongs to, from
/// the bracket that made it; null when it does not come from a bracket.
PipelineOp stagePipeline(Value stage, bool &producerSide);

/// Sum of `num_warps` over `tasks` (warps).
int64_t sumWarps(ArrayRef<TaskOp> tasks);
/// "@a[1], @b[4]": task names with their warp counts, for diagnostics.
std::string taskList(ArrayRef<TaskOp> tasks);
/// The constant lower bound of `task`'s domain loop, if it has one.
std::optional<int64_t> constantStart(TaskOp task);
/// True when `task` drives a role of stride `k` in domain-lane mode: its
/// warps share one lane and its domain loop steps by `k` from a constant
/// start (ts rule R62).
bool isDomainLane(TaskOp task, int64_t k);

/// Arrive counts and signaling (R11, R12, R25, R45-R54, R56, X2-X4).
LogicalResult verifySignalingRules(KernelOp kernel, const KernelUses &uses);
/// Interleaved lanes (R62-R64).
LogicalResult verifyLaneRules(KernelOp kernel, const KernelUses &uses);
/// Bracket order and schedule shape (R32-R34, R40, R65, X8).
LogicalResult verifyBracketRules(KernelOp kernel, const KernelUses &uses);
/// Register and tensor-memory budgets (R41, R42, R44).
LogicalResult verifyBudgetRules(KernelOp kernel);
/// Copies and commits that fill or drain stages (X5, X6). X6's config part
/// (TMA num_bytes a multiple of 16) is checked by `#tspipe.config`.
LogicalResult verifyCopyRules(KernelOp kernel);

/// The uses of the full barrier of `acquire`'s stage (followed through
/// address-space casts), as the X6 byte check counts them
/// (TSPipeCopyRules.cpp).
struct StageCopies {
  /// The bracket takes the stage's full barrier (`tspipe.full_barrier`).
  bool shown = false;
  /// Every use is a bulk copy of constant size without multicast completing
  /// on that barrier; false when some use could complete bytes the count
  /// cannot see (a tensor or multicast copy, a dynamic size, another op).
  bool counted = true;
  /// The countable copies and their bytes.
  llvm::DenseMap<Operation *, int64_t> copies;
  /// Some copies complete on the pair leader's full barrier
  /// ({pair_leader} or the peer-bit idiom): with V = 2 the
  /// leader's barrier receives both CTAs' copies.
  bool leader = false;
  /// The first use that the count cannot see, and why (for the remark).
  Operation *uncounted = nullptr;
  const char *why = nullptr;
};
StageCopies getStageCopies(ProducerAcquireOp acquire);
/// X6 (B20): a pipeline used on one side has a task on the other side.
LogicalResult verifyBothSidesUsed(PipelineOp pipe, ArrayRef<TaskUse> uses);
/// X6: a TMA pipeline that a task fills arms its full barrier for more than
/// 0 bytes (a 0-byte phase completes before the copies land).
LogicalResult verifyBytesArmed(PipelineOp pipe, ArrayRef<TaskUse> uses);
/// NVVM targets of the enclosing gpu.module (X7).
LogicalResult verifyTargetRules(KernelOp kernel);
/// Pipeline groups: members and derived config (R67), explicit group config
/// (R68, R69), a pipeline in at most one group.
LogicalResult verifyGroupRules(KernelOp kernel);
/// The bytes of a fork group's shared full barrier against the copies that
/// complete on it (X6; TSPipeForkArm.cpp).
LogicalResult verifyForkArmRules(KernelOp kernel);
/// CTA- and cluster-wide barriers in tasks (X12) and named barriers (X13;
/// TSPipeBarrierRules.cpp).
LogicalResult verifyBarrierRules(KernelOp kernel);
/// Every use of a pointer into a stage lies inside its bracket (R32, R33;
/// TSPipeStageLifetimeRules.cpp).
LogicalResult verifyStageLifetimeRules(KernelOp kernel);
/// True for an op that computes an address (or part of one) from its
/// operands without touching memory: a value derived from a stage pointer
/// through it is still a stage pointer (R32, R33, X25).
bool derivesStageAddress(Operation *op);
/// A warpgroup MMA's reads of a consumer stage retire (wgmma.wait_group)
/// before the release that frees the stage (X25;
/// TSPipeAsyncReadRules.cpp).
LogicalResult verifyAsyncReadRules(KernelOp kernel);
/// Work queues and persistent tasks across the kernel (R19, R22, R35;
/// TSPipeWorkQueueRules.cpp).
LogicalResult verifyWorkQueueRules(KernelOp kernel);
/// Rules over the dependency graph derived from the IR: every pipeline a
/// task lists is used on that side (R31), a release of a stage comes after
/// the MMA or copy that reads it (R36), a consumer that writes its stage in
/// place is synchronous (R65; TSPipeDependencyRules.cpp).
LogicalResult verifyDependencyRules(KernelOp kernel);
/// True when `task` consumes `upstream` and produces a pipeline of a type
/// TS's DMA ordering covers (tma_async, tma_umma, umma_async, umma_umma,
/// clc_fetch_async): the derived edge R36 checks; `downstream` names it.
bool hasDmaEdge(TaskOp task, StringRef upstream, StringRef *downstream);
/// Alias groups: a resource in at most one group per space (X24), and the
/// order that makes each group's reuse race-free (X23;
/// TSPipeAliasRules.cpp).
LogicalResult verifyAliasRules(KernelOp kernel);
/// The unit attribute that makes a tspipe.full_barrier name the CTA pair
/// leader's full barrier (`tspipe.full_barrier %s {pair_leader}`; X5,
/// TSPipeRoutingRules.cpp): the stage's full barrier address with the peer
/// bit cleared, which the cta_group::2 copies of both CTAs complete on.
constexpr llvm::StringLiteral kPairLeaderAttr = "pair_leader";
/// True for `tspipe.full_barrier %s {pair_leader}`.
inline bool isPairLeaderBarrier(Operation *op) {
  return isa_and_nonnull<FullBarrierOp>(op) && op->hasAttr(kPairLeaderAttr);
}
/// The address `v` clears the peer bit of (the idiom inttoptr(ptrtoint(x) &
/// ~(1 << 24)), through address-space casts), or null: the pair leader's
/// barrier when x is a stage's full barrier (TSPipeRoutingRules.cpp).
Value peerBitCleared(Value v);
/// 2-CTA routing: copies complete on the pair leader's full barrier, no
/// opaque barrier arithmetic, leader-side tcgen05 work on the leader only
/// (X5; TSPipeRoutingRules.cpp).
LogicalResult verifyRoutingRules(KernelOp kernel);
/// Every tspipe op of a task is a direct child of the task, its domain loop
/// or a loop guard (X15; TSPipePlacementRules.cpp).
LogicalResult verifyPlacementRules(KernelOp kernel);
/// Values that differ between the CTAs of a cluster do not decide the trip
/// count, the brackets or the multicast copies of a pipeline spanning CTAs
/// (X29; TSPipeUniformityRules.cpp).
LogicalResult verifyUniformityRules(KernelOp kernel, const KernelUses &uses);
/// One group-level bracket makes every member's arrivals (X16), for a group
/// whose members passed R67.
LogicalResult verifyGroupArrivals(PipelineGroupOp group,
                                  ArrayRef<PipelineOp> members);
/// The values a domain loop carries: iter_args, block arguments, yield and
/// results agree (X26; TSPipeLoopState.cpp).
LogicalResult verifyCarriedState(DomainLoopOp loop);

/// Programmatic dependent launch: R37, X20, X21 (TSPipePdlRules.cpp).
LogicalResult verifyPdlRules(KernelOp kernel);
/// Brackets balanced under tspipe.every / when_true / when_false (R32, R33;
/// TSPipeGuards.cpp).
LogicalResult verifyGuardRules(KernelOp kernel);

} // namespace mlir::tspipe::rules

namespace mlir::tspipe {
/// R24 for one bracket in `task`: a member of a group is named with
/// `group(@g)`, the group itself takes only the bracket its mode collapses
/// (merge: consumer_release, fork: producer_commit), and a group-level
/// bracket's task lists every member on that side (R27).
LogicalResult verifyGroupBracket(Operation *op, TaskOp task,
                                 FlatSymbolRefAttr name,
                                 FlatSymbolRefAttr group, bool producerSide);
} // namespace mlir::tspipe

#endif // TSPIPE_LIB_DIALECT_TSPIPE_IR_TSPIPERULES_H
