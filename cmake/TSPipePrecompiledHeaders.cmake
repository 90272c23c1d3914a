# Precompiled headers for tspipe's C++ libraries.
#
# Every tspipe translation unit parses the same large headers before its own
# code: the NVVM and LLVM dialects (NVVMDialect.h alone is about 13 s of g++
# front-end time, most of it the generated NVVM op classes), Arith, SCF, GPU,
# the conversion framework and tspipe's own generated op classes (TSPipe.h,
# about 8 s). Parsing them once per library instead of once per file takes a
# typical lowering or rule file from about 20 s to about 3 s of compile time.
#
# One header set is compiled once, in the dialect's object library, and reused
# by every object library built with the same flags (the REUSE_FROM form needs
# identical compile options; the C API objects differ and keep their own
# includes). Sources still include what they use: the precompiled header only
# makes those includes cheap, so a build with TSPIPE_ENABLE_PCH=OFF (the
# check that no file relies on the forced include) compiles the same code.
#
# ccache: a precompiled header is cached only with
# CCACHE_SLOPPINESS=pch_defines,time_macros (README, "Building").

option(TSPIPE_ENABLE_PCH "Compile tspipe's libraries with a precompiled header" ON)

# The headers most tspipe sources include (upstream ones first; TSPipe.h pulls
# in the generated TSPipe dialect, attribute, type and op declarations).
set(TSPIPE_PCH_HEADERS
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <mlir/IR/Matchers.h>
  <mlir/IR/PatternMatch.h>
  <mlir/Interfaces/SideEffectInterfaces.h>
  <mlir/Pass/Pass.h>
  <mlir/Transforms/DialectConversion.h>
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/GPU/IR/GPUDialect.h>
  <mlir/Dialect/LLVMIR/LLVMDialect.h>
  <mlir/Dialect/LLVMIR/NVVMDialect.h>
  <mlir/Dialect/SCF/IR/SCF.h>
  <tspipe/Dialect/TSPipe/IR/TSPipe.h>
)

# tspipe_precompile_headers(<owner> [<reuser>...])
#   Compiles TSPIPE_PCH_HEADERS once for the object library obj.<owner> and
#   lets obj.<reuser> use the same precompiled header. Each name is an MLIR
#   library declared with add_mlir_library / add_mlir_dialect_library /
#   add_mlir_conversion_library (whose sources compile in obj.<name>).
function(tspipe_precompile_headers owner)
  if(NOT TSPIPE_ENABLE_PCH)
    return()
  endif()
  target_precompile_headers(obj.${owner} PRIVATE ${TSPIPE_PCH_HEADERS})
  foreach(reuser IN LISTS ARGN)
    target_precompile_headers(obj.${reuser} REUSE_FROM obj.${owner})
  endforeach()
endfunction()
