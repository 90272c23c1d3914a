// RUN: tspipe-opt %s -split-input-file -verify-diagnostics --tspipe-allocate-smem=capacity=1024 | FileCheck %s

// R43: the total shared memory of a kernel (barriers, alignment padding and
// data buffers) must fit in the CTA's capacity, given here as 1024 bytes.

// Exactly at the capacity: 2 stages of barriers [0, 32), padding to 128, and
// a 896-byte buffer [128, 1024).
// CHECK-LABEL: gpu.func @R43_exact_fit
// CHECK:         tspipe.kernel warps(1) attributes {smem_bytes = 1024 : i64}
// CHECK-NEXT:      tspipe.pipeline @p config({{.*}}) smem_bytes(896) {barrier_offset = 0 : i64, buffer_offset = 128 : i64}
gpu.module @R43_exact_fit {
  gpu.func @R43_exact_fit() kernel {
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(896)
    }
    gpu.return
  }
}

// -----

// One byte over: a 912-byte buffer ends at 1040.
gpu.module @R43_over_capacity {
  gpu.func @R43_over_capacity() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [R43] shared memory use of 1040 bytes (912 data + 48 barrier bytes, with alignment) exceeds the capacity of 1024 bytes; reduce num_stages or smem_bytes}}
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 3, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(912)
    }
    gpu.return
  }
}

// -----

// Barriers alone can exceed the capacity: 65 stages take 1040 bytes.
gpu.module @R43_barriers_only {
  gpu.func @R43_barriers_only() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [R43] shared memory use of 1040 bytes (0 data + 1040 barrier bytes, with alignment) exceeds the capacity of 1024 bytes; reduce num_stages or smem_bytes}}
    tspipe.kernel warps(1) {
      tspipe.pipeline @p config(<async_async, num_stages = 65, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    }
    gpu.return
  }
}

// -----

// Buffers whose sizes add up past 2^64: the sum used to wrap around to a
// small number and pass the capacity check. It now saturates.
gpu.module @R43_wrapping_sum {
  gpu.func @R43_wrapping_sum() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [R43] shared memory use of 18446744073709551615 bytes (18446744073709551615 data + 128 barrier bytes, with alignment) exceeds the capacity of 1024 bytes; reduce num_stages or smem_bytes}}
    tspipe.kernel warps(1) {
      tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(4611686018427387904)
      tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(4611686018427387904)
      tspipe.pipeline @c config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(4611686018427387904)
      tspipe.pipeline @d config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(4611686018427387904)
    }
    gpu.return
  }
}

// -----

// The diagnostic lands on the kernel that does not fit, not on its neighbour
// in the same module.
gpu.module @R43_one_of_two_kernels {
  gpu.func @R43_fits() kernel {
    tspipe.kernel warps(1) {
      tspipe.pipeline @small config(<async_async, num_stages = 1, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(128)
    }
    gpu.return
  }
  gpu.func @R43_one_of_two_kernels() kernel {
    // expected-error @+1 {{'tspipe.kernel' op [R43] shared memory use of 2176 bytes (2048 data + 16 barrier bytes, with alignment) exceeds the capacity of 1024 bytes; reduce num_stages or smem_bytes}}
    tspipe.kernel warps(1) {
      tspipe.pipeline @big config(<async_async, num_stages = 1, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(2048)
    }
    gpu.return
  }
}
