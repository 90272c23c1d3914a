// RUN: tspipe-opt %s --tspipe-normalize --tspipe-allocate-smem --convert-tspipe-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/../../Examples/extract_ptx.py > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS %}

// Registers of CTA-gated tasks (tspipe issue 14; FlashInfer's MLA decode):
// @producer and @consumer run on CTA 0 only, but setmaxnreg is
// `.sync.aligned` over warpgroup 1 (warps 4-7) of every CTA. On CTA 1 no
// task claims warps 4 and 5; if their setmaxnreg stayed inside the CTA
// gate, warps 6 and 7 (@idle) would wait in theirs for ever. So each gated
// task's branch tests its warp alone, sets the registers, and then tests
// the CTA rank around its body.

// CHECK-LABEL: gpu.func @gated_registers
// CHECK:         %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// @math: warps 0-3, every CTA (232 is below TS's default of 256 for 8
// warps: a decrease).
// CHECK:         nvvm.setmaxregister decrease 232
// @producer: warp 4; setmaxnreg before the CTA-rank test.
// CHECK:         %[[W4:.*]] = arith.cmpi eq, %{{.*}}, %c4_i32 : i32
// CHECK:         scf.if %[[W4]] {
// CHECK-NEXT:      nvvm.setmaxregister decrease 40
// CHECK-NEXT:      %[[ON0:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// CHECK-NEXT:      scf.if %[[ON0]] {
// CHECK:             nvvm.mbarrier.try_wait.parity
// @consumer: warp 5, the same shape.
// CHECK:         %[[W5:.*]] = arith.cmpi eq, %{{.*}}, %c5_i32 : i32
// CHECK:         scf.if %[[W5]] {
// CHECK-NEXT:      nvvm.setmaxregister decrease 40
// CHECK-NEXT:      %[[ON0B:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// CHECK-NEXT:      scf.if %[[ON0B]] {
// @idle: warps 6-7, every CTA.
// CHECK:         nvvm.setmaxregister decrease 40

// PTX-LABEL: .visible .entry gated_registers(
// PTX:       setmaxnreg.dec.sync.aligned.u32 232;
// PTX:       setmaxnreg.dec.sync.aligned.u32 40;
// PTXAS-NOT: C7508

gpu.module @gated_registers [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @gated_registers(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(8) cluster([2, 1, 1]) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 32>, consumer_group = <thread, 32>,
          producer_signaling = cta_leader, consumer_signaling = cta_leader>)
      tspipe.task @math warps(0, 4) registers(232) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
      tspipe.task @producer warps(4, 1) produces [@ring] cta(0) registers(40) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(5, 1) consumes [@ring] cta(0) registers(40) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
      tspipe.task @idle warps(6, 2) registers(40) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
        }
      }
    }
    gpu.return
  }
}
