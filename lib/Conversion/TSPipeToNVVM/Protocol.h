//===- Protocol.h - pipeline protocols for tspipe-to-nvvm ---------*- C++
//-*-===//
//
// Internal to the TSPipeToNVVM conversion.
//
// * `KernelLowering` owns what one kernel shares: thread / warp ids, the
//   barrier storage of every pipeline, barrier init, task predicates.
// * `PipelineProtocol` is the bracket sequences of one pipeline type
//   (docs/Protocols.md, Per-type protocols): one method per bracket, each
//   given a `BracketContext`. Every type lives in its own
//   `<Type>Protocol.cpp` and is registered in `Protocols.def`.
// * `BracketContext` carries what a bracket needs (builder, location,
//   kernel, pipeline, task, the task's cursors for the pipeline, the ready
//   token) and the helpers shared by every protocol (ProtocolHelpers.cpp):
//   probe, parity wait, cursor advance, gated advance, emitIf, CTA gate.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_CONVERSION_TSPIPETONVVM_PROTOCOL_H
#define TSPIPE_LIB_CONVERSION_TSPIPETONVVM_PROTOCOL_H

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "tspipe/Dialect/TSPipe/IR/Cursor.h"

#include "llvm/ADT/StringMap.h"

#include <array>

namespace mlir::tspipe {

/// A pipeline cursor: stage index and phase bit, both i32 values.
struct Cursor {
  Value index;
  Value phase;
};

/// The cursors one task keeps for one pipeline (docs/Protocols.md, Cursors):
/// producer `p`, producer-commit `pc` (advance_on_acquire), consumer `c`,
/// consumer-release `cr` (advance_on_wait). The domain loop carries only the
/// ones its brackets advance.
struct TaskCursors {
  Cursor producer, producerCommit, consumer, consumerRelease;

  /// The cursor of kind `kind` (Cursor.h).
  Cursor &get(CursorKind kind) {
    switch (kind) {
    case CursorKind::Producer:
      return producer;
    case CursorKind::ProducerCommit:
      return producerCommit;
    case CursorKind::Consumer:
      return consumer;
    case CursorKind::ConsumerRelease:
      return consumerRelease;
    }
    llvm_unreachable("unknown CursorKind");
  }
  /// The cursor bracket `role` uses on a pipeline of config `cfg`.
  Cursor &of(PipelineConfigAttr cfg, BracketRole role) {
    return get(getBracketCursor(cfg, role));
  }

  /// Producer cursors start at phase 1 (the first num_stages acquires pass),
  /// consumer cursors at phase 0.
  static TaskCursors initial(OpBuilder &b, Location loc,
                             PipelineConfigAttr config);
};

class PipelineProtocol;

/// Where one pipeline's barriers and data live, and which protocol lowers
/// its brackets.
struct PipelineLowering {
  PipelineOp op;
  PipelineConfigAttr config;
  const PipelineProtocol *protocol = nullptr;
  /// Base of the full barriers (num_stages x 8 bytes), the empty barriers
  /// right after them, and the data buffer (null when none).
  Value fullBase, emptyBase, bufferBase;
  /// Bytes of one stage of the data buffer.
  int64_t stageBytes = 0;
  /// Whether this pipeline initializes its full / empty barriers: a
  /// pipeline group's shared array is initialized once, by its lead
  /// (docs/Protocols.md, Pipeline groups).
  bool initFull = true, initEmpty = true;
  /// Arrive counts the full / empty barriers are initialized with: the
  /// config's, except a fused_merge lead's full count, the sum of every
  /// member's (GroupLowering.cpp).
  int64_t fullInitCount = 0, emptyInitCount = 0;
  /// Transaction bytes the arm of a TMA producer's acquire expects on the
  /// full barrier of a stage: num_bytes, except a fork lead's, the sum of
  /// every member's (all their copies complete on the shared full barrier).
  int64_t txBytes = 0;
  /// Whether the acquire of a TMA producer arms the full barrier: not for a
  /// fork's other members, which only wait on their own empty barriers.
  bool armsFull = true;
  /// A merge lead whose group release frees stages that TMA copies fill
  /// next: the release starts with `fence.proxy.async.shared::cta`.
  bool proxyFenceBeforeRelease = false;
  /// The commit (release) starts with `fence.proxy.async.shared::cta`: the
  /// generic accesses of the stage before it meet async-proxy accesses
  /// after it (ProxyFences.cpp).
  bool fenceBeforeCommit = false, fenceBeforeRelease = false;
  /// A group member that lowers the group-level bracket (docs/Protocols.md,
  /// Pipeline groups).
  bool groupLead = false;

