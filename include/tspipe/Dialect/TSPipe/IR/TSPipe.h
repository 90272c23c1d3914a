//===- TSPipe.h - tspipe dialect ----------------------------------*- C++
//-*-===//
//
// The tspipe dialect, its attributes, types and operations.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_TSPIPE_H
#define TSPIPE_DIALECT_TSPIPE_IR_TSPIPE_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include "tspipe/Dialect/TSPipe/IR/TSPipeDialect.h.inc"
#include "tspipe/Dialect/TSPipe/IR/TSPipeEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tspipe/Dialect/TSPipe/IR/TSPipeAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tspipe/Dialect/TSPipe/IR/TSPipeTypes.h.inc"

namespace mlir::tspipe {
class PipelineOp;
class PipelineGroupOp;
/// Resolves `name` to the tspipe.pipeline of the kernel enclosing `from`.
/// With `tables`, the kernel's symbol table is built once and cached there
/// (a lookup is then O(1) instead of a walk over the kernel's ops).
PipelineOp lookupPipeline(Operation *from, FlatSymbolRefAttr name,
                          SymbolTableCollection *tables = nullptr);
/// Resolves `name` to the tspipe.pipeline_group of the kernel enclosing
/// `from` (null if it names none); `tables` caches as for lookupPipeline.
PipelineGroupOp lookupGroup(Operation *from, FlatSymbolRefAttr name,
                            SymbolTableCollection *tables = nullptr);
/// Verifies that a bracket names a pipeline (or, for the bracket a group
/// collapses, a pipeline group) of its kernel, that it sits in a task, that
/// group members are named through their group (R24), and that the task
/// lists the pipeline on the bracket's side (R27).
LogicalResult verifyBracketSymbol(Operation *op, FlatSymbolRefAttr name,
                                  FlatSymbolRefAttr group, bool producerSide,
                                  SymbolTableCollection *tables = nullptr);
/// The pipelines a bracket acts on: the pipeline it names, or every member
/// of the group a group-level bracket names (a merge group's
/// consumer_release, a fork group's producer_commit). Empty when the
/// bracket names neither.
SmallVector<StringRef, 4> getBracketPipelines(Operation *bracket);
class NamedBarrierOp;
/// Resolves `name` to the tspipe.named_barrier of the kernel enclosing
/// `from` (null if it names none).
NamedBarrierOp lookupNamedBarrier(Operation *from, FlatSymbolRefAttr name);
/// Verifies that a named-barrier sync / arrive names a tspipe.named_barrier
/// of its kernel and sits in a task the barrier lists (X13).
LogicalResult verifyNamedBarrierUse(Operation *op, FlatSymbolRefAttr name);
class KernelOp;
/// Rules relating each pipeline's config to the tasks that use it (arrive
/// counts R52-R54, interleaved lane ownership R62); run by KernelOp's region
/// verifier.
LogicalResult verifyKernelRules(KernelOp kernel);
} // namespace mlir::tspipe

#define GET_OP_CLASSES
#include "tspipe/Dialect/TSPipe/IR/TSPipeOps.h.inc"

namespace mlir::tspipe {
/// TS's consumer tasks of `pipeline`: the tasks of `kernel` with a
/// consumer_release on it (the tasks whose arrivals the empty barrier
/// counts).
SmallVector<TaskOp> getReleasingTasks(KernelOp kernel, StringRef pipeline);
/// TS's split consumers of `pipeline` (R66): the tasks of `kernel` that
/// wait on it (consumer_try_wait / consumer_wait) without releasing it.
SmallVector<TaskOp> getSplitConsumers(KernelOp kernel, StringRef pipeline);
/// Arrivals per releasing warp of a TmaAsync lane release (R54): 1 in one
/// CTA, else the size of the CTA's multicast set (N, M or M + N - 1 CTAs
/// for mcast_mode_mn = [1, 0], [0, 1], [1, 1]).
int64_t getLaneReleaseArrivalsPerWarp(PipelineConfigAttr config);
/// The release form TS picks for a TmaAsync pipeline whose consumer tasks
/// release it with `releasingWarps` warps in all (R54): all_threads when
/// consumer_group counts 32 x those warps and that is not the lane count,
/// else lane. tspipe-normalize records it; the verifier checks against it
/// before normalization.
ReleaseForm deriveReleaseForm(PipelineConfigAttr config,
                              int64_t releasingWarps);
/// TS's default registers per thread when no task sets them, for a kernel
/// of `numWarps` warps (ts rule R42): the 65536-register file split evenly
/// over the warps rounded up to whole warpgroups, rounded down to a multiple
/// of 8. The budget rules check against it and the lowering picks the
/// setmaxnreg direction against it.
int64_t getDefaultRegistersPerThread(int64_t numWarps);
/// Resolves `name` to the tspipe.work_queue of the kernel enclosing `from`
/// (null if it names none); `tables` caches as for lookupPipeline.
WorkQueueOp lookupWorkQueue(Operation *from, FlatSymbolRefAttr name,
                            SymbolTableCollection *tables = nullptr);
/// The task's tspipe.work_tile_loop (null for a non-persistent task).
WorkTileLoopOp getWorkTileLoop(TaskOp task);
} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_TSPIPE_H
