//===- AllocateSmem.cpp - place barriers and buffers in shared memory -----===//
//
// Implements tspipe-allocate-smem: barrier storage per pipeline
// (2 * num_stages mbarriers of 8 bytes, full then empty), then the data
// buffers, 128-byte aligned; the total is checked against the CTA's shared
// memory capacity (rule R43).
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tspipe {
#define GEN_PASS_DEF_TSPIPEALLOCATESMEM
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h.inc"
} // namespace mlir::tspipe

using namespace mlir;
using namespace mlir::tspipe;

namespace {
/// Alignment of each data buffer: TMA bulk copies need 16 bytes, swizzled
/// tensor copies 128 (and 1024 for the 128-byte swizzle atom on the data
/// itself, which users express by sizing stages accordingly).
constexpr int64_t kBufferAlign = 128;

struct TSPipeAllocateSmem
    : public tspipe::impl::TSPipeAllocateSmemBase<TSPipeAllocateSmem> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](KernelOp kernel) {
      if (failed(allocate(kernel)))
        signalPassFailure();
    });
  }

  LogicalResult allocate(KernelOp kernel) {
    Builder b(kernel.getContext());
    SmallVector<PipelineOp> pipes;
    for (Operation &op : kernel.getBody().front())
      if (auto pipe = dyn_cast<PipelineOp>(op))
        pipes.push_back(pipe);

    int64_t offset = 0;
    int64_t barrierBytes = 0;
    for (PipelineOp pipe : pipes) {
      pipe.setBarrierOffsetAttr(b.getI64IntegerAttr(offset));
      offset += pipe.getConfig().getBarrierBytes();
      barrierBytes += pipe.getConfig().getBarrierBytes();
    }
    int64_t dataBytes = 0;
    for (PipelineOp pipe : pipes) {
      std::optional<uint64_t> bytes = pipe.getSmemBytes();
      if (!bytes) {
        pipe.removeBufferOffsetAttr();
        continue;
      }
      offset = llvm::alignTo(offset, kBufferAlign);
      pipe.setBufferOffsetAttr(b.getI64IntegerAttr(offset));
      offset += *bytes;
      dataBytes += *bytes;
    }
    if (offset > capacity) {
      kernel.emitOpError()
          << "[R43] shared memory use of " << offset << " bytes (" << dataBytes
          << " data + " << barrierBytes
          << " barrier bytes, with alignment) exceeds the capacity of "
          << capacity << " bytes; reduce num_stages or smem_bytes";
      return failure();
    }
    kernel.setSmemBytesAttr(b.getI64IntegerAttr(offset));
    return success();
  }
};
} // namespace
