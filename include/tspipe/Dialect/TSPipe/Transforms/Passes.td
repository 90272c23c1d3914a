//===- Passes.td - tspipe transformation passes ------------*- tablegen -*-===//

#ifndef TSPIPE_TRANSFORMS_PASSES_TD
#define TSPIPE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TSPipeAllocateSmem : Pass<"tspipe-allocate-smem"> {
  let summary = "place barriers and data buffers in dynamic shared memory";
  let description = [{
    Lays out, for every `tspipe.kernel` under the anchor op, its dynamic
    shared memory: first every pipeline's
    `2 * num_stages` mbarriers (8 bytes each, full array then empty array,
    8-byte aligned, in declaration order), then every pipeline's data buffer
    (`smem_bytes`, 128-byte aligned). Sets `barrier_offset` and
    `buffer_offset` on each `tspipe.pipeline` and `smem_bytes` on the
    `tspipe.kernel`, and rejects a total above `capacity` bytes (rule R43).

    Before:
    ```mlir
    tspipe.pipeline @ring config(<...num_stages = 4...>) smem_bytes(16384)
    ```
    After:
    ```mlir
    tspipe.pipeline @ring config(<...>) smem_bytes(16384)
        {barrier_offset = 0 : i64, buffer_offset = 128 : i64}
    ```
  }];
  let options = [
    Option<"capacity", "capacity", "int64_t", /*default=*/"232448",
           "shared memory bytes a CTA may use (sm_90/sm_100: 232448)">
  ];
}

def TSPipeNormalize : Pass<"tspipe-normalize"> {
  let summary = "record derived pipeline facts in the IR";
  let description = [{
    Writes down, for every `tspipe.kernel` under the anchor op, the facts
    that follow from how its tasks use each pipeline, so that the verifier
    and `convert-tspipe-to-nvvm` read one recorded value instead of each
    deriving its own:

    * R66 (TS applies it before any check): a pipeline with a split consumer
      (a task that waits on it without releasing it) gets
      `advance_on_wait = true` in its config, so the wait and the release
      move separate consumer cursors (docs/Protocols.md, Split cursors).
    * The release form of every TmaAsync pipeline, `release(all_threads)`
      when `consumer_group` counts 32 x W threads (W: the warps of the tasks
      that release the pipeline) and W differs from the lane count, else
      `release(lane)` (docs/Protocols.md, TmaAsync; R54).

    Finally the kernel is marked `normalized`; from then on its verifier
    requires both facts. The pass is idempotent; `tspipe-to-nvvm` runs it
    first.

    Before:
    ```mlir
    tspipe.kernel warps(5) {
      tspipe.pipeline @ring config(<tma_async, ..., consumer_group = <thread, 4>>)
    ```
    After:
    ```mlir
    tspipe.kernel warps(5) normalized {
      tspipe.pipeline @ring config(<tma_async, ...>) release(lane)
    ```
  }];
}

#endif // TSPIPE_TRANSFORMS_PASSES_TD
