// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-allocate-smem | FileCheck %s

// R43 with the default capacity: the shared memory a CTA may use on the
// chips of the gpu.module's NVVM targets (TSPipeTargets.h): 227 KiB
// (232448 bytes) on sm_90 and the sm_100 family, 99 KiB (101376 bytes) on
// sm_120. The kernel needs 32 bytes of barriers, padding to 128 and a
// 101248-byte buffer: 101376 bytes, exactly what an sm_120a CTA may use.

// CHECK-LABEL: gpu.module @fits_sm120
// CHECK:         smem_bytes = 101376 : i64
gpu.module @fits_sm120 [#nvvm.target<chip = "sm_120a">] {
  gpu.func @fits_sm120() kernel {
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(101248)
    }
    gpu.return
  }
}

// -----

// 32 bytes more do not fit on sm_120a ...
gpu.module @R43_over_sm120 [#nvvm.target<chip = "sm_120a">] {
  gpu.func @R43_over_sm120() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [R43] shared memory use of 101408 bytes (101280 data + 32 barrier bytes, with alignment) exceeds the capacity of 101376 bytes a CTA of the gpu.module's target chips may use; reduce num_stages or smem_bytes}}
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(101280)
    }
    gpu.return
  }
}

// -----

// ... but do on sm_90a (and with both targets, the smaller capacity counts).
// CHECK-LABEL: gpu.module @fits_sm90
// CHECK:         smem_bytes = 101408 : i64
gpu.module @fits_sm90 [#nvvm.target<chip = "sm_90a">] {
  gpu.func @fits_sm90() kernel {
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(101280)
    }
    gpu.return
  }
}

// -----

gpu.module @R43_two_targets [#nvvm.target<chip = "sm_90a">, #nvvm.target<chip = "sm_120a">] {
  gpu.func @R43_two_targets() kernel {
    // expected-error @+1 {{exceeds the capacity of 101376 bytes a CTA of the gpu.module's target chips may use}}
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(101280)
    }
    gpu.return
  }
}
