//===- TSPipeAliasOps.cpp - buffers and alias groups (X24) ----------------===//
//
// Op verifiers of tspipe.buffer, tspipe.alias_group, tspipe.buffer_address
// and tspipe.tmem_column: the structure of an alias group (rule X24). The
// order that makes an alias group's reuse race-free is rule X23, checked
// over the whole kernel (TSPipeAliasRules.cpp).
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/AliasLayout.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tspipe;

/// Tensor memory of an SM (columns), as R44 counts it.
static constexpr int64_t kTmemColumns = 512;

/// The tspipe.pipeline or tspipe.buffer `name` names in the kernel enclosing
/// `from`, or null.
static Operation *lookupResource(Operation *from, FlatSymbolRefAttr name,
                                 SymbolTableCollection *tables = nullptr) {
  auto kernel = from->getParentOfType<KernelOp>();
  if (!kernel || !name)
    return nullptr;
  Operation *op = tables ? tables->lookupSymbolIn(kernel, name.getAttr())
                         : SymbolTable::lookupSymbolIn(kernel, name.getAttr());
  return isa_and_nonnull<PipelineOp, BufferOp>(op) ? op : nullptr;
}

LogicalResult BufferOp::verify() {
  std::optional<int64_t> bytes = getSmemBytes(), columns = getTmemColumns();
  if (bytes.has_value() == columns.has_value())
    return emitOpError() << "[X24] gives "
                         << (bytes ? "both smem_bytes and tmem_columns"
                                   : "neither smem_bytes nor tmem_columns")
                         << "; a buffer is either shared memory "
                            "(smem_bytes(N), bytes) or tensor memory "
                            "(tmem_columns(N), columns): declare two buffers";
  if (bytes && *bytes <= 0)
    return emitOpError() << "[X24] smem_bytes(" << *bytes
                         << ") must be > 0 (bytes)";
  if (columns && (*columns <= 0 || *columns > kTmemColumns))
    return emitOpError() << "[X24] tmem_columns(" << *columns
                         << ") must be in [1, " << kTmemColumns
                         << "] (the tensor-memory columns of an SM)";
  return success();
}

std::optional<int64_t> AliasGroupOp::getMemberSize(Operation *member,
                                                   bool tmem) {
  if (auto pipe = dyn_cast_or_null<PipelineOp>(member))
    return tmem ? pipe.getTmemColumns() : pipe.getSmemBytes();
  if (auto buffer = dyn_cast_or_null<BufferOp>(member))
    return tmem ? buffer.getTmemColumns() : buffer.getSmemBytes();
  return std::nullopt;
}

SmallVector<SmallVector<Operation *>> AliasGroupOp::getPhaseMembers() {
  SmallVector<SmallVector<Operation *>> phases;
  for (Attribute phase : getPhases()) {
    SmallVector<Operation *> &members = phases.emplace_back();
    if (auto list = dyn_cast<ArrayAttr>(phase))
      for (Attribute m : list)
        members.push_back(
            lookupResource(*this, dyn_cast<FlatSymbolRefAttr>(m)));
  }
  return phases;
}

LogicalResult AliasGroupOp::verify() {
  StringRef space = getTmem() ? "tmem" : "smem";
  StringRef unit = getTmem() ? "tmem_columns" : "smem_bytes";
  if (getPhases().size() < 2)
    return emitOpError() << "[X24] has " << getPhases().size()
                         << " phase(s); an alias group needs at least two "
                            "phases whose storage takes turns (TS: \"Alias "
                            "group must contain at least 2 phases\")";
  llvm::SmallPtrSet<Operation *, 8> seen;
  for (auto [i, phase] : llvm::enumerate(getPhases())) {
    auto list = dyn_cast<ArrayAttr>(phase);
    if (!list || list.empty())
      return emitOpError() << "[X24] phase " << i
                           << " must be a non-empty list of resources, e.g. "
                              "[[@a, @b], [@c]]";
    for (Attribute m : list) {
      auto ref = dyn_cast<FlatSymbolRefAttr>(m);
      if (!ref)
        return emitOpError() << "[X24] phase " << i << " holds " << m
                             << ", not a resource symbol (@name)";
      Operation *member = lookupResource(*this, ref);
      if (!member)
        return emitOpError() << "[X24] " << ref
                             << " does not name a tspipe.pipeline or "
                                "tspipe.buffer of the enclosing tspipe.kernel";
      if (!getMemberSize(member, getTmem()))
        return emitOpError()
               << "[X24] " << ref << " has no " << unit
               << ", so it has no storage in " << space
               << " to share; give it " << unit
               << "(N) or put it in an alias group of the other space";
      if (!seen.insert(member).second)
        return emitOpError() << "[X24] " << ref
                             << " appears twice; each resource belongs to "
                                "one phase of the group";
    }
  }
  return success();
}

