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

#endif // TSPIPE_TRANSFORMS_PASSES_TD
