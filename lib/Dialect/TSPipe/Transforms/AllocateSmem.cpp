//===- AllocateSmem.cpp - place barriers and buffers in shared memory -----===//
//
// Implements tspipe-allocate-smem: barrier storage per pipeline group
// ((N + 1) * num_stages mbarriers of 8 bytes for N members: merge
// [F_0]...[F_{N-1}][E_shared], fork [F_shared][E_0]...[E_{N-1}], each array
// num_stages long; 2 * num_stages for a fused merge [F_shared][E_shared])
// and per other pipeline (2 * num_stages mbarriers, full
// then empty), then the data buffers (of pipelines and tspipe.buffer ops),
// 128-byte aligned, the members of a tspipe.alias_group at one offset
// (AliasLayout.h), and the tensor-memory columns likewise (tmem_offset,
// columns from 0); the total is
// checked against the CTA's shared memory capacity (rule R43): the pass's
// `capacity` option, or the capacity of the kernel's target chips
// (TSPipeTargets.h).
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "tspipe/Dialect/TSPipe/IR/AliasLayout.h"
#include "tspipe/Dialect/TSPipe/IR/Groups.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeTargets.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

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
constexpr uint64_t kBufferAlign = 128;

int64_t clampToI64(uint64_t v) {
  return static_cast<int64_t>(
      std::min<uint64_t>(v, std::numeric_limits<int64_t>::max()));
}

struct TSPipeAllocateSmem
    : public tspipe::impl::TSPipeAllocateSmemBase<TSPipeAllocateSmem> {
  using Base::Base;

  void runOnOperation() override {
    if (capacity < 0) {
      int64_t value = capacity;
      getOperation()->emitError()
          << "[R43] tspipe-allocate-smem capacity = " << value
          << " must be >= 0 (bytes of shared memory per CTA); give the "
             "target's capacity, e.g. capacity=232448, or 0 for the "
             "capacity of the kernel's target chip";
      return signalPassFailure();
    }
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

    // Offsets are computed in uint64_t with saturation: smem_bytes is only
    // bounded below, and a wrapped sum must not slip under the capacity.
    uint64_t offset = 0;
    uint64_t barrierBytes = 0;
    // Groups first: their members' full and empty arrays are laid out by
    // the group (docs/Protocols.md, Pipeline groups). Verified groups have
    // resolvable members with one stage count.
    llvm::StringSet<> grouped;
    for (auto group : kernel.getBody().getOps<PipelineGroupOp>()) {
      SmallVector<PipelineOp> members;
      for (Attribute a : group.getMembers())
        if (PipelineOp m = lookupPipeline(group, cast<FlatSymbolRefAttr>(a)))
          members.push_back(m);
      if (members.empty())
        continue;
      uint64_t n = members.size();
      uint64_t array = llvm::SaturatingMultiply<uint64_t>(
          8, members.front().getConfig().getNumStages());
      // Which array of the group's each member's full and empty barriers
      // are (Groups.h).
      uint64_t bytes = llvm::SaturatingMultiply<uint64_t>(
          array, getGroupBarrierArrays(group.getMode(), n, 0).numArrays);
      group.setBarrierOffsetAttr(b.getI64IntegerAttr(clampToI64(offset)));
      for (auto [i, m] : llvm::enumerate(members)) {
        GroupBarrierArrays arrays =
            getGroupBarrierArrays(group.getMode(), n, i);
        uint64_t fullArray = arrays.fullArray;
        uint64_t emptyArray = arrays.emptyArray;
        uint64_t full = llvm::SaturatingAdd(
            offset, llvm::SaturatingMultiply<uint64_t>(array, fullArray));
        uint64_t empty = llvm::SaturatingAdd(
            offset, llvm::SaturatingMultiply<uint64_t>(array, emptyArray));
        m.setBarrierOffsetAttr(b.getI64IntegerAttr(clampToI64(full)));
        m.setEmptyBarrierOffsetAttr(b.getI64IntegerAttr(clampToI64(empty)));
        grouped.insert(m.getSymName());
      }
      offset = llvm::SaturatingAdd(offset, bytes);
      barrierBytes = llvm::SaturatingAdd(barrierBytes, bytes);
    }
    for (PipelineOp pipe : pipes) {
      if (grouped.contains(pipe.getSymName()))
        continue;
      pipe.removeEmptyBarrierOffsetAttr();
      // 2 * num_stages mbarriers of 8 bytes (getBarrierBytes), saturated.
      uint64_t bytes = llvm::SaturatingMultiply<uint64_t>(
          16, pipe.getConfig().getNumStages());
      pipe.setBarrierOffsetAttr(b.getI64IntegerAttr(clampToI64(offset)));
      offset = llvm::SaturatingAdd(offset, bytes);
      barrierBytes = llvm::SaturatingAdd(barrierBytes, bytes);
    }
    // Data buffers (pipelines' and tspipe.buffer's), the members of an
    // alias group at one offset (AliasLayout.h); TMEM columns likewise.
    for (PipelineOp pipe : pipes) {
      pipe.removeBufferOffsetAttr();
      pipe.removeTmemOffsetAttr();
    }
    for (auto buffer : kernel.getBody().getOps<BufferOp>()) {
      buffer.removeBufferOffsetAttr();
      buffer.removeTmemOffsetAttr();
    }
    offset = layoutStorage(
        kernel, /*tmem=*/false, offset, kBufferAlign,
        [&](Operation *res, uint64_t at) {
          res->setAttr("buffer_offset", b.getI64IntegerAttr(clampToI64(at)));
        });
    // The bytes themselves, without alignment (an alias group's largest
    // phase once), for the R43 message.
    uint64_t dataBytes = layoutStorage(kernel, /*tmem=*/false, 0, 1,
                                       [](Operation *, uint64_t) {});
    layoutStorage(kernel, /*tmem=*/true, 0, 1,
                  [&](Operation *res, uint64_t at) {
                    res->setAttr("tmem_offset",
                                 b.getI64IntegerAttr(clampToI64(at)));
                  });
    // Read the option into a plain integer: streaming the Option object into
    // a diagnostic does not print its value. 0: the target chip's capacity.
    int64_t limit = capacity;
    bool fromTarget = limit == 0;
    Operation *module = kernel->getParentOp();
    while (module && module->getName().getStringRef() != "gpu.module")
      module = module->getParentOp();
    if (fromTarget)
      limit = getSmemCapacity(module);
    if (limit < 0 || offset > static_cast<uint64_t>(limit)) {
      kernel.emitOpError()
          << "[R43] shared memory use of " << offset << " bytes (" << dataBytes
          << " data + " << barrierBytes
          << " barrier bytes, with alignment) exceeds the capacity of " << limit
          << " bytes"
          << (fromTarget ? " a CTA of the gpu.module's target chips may use"
                         : "")
          << "; reduce num_stages or smem_bytes";
      return failure();
    }
    kernel.setSmemBytesAttr(b.getI64IntegerAttr(clampToI64(offset)));
    return success();
  }
};
} // namespace
