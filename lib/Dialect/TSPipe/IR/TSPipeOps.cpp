//===- TSPipeOps.cpp - tspipe operations ----------------------------------===//
//
// Op verifiers and custom assembly of the tspipe dialect. Rules that look at
// one op live here; rules over a whole kernel live in KernelOp's region
// verifier.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <functional>
#include "mlir/IR/OpImplementation.h"

#include <limits>

using namespace mlir;
using namespace mlir::tspipe;

LogicalResult mlir::tspipe::verifyBracketSymbol(Operation *op,
                                                FlatSymbolRefAttr name,
                                                FlatSymbolRefAttr group,
                                                bool producerSide,
                                                SymbolTableCollection *tables) {
  auto task = op->getParentOfType<TaskOp>();
  if (!task)
    return op->emitOpError("[R22] must be nested in a tspipe.task");
  // A group-level bracket (a merge group's release, a fork group's commit)
  // and the group rules of member brackets (R24): TSPipeGroupRules.cpp.
  if (lookupGroup(op, name, tables))
    return verifyGroupBracket(op, task, name, group, producerSide);
  if (!lookupPipeline(op, name, tables))
    return op->emitOpError() << "[R27] '" << name
                             << "' does not name a tspipe.pipeline of the "
                                "enclosing tspipe.kernel";
  if (failed(verifyGroupBracket(op, task, name, group, producerSide)))
    return failure();
  StringRef pipe = name.getValue();
  if (producerSide && !task.producesPipeline(pipe))
    return op->emitOpError() << "[R27] task '@" << task.getSymName()
                             << "' uses a producer stage on '" << name
                             << "' but does not list it in 'produces'; add "
                             << name << " to the task's produces list";
  if (!producerSide && !task.consumesPipeline(pipe))
    return op->emitOpError() << "[R27] task '@" << task.getSymName()
                             << "' uses a consumer stage on '" << name
                             << "' but does not list it in 'consumes'; add "
                             << name << " to the task's consumes list";
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
  // In a GPU function the kernel owns the CTA's dynamic shared memory and
  // all of its warps. (Compared by name: the IR library does not depend on
  // the GPU dialect.)
  Operation *parent = (*this)->getParentOp();
  bool inGpuFunc = parent && parent->getName().getStringRef() == "gpu.func";
  for (Operation &sibling : *(*this)->getBlock())
    if (inGpuFunc && &sibling != getOperation() && isa<KernelOp>(sibling))
      return emitOpError("[X9] shares its block with another tspipe.kernel; a "
                         "GPU function holds at most one (both would own "
                         "the CTA's warps and dynamic shared memory)");
  // Compare the warp count itself: 32 * num_warps overflows for huge values.
  // (Read signed: the I64Attr getter returns uint64_t.)
  int64_t warps = getNumWarpsAttr().getInt();
  if (warps < 1 || warps > 32)
    return emitOpError() << "[R18] warps(" << warps
                         << ") must be in [1, 32]: a CTA has at most 32 warps "
                            "(1024 threads); give the CTA's warp count";
  if (auto shape = getClusterShape()) {
    if (shape->size() != 3)
      return emitOpError()
             << "[X9] cluster shape must have 3 extents (x, y, z), "
                "got "
             << shape->size();
    // Each extent is bounded before the product is formed, so that the
    // product cannot overflow.
    for (int64_t e : *shape)
      if (e < 1 || e > 16)
        return emitOpError()
               << "[X9] cluster extents must be in [1, 16], got " << e;
    if (getNumCtasInCluster() > 16)
      return emitOpError() << "[X9] cluster of " << getNumCtasInCluster()
                           << " CTAs exceeds the 16 CTAs a cluster may hold";
  }
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  // Every check runs to the end, so that one verification lists every
  // failure of the kernel (docs/Rules.md, Diagnostics).
  bool ok = true;
  int64_t numCtas = getNumCtasInCluster();
  SmallVector<TaskOp> tasks;
  PipelineOp layoutRef;
  // The pipelines some task uses: the layouts of those must agree (R57 is a
  // rule between used resources, as in TS).
  llvm::StringSet<> used;
  walk([&](Operation *op) {
    if (auto ref = op->getAttrOfType<FlatSymbolRefAttr>("pipeline"))
      used.insert(ref.getValue());
  });
  for (Operation &op : getBody().front()) {
    if (auto pipe = dyn_cast<PipelineOp>(op)) {
      // R57: a pipeline is CTA-local (layout [1, 1, 1, 1], on any cluster:
      // its barriers and masks never leave the CTA) or spans the kernel's
      // whole cluster, and the pipelines that span it share one layout
      // (their masks and leader CTAs are computed from it).
      PipelineConfigAttr cfg = pipe.getConfig();
      if (cfg.getClusterSize() == 1)
        continue;
      if (cfg.getClusterSize() != numCtas) {
        ok = false;
        pipe.emitOpError()
            << "[R57] cta_layout_vmnk has " << cfg.getClusterSize()
            << " CTAs but the kernel's cluster has " << numCtas
            << "; a pipeline that spans CTAs must cover the whole cluster "
               "(make V*M*N*L equal the cluster size), or be CTA-local with "
               "cta_layout_vmnk = [1, 1, 1, 1]";
        continue;
      }
      if (!used.contains(pipe.getSymName()))
        continue;
      if (!layoutRef) {
        layoutRef = pipe;
        continue;
      }
      ArrayRef<int64_t> mine = cfg.getCtaLayoutVmnk(),
                        theirs = layoutRef.getConfig().getCtaLayoutVmnk();
      if (mine != theirs) {
        ok = false;
        InFlightDiagnostic diag = pipe.emitOpError()
                                  << "[R57] cta_layout_vmnk [";
        llvm::interleaveComma(mine, diag);
        diag << "] differs from [";
        llvm::interleaveComma(theirs, diag);
        diag << "] of '@" << layoutRef.getSymName()
             << "'; the pipelines that span CTAs must use one layout";
      }
      continue;
    }
    if (isa<PipelineGroupOp>(op))
      continue; // rules R67-R69: verifyGroupRules
    if (isa<NamedBarrierOp>(op))
      continue; // rule X13: verifyBarrierRules
    if (isa<WorkQueueOp>(op))
      continue; // rules R19-R22, R35: verifyWorkQueueRules
    if (isa<BufferOp, AliasGroupOp>(op))
      continue; // rules X23, X24: verifyAliasRules
    if (auto task = dyn_cast<TaskOp>(op)) {
      // Written so that warp_idx + num_warps cannot overflow.
      uint64_t first = task.getWarpIdx(), count = task.getNumWarps();
      uint64_t kernelWarps = getNumWarps();
      if (first >= kernelWarps || count > kernelWarps - first) {
        ok = false;
        task.emitOpError() << "[X9] warps(" << first << ", " << count
                           << ") do not fit in the kernel's " << kernelWarps
                           << " warps; warp_idx + num_warps must be <= "
                           << kernelWarps;
      }
      IntegerAttr cta = task.getRunOnlyOnCtaIdAttr();
      if (cta && cta.getInt() >= numCtas) {
        ok = false;
        task.emitOpError() << "[R18] run_only_on_cta_id = " << cta.getInt()
                           << " is not a CTA rank of the " << numCtas
                           << "-CTA cluster; use a rank in [0, " << numCtas
                           << ")";
      }
      // Every warp runs at most one task on a given CTA: a warp in two
      // tasks would run both schedules one after the other, and a producer
      // drain waiting on its own later consumer work never returns.
      for (TaskOp other : tasks) {
        uint64_t oFirst = other.getWarpIdx(), oCount = other.getNumWarps();
        bool overlap = first < oFirst + oCount && oFirst < first + count;
        IntegerAttr oCta = other.getRunOnlyOnCtaIdAttr();
        bool disjointCtas = cta && oCta && cta.getInt() != oCta.getInt();
        if (overlap && !disjointCtas) {
          ok = false;
          task.emitOpError()
              << "[X9] warps [" << first << ", " << first + count
              << ") overlap the warps [" << oFirst << ", " << oFirst + oCount
              << ") of task '@" << other.getSymName()
              << "'; give each task its own warp range (or run them on "
                 "different CTAs with cta(...))";
          break;
        }
      }
      tasks.push_back(task);
      continue;
    }
    ok = false;
    op.emitOpError()
        << "[X9] is not allowed in a tspipe.kernel body; only tspipe.pipeline, "
           "tspipe.pipeline_group, tspipe.named_barrier, tspipe.buffer, "
           "tspipe.alias_group and tspipe.task may appear there";
  }
  // The rules over pipelines and tasks assume a well-formed body.
  if (!ok)
    return failure();
  return verifyKernelRules(*this);
}

