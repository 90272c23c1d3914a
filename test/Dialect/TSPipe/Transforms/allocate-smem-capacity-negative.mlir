// RUN: not tspipe-opt %s --tspipe-allocate-smem=capacity=-1 2>&1 | FileCheck %s

// R43: a negative capacity is a mistake in the option, reported once, not
// a shared memory use that "exceeds" it.

// CHECK: error: [R43] tspipe-allocate-smem capacity = -1 must be >= 0 (bytes of shared memory per CTA)
// CHECK-NOT: exceeds
module {
}
