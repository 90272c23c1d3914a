// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/../../Examples/extract_ptx.py > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_100a %t.ptx -o %t.cubin 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS %}

// The task layout of FlashInfer's TS MLA decode kernel, bf16, 2-CTA
// (flashinfer/attention/prims_ts/kernels/mla_decode/throughput_2cta): 12
// warps; softmax on warpgroup 0 (192 registers), correction on warpgroup 1
// (208), and on warpgroup 2 (96) the MMA warp 8 on the pair's leader CTA
// only (run_only_on_cta_id = 0), the TMA load warp 9 and the padding warps
// 10-11. Its pipelines are reduced to two CTA-local rings (load -> softmax ->
// correction) and the MMA work to a placeholder: what is checked here is the
// register split. TS emits the MMA task's setmaxnreg inside its CTA gate, so
// on CTA 1 warp 8 never runs it and warps 9-11 wait in theirs for ever
// (tspipe issue 14); tspipe runs it on every CTA, and R41 / R42 hold on both
// CTAs (TS's default for 12 warps: 168 registers; increases 4 x 24 + 4 x 40
// are paid by 4 x 72).

// PTX-LABEL: .visible .entry mla_decode_bf16(
// PTX:       .maxntid 384, 1, 1
// PTX:       .minnctapersm 1
// PTX-DAG:   setmaxnreg.inc.sync.aligned.u32 192;
// PTX-DAG:   setmaxnreg.inc.sync.aligned.u32 208;
// PTX-DAG:   setmaxnreg.dec.sync.aligned.u32 96;
// PTXAS-NOT: C7508
// PTXAS-NOT: error

gpu.module @mla_decode_bf16 [#nvvm.target<chip = "sm_100a">] {
  gpu.func @mla_decode_bf16(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(12) cluster([2, 1, 1]) {
      tspipe.pipeline @kv config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 128>>)
      tspipe.pipeline @corr config(<async_async, num_stages = 2,
          producer_group = <thread, 128>, consumer_group = <thread, 128>>)
      tspipe.task @softmax warps(0, 4) produces [@corr] consumes [@kv] registers(192) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %w_kv = tspipe.consumer_wait @kv
          tspipe.consumer_release @kv
          %s_corr = tspipe.producer_acquire @corr
          tspipe.producer_commit @corr
        }
      }
      tspipe.task @correction warps(4, 4) consumes [@corr] registers(208) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %w_corr = tspipe.consumer_wait @corr
          tspipe.consumer_release @corr
        }
      }
      tspipe.task @mma warps(8, 1) cta(0) registers(96) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          llvm.inline_asm has_side_effects "// mma work", "" : () -> ()
        }
      }
      tspipe.task @load_tma warps(9, 1) produces [@kv] registers(96) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s_kv = tspipe.producer_acquire @kv
          tspipe.producer_commit @kv
        }
      }
      tspipe.task @padding warps(10, 2) registers(96) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
    }
    gpu.return
  }
}
