//===- TSPipeOps.cpp - tspipe operations ----------------------------------===//
//
// Op verifiers and custom assembly of the tspipe dialect. Rules that look at
// one op live here; rules over a whole kernel live in KernelOp's region
// verifier.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tspipe;

//===----------------------------------------------------------------------===//
// Symbol helpers
//===----------------------------------------------------------------------===//

PipelineOp mlir::tspipe::lookupPipeline(Operation *from,
                                        FlatSymbolRefAttr name) {
  auto kernel = from->getParentOfType<KernelOp>();
  if (!kernel || !name)
    return {};
  return dyn_cast_or_null<PipelineOp>(
      SymbolTable::lookupSymbolIn(kernel, name.getAttr()));
}

LogicalResult mlir::tspipe::verifyBracketSymbol(Operation *op,
                                                FlatSymbolRefAttr name,
                                                bool producerSide) {
  auto task = op->getParentOfType<TaskOp>();
  if (!task)
    return op->emitOpError("must be nested in a tspipe.task");
  if (!lookupPipeline(op, name))
    return op->emitOpError() << "'" << name
                             << "' does not name a tspipe.pipeline of the "
                                "enclosing tspipe.kernel";
  StringRef pipe = name.getValue();
  if (producerSide && !task.producesPipeline(pipe))
    return op->emitOpError()
           << "[R27] task '@" << task.getSymName()
           << "' uses a producer stage on '" << name
           << "' but does not list it in 'produces'; add " << name
           << " to the task's produces list";
  if (!producerSide && !task.consumesPipeline(pipe))
    return op->emitOpError()
           << "[R27] task '@" << task.getSymName()
           << "' uses a consumer stage on '" << name
           << "' but does not list it in 'consumes'; add " << name
           << " to the task's consumes list";
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t, 3> KernelOp::getClusterExtents() {
  if (auto shape = getClusterShape())
    return SmallVector<int64_t, 3>(shape->begin(), shape->end());
  return {1, 1, 1};
}

int64_t KernelOp::getNumCtasInCluster() {
  int64_t n = 1;
  for (int64_t e : getClusterExtents())
    n *= e;
  return n;
}

LogicalResult KernelOp::verify() {
  if (getNumWarps() * 32 > 1024)
    return emitOpError() << "num_warps = " << getNumWarps()
                         << " exceeds the 32 warps (1024 threads) of a CTA";
  if (auto shape = getClusterShape()) {
    if (shape->size() != 3)
      return emitOpError() << "cluster shape must have 3 extents (x, y, z), "
                              "got "
                           << shape->size();
    for (int64_t e : *shape)
      if (e < 1)
        return emitOpError() << "cluster extents must be >= 1, got " << e;
    if (getNumCtasInCluster() > 16)
      return emitOpError() << "cluster of " << getNumCtasInCluster()
                           << " CTAs exceeds the 16 CTAs a cluster may hold";
  }
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  int64_t numCtas = getNumCtasInCluster();
  for (Operation &op : getBody().front()) {
    if (auto pipe = dyn_cast<PipelineOp>(op)) {
      PipelineConfigAttr cfg = pipe.getConfig();
      if (cfg.getClusterSize() != numCtas)
        return pipe.emitOpError()
               << "[R57] cta_layout_vmnk has " << cfg.getClusterSize()
               << " CTAs but the kernel's cluster has " << numCtas
               << "; make the product V*M*N*L equal the cluster size";
      continue;
    }
    if (auto task = dyn_cast<TaskOp>(op)) {
      if (task.getWarpIdx() + task.getNumWarps() > getNumWarps())
        return task.emitOpError()
               << "warps [" << task.getWarpIdx() << ", "
               << task.getWarpIdx() + task.getNumWarps()
               << ") exceed the kernel's " << getNumWarps() << " warps";
      if (auto cta = task.getRunOnlyOnCtaId(); cta && *cta >= numCtas)
        return task.emitOpError()
               << "[R18] run_only_on_cta_id = " << *cta
               << " is not a CTA rank of the " << numCtas << "-CTA cluster";
      continue;
    }
    return op.emitOpError()
           << "is not allowed in a tspipe.kernel body; only tspipe.pipeline "
              "and tspipe.task may appear there";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// PipelineOp
//===----------------------------------------------------------------------===//

LogicalResult PipelineOp::verify() {
  PipelineConfigAttr cfg = getConfig();
  if (auto bytes = getSmemBytes()) {
    if (*bytes % cfg.getNumStages() != 0)
      return emitOpError() << "smem_bytes = " << *bytes
                           << " does not split evenly over num_stages = "
                           << cfg.getNumStages()
                           << "; use a multiple of num_stages";
    if ((*bytes / cfg.getNumStages()) % 16 != 0)
      return emitOpError() << "stage size " << *bytes / cfg.getNumStages()
                           << " bytes is not a multiple of 16 (TMA and "
                              "cp.async need 16-byte aligned stages)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TaskOp
//===----------------------------------------------------------------------===//

static bool listsSymbol(ArrayAttr list, StringRef name) {
  if (!list)
    return false;
  return llvm::any_of(list, [&](Attribute a) {
    return cast<FlatSymbolRefAttr>(a).getValue() == name;
  });
}

bool TaskOp::producesPipeline(StringRef pipeline) {
  return listsSymbol(getProducesAttr(), pipeline);
}
bool TaskOp::consumesPipeline(StringRef pipeline) {
  return listsSymbol(getConsumesAttr(), pipeline);
}

DomainLoopOp TaskOp::getDomainLoop() {
  for (Operation &op : getBody().front())
    if (auto loop = dyn_cast<DomainLoopOp>(op))
      return loop;
  return {};
}

LogicalResult TaskOp::verify() {
  if (auto cta = getRunOnlyOnCtaId(); cta && *cta < 0)
    return emitOpError() << "[R18] run_only_on_cta_id must be >= 0, got "
                         << *cta;
  if (auto regs = getNumRegisters();
      regs && (*regs < 24 || *regs > 256 || *regs % 8 != 0))
    return emitOpError() << "[R18] registers(" << *regs
                         << ") must be in [24, 256] and divisible by 8 "
                            "(setmaxnreg)";
  unsigned loops = 0;
  for (Operation &op : getBody().front())
    loops += isa<DomainLoopOp>(op);
  if (loops != 1)
    return emitOpError() << "[R16] a task schedule needs exactly one "
                            "tspipe.domain_loop, found "
                         << loops;
  for (auto [what, list] : {std::make_pair("produces", getProducesAttr()),
                            std::make_pair("consumes", getConsumesAttr())}) {
    if (!list)
      continue;
    llvm::StringSet<> seen;
    for (Attribute a : list) {
      auto ref = cast<FlatSymbolRefAttr>(a);
      if (!lookupPipeline(*this, ref))
        return emitOpError() << what << " names '" << ref
                             << "', which is not a tspipe.pipeline of the "
                                "enclosing tspipe.kernel";
      if (!seen.insert(ref.getValue()).second)
        return emitOpError() << what << " lists '" << ref << "' twice";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DomainLoopOp
//===----------------------------------------------------------------------===//

ParseResult DomainLoopOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand lb, ub, step;
  Type index = parser.getBuilder().getIndexType();
  iv.type = index;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseOperand(lb) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) || parser.parseKeyword("step") ||
      parser.parseOperand(step) ||
      parser.resolveOperand(lb, index, result.operands) ||
      parser.resolveOperand(ub, index, result.operands) ||
      parser.resolveOperand(step, index, result.operands))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void DomainLoopOp::print(OpAsmPrinter &p) {
  p << " " << getInductionVar() << " = " << getLowerBound() << " to "
    << getUpperBound() << " step " << getStep() << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
}

LogicalResult DomainLoopOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("body must have one index argument (the iteration)");
  APInt step;
  if (matchPattern(getStep(), m_ConstantInt(&step)) && step.isZero())
    return emitOpError("[R17] step must be non-zero; a zero step never "
                       "advances the domain");
  return success();
}

//===----------------------------------------------------------------------===//
// Stage accessors
//===----------------------------------------------------------------------===//

/// The pipeline a stage handle belongs to, from the op that produced it.
static PipelineOp pipelineOfStage(Value stage) {
  Operation *def = stage.getDefiningOp();
  if (!def)
    return {};
  if (auto op = dyn_cast<ProducerAcquireOp>(def))
    return op.getPipelineOp();
  if (auto op = dyn_cast<ConsumerWaitOp>(def))
    return op.getPipelineOp();
  if (auto op = dyn_cast<CurrentStageOp>(def))
    return op.getPipelineOp();
  return {};
}

LogicalResult StageBufferOp::verify() {
  PipelineOp pipe = pipelineOfStage(getStage());
  if (pipe && !pipe.getSmemBytes())
    return emitOpError() << "pipeline '@" << pipe.getSymName()
                         << "' declares no data buffer; add smem_bytes(N) "
                            "to the tspipe.pipeline";
  return success();
}

#define GET_OP_CLASSES
#include "tspipe/Dialect/TSPipe/IR/TSPipeOps.cpp.inc"
