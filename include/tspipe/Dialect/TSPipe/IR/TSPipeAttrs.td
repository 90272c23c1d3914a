//===- TSPipeAttrs.td - tspipe attributes ------------------*- tablegen -*-===//

#ifndef TSPIPE_ATTRS_TD
#define TSPIPE_ATTRS_TD

include "tspipe/Dialect/TSPipe/IR/TSPipeDialect.td"
include "tspipe/Dialect/TSPipe/IR/TSPipeEnums.td"
include "mlir/IR/AttrTypeBase.td"

class TSPipe_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TSPipe_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TSPipe_CooperativeGroupAttr : TSPipe_Attr<"CooperativeGroup", "group"> {
  let summary = "a CuTe cooperative group: agent and size";
  let description = [{
    `#tspipe.group<thread, 128>` is TS's `CooperativeGroup(Agent.Thread, 128)`.
    The mbarrier arrive count derived from it is `size` for `thread`,
    `32 * size` for `warp` (docs/Protocols.md, Cooperative groups and arrive
    counts). TS's count rules compare the raw `size` with arrival counts, so
    `thread` groups are the consistent form.

    Rule R8: `size` must be greater than 0.
  }];
  let parameters = (ins EnumParameter<TSPipe_Agent>:$agent, "int64_t":$size);
  // `<agent, size>`, hand-written so that a boolean size is rejected and an
  // unknown agent gets one diagnostic listing the agents.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TSPipe_PipelineConfigAttr : TSPipe_Attr<"PipelineConfig", "config"> {
  let summary = "every field of a TS PipelineConfig";
  let description = [{
    The configuration of one pipeline: TS's frozen `PipelineConfig` dataclass
    (docs/Protocols.md, PipelineConfig fields). Fields that keep their TS
    default are omitted when printed and may be omitted when written, except
    `pipeline_type`, `num_stages` and the two cooperative groups.

    ```mlir
    #tspipe.config<tma_async, num_stages = 4, num_bytes = 16384,
                   producer_group = <thread, 1>, consumer_group = <thread, 4>,
                   cta_layout_vmnk = [1, 1, 1, 1]>
    ```

    | field | default | meaning |
    |---|---|---|
    | `num_stages` | required | stages in the ring (each a full/empty mbarrier pair) |
    | `num_bytes` | 0 | transaction bytes one stage expects (TMA, CLC) |
    | `producer_group`, `consumer_group` | required | arrive counts of the full / empty barriers |
    | `cta_layout_vmnk` | `[1, 1, 1, 1]` | cluster decomposition (V, M, N, L); always 4 static extents (X1) |
    | `producer_signaling` | `all` | TS `producer_signaling_threads` |
    | `consumer_signaling` | `all` | TS `consumer_signaling_threads` |
    | `consumer_wait_signaling` | unset | TS `consumer_wait_signaling_threads` |
    | `async_producer_op` | `async_thread` | full-barrier arrive of an AsyncAsync producer |
    | `umma_consumer_producer_op` | `async_thread` | full-barrier arrive of an AsyncUmma producer |
    | `advance_on_wait`, `advance_on_acquire` | `false` | split consumer / producer cursors |
    | `interleave_stride` | `[1]` | one stride, or `[acquire, commit, wait, release]` |
    | `num_bytes_per_warp_per_cta` | unset | per-warp, per-CTA TMA bytes (R56) |
    | `mcast_mode_mn` | `[1, 1]` | TMA multicast along M / N |

    The verifier enforces the config-time rules R1-R10 and R15 (see
    docs/Rules.md) and names the rule in each diagnostic.
  }];
  let parameters = (ins
    EnumParameter<TSPipe_PipelineType>:$pipelineType,
    "int64_t":$numStages,
    "int64_t":$numBytes,
    "CooperativeGroupAttr":$producerGroup,
    "CooperativeGroupAttr":$consumerGroup,
    ArrayRefParameter<"int64_t">:$ctaLayoutVmnk,
    EnumParameter<TSPipe_SignalingThreads>:$producerSignaling,
    EnumParameter<TSPipe_SignalingThreads>:$consumerSignaling,
    OptionalParameter<"std::optional<SignalingThreads>">:$consumerWaitSignaling,
    EnumParameter<TSPipe_PipelineOpKind>:$asyncProducerOp,
    EnumParameter<TSPipe_PipelineOpKind>:$ummaConsumerProducerOp,
    "bool":$advanceOnWait,
    "bool":$advanceOnAcquire,
    ArrayRefParameter<"int64_t">:$interleaveStride,
    OptionalParameter<"std::optional<int64_t>">:$numBytesPerWarpPerCta,
    ArrayRefParameter<"int64_t">:$mcastModeMn
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Stride of each role: producer acquire, producer commit, consumer wait,
    /// consumer release (a single `interleave_stride` applies to all four).
    int64_t getAcquireStride() const;
    int64_t getCommitStride() const;
    int64_t getWaitStride() const;
    int64_t getReleaseStride() const;
    /// True when any role stride is greater than 1 (docs/Protocols.md,
    /// Interleaved lanes).
    bool isInterleaved() const;
    /// V, M, N, L extents and the cluster size T = V*M*N*L.
    int64_t getV() const { return getCtaLayoutVmnk()[0]; }
    int64_t getM() const { return getCtaLayoutVmnk()[1]; }
    int64_t getN() const { return getCtaLayoutVmnk()[2]; }
    int64_t getL() const { return getCtaLayoutVmnk()[3]; }
    int64_t getClusterSize() const;
    /// The effective wait signaling: `consumer_wait_signaling` if set, else
    /// `consumer_signaling`.
    SignalingThreads getEffectiveWaitSignaling() const;
    /// mbarrier arrive counts of the full and empty barriers: the group size
    /// scaled by its agent (thread: 1, warp: 32).
    int64_t getFullArriveCount() const;
    int64_t getEmptyArriveCount() const;
    /// Bytes of barrier storage: 2 * num_stages mbarriers of 8 bytes.
    int64_t getBarrierBytes() const { return 16 * getNumStages(); }
    /// Builds a config with TS defaults for every optional field.
    static PipelineConfigAttr getDefault(::mlir::MLIRContext *ctx,
        PipelineType type, int64_t numStages, int64_t numBytes,
        CooperativeGroupAttr producer, CooperativeGroupAttr consumer);
  }];
}

#endif // TSPIPE_ATTRS_TD
