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
    `tspipe.kernel`, and rejects a total above the capacity (rule R43): the
    `capacity` option in bytes when it is given, else the shared memory a
    CTA of the kernel's target chips may use (the least over the
    `#nvvm.target`s of its `gpu.module`: 232448 bytes, 227 KiB, on sm_90 and
    the sm_100 family, 101376 bytes, 99 KiB, on sm_120; 232448 without a
    target).

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
    Option<"capacity", "capacity", "int64_t", /*default=*/"0",
           "shared memory bytes a CTA may use; 0: the target chip's "
           "(sm_90/sm_100: 232448, sm_120: 101376)">
  ];
}

def TSPipeVerifyLowering : Pass<"tspipe-verify-lowering"> {
  let summary = "check what the lowering needs beyond the op verifiers";
  let description = [{
    The checks that decide whether `convert-tspipe-to-nvvm` can lower a
    module but that the op verifiers leave open, because IR that is not
    lowered yet may lack what they need (`tspipe-to-nvvm` runs this pass
    first; the lowering assumes its checks passed):

    * X7 on every `#nvvm.target` of every `gpu.module`, with or without a
      tspipe kernel: a chip of the CUDA 13 toolkit and a `features` string
      LLVM's NVPTX backend accepts (it aborts on a malformed one).
    * X7: a kernel with a tcgen05 pipeline sits in a `gpu.module` with an
      NVVM target (the kernel verifier checks the chip once there is one).
    * X9: every `tspipe.kernel` sits in a `gpu.func` of a `gpu.module`.
    * X14 on every op of every `gpu.module`, inside tspipe kernels or not:
      an `alignment` or `llvm.align` is 0 or a power of two up to 2^32
      (LLVM's translation asserts otherwise).
    * X32: the tcgen05 instructions of each `gpu.func` name one CTA group,
      the one its tcgen05 pipelines commit with (ptxas rejects a mix).
    * The kernel verifier again on every `tspipe.kernel`, so that X15 (every
      tspipe op of a task is a direct child of the task, its domain loop or
      a loop guard: the lowering carries the cursors through these regions
      only) holds for IR built without verification.

    The pass changes no IR.
  }];
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

def TSPipeCheckProgress : Pass<"tspipe-check-progress"> {
  let summary = "prove kernels free of deadlock and credit imbalance";
  let description = [{
    For every `tspipe.kernel` under the anchor op, decides whether its
    tasks' schedules over the pipelines' full and empty barriers can
    deadlock, leave barrier credits unbalanced, or let a parity wait see
    the wrong phase, for every length of every task's domain loop,
    dynamic ends included (rules R70, R71 and X8 of docs/Rules.md; the
    algorithm and why its bound on the lengths is enough are in
    docs/ProgressChecker.md). The analysis follows every cursor (strides,
    warp and domain lanes, `advance_on_wait` / `advance_on_acquire`), the
    `first_iter` / `last_iter` guards, try forms and the producer drain.

    On failure it reports an error on the kernel with the smallest failing
    domain lengths, and notes on the operations involved: which task blocks
    in which iteration on which barrier, stage and phase, and which task
    holds the credit it waits for. With `dot-dir`, it writes for each
    kernel `<name>.graph.dot` (tasks and pipelines), `<name>.timeline.dot`
    (per-stage timeline of the counterexample), `<name>.progress.json` (the
    verdict); it starts no program (SVG is rendered by `tspipe.progress`).
    With `print-model`, it also reports the checker's reading of the kernel
    as remarks (each task's trip count, each pipeline's rotation period,
    each component's bound on the values checked), for its own tests.

    An author who accepts what the checker cannot prove marks the kernel
    with the unit attribute `tspipe.assume_progress` (docs/ProgressChecker.md).

    The pass changes no IR. `tspipe-to-nvvm` runs it first (option
    `check-progress`).

    Example (a consumer that waits once more than the producer commits):
    ```
    error: [R70] tasks deadlock with domain lengths @producer = 0,
           @consumer = 1 (%n = 0): every unfinished task is blocked ...
    note: @consumer blocks in iteration 0 on @ring full barrier, stage 0,
          phase 0 (consumer_wait needs completion 1, the barrier has 0)
    note: the credit for completion 1 of @ring full barrier, stage 0 is
          held by @producer: it has committed that stage 0 time(s) and has
          finished
    ```
  }];
  let options = [
    Option<"dotDir", "dot-dir", "std::string", /*default=*/"\"\"",
           "directory for the DOT pictures and the JSON verdict (none if "
           "empty)">,
    Option<"printModel", "print-model", "bool", /*default=*/"false",
           "report the trip counts, rotation periods and length bounds the "
           "checker reads (remarks; for testing the checker)">
  ];
}

#endif // TSPIPE_TRANSFORMS_PASSES_TD