  Value fullBarrier(OpBuilder &b, Location loc, Value index) const;
  Value emptyBarrier(OpBuilder &b, Location loc, Value index) const;
  Value stageBuffer(OpBuilder &b, Location loc, Value index) const;
};

class KernelLowering;

/// Everything one bracket's emission needs, plus the helpers every protocol
/// shares. Emission inserts at `b`'s insertion point.
struct BracketContext {
  OpBuilder &b;
  Location loc;
  KernelLowering &kernel;
  PipelineLowering &pipeline;
  TaskOp task;
  /// The task's cursors for `pipeline`; brackets advance them in place.
  TaskCursors &cursors;
  /// The i1 token of a preceding try form (acquire / wait only), or null.
  Value ready;

  PipelineConfigAttr config() const { return pipeline.config; }
  Value constI32(int64_t v);
  Value fullBarrier(Value index) { return pipeline.fullBarrier(b, loc, index); }
  Value emptyBarrier(Value index) {
    return pipeline.emptyBarrier(b, loc, index);
  }

  /// The CtaLeader gate `%cluster_ctarank % V == 0` (docs/Protocols.md,
  /// Signaling threads), or null when every CTA signals: no `cta_leader` in
  /// `signaling`, a task with `cta(n)`, one CTA, or V = 1.
  Value ctaGate(SignalingThreads signaling);
  /// One non-blocking parity probe of `barrier`: true once the phase with
  /// parity `phase` has completed (`mbarrier.try_wait`).
  Value probe(Value barrier, Value phase);
  /// Blocking parity wait on `barrier` (skipped when `ready` is true; the
  /// bounded debug form traps after the kernel's hang timeout, naming
  /// `what`, the stage `index` and the phase).
  void waitParity(Value barrier, Value phase, Value ready, StringRef what,
                  Value index);
  /// Strided advance: index += stride (stages), wrapping at num_stages with
  /// a phase flip; only where `gate` holds when a gate is given.
  void advance(Cursor &cursor, int64_t stride, Value gate = Value());
  /// The advance of a CtaLeader-gated bracket: conditional on `gate` for a
  /// unit stride, unconditional for a strided (interleaved) role, as TS does.
  void advanceAfterGated(Cursor &cursor, int64_t stride, Value gate);
  /// Runs `body` under `cond` (no branch when cond is null).
  void emitIf(Value cond, function_ref<void()> body);
  /// `a && b` where either may be null (null: true).
  Value andGates(Value a, Value b);
  /// The TaskWarpLeader gate (`warp index == the task's first warp`), or
  /// null when `taskWarpLeader` is false (every warp of the task signals).
  Value firstWarpGate(bool taskWarpLeader);
  /// `mbarrier.arrive.expect_tx` (CTA scope) of the pipeline's transaction
  /// bytes (`PipelineLowering::txBytes`) on the full barrier of stage
  /// `index`, by the calling thread.
  void expectTx(Value index);
  /// Arms the full barrier of stage `index` for its transaction bytes: under
  /// `gate` (null: every thread of the task), one elected thread per warp
  /// issues `expectTx` (TmaAsync and TmaUmma producer_acquire). Emits
  /// nothing for a pipeline that does not arm (`armsFull`: a fork's other
  /// members).
  void armFullElected(Value index, Value gate);
  /// `fence.proxy.async.shared::cta` by the calling thread: orders its
  /// generic-proxy reads of a stage before the async-proxy write (bulk
  /// copy) of the stage's next fill (PTX ISA, "membar / fence"). Issued by
  /// every consumer thread before a release of a TMA-filled stage.
  void fenceAsyncProxy();

  // Cluster primitives (docs/Protocols.md, Clusters). A barrier of another
  // CTA is reached by mapping the local shared::cta address of the same
  // barrier into that CTA's window of the shared::cluster space (`mapa`,
  // PTX ISA 9.7.9.24); arrivals on it use the `shared::cluster` forms
  // (field bug B14: never the local form on a mapped address).

