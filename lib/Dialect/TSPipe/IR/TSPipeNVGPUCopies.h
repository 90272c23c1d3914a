//===- TSPipeNVGPUCopies.h - nvgpu TMA copies on stage barriers -*- C++ -*-===//
//
// Work steps may issue upstream MLIR's `nvgpu.tma.async.load` on a stage.
// The stage's full barrier reaches it through the conversion bridge of the
// Python front end (tspipe.ts.nvgpu_bridge, docs/gemm.md): the barrier's
// `!llvm.ptr<3>` is placed in a memref descriptor (`llvm.insertvalue`)
// that `builtin.unrealized_conversion_cast` turns into the
// `!nvgpu.mbarrier.group` the op takes. Rules X5 and X6
// (TSPipeCopyRules.cpp) read the copy's barrier and its bytes from here.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_DIALECT_TSPIPE_IR_TSPIPENVGPUCOPIES_H
#define TSPIPE_LIB_DIALECT_TSPIPE_IR_TSPIPENVGPUCOPIES_H

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::tspipe::rules {

/// An `nvgpu.tma.async.load`: the barrier-group operand it completes on,
/// the bytes of its box (the tensor-map type's tile: product of its shape
/// times the element size, in bytes) and whether it multicasts.
struct NVGPUTmaCopy {
  Value barriers;
  int64_t boxBytes;
  bool multicast;
};
std::optional<NVGPUTmaCopy> asNVGPUTmaCopy(Operation *op);

/// The mbarrier pointer a bridged `!nvgpu.mbarrier.group` value stands for
/// (through unrealized_conversion_cast and the llvm.insertvalue chain of its
/// descriptor, the aligned pointer at position 1), or `v` itself.
Value throughNVGPUBridge(Value v);

/// True for an op the stage-barrier walk continues through: the bridge's
/// llvm.insertvalue and builtin.unrealized_conversion_cast.
bool isNVGPUBridgeStep(Operation *op);

} // namespace mlir::tspipe::rules

#endif // TSPIPE_LIB_DIALECT_TSPIPE_IR_TSPIPENVGPUCOPIES_H
