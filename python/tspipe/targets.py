"""The NVVM targets tspipe kernels are built for. Pure Python, no imports.

`PTX_FEATURES` maps a chip to the PTX ISA version (the `features` of
`#nvvm.target`) that LLVM 22's NVPTX backend needs for it; the compile API
(`tspipe.compile`, `tspipe.ts`) and the demo's retargeting both read it.
"""

PTX_FEATURES = {
    "sm_90": "+ptx80",
    "sm_90a": "+ptx80",
    "sm_100": "+ptx86",
    "sm_100a": "+ptx86",
    "sm_101a": "+ptx86",
    "sm_103a": "+ptx88",
    "sm_120a": "+ptx87",
}