  /// This CTA's rank in its cluster (`%cluster_ctarank`), an i32.
  Value ctaRank();
  /// The address of `localBarrier`'s counterpart in the CTA of cluster rank
  /// `rank` (i32): `nvvm.mapa` from `!llvm.ptr<3>` to `!llvm.ptr<7>`.
  Value mapaToCta(Value localBarrier, Value rank);
  /// The scope of the pipeline's remote arrives (`remote_arrive_scope` of
  /// its `tspipe.pipeline`; cluster when absent; docs/Protocols.md,
  /// Remote-arrive scope).
  NVVM::MemScopeKind remoteArriveScope();
  /// One arrive (count 1, release at `remoteArriveScope()`) on the barrier
  /// of CTA `rank` that corresponds to `localBarrier`:
  /// `mbarrier.arrive.release.{cluster|cta}.shared::cluster.b64`.
  void remoteArrive(Value localBarrier, Value rank);
  /// `arrive.expect_tx` of `bytes` transaction bytes on the barrier of CTA
  /// `rank` that corresponds to `localBarrier` (release at
  /// `remoteArriveScope()`, `shared::cluster` form).
  void remoteArriveExpectTx(Value localBarrier, Value rank, int64_t bytes);
  /// The (V, M, N, L) coordinates of cluster rank `rank` (i32) in the
  /// pipeline's `cta_layout_vmnk`, V fastest (column-major, as CuTe lays out
  /// a shape tuple).
  std::array<Value, 4> ctaCoords(Value rank);
  /// One arrive (remoteArrive, at the pipeline's scope) on the copy of `barrier`
  /// (a shared::cta address of this CTA) in the leader CTA of this CTA's
  /// tcgen05 pair, rank `rank - rank % V`: `mapa` to the leader's
  /// shared::cluster address, then the shared::cluster form of
  /// `mbarrier.arrive` (ts-semantics 1.11 ARR_R / AUC2). Local when V = 1.
  void arriveOnPairLeader(Value barrier);
};

/// The bracket sequences of one pipeline type. The defaults implement what
/// every type shares (docs/Protocols.md, Cursors and Producer drain); a type
/// overrides the brackets where its instructions differ. Protocols are
/// stateless singletons (see `getPipelineProtocol`).
class PipelineProtocol {
public:
  virtual ~PipelineProtocol() = default;

  /// producer_try_acquire: one probe of E[p.idx]; returns the ready token.
  virtual Value tryAcquire(BracketContext &ctx) const;
  /// producer_acquire: parity wait on E[p.idx] plus the type's arm of F;
  /// returns the i32 index of the acquired stage. The default is the wait
  /// alone, gated by the producer's CtaLeader signaling, with the split
  /// advance of advance_on_acquire (types whose producer arms nothing).
  virtual Value acquire(BracketContext &ctx) const;
  /// producer_commit: the type's arrive on F; advances p (or pc).
  virtual void commit(BracketContext &ctx) const = 0;
  /// producer_tail: num_stages / stride parity waits on E, under
  /// `drainGate`.
  virtual void producerTail(BracketContext &ctx) const;
  /// Which CTAs run the drain's waits: those whose empty barriers receive
  /// releases. The default is the producer's CtaLeader gate (the CTAs that
  /// acquire); null for every CTA.
  virtual Value drainGate(BracketContext &ctx) const;
  /// consumer_try_wait: one probe of F[c.idx]; returns the ready token.
  virtual Value tryWait(BracketContext &ctx) const;
  /// consumer_wait: parity wait on F[c.idx]; returns the i32 stage index.
  virtual Value wait(BracketContext &ctx) const;
  /// consumer_release: the type's arrive on E; advances c (or cr).
  virtual void release(BracketContext &ctx) const = 0;