//===----------------------------------------------------------------------===//
// PipelineOp
//===----------------------------------------------------------------------===//

/// R44: `tmem_columns` is a `tcgen05.alloc` column count (PTX ISA,
/// tcgen05.alloc: a power of two in [32, 512]) and only a tcgen05 pipeline
/// type, whose stages live in tensor memory, may reserve columns.
LogicalResult PipelineOp::verifyTmemColumns() {
  IntegerAttr attr = getTmemColumnsAttr();
  if (!attr)
    return success();
  int64_t columns = attr.getInt();
  PipelineType type = getConfig().getPipelineType();
  bool tcgen05 = getPipelineTypeFacts(type).usesTcgen05;
  if (!tcgen05)
    return emitOpError() << "[R44] tmem_columns(" << columns << ") on a "
                         << stringifyPipelineType(type)
                         << " pipeline, whose stages do not live in tensor "
                            "memory; only tma_umma, umma_async, async_umma "
                            "and umma_umma pipelines reserve columns: drop "
                            "tmem_columns";
  if (columns < 32 || columns > 512 || !llvm::isPowerOf2_64(columns))
    return emitOpError() << "[R44] tmem_columns(" << columns
                         << ") must be a power of two in [32, 512] "
                            "(tcgen05.alloc column counts); use 32, 64, 128, "
                            "256 or 512";
  return success();
}

