"""The NVVM targets tspipe kernels are built for. Pure Python, no imports.

`PTX_FEATURES` maps a chip to the PTX ISA version (the `features` of
`#nvvm.target`) it needs: the least version that LLVM 22's NVPTX backend
and the CUDA 13 toolkit (ptxas 13.0) accept for it. The compile API
(`tspipe.compile`, `tspipe.ts`) and the demo's retargeting both read it; the
kernel verifier holds the same table (lib/Dialect/TSPipe/IR/
TSPipeTargetRules.cpp, rule X7) and rejects any other chip, or a chip with
an older PTX version, when the module is verified.

CUDA 13 renamed sm_101 to sm_110: ptxas 13.0 rejects `sm_101a`, so it is not
listed (field bug B24).
"""

PTX_FEATURES = {
    "sm_90": "+ptx80",
    "sm_90a": "+ptx80",
    "sm_100": "+ptx86",
    "sm_100a": "+ptx86",
    "sm_103a": "+ptx88",
    "sm_110a": "+ptx90",
    "sm_120a": "+ptx87",
    "sm_121a": "+ptx88",
}

# The architecture-specific chips tspipe kernels can be compiled for, in
# PTX_FEATURES order: every one has setmaxnreg, elect.sync and the mbarrier
# transaction counts the lowering uses (sm_90 or newer, "a" targets).
ARCH_SPECIFIC_TARGETS = tuple(c for c in PTX_FEATURES if c.endswith("a"))
