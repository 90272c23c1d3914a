//===- TSPipeOps.td - tspipe operations --------------------*- tablegen -*-===//

#ifndef TSPIPE_OPS_TD
#define TSPIPE_OPS_TD

include "tspipe/Dialect/TSPipe/IR/TSPipeDialect.td"
include "tspipe/Dialect/TSPipe/IR/TSPipeAttrs.td"
include "tspipe/Dialect/TSPipe/IR/TSPipeTypes.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def TSPipe_KernelOp : TSPipe_Op<"kernel", [
    SymbolTable, SingleBlock, NoTerminator]> {
  let summary = "a warp-specialized kernel body: pipelines and tasks";
  let description = [{
    The body of a GPU kernel (it sits in a `gpu.func` marked `kernel`) as TS
    sees it: `num_warps` warps per CTA, a cluster of `cluster_shape` CTAs, the
    pipelines (`tspipe.pipeline`) and the tasks (`tspipe.task`) that run on
    warp ranges of every CTA. Nothing else may appear in the body.

    The CTA has `32 * num_warps` threads along x. Before any task runs, the
    lowering initializes every barrier of every pipeline (one elected thread
    of warp 0), then fences the inits and synchronizes the CTA (or the
    cluster), as docs/Protocols.md (Barrier storage and initialization)
    describes.

    `smem_bytes` is set by `tspipe-allocate-smem`: the dynamic shared memory
    (bytes) the kernel must be launched with.

    `normalized` is set by `tspipe-normalize` once the facts the lowering
    needs are recorded in the IR (`advance_on_wait` of split consumers, R66;
    the `release` form of TmaAsync pipelines). From then on the verifier
    requires them, and `convert-tspipe-to-nvvm` lowers only normalized
    kernels.

    Example:

    ```mlir
    tspipe.kernel warps(5) {
      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 4096,
          producer_group = <thread, 1>, consumer_group = <thread, 4>>)
          smem_bytes(16384)
      tspipe.task @load warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %c8 step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @compute warps(1, 4) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %c8 step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    ```
  }];
  let arguments = (ins I64Attr:$num_warps,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster_shape,
                       OptionalAttr<I64Attr>:$smem_bytes,
                       UnitAttr:$normalized);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `warps` `(` $num_warps `)` (`cluster` `(` $cluster_shape^ `)`)?
    (`normalized` $normalized^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Cluster extents (x, y, z); [1, 1, 1] when unset.
    ::llvm::SmallVector<int64_t, 3> getClusterExtents();
    /// Number of CTAs in the cluster.
    int64_t getNumCtasInCluster();
  }];
}