  /// The cursor a commit (producer tail) uses and its stride: pc with the
  /// commit stride under advance_on_acquire, else p with the acquire stride.
  static std::pair<Cursor *, int64_t> commitCursor(BracketContext &ctx);
  /// The cursor the producer drain of the context's task uses and its
  /// stride (Cursor.h, getDrainCursor): the commit cursor, except in a task
  /// that acquires a split (advance_on_acquire) pipeline without committing
  /// it, which drains with p and the acquire stride.
  static std::pair<Cursor *, int64_t> drainCursor(BracketContext &ctx);

protected:
  /// The common acquire wait: parity wait on E[p.idx] under `gate`.
  static void waitEmpty(BracketContext &ctx, Value index, Value gate);
};

/// The protocol of `type` (every type has one: `Protocols.def`). The
/// protocols assume a verified kernel: whether a configuration can be
/// lowered is decided by the verifier and tspipe-verify-lowering.
const PipelineProtocol &getPipelineProtocol(PipelineType type);

// `get<Type>Protocol()`, defined in `<Type>Protocol.cpp`, for each type of
// Protocols.def.
#define TSPIPE_PROTOCOL(Type) const PipelineProtocol &get##Type##Protocol();
#include "Protocols.def"

/// What a whole kernel's lowering shares.
class KernelLowering {
public:
  KernelLowering(KernelOp kernel, int64_t hangTimeout)
      : kernel(kernel), hangTimeout(hangTimeout) {}

  /// Computes thread/warp ids, the shared memory base and each pipeline's
  /// barrier and buffer addresses at the builder's insertion point; rejects
  /// pipeline kinds the lowering does not cover.
  LogicalResult prepare(OpBuilder &b, LLVM::GlobalOp smem);
  /// The pipeline groups (GroupLowering.cpp): which member initializes each
  /// shared barrier array and lowers the group-level bracket, the shared
  /// array's counts and bytes; rejects a group whose members' group-level
  /// brackets one lowered bracket cannot serve.
  LogicalResult prepareGroups();
  /// Which commits and releases need a proxy fence (ProxyFences.cpp), from
  /// the sides' proxies and the work ops of the brackets.
  void prepareProxyFences();
  /// Barrier init by one elected thread of warp 0, fence, CTA or cluster
  /// synchronization (docs/Protocols.md, Barrier storage and initialization).
  void emitBarrierInit(OpBuilder &b);
  /// True on the warps (and, with `withCta`, the CTA) of `task`.
  Value taskPredicate(OpBuilder &b, TaskOp task, bool withCta = true);
  /// `setmaxnreg` for a task with `registers(n)`.
  void emitRegisterHint(OpBuilder &b, TaskOp task);

  PipelineLowering &pipeline(StringRef name) { return pipelines[name]; }
  Value warpIdx() const { return warp; }
  Value laneIdx() const { return lane; }
  Value threadIdx() const { return tid; }
  Value ctaRank(OpBuilder &b, Location loc);
  int64_t getHangTimeout() const { return hangTimeout; }
  Value constI32(OpBuilder &b, Location loc, int64_t v);
  /// The dynamic shared memory base (`!llvm.ptr<3>`) prepare() computed.
  Value sharedMemoryBase() const { return smemBase; }

private:
  /// `v` (an i32) of lane 0 of the warp, `shfl.sync.idx` over the full warp
  /// (PTX ISA 9.7.9.6): a value ptxas then knows to be warp-uniform. Emitted
  /// only where the whole warp runs (kernel entry, before the task
  /// dispatch).
  Value broadcastLane0(OpBuilder &b, Location loc, Value v);
  /// The dynamic shared memory `smem` as a `!llvm.ptr<3>` computed once at
  /// kernel entry: its 32-bit shared::cta address broadcast from lane 0.
  /// Every barrier and stage buffer address is an offset from it. Taken from
  /// the symbol in each use, LLVM rematerializes the address in every task
  /// branch (in a kernel that may run in a cluster, ptxas reads the
  /// shared window from the CTA's cluster id there each time); the one
  /// shuffled value stays in a uniform register for the whole kernel.
  Value sharedBase(OpBuilder &b, Location loc, LLVM::GlobalOp smem);

  KernelOp kernel;
  int64_t hangTimeout;
  llvm::StringMap<PipelineLowering> pipelines;
  Value tid, warp, lane, rank, smemBase;
};

/// The value a tspipe.buffer_address (the buffer's address: shared base +
/// buffer_offset) or tspipe.tmem_column (the resource's tmem_offset, an
/// i32) lowers to at `b`'s insertion point; an error when
/// tspipe-allocate-smem has not placed the resource (AliasLowering.cpp).
FailureOr<Value> lowerAliasAccessor(OpBuilder &b, KernelLowering &k,
                                    Operation &op);

} // namespace mlir::tspipe

#endif // TSPIPE_LIB_CONVERSION_TSPIPETONVVM_PROTOCOL_H
