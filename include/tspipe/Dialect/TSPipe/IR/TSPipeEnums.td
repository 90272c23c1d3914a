//===- TSPipeEnums.td - tspipe enumerations ----------------*- tablegen -*-===//

#ifndef TSPIPE_ENUMS_TD
#define TSPIPE_ENUMS_TD

include "mlir/IR/EnumAttr.td"

// The seven pipeline types of TS (docs/Protocols.md, Per-type protocols).
// The spelling in IR is the snake_case form of TS's `PipelineType` member
// names.
def TSPipe_PipelineType : I32EnumAttr<"PipelineType",
    "TS pipeline type (which hardware unit fills and drains a stage)", [
      I32EnumAttrCase<"AsyncAsync", 0, "async_async">,
      I32EnumAttrCase<"TmaAsync", 1, "tma_async">,
      I32EnumAttrCase<"TmaUmma", 2, "tma_umma">,
      I32EnumAttrCase<"UmmaAsync", 3, "umma_async">,
      I32EnumAttrCase<"AsyncUmma", 4, "async_umma">,
      I32EnumAttrCase<"UmmaUmma", 5, "umma_umma">,
      I32EnumAttrCase<"ClcFetchAsync", 6, "clc_fetch_async">]> {
  let cppNamespace = "::mlir::tspipe";
  let genSpecializedAttr = 0;
}

// CuTe CooperativeGroup agents (docs/Protocols.md, Cooperative groups and
// arrive counts).
def TSPipe_Agent : I32EnumAttr<"Agent", "cooperative group agent", [
      I32EnumAttrCase<"Thread", 0, "thread">,
      I32EnumAttrCase<"Warp", 1, "warp">,
      I32EnumAttrCase<"ThreadBlock", 2, "thread_block">,
      I32EnumAttrCase<"ThreadBlockCluster", 3, "thread_block_cluster">]> {
  let cppNamespace = "::mlir::tspipe";
  let genSpecializedAttr = 0;
}

// TS SignalingThreads (an IntFlag; docs/Protocols.md, Signaling threads).
// Valid values are checked by rule R1: all, cta_leader, task_warp_leader,
// cta_leader|task_warp_leader.
def TSPipe_SignalingThreads : I32BitEnumAttr<"SignalingThreads",
    "which threads of a task issue a pipeline's barrier operations", [
      I32BitEnumAttrCaseBit<"All", 0, "all">,
      I32BitEnumAttrCaseBit<"CtaLeader", 1, "cta_leader">,
      I32BitEnumAttrCaseBit<"TaskWarpLeader", 2, "task_warp_leader">]> {
  let cppNamespace = "::mlir::tspipe";
  let genSpecializedAttr = 0;
  let separator = "|";
}

// How an async-thread producer signals the full barrier (docs/Protocols.md,
// AsyncAsync).
def TSPipe_PipelineOpKind : I32EnumAttr<"PipelineOpKind",
    "how an async-thread producer arrives on the full barrier", [
      I32EnumAttrCase<"AsyncThread", 0, "async_thread">,
      I32EnumAttrCase<"AsyncLoad", 1, "async_load">]> {
  let cppNamespace = "::mlir::tspipe";
  let genSpecializedAttr = 0;
}

// The side of a pipeline a stage handle belongs to.
def TSPipe_Role : I32EnumAttr<"Role", "pipeline side", [
      I32EnumAttrCase<"Producer", 0, "producer">,
      I32EnumAttrCase<"Consumer", 1, "consumer">]> {
  let cppNamespace = "::mlir::tspipe";
}

// How the consumers of a TmaAsync pipeline arrive on the empty barrier
// (docs/Protocols.md, TmaAsync). Recorded on the pipeline by
// `tspipe-normalize`, read by the verifier (R54) and the lowering.
def TSPipe_ReleaseForm : I32EnumAttr<"ReleaseForm",
    "which consumer threads arrive on the empty barrier of a stage", [
      I32EnumAttrCase<"Lane", 0, "lane">,
      I32EnumAttrCase<"AllThreads", 1, "all_threads">]> {
  let cppNamespace = "::mlir::tspipe";
}

// The memory scope of the release a pipeline's remote arrives carry: the
// arrives that reach another CTA's barrier through `mapa` (docs/Protocols.md,
// Remote-arrive scope). `cluster` (tspipe's default):
// `mbarrier.arrive.release.cluster.shared::cluster`; `cta`: the CTA-scope
// release CuTe and CUTLASS issue (ts-semantics section 6, item 17).
def TSPipe_RemoteArriveScope : I32EnumAttr<"RemoteArriveScope",
    "memory scope of the release of a pipeline's remote mbarrier arrives", [
      I32EnumAttrCase<"Cta", 0, "cta">,
      I32EnumAttrCase<"Cluster", 1, "cluster">]> {
  let cppNamespace = "::mlir::tspipe";
}

// How a pipeline group shares barriers between its members (TS
// `PipelineGroup` modes; docs/Protocols.md, Pipeline groups). `merge`: the
// members keep their full barriers and share one empty barrier array (many
// producers, one consumer side); `fork`: they share one full barrier array
// and keep their empty barriers (one producer side, many consumers);
// `fused_merge`: they share both arrays (many producers arriving on one full
// barrier, one consumer side).
def TSPipe_GroupMode : I32EnumAttr<"GroupMode",
    "how the members of a pipeline group share barriers", [
      I32EnumAttrCase<"Merge", 0, "merge">,
      I32EnumAttrCase<"Fork", 1, "fork">,
      I32EnumAttrCase<"FusedMerge", 2, "fused_merge">]> {
  let cppNamespace = "::mlir::tspipe";
}

#endif // TSPIPE_ENUMS_TD
