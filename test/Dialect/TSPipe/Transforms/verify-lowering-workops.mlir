// RUN: tspipe-opt %s --tspipe-to-nvvm -split-input-file -verify-diagnostics

// X14 for the ops outside the tspipe kernel too: the gpu.func's setup code
// reaches LLVM's translation like the work steps (tspipe issue 17, item 8:
// an alignment of 3 aborted the process translating it).
gpu.module @m [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @setup(%p: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{'llvm.load' op [X14] has alignment = 3, but an alignment is a power of two of at most 2^32 bytes (or 0 for none); LLVM cannot translate any other value: use 1, 2, 4, 8, 16, ...}}
    %v = llvm.load %p {alignment = 3 : i64} : !llvm.ptr<1> -> i32
    gpu.return
  }
}
