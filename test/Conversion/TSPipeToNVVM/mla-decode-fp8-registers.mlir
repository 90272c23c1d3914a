// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/../../Examples/extract_ptx.py > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_100a %t.ptx -o %t.cubin 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS %}

// The task layout of FlashInfer's TS MLA decode kernel, fp8 (e4m3), 2-CTA
// (flashinfer/attention/prims_ts/kernels/mla_decode/throughput_2cta, split
// MMA schedule): 16 warps; softmax on warpgroups 0 and 3 (160 registers),
// correction on warpgroup 1 (160), and on warpgroup 2 (32) the QK and PV MMA
// warps 8 and 11 on the leader CTA only with the K and V load warps 9 and
// 10. Pipelines are reduced to CTA-local rings and the MMA work to
// placeholders. Both MMA tasks are CTA-gated: their setmaxnreg runs on
// every CTA (tspipe issue 14). The register file is used exactly:
// 32 x (12 x 160 + 4 x 32) = 65536, and the increases 12 x 32 equal the
// decreases 4 x 96 (TS's default for 16 warps: 128).

// PTX-LABEL: .visible .entry mla_decode_fp8(
// PTX:       .maxntid 512, 1, 1
// PTX:       .minnctapersm 1
// PTX-DAG:   setmaxnreg.inc.sync.aligned.u32 160;
// PTX-DAG:   setmaxnreg.dec.sync.aligned.u32 32;
// PTXAS-NOT: C7508
// PTXAS-NOT: error

gpu.module @mla_decode_fp8 [#nvvm.target<chip = "sm_100a">] {
  gpu.func @mla_decode_fp8(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(16) cluster([2, 1, 1]) {
      tspipe.pipeline @kv config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 128>>)
      tspipe.pipeline @corr config(<async_async, num_stages = 2,
          producer_group = <thread, 128>, consumer_group = <thread, 128>>)
      tspipe.pipeline @v config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 128>>)
      tspipe.task @softmax warps(0, 4) produces [@corr] consumes [@kv] registers(160) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %w_kv = tspipe.consumer_wait @kv
          tspipe.consumer_release @kv
          %s_corr = tspipe.producer_acquire @corr
          tspipe.producer_commit @corr
        }
      }
      tspipe.task @correction warps(4, 4) consumes [@corr] registers(160) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %w_corr = tspipe.consumer_wait @corr
          tspipe.consumer_release @corr
        }
      }
      tspipe.task @mma_qk warps(8, 1) cta(0) registers(32) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          llvm.inline_asm has_side_effects "// mma work", "" : () -> ()
        }
      }
      tspipe.task @load_k warps(9, 1) produces [@kv] registers(32) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s_kv = tspipe.producer_acquire @kv
          tspipe.producer_commit @kv
        }
      }
      tspipe.task @load_v warps(10, 1) produces [@v] registers(32) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s_v = tspipe.producer_acquire @v
          tspipe.producer_commit @v
        }
      }
      tspipe.task @mma_pv warps(11, 1) cta(0) registers(32) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          llvm.inline_asm has_side_effects "// mma work", "" : () -> ()
        }
      }
      tspipe.task @softmax_odd warps(12, 4) consumes [@v] registers(160) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %w_v = tspipe.consumer_wait @v
          tspipe.consumer_release @v
        }
      }
    }
    gpu.return
  }
}
