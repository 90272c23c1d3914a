//===- Passes.td - tspipe conversion passes ----------------*- tablegen -*-===//

#ifndef TSPIPE_CONVERSION_PASSES_TD
#define TSPIPE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTSPipeToNVVM : Pass<"convert-tspipe-to-nvvm"> {
  let summary = "lower tspipe kernels to NVVM mbarrier, TMA and cp.async ops";
  let description = [{
    Rewrites every `tspipe.kernel` under the anchor op (after
    `tspipe-normalize` and `tspipe-allocate-smem`) into plain SCF, arith,
    LLVM and NVVM operations, one pipeline protocol at a time (one protocol
    class per pipeline type, docs/Protocols.md, Lowering structure). A
    kernel that is not `normalized` is rejected. A kernel must sit in a `gpu.func` of a
    `gpu.module` whose NVVM targets are sm_90 or newer (rule X7: mbarrier
    transaction counts, `elect.sync` and TMA need Hopper):

    * barrier storage: the kernel's dynamic shared memory (an
      `llvm.mlir.global` in address space 3); each pipeline's full barriers
      at `barrier_offset`, its empty barriers 8 * num_stages bytes after;
    * initialization: warp 0, one `elect.sync` thread, `mbarrier.init` of
      every barrier with its arrive count, then `fence.mbarrier_init` and
      `barrier.sync 0` (one CTA) or a relaxed cluster arrive + wait;
    * tasks: `scf.if` on the warp range (and CTA rank), cursors (stage index,
      phase bit) as loop-carried values of the domain loop, producer cursors
      starting at phase 1 and consumer cursors at phase 0;
    * brackets: the per-type sequences of docs/Protocols.md (e.g. TmaAsync
      acquire = parity wait on the empty barrier, then one elected thread per
      producer warp does `mbarrier.arrive.expect_tx num_bytes`);
    * the producer drain after each producing task.

    With `debug-hang-timeout` set, every blocking wait gives up after that
    many polls and traps after printing the task, pipeline, stage and phase;
    a negative value is an error.

    The pass also sets the NVPTX backend options the lowered code relies
    on, for the rest of the process (they are LLVM command-line options, not
    per-module settings): 32-bit shared memory pointers (`nvptx-short-ptr`)
    and no `separate-const-offset-from-gep` (it makes code generation
    quadratic in the brackets of a loop body).

    The gpu.func keeps its signature; `tspipe.smem_bytes` and
    `tspipe.block_threads` attributes on it give the launch parameters.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect"
  ];
  let options = [
    Option<"debugHangTimeout", "debug-hang-timeout", "int64_t",
           /*default=*/"0",
           "if > 0, blocking waits trap after this many failed polls and "
           "report task, pipeline, stage and phase (0: off; < 0: error)">
  ];
}

#endif // TSPIPE_CONVERSION_PASSES_TD
