// Field bug B21: a kernel whose tasks set registers(n) must carry the launch
// bounds ptxas needs to honour setmaxnreg (.maxntid and .minnctapersm 1);
// without them ptxas drops every setmaxnreg with info C7508.
//
// RUN: tspipe-opt %s --tspipe-to-nvvm --gpu-module-to-binary=format=isa | %python %S/../../Examples/extract_ptx.py > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS %}

// Both tasks lower their budget: TS's default for 8 warps is
// 65536 / (8 * 32 * 8) * 8 = 256 registers per thread (R42).
// PTX-LABEL: .visible .entry regs(
// PTX:       .maxntid 256, 1, 1
// PTX-NEXT:  .minnctapersm 1
// PTX:       setmaxnreg.dec.sync.aligned.u32 40;
// PTX:       setmaxnreg.dec.sync.aligned.u32 232;
// PTXAS-NOT: C7508
// PTXAS-NOT: setmaxnreg

gpu.module @regs [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @regs(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tspipe.kernel warps(8) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2,
          producer_group = <thread, 128>, consumer_group = <thread, 128>>)
      tspipe.task @load warps(0, 4) produces [@ring] registers(40) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @math warps(4, 4) consumes [@ring] registers(232) {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
