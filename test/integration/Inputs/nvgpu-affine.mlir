// Device code with nvgpu and affine ops, no tspipe kernel.
gpu.module @compose [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @helper(%p: memref<64xf32, 3>) kernel {
    %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %n = arith.constant 1 : index
    nvgpu.mbarrier.init %bar[%c0], %n : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    affine.for %i = 0 to 4 {
      %v = affine.load %p[%i * 2] : memref<64xf32, 3>
      affine.store %v, %p[%i * 2 + 1] : memref<64xf32, 3>
    }
    gpu.return
  }
}