def TSPipe_PipelineOp : TSPipe_Op<"pipeline", [
    Symbol, HasParent<"KernelOp">]> {
  let summary = "a pipelined resource: a ring of full/empty mbarriers";
  let description = [{
    Declares one pipelined resource: `num_stages` stages, each with a full
    barrier (producers arrive, consumers wait) and an empty barrier (consumers
    arrive, producers wait), configured by a `#tspipe.config`. With
    `smem_bytes(N)` it also owns an N-byte shared-memory data buffer, split
    evenly over the stages (`N / num_stages` bytes each), that
    `tspipe.stage_buffer` addresses.

    `barrier_offset` and `buffer_offset` (bytes into the kernel's dynamic
    shared memory) are set by `tspipe-allocate-smem`: the full barriers start
    at `barrier_offset`, the empty barriers `8 * num_stages` bytes later,
    except for a member of a `tspipe.pipeline_group`, whose empty barriers
    start at `empty_barrier_offset` (one array may be shared by the group).
    `tmem_offset`, the first of the `tmem_columns` columns, is set by the
    same pass (`tspipe.tmem_column` reads it).

    `release(lane | all_threads)` is set on TmaAsync pipelines by
    `tspipe-normalize`: `lane` when lane 0 of each releasing warp arrives
    once per stage (after a warp sync), `all_threads` when every thread of
    the releasing tasks arrives; TS picks the latter when `consumer_group`
    counts 32 x the releasing warps (docs/Protocols.md, TmaAsync). Once set,
    R54 checks the count against this form alone.

    `remote_arrive_scope(cta | cluster)` chooses the memory scope of the
    release every remote arrive of this pipeline carries (an arrive on
    another CTA's barrier through `mapa`: cluster consumer releases, remote
    arms, pair-leader arrives). Absent means `cluster`; `cta` is the
    CTA-scope release hand-written CUTLASS kernels issue (docs/Protocols.md,
    Remote-arrive scope).

    Example:

    ```mlir
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 64>,
        async_producer_op = async_load>) smem_bytes(8192)
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TSPipe_PipelineConfigAttr:$config,
                       OptionalAttr<I64Attr>:$smem_bytes,
                       OptionalAttr<I64Attr>:$tmem_columns,
                       OptionalAttr<I64Attr>:$barrier_offset,
                       OptionalAttr<I64Attr>:$buffer_offset,
                       OptionalAttr<TSPipe_ReleaseForm>:$release_form,
                       OptionalAttr<I64Attr>:$empty_barrier_offset,
                       OptionalAttr<I64Attr>:$tmem_offset,
                       OptionalAttr<TSPipe_RemoteArriveScope>:$remote_arrive_scope);
  let assemblyFormat = [{
    $sym_name `config` `(` $config `)`
    (`smem_bytes` `(` $smem_bytes^ `)`)?
    (`tmem_columns` `(` $tmem_columns^ `)`)?
    (`release` `(` $release_form^ `)`)?
    (`remote_arrive_scope` `(` $remote_arrive_scope^ `)`)? attr-dict
  }];
  let extraClassDeclaration = [{
    /// The scope of this pipeline's remote arrives: `remote_arrive_scope`,
    /// `cluster` when absent.
    RemoteArriveScope getEffectiveRemoteArriveScope() {
      return getRemoteArriveScope().value_or(RemoteArriveScope::Cluster);
    }
    /// R44: tmem_columns is a tcgen05.alloc count on a tcgen05 type.
    ::mlir::LogicalResult verifyTmemColumns();
  }];
  let hasVerifier = 1;
}

def TSPipe_PipelineGroupOp : TSPipe_Op<"pipeline_group", [
    Symbol, HasParent<"KernelOp">]> {
  let summary = "pipelines that share a barrier array (TS PipelineGroup)";
  let description = [{
    TS's `PipelineGroup`: the member pipelines share one of their two barrier
    arrays, so that one barrier operation serves every member
    (docs/Protocols.md, Pipeline groups).

    * `merge` (N producer sides, one consumer side): each member keeps its
      full barriers; the members share one empty barrier array. Barrier
      storage `[F_0 x S] ... [F_{N-1} x S] [E_shared x S]`. The consumer waits
      on each member (`tspipe.consumer_wait @m group(@g)`) and releases once,
      on the group (`tspipe.consumer_release @g`), which frees the stage of
      every member.
    * `fork` (one producer side, N consumer sides): the members share one
      full barrier array and keep their empty barriers. Barrier storage
      `[F_shared x S] [E_0 x S] ... [E_{N-1} x S]`. The producer acquires each
      member (`tspipe.producer_acquire @m group(@g)`) and commits once, on
      the group (`tspipe.producer_commit @g`), which fills the stage of every
      member.
    * `fused_merge` (N producer sides, one consumer side): the members share
      both barrier arrays. Barrier storage `[F_shared x S] [E_shared x S]`;
      `F_shared` counts every member's producer arrivals (and the bytes of
      every TMA member). Each producer acquires and commits its member; the
      consumer waits (`tspipe.consumer_try_wait` / `tspipe.consumer_wait`)
      and releases once, on the group, for every member; a member's data
      buffer is addressed through `tspipe.current_stage @m consumer
      group(@g)`.

    Every bracket on a member names the group with `group(@g)`; the group
    itself takes only the bracket its mode collapses (R24). The members
    agree on stages, strides, layout and signaling, and the mode must be
    the one their pipeline types imply (R67). `config`, when given, is TS's
    explicit group config; it is checked against the members (R68, R69).
    `barrier_offset` (bytes into the kernel's dynamic shared memory) is set
    by `tspipe-allocate-smem`: the group's `(N + 1) * num_stages` mbarriers
    (`2 * num_stages` for `fused_merge`) start there.

    Example:

    ```mlir
    tspipe.pipeline_group @ab merge [@a, @b]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TSPipe_GroupMode:$mode,
                       FlatSymbolRefArrayAttr:$members,
                       OptionalAttr<TSPipe_PipelineConfigAttr>:$config,
                       OptionalAttr<I64Attr>:$barrier_offset);
  let assemblyFormat = [{
    $sym_name $mode $members (`config` `(` $config^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True if `pipeline` is a member.
    bool hasMember(::llvm::StringRef pipeline);
    /// Index of `pipeline` among the members, or -1.
    int64_t memberIndex(::llvm::StringRef pipeline);
  }];
}

def TSPipe_TaskOp : TSPipe_Op<"task", [
    Symbol, HasParent<"KernelOp">, SingleBlock, NoTerminator]> {
  let summary = "a task: a warp range of every CTA and its schedule";
  let description = [{
    TS's `Task`: the warps `[warp_idx, warp_idx + num_warps)` of every CTA (of
    CTA `run_only_on_cta_id` alone, when set) run the body. `produces` lists
    the pipelines the task may use producer brackets on (TS `dst_resources`),
    `consumes` those it may use consumer brackets on (`src_resources`).
    `registers(n)` asks for `n` registers per thread (`setmaxnreg`).

    The body is the task's schedule: head operations, one
    `tspipe.domain_loop`, tail operations. Each task keeps its own pipeline
    cursors (index, phase) per pipeline; after the body every produced
    pipeline is drained (`producer_tail`) unless the body drains it itself.

    Example:

    ```mlir
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %lb to %ub step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       I64Attr:$warp_idx,
                       I64Attr:$num_warps,
                       OptionalAttr<FlatSymbolRefArrayAttr>:$produces,
                       OptionalAttr<FlatSymbolRefArrayAttr>:$consumes,
                       OptionalAttr<I64Attr>:$run_only_on_cta_id,
                       OptionalAttr<I64Attr>:$num_registers);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `warps` `(` $warp_idx `,` $num_warps `)`
    (`produces` $produces^)? (`consumes` $consumes^)?
    (`cta` `(` $run_only_on_cta_id^ `)`)?
    (`registers` `(` $num_registers^ `)`)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True if `pipeline` is listed in `produces` / `consumes`.
    bool producesPipeline(::llvm::StringRef pipeline);
    bool consumesPipeline(::llvm::StringRef pipeline);
    /// The task's domain loop (verified to exist exactly once).
    class DomainLoopOp getDomainLoop();
  }];
}

def TSPipe_DomainLoopOp : TSPipe_Op<"domain_loop", [
    ParentOneOf<["TaskOp", "WorkTileLoopOp", "SkippableOp"]>, SingleBlock,
    NoTerminator]> {
  let summary = "the task's domain loop";
  let description = [{
    TS's `domain_loop(start, end, step)`: the body runs for
    `%iv = start, start + step, ...` while `%iv < end`. `end` may be dynamic
    (any index value); `step` must be non-zero (R17). Exactly one per task
    (R16). Operations before it are the task's head, operations after it its
    tail. Pipeline cursors are carried through it.

    Task-local state (accumulators, counters, tile coordinates) is carried
    with `iter_args`: each initial value seeds a body block argument after
    the iteration, the body ends with `tspipe.yield` of the next values (one
    per argument, same types) and the op's results are the values after the
    last iteration (the initial values for an empty domain), usable in the
    task's tail.

    Example:

    ```mlir
    tspipe.domain_loop %i = %c0 to %n step %c1 {
      tspipe.first_iter {
        %s = tspipe.producer_acquire @ring
      }
    }

    tspipe.domain_loop %k = %c0 to %n step %c1
        iter_args(%acc = %zero) -> (f32) {
      %next = arith.addf %acc, %one : f32
      tspipe.yield %next : f32
    }
    ```
  }];
  let arguments = (ins Index:$lower_bound, Index:$upper_bound, Index:$step,
                       Variadic<AnyType>:$init_args);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::BlockArgument getInductionVar() { return getBody().getArgument(0); }
    /// The carried values inside the body (block arguments 1..N).
    ::mlir::Block::BlockArgListType getRegionIterArgs() {
      return getBody().getArguments().drop_front();
    }
    /// The body's `tspipe.yield`, or null (a loop carrying nothing may omit it).
    class YieldOp getYield();
  }];
}

class TSPipe_GuardOp<string mnemonic, string what>
    : TSPipe_Op<mnemonic, [HasParent<"DomainLoopOp">, SingleBlock,
                           NoTerminator]> {
  let summary = "run the body on the " # what # " iteration of the domain loop";
  let description = [{
    A loop guard (TS `d.}] # mnemonic # [{()`): the body runs only on the
    }] # what # [{ iteration of the enclosing `tspipe.domain_loop`. With a
    single iteration both `first_iter` and `last_iter` run; with none,
    neither does (docs/Protocols.md, Schedule structure).

    Example:

    ```mlir
    tspipe.}] # mnemonic # [{ {
      tspipe.consumer_release @ring
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
}

def TSPipe_FirstIterOp : TSPipe_GuardOp<"first_iter", "first">;
def TSPipe_LastIterOp : TSPipe_GuardOp<"last_iter", "last">;

//===----------------------------------------------------------------------===//
// Brackets
//===----------------------------------------------------------------------===//

class TSPipe_BracketOp<string mnemonic, string producerSideExpr>
    : TSPipe_Op<mnemonic, [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let extraClassDeclaration = [{
    /// The pipeline this bracket names (null if it does not resolve).
    PipelineOp getPipelineOp();
    /// True for producer-side brackets.
    bool isProducerSide();
    /// The pipeline group this bracket names: the `group(@g)` of a member
    /// bracket, or the group a group-level bracket names itself (null if
    /// neither).
    PipelineGroupOp getPipelineGroupOp();
  }];
  let extraClassDefinition = [{
    bool $cppClass::isProducerSide() { return }] # producerSideExpr # [{; }
    PipelineOp $cppClass::getPipelineOp() {
      return ::mlir::tspipe::lookupPipeline(getOperation(), getPipelineAttr());
    }
    PipelineGroupOp $cppClass::getPipelineGroupOp() {
      return ::mlir::tspipe::lookupGroup(getOperation(),
          getGroupAttr() ? getGroupAttr() : getPipelineAttr());
    }
    ::mlir::LogicalResult
    $cppClass::verifySymbolUses(::mlir::SymbolTableCollection &tables) {
      return ::mlir::tspipe::verifyBracketSymbol(getOperation(),
          getPipelineAttr(), getGroupAttr(), isProducerSide(), &tables);
    }
  }];
}

def TSPipe_ProducerTryAcquireOp : TSPipe_BracketOp<"producer_try_acquire", "true"> {
  let summary = "probe the empty barrier of the producer's next stage";
  let description = [{
    One non-blocking `mbarrier.try_wait.parity` on the empty barrier of the
    producer cursor's stage, with the cursor's phase. The `i1` result is true
    when the stage is free; pass it to the next `tspipe.producer_acquire` so
    that it skips its blocking wait (TS `try_acquire`, but the token is an SSA
    value rather than a sticky register).

    Example:

    ```mlir
    %ready = tspipe.producer_try_acquire @ring
    %s = tspipe.producer_acquire @ring ready(%ready)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$pipeline,
                       OptionalAttr<FlatSymbolRefAttr>:$group);
  let results = (outs I1:$ready);
  let assemblyFormat = "$pipeline (`group` `(` $group^ `)`)? attr-dict";
}

