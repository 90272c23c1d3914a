//===- NVPTXBackend.cpp - NVPTX backend options tspipe relies on ----------===//

#include "tspipe/Conversion/Passes.h"

#include "llvm/Support/CommandLine.h"

using namespace mlir;

namespace {
/// Sets the boolean LLVM option `name` when it is registered (it is not when
/// the NVPTX backend is not linked in).
void setLLVMFlag(StringRef name) {
  auto options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it == options.end())
    return;
  if (auto *flag = static_cast<llvm::cl::opt<bool> *>(it->second))
    flag->setValue(true);
}
} // namespace

void mlir::tspipe::configureNVPTXBackend() {
  // 32-bit shared (and const, local) pointers, as TS's kernels use: barrier
  // and buffer addresses live in 32-bit registers and the mbarrier / TMA
  // instructions take them directly, instead of 64-bit addresses and
  // conversions around every barrier operation.
  setLLVMFlag("nvptx-short-ptr");
  // SeparateConstOffsetFromGEP rewrites every barrier address
  // `smem + offset + 8 * index` into one GEP from the shared memory base
  // and a constant one; straight-line strength reduction, which runs right
  // after it, then holds all of them in one bucket and compares each with
  // every earlier one (quadratic in the brackets of a loop body: 1000
  // pipelines spent 60 % of code generation there). Kept whole, the
  // addresses are PTX of the same length or shorter (the offset is added
  // once per pipeline rather than once per barrier access).
  setLLVMFlag("disable-separate-const-offset-from-gep");
}