LogicalResult PipelineOp::verify() {
  PipelineConfigAttr cfg = getConfig();
  // R58-R60: which pipeline types and sides may be interleaved.
  PipelineType type = cfg.getPipelineType();
  if (cfg.isInterleaved()) {
    const PipelineTypeFacts &facts = getPipelineTypeFacts(type);
    if (!facts.producer.interleaves && !facts.consumer.interleaves)
      return emitOpError() << "[R58] " << stringifyPipelineType(type)
                           << " pipelines cannot be interleaved (only "
                              "async_async, async_umma, tma_async, tma_umma "
                              "and umma_async can); set interleave_stride = 1";
    if (facts.interleavesOnOneCtaOnly && cfg.getClusterSize() != 1)
      return emitOpError() << "[R59] an interleaved "
                           << stringifyPipelineType(type)
                           << " pipeline must run on one CTA, but "
                              "cta_layout_vmnk has "
                           << cfg.getClusterSize()
                           << " CTAs; set interleave_stride = 1 or use "
                              "cta_layout_vmnk = [1, 1, 1, 1]";
    if (!facts.producer.interleaves &&
        (cfg.getAcquireStride() != 1 || cfg.getCommitStride() != 1))
      return emitOpError() << "[R60] " << stringifyPipelineType(type)
                           << " interleaves its consumer side only (one "
                              "tcgen05 commit fills a stage), but "
                              "the producer strides are "
                           << cfg.getAcquireStride() << ", "
                           << cfg.getCommitStride()
                           << "; write interleave_stride = [1, 1, wait, "
                              "release]";
    if (!facts.consumer.interleaves &&
        (cfg.getWaitStride() != 1 || cfg.getReleaseStride() != 1))
      return emitOpError() << "[R60] " << stringifyPipelineType(type)
                           << " interleaves its producer side only (one "
                              "tcgen05 commit releases a stage), "
                              "but the consumer strides are "
                           << cfg.getWaitStride() << ", "
                           << cfg.getReleaseStride()
                           << "; write interleave_stride = [acquire, commit, "
                              "1, 1]";
  }
  if (IntegerAttr bytes = getSmemBytesAttr(); bytes && bytes.getInt() < 1)
    return emitOpError() << "[R43] smem_bytes(" << bytes.getInt()
                         << ") must be positive (bytes of the pipeline's "
                            "data buffer, all stages); drop smem_bytes for a "
                            "pipeline without a buffer";
  if (failed(verifyTmemColumns()))
    return failure();
  if (auto bytes = getSmemBytes()) {
    if (*bytes % cfg.getNumStages() != 0)
      return emitOpError() << "[X9] smem_bytes = " << *bytes
                           << " does not split evenly over num_stages = "
                           << cfg.getNumStages()
                           << "; use a multiple of num_stages";
    if ((*bytes / cfg.getNumStages()) % 16 != 0)
      return emitOpError() << "[X9] stage size " << *bytes / cfg.getNumStages()
                           << " bytes (smem_bytes / num_stages) is not a "
                              "multiple of 16 (TMA and cp.async need 16-byte "
                              "aligned stages); round the stage size up to a "
                              "multiple of 16";
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
  // A persistent task's loop sits in its work_tile_loop (or a skippable of
  // it); the parent traits keep it out of every other region.
  DomainLoopOp found;
  getBody().walk([&](DomainLoopOp loop) {
    found = loop;
    return WalkResult::interrupt();
  });
  return found;
}

LogicalResult TaskOp::verify() {
  // The generated getters of I64Attr return uint64_t; read the attributes as
  // signed so that negative values are caught (and printed) as such.
  int64_t first = getWarpIdxAttr().getInt();
  int64_t count = getNumWarpsAttr().getInt();
  if (first < 0 || count < 1)
    return emitOpError() << "[R18] warps(" << first << ", " << count
                         << ") must name warps [first, first + count) with "
                            "first >= 0 and count >= 1; give the task's "
                            "first warp and its warp count";
  if (IntegerAttr cta = getRunOnlyOnCtaIdAttr(); cta && cta.getInt() < 0)
    return emitOpError() << "[R18] run_only_on_cta_id must be >= 0, got "
                         << cta.getInt()
                         << "; give the rank of a CTA in "
                            "the cluster";
  IntegerAttr regsAttr = getNumRegistersAttr();
  int64_t regs = regsAttr ? regsAttr.getInt() : 0;
  if (regsAttr && (regs < 24 || regs > 256 || regs % 8 != 0))
    return emitOpError() << "[R18] registers(" << regs
                         << ") must be in [24, 256] and divisible by 8 "
                            "(setmaxnreg); round to a multiple of 8 in that "
                            "range";
  // The task's own loops: in its body, or in its work_tile_loop (directly
  // or in a skippable of it). A loop nested elsewhere is its parent
  // trait's error (R22).
  unsigned loops = 0;
  std::function<void(Block &)> countLoops = [&](Block &block) {
    for (Operation &op : block) {
      loops += isa<DomainLoopOp>(op);
      if (!isa<WorkTileLoopOp, SkippableOp>(op))
        continue;
      Region &body = op.getRegion(op.getNumRegions() - 1);
      if (!body.empty())
        countLoops(body.front());
    }
  };
  countLoops(getBody().front());
  if (loops != 1)
    return emitOpError() << "[R16] a task schedule needs exactly one "
                            "tspipe.domain_loop, found "
                         << loops
                         << (loops == 0 ? "; add one (its body may be empty)"
                                        : "; merge the loops into one");
  // The kernel's pipeline names, gathered once: a task may list every
  // pipeline of the kernel, and a lookup per entry would make verification
  // quadratic in the number of pipelines.
  std::optional<llvm::StringSet<>> pipelines;
  auto kernelPipelines = [&] {
    llvm::StringSet<> names;
    if (auto kernel = (*this)->getParentOfType<KernelOp>())
      for (auto pipe : kernel.getBody().getOps<PipelineOp>())
        names.insert(pipe.getSymName());
    return names;
  };
  for (auto [what, list] : {std::make_pair("produces", getProducesAttr()),
                            std::make_pair("consumes", getConsumesAttr())}) {
    if (!list)
      continue;
    llvm::StringSet<> seen;
    for (Attribute a : list) {
      auto ref = cast<FlatSymbolRefAttr>(a);
      if (!pipelines)
        pipelines = kernelPipelines();
      if (!pipelines->contains(ref.getValue()))
        return emitOpError() << "[X9] " << what << " names '" << ref
                             << "', which is not a tspipe.pipeline of the "
                                "enclosing tspipe.kernel";
      if (!seen.insert(ref.getValue()).second)
        return emitOpError()
               << "[X9] " << what << " lists '" << ref << "' twice";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DomainLoopOp
//===----------------------------------------------------------------------===//

ParseResult DomainLoopOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args(1);
  OpAsmParser::UnresolvedOperand lb, ub, step;
  Type index = parser.getBuilder().getIndexType();
  args[0].type = index;
  if (parser.parseArgument(args[0]) || parser.parseEqual() ||
      parser.parseOperand(lb) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) || parser.parseKeyword("step") ||
      parser.parseOperand(step) ||
      parser.resolveOperand(lb, index, result.operands) ||
      parser.resolveOperand(ub, index, result.operands) ||
      parser.resolveOperand(step, index, result.operands))
    return failure();
  // Optional carried state: iter_args(%a = %init, ...) -> (types).
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  if (succeeded(parser.parseOptionalKeyword("iter_args"))) {
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseAssignmentList(args, inits) ||
        parser.parseArrowTypeList(result.types))
      return failure();
    if (result.types.size() != inits.size())
      return parser.emitError(loc)
             << "[X26] iter_args lists " << inits.size()
             << " values but the type list after '->' has "
             << result.types.size() << "; give one type per carried value";
    for (auto [arg, type] : llvm::zip(llvm::drop_begin(args), result.types))
      arg.type = type;
    if (parser.resolveOperands(inits, result.types, loc, result.operands))
      return failure();
  }
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void DomainLoopOp::print(OpAsmPrinter &p) {
  p << " " << getInductionVar() << " = " << getLowerBound() << " to "
    << getUpperBound() << " step " << getStep() << " ";
  if (!getInitArgs().empty()) {
    p << "iter_args(";
    llvm::interleaveComma(llvm::zip(getRegionIterArgs(), getInitArgs()), p,
                          [&](auto pair) {
                            p << std::get<0>(pair) << " = "
                              << std::get<1>(pair);
                          });
    p << ") -> (" << getResultTypes() << ") ";
  }
  // The yield is printed whenever the loop carries values (it is optional
  // only for a loop that carries none).
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
}

YieldOp DomainLoopOp::getYield() {
  Block &body = getBody().front();
  if (body.empty())
    return {};
  return dyn_cast<YieldOp>(body.back());
}

LogicalResult DomainLoopOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() < 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError(
        "[X9] body must have one index argument (the iteration)");
  if (failed(rules::verifyCarriedState(*this)))
    return failure();
  APInt step;
  if (matchPattern(getStep(), m_ConstantInt(&step)) && step.isZero())
    return emitOpError("[R17] step must be non-zero; a zero step never "
                       "advances the domain");
  // X11: the lowering counts the domain with an i32 trip counter (as TS
  // does). Static bounds must fit, including the first index past the end
  // (`last_iter` and the loop test compute index + step). Dynamic bounds
  // are the caller's promise (docs/Rules.md, X11).
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  auto bound = [&](Value v) -> std::optional<int64_t> {
    APInt c;
    if (!matchPattern(v, m_ConstantInt(&c)) || c.getSignificantBits() > 64)
      return std::nullopt;
    return c.getSExtValue();
  };
  std::optional<int64_t> lb = bound(getLowerBound()),
                         ub = bound(getUpperBound()), st = bound(getStep());
  for (auto [name, v] :
       {std::make_pair("lower bound", lb), std::make_pair("upper bound", ub),
        std::make_pair("step", st)})
    if (v && (*v < kMin || *v > kMax))
      return emitOpError() << "[X11] the " << name << " " << *v
                           << " does not fit the i32 trip counter of the "
                              "lowered loop (range ["
                           << kMin << ", " << kMax
                           << "]); split the domain or count in larger steps";
  // X11: the lowered loop counts its i32 trip counter up from the lower
  // bound; a domain counting down has no lowering (TS's range() allows it).
  if (st && *st < 0)
    return emitOpError() << "[X11] step " << *st
                         << " is negative, but the lowered domain loop counts "
                            "up from its lower bound; step up with a positive "
                            "step and derive the index from the iteration "
                            "(e.g. upper - 1 - i)";
  if (ub && st && *st > 0 && *ub + *st > kMax)
    return emitOpError() << "[X11] upper bound " << *ub << " + step " << *st
                         << " exceeds " << kMax
                         << ": the i32 trip counter of the lowered loop "
                            "would wrap before it reaches the bound; keep "
                            "upper bound + step <= "
                         << kMax;
  return success();
}

//===----------------------------------------------------------------------===//
// Stage accessors
//===----------------------------------------------------------------------===//

/// The bracket that defines a stage handle, or null when the handle does not
/// come straight from one (a block argument, a select, ...). Lowering maps
/// every handle to the cursor of the bracket that made it, so nothing else can
/// be lowered.
static Operation *stageBracket(Value stage) {
  Operation *def = stage.getDefiningOp();
  if (isa_and_nonnull<ProducerAcquireOp, ConsumerWaitOp, CurrentStageOp>(def))
    return def;
  return nullptr;
}

/// The pipeline a stage handle belongs to, from the bracket that produced it.
static PipelineOp pipelineOfStage(Value stage) {
  Operation *def = stageBracket(stage);
  if (auto op = dyn_cast_or_null<ProducerAcquireOp>(def))
    return op.getPipelineOp();
  if (auto op = dyn_cast_or_null<ConsumerWaitOp>(def))
    return op.getPipelineOp();
  if (auto op = dyn_cast_or_null<CurrentStageOp>(def))
    return op.getPipelineOp();
  return {};
}

static LogicalResult verifyStageOperand(Operation *op, Value stage) {
  if (stageBracket(stage))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "[R22] stage operand must be the result of "
                               "tspipe.producer_acquire, tspipe.consumer_wait "
                               "or tspipe.current_stage, got ";
  if (Operation *def = stage.getDefiningOp())
    diag << "a result of '" << def->getName() << "'";
  else
    diag << "a block argument";
  return diag << "; use the stage handle of the bracket directly";
}

LogicalResult StageIndexOp::verify() {
  return verifyStageOperand(*this, getStage());
}
LogicalResult FullBarrierOp::verify() {
  return verifyStageOperand(*this, getStage());
}
LogicalResult EmptyBarrierOp::verify() {
  return verifyStageOperand(*this, getStage());
}

LogicalResult StageBufferOp::verify() {
  if (failed(verifyStageOperand(*this, getStage())))
    return failure();
  // The stage of a fused_merge group's wait is the members' shared barriers;
  // each member keeps its own data buffer.
  if (auto wait = getStage().getDefiningOp<ConsumerWaitOp>())
    if (PipelineGroupOp group = lookupGroup(wait, wait.getPipelineAttr()))
      return emitOpError()
             << "[R24] the stage of a wait on group '@" << group.getSymName()
             << "' addresses the barriers its members share, not a data "
                "buffer; take the stage of one member with "
                "'tspipe.current_stage @<member> consumer group(@"
             << group.getSymName() << ")'";
  PipelineOp pipe = pipelineOfStage(getStage());
  if (pipe && !pipe.getSmemBytes())
    return emitOpError() << "[X9] pipeline '@" << pipe.getSymName()
                         << "' declares no data buffer; add smem_bytes(N) "
                            "to the tspipe.pipeline";
  return success();
}

//===----------------------------------------------------------------------===//
// Try tokens
//===----------------------------------------------------------------------===//

/// A `ready` operand must be the token of the matching try op on the same
/// pipeline: any other i1 would let the blocking op skip its wait without the
/// barrier having been probed.
template <typename TryOpT>
static LogicalResult verifyReadyToken(Operation *op, Value ready,
                                      FlatSymbolRefAttr pipeline) {
  if (!ready)
    return success();
  auto tryOp = ready.getDefiningOp<TryOpT>();
  if (!tryOp) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "[R34] ready operand must be the result of "
                              << TryOpT::getOperationName() << " " << pipeline
                              << ", got ";
    if (Operation *def = ready.getDefiningOp())
      diag << "a result of '" << def->getName() << "'";
    else
      diag << "a block argument";
    return diag << "; pass the try token or drop ready(...)";
  }
  if (tryOp.getPipelineAttr() != pipeline)
    return op->emitOpError()
           << "[R34] ready operand probes pipeline " << tryOp.getPipelineAttr()
           << " but this op waits on " << pipeline << "; probe " << pipeline
           << " with " << TryOpT::getOperationName();

  // The probe must be fresh: made in the same block (the same iteration and
  // guard), used by this one blocking op, with no bracket that moves the
  // cursor in between. A reused or earlier probe would let the wait be
  // skipped for a stage that was never probed (TS's sticky try register).
  if (tryOp->getBlock() != op->getBlock())
    return op->emitOpError()
           << "[R34] ready operand comes from a probe in another block (an "
              "earlier iteration, the task head or another guard) and is "
              "stale here; call "
           << TryOpT::getOperationName() << " " << pipeline
           << " right before this op";
  if (!ready.hasOneUse())
    return op->emitOpError()
           << "[R34] ready operand is used by more than one op; each blocking "
              "op needs its own probe of "
           << pipeline;
  for (Operation *between = tryOp->getNextNode(); between && between != op;
       between = between->getNextNode()) {
    Operation *moved = nullptr;
    between->walk([&](Operation *inner) {
      auto ref = inner->getAttrOfType<FlatSymbolRefAttr>("pipeline");
      if (!ref || ref != pipeline || isa<TryOpT>(inner) ||
          isa<CurrentStageOp>(inner))
        return WalkResult::advance();
      bool sameSide =
          isa<ProducerTryAcquireOp>(tryOp.getOperation())
              ? isa<ProducerAcquireOp, ProducerCommitOp, ProducerTailOp>(inner)
              : isa<ConsumerWaitOp, ConsumerReleaseOp>(inner);
      if (!sameSide)
        return WalkResult::advance();
      moved = inner;
      return WalkResult::interrupt();
    });
    if (moved)
      return op->emitOpError()
             << "[R34] ready operand is stale: '" << moved->getName() << " "
             << pipeline
             << "' between the probe and this op moves the pipeline cursor; "
                "probe again after it";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Stage handles
//===----------------------------------------------------------------------===//

/// A stage handle has no run-time value of its own: the lowering rewrites
/// each stage accessor to the cursor of the bracket that made the handle.
/// Any other user (a select, a region yield, a cast, a call) would keep the
/// handle alive after its bracket is lowered, so it is rejected here.
static LogicalResult verifyStageUses(Operation *bracket, Value stage) {
  for (OpOperand &use : stage.getUses()) {
    Operation *user = use.getOwner();
    if (isa<StageIndexOp, FullBarrierOp, EmptyBarrierOp, StageBufferOp>(user))
      continue;
    // The work queue's response and fetch read the stage like an accessor.
    if (isa<AdvanceWorkTileOp, FetchWorkTileOp>(user))
      continue;
    InFlightDiagnostic diag =
        bracket->emitOpError()
        << "[R22] stage handle is used by '" << user->getName() << "' (operand "
        << use.getOperandNumber()
        << "), but only tspipe.stage_index, tspipe.full_barrier, "
           "tspipe.empty_barrier and tspipe.stage_buffer may read a stage; "
           "read the index or address with an accessor and pass that value "
           "instead";
    diag.attachNote(user->getLoc()) << "the other user";
    return diag;
  }
  return success();
}

LogicalResult ProducerAcquireOp::verify() {
  if (failed(verifyStageUses(*this, getStage())))
    return failure();
  return verifyReadyToken<ProducerTryAcquireOp>(*this, getReady(),
                                                getPipelineAttr());
}

LogicalResult ConsumerWaitOp::verify() {
  if (failed(verifyStageUses(*this, getStage())))
    return failure();
  return verifyReadyToken<ConsumerTryWaitOp>(*this, getReady(),
                                             getPipelineAttr());
}

LogicalResult CurrentStageOp::verify() {
  return verifyStageUses(*this, getStage());
}

#define GET_OP_CLASSES
#include "tspipe/Dialect/TSPipe/IR/TSPipeOps.cpp.inc"