/// The task around `op`, or an X24 error.
static LogicalResult verifyInTask(Operation *op) {
  if (!op->getParentOfType<TaskOp>())
    return op->emitOpError("[X24] must be nested in a tspipe.task");
  return success();
}

LogicalResult
BufferAddressOp::verifySymbolUses(SymbolTableCollection &tables) {
  if (failed(verifyInTask(*this)))
    return failure();
  auto buffer = dyn_cast_or_null<BufferOp>(
      lookupResource(*this, getBufferAttr(), &tables));
  if (!buffer)
    return emitOpError() << "[X24] " << getBufferAttr()
                         << " does not name a tspipe.buffer of the enclosing "
                            "tspipe.kernel (a pipeline's buffer is addressed "
                            "per stage: tspipe.stage_buffer)";
  if (!buffer.getSmemBytes())
    return emitOpError() << "[X24] " << getBufferAttr()
                         << " is a tensor-memory buffer; take its column "
                            "with tspipe.tmem_column";
  return success();
}

LogicalResult TmemColumnOp::verifySymbolUses(SymbolTableCollection &tables) {
  if (failed(verifyInTask(*this)))
    return failure();
  Operation *res = lookupResource(*this, getResourceAttr(), &tables);
  if (!res)
    return emitOpError() << "[X24] " << getResourceAttr()
                         << " does not name a tspipe.pipeline or "
                            "tspipe.buffer of the enclosing tspipe.kernel";
  if (!AliasGroupOp::getMemberSize(res, /*tmem=*/true))
    return emitOpError() << "[X24] " << getResourceAttr()
                         << " has no tmem_columns, so no tensor-memory column";
  return success();
}

//===----------------------------------------------------------------------===//
// Layout (AliasLayout.h)
//===----------------------------------------------------------------------===//

static uint64_t alignUp(uint64_t v, uint64_t align) {
  return llvm::SaturatingAdd<uint64_t>(v, align - 1) / align * align;
}

uint64_t mlir::tspipe::layoutStorage(
    KernelOp kernel, bool tmem, uint64_t base, uint64_t align,
    llvm::function_ref<void(Operation *, uint64_t)> place) {
  SmallVector<AliasGroupOp> groups;
  llvm::SmallPtrSet<Operation *, 8> grouped;
  for (auto group : kernel.getBody().getOps<AliasGroupOp>()) {
    if (group.getTmem() != tmem)
      continue;
    groups.push_back(group);
    for (auto &phase : group.getPhaseMembers())
      for (Operation *m : phase)
        if (m)
          grouped.insert(m);
  }
  uint64_t offset = base;
  for (Operation &op : kernel.getBody().front()) {
    if (!isa<PipelineOp, BufferOp>(op) || grouped.contains(&op))
      continue;
    std::optional<int64_t> size = AliasGroupOp::getMemberSize(&op, tmem);
    if (!size)
      continue;
    offset = alignUp(offset, align);
    place(&op, offset);
    offset = llvm::SaturatingAdd<uint64_t>(offset, *size);
  }
  llvm::SmallPtrSet<Operation *, 8> placed;
  for (AliasGroupOp group : groups) {
    uint64_t start = alignUp(offset, align), end = start;
    for (auto &phase : group.getPhaseMembers()) {
      uint64_t cursor = start;
      for (Operation *m : phase) {
        std::optional<int64_t> size = AliasGroupOp::getMemberSize(m, tmem);
        // A resource a second group lists again (X24) keeps its first place.
        if (!size || !placed.insert(m).second)
          continue;
        cursor = alignUp(cursor, align);
        place(m, cursor);
        cursor = llvm::SaturatingAdd<uint64_t>(cursor, *size);
      }
      end = std::max(end, cursor);
    }
    offset = end;
  }
  return offset;
}