def TSPipe_ProducerAcquireOp : TSPipe_BracketOp<"producer_acquire", "true"> {
  let summary = "wait until the producer's next stage is empty";
  let description = [{
    Blocks on the empty barrier of the producer cursor's stage (parity = the
    cursor's phase; a producer cursor starts at phase 1, so the first
    `num_stages` acquires pass at once). TMA pipelines then arm the stage's
    full barrier with `mbarrier.arrive.expect_tx` of `num_bytes` from one
    elected thread of each producer warp (docs/Protocols.md, TmaAsync). With
    `advance_on_acquire` the cursor advances here. `ready` (from
    `tspipe.producer_try_acquire`) skips the wait when true; it must be the
    token of a `tspipe.producer_try_acquire` on the same pipeline, never an
    arbitrary `i1`. The result is the acquired stage.

    Example:

    ```mlir
    %s = tspipe.producer_acquire @ring
    %bar = tspipe.full_barrier %s : !llvm.ptr<3>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$pipeline,
                       OptionalAttr<FlatSymbolRefAttr>:$group,
                       Optional<I1>:$ready);
  let results = (outs TSPipe_StageType:$stage);
  let assemblyFormat = [{
    $pipeline (`group` `(` $group^ `)`)? (`ready` `(` $ready^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def TSPipe_ProducerCommitOp : TSPipe_BracketOp<"producer_commit", "true"> {
  let summary = "signal that the producer's stage is full";
  let description = [{
    Arrives on the full barrier of the commit cursor's stage with the
    pipeline type's producer operation (AsyncAsync: `mbarrier.arrive` from
    every producer thread, or `cp.async.mbarrier.arrive.noinc` for
    `async_load`; TMA types: nothing, the copies complete the transaction
    bytes) and advances the cursor by the commit stride.

    Example:

    ```mlir
    tspipe.producer_commit @ring
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$pipeline,
                       OptionalAttr<FlatSymbolRefAttr>:$group);
  let assemblyFormat = "$pipeline (`group` `(` $group^ `)`)? attr-dict";
}

def TSPipe_ProducerTailOp : TSPipe_BracketOp<"producer_tail", "true"> {
  let summary = "drain the pipeline before the producer exits";
  let description = [{
    Waits until every stage the producer filled has been released by the
    consumers (`num_stages / k` empty-barrier waits, advancing the cursor
    by k, the producer's commit stride; k = 1 unless interleaved), so
    that no arrive targets a barrier of an exited CTA (docs/Protocols.md,
    Producer drain).
    The lowering inserts it at the end of every producing task that does not
    write one.

    Example:

    ```mlir
    tspipe.producer_tail @ring
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$pipeline,
                       OptionalAttr<FlatSymbolRefAttr>:$group);
  let assemblyFormat = "$pipeline (`group` `(` $group^ `)`)? attr-dict";
}

def TSPipe_ConsumerTryWaitOp : TSPipe_BracketOp<"consumer_try_wait", "false"> {
  let summary = "probe the full barrier of the consumer's next stage";
  let description = [{
    One non-blocking `mbarrier.try_wait.parity` on the full barrier of the
    consumer cursor's stage. The `i1` result is true when the stage is ready;
    pass it to the next `tspipe.consumer_wait`.

    Example:

    ```mlir
    %ready = tspipe.consumer_try_wait @ring
    %s = tspipe.consumer_wait @ring ready(%ready)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$pipeline,
                       OptionalAttr<FlatSymbolRefAttr>:$group);
  let results = (outs I1:$ready);
  let assemblyFormat = "$pipeline (`group` `(` $group^ `)`)? attr-dict";
}

def TSPipe_ConsumerWaitOp : TSPipe_BracketOp<"consumer_wait", "false"> {
  let summary = "wait until the consumer's next stage is full";
  let description = [{
    Blocks on the full barrier of the consumer cursor's stage (parity = the
    cursor's phase, starting at 0). With `advance_on_wait` the cursor advances
    here. `ready` skips the wait when true; it must be the token of a
    `tspipe.consumer_try_wait` on the same pipeline. The result is the stage
    to read.

    Example:

    ```mlir
    %s = tspipe.consumer_wait @ring
    %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$pipeline,
                       OptionalAttr<FlatSymbolRefAttr>:$group,
                       Optional<I1>:$ready);
  let results = (outs TSPipe_StageType:$stage);
  let assemblyFormat = [{
    $pipeline (`group` `(` $group^ `)`)? (`ready` `(` $ready^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def TSPipe_ConsumerReleaseOp : TSPipe_BracketOp<"consumer_release", "false"> {
  let summary = "signal that the consumer's stage is empty";
  let description = [{
    Arrives on the empty barrier of the release cursor's stage with the
    pipeline type's consumer operation (AsyncAsync: every consumer thread;
    TmaAsync: lane 0 of each consumer warp on one CTA, or every thread in the
    all-thread release form) and advances the cursor by the release stride.

    Example:

    ```mlir
    tspipe.consumer_release @ring
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$pipeline,
                       OptionalAttr<FlatSymbolRefAttr>:$group);
  let assemblyFormat = "$pipeline (`group` `(` $group^ `)`)? attr-dict";
}

def TSPipe_CurrentStageOp : TSPipe_BracketOp<"current_stage", "getRole() == Role::Producer"> {
  let summary = "the stage a work step of this task addresses";
  let description = [{
    TS's `StageInfo` for work steps that are not preceded by an acquire or a
    wait in the same task (split producers and consumers): the stage of the
    task's commit cursor (`producer`) or release cursor (`consumer`).

    Example:

    ```mlir
    %s = tspipe.current_stage @ring consumer
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$pipeline, TSPipe_Role:$role,
                       OptionalAttr<FlatSymbolRefAttr>:$group);
  let results = (outs TSPipe_StageType:$stage);
  let assemblyFormat = "$pipeline $role (`group` `(` $group^ `)`)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Stage accessors
//===----------------------------------------------------------------------===//

// Every accessor takes the stage handle straight from the bracket that made
// it (tspipe.producer_acquire, tspipe.consumer_wait, tspipe.current_stage);
// a handle from a block argument or a select has no cursor to lower to.
class TSPipe_StageAccessorOp<string mnemonic, string what>
    : TSPipe_Op<mnemonic, [Pure]> {
  let summary = "the " # what # " of a pipeline stage";
  let arguments = (ins TSPipe_StageType:$stage);
  // The stage must come straight from a bracket (see verifyStageOperand).
  let hasVerifier = 1;
}

def TSPipe_StageIndexOp : TSPipe_StageAccessorOp<"stage_index", "index"> {
  let description = [{
    The index of the stage in `[0, num_stages)`. Like every stage accessor,
    it takes the handle directly from the bracket that produced it
    (`tspipe.producer_acquire`, `tspipe.consumer_wait` or
    `tspipe.current_stage`).

    Example: `%i = tspipe.stage_index %s`
  }];
  let results = (outs Index:$index);
  let assemblyFormat = "$stage attr-dict";
}

def TSPipe_FullBarrierOp
    : TSPipe_StageAccessorOp<"full_barrier", "full mbarrier"> {
  let description = [{
    The shared-memory address of the stage's full mbarrier (8 bytes), e.g. the
    mbarrier a bulk copy completes its transaction bytes on.

    Example: `%b = tspipe.full_barrier %s : !llvm.ptr<3>`
  }];
  let results = (outs LLVM_PointerInAddressSpace<3>:$barrier);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($barrier))";
}

def TSPipe_EmptyBarrierOp
    : TSPipe_StageAccessorOp<"empty_barrier", "empty mbarrier"> {
  let description = [{
    The shared-memory address of the stage's empty mbarrier (8 bytes).

    Example: `%b = tspipe.empty_barrier %s : !llvm.ptr<3>`
  }];
  let results = (outs LLVM_PointerInAddressSpace<3>:$barrier);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($barrier))";
}

def TSPipe_StageBufferOp
    : TSPipe_StageAccessorOp<"stage_buffer", "data buffer slice"> {
  let description = [{
    The shared-memory address of the stage's slice of the pipeline's data
    buffer: `buffer + index * (smem_bytes / num_stages)` (128-byte aligned
    base). The pipeline must declare `smem_bytes`.

    Example: `%p = tspipe.stage_buffer %s : !llvm.ptr<3>`
  }];
  let results = (outs LLVM_PointerInAddressSpace<3>:$buffer);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($buffer))";
}


//===----------------------------------------------------------------------===//
// Named barriers
//===----------------------------------------------------------------------===//

def TSPipe_NamedBarrierOp : TSPipe_Op<"named_barrier", [
    Symbol, HasParent<"KernelOp">]> {
  let summary = "a CTA named barrier (bar.sync id) shared by some tasks";
  let description = [{
    A hardware named barrier of the CTA for the threads of the listed
    tasks: the right tool where a task would otherwise use a CTA-wide
    barrier (`gpu.barrier`, `nvvm.barrier0`), which deadlocks unless every
    warp of the CTA reaches it (rule X12). tspipe gives each named barrier
    of a kernel an id in [1, 15] (id 0 is the kernel's own init barrier; PTX
    has 16), in declaration order, and the thread count 32 x the warps of
    the listed tasks (rule X13). The tasks synchronize with
    `tspipe.named_barrier_sync` and, on the signalling side of a
    producer/consumer hand-off, `tspipe.named_barrier_arrive`.

    Example:

    ```mlir
    tspipe.named_barrier @epilogue tasks [@mma0, @mma1]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       FlatSymbolRefArrayAttr:$tasks);
  let assemblyFormat = "$sym_name `tasks` $tasks attr-dict";
  let extraClassDeclaration = [{
    /// The PTX barrier id tspipe gives this barrier: 1 + its position among
    /// the kernel's named barriers (ids 1-15; 0 is the init barrier).
    int64_t getBarrierId();
    /// 32 x the warps of the listed tasks (threads), or 0 when a task does
    /// not resolve.
    int64_t getThreadCount();
  }];
}

class TSPipe_NamedBarrierUseOp<string mnemonic> : TSPipe_Op<mnemonic, [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let arguments = (ins FlatSymbolRefAttr:$barrier);
  let assemblyFormat = "$barrier attr-dict";
  let extraClassDeclaration = [{
    /// The tspipe.named_barrier this op names (null if it does not
    /// resolve).
    NamedBarrierOp getNamedBarrierOp();
  }];
  let extraClassDefinition = [{
    NamedBarrierOp $cppClass::getNamedBarrierOp() {
      return ::mlir::tspipe::lookupNamedBarrier(getOperation(),
                                               getBarrierAttr());
    }
    ::mlir::LogicalResult
    $cppClass::verifySymbolUses(::mlir::SymbolTableCollection &) {
      return ::mlir::tspipe::verifyNamedBarrierUse(getOperation(),
                                                  getBarrierAttr());
    }
  }];
}

def TSPipe_NamedBarrierSyncOp : TSPipe_NamedBarrierUseOp<"named_barrier_sync"> {
  let summary = "wait at a named barrier (bar.sync id, count)";
  let description = [{
    Every thread of the calling task arrives at the named barrier and waits
    until the threads of all its tasks arrived: `bar.sync id, count` (PTX
    ISA, bar.sync), with the id and count of the `tspipe.named_barrier`.
    Only in a task the barrier lists (X13).

    Example: `tspipe.named_barrier_sync @epilogue`
  }];
}

def TSPipe_NamedBarrierArriveOp
    : TSPipe_NamedBarrierUseOp<"named_barrier_arrive"> {
  let summary = "arrive at a named barrier without waiting (bar.arrive)";
  let description = [{
    Every thread of the calling task arrives at the named barrier and goes
    on: `bar.arrive id, count` (PTX ISA, bar.arrive). A task that only
    arrives must not arrive again before the others' sync of that phase
    completed: the progress checker models each named barrier's phases and
    rejects a schedule that lets an arrive run a phase ahead (X30;
    flashinfer PR 4732, vllm PR 26026: an arrive-only side a phase ahead
    hangs).

    Example: `tspipe.named_barrier_arrive @epilogue`
  }];
}

include "tspipe/Dialect/TSPipe/IR/TSPipeWorkQueueOps.td"
include "tspipe/Dialect/TSPipe/IR/TSPipeAliasOps.td"
include "tspipe/Dialect/TSPipe/IR/TSPipeLoopOps.td"
// PDL points and the every / when_true / when_false loop guards.
include "tspipe/Dialect/TSPipe/IR/TSPipePdlOps.td"

#endif // TSPIPE_OPS_TD
