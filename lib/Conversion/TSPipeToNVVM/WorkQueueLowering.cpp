//===- WorkQueueLowering.cpp - persistent tile loops ----------------------===//
//
// A task's tspipe.work_tile_loop becomes one scf.while per task
// (docs/Protocols.md, Work queues; ts-semantics 2.7, 2.8, 4.1):
//
//   state   static queue: (t, valid, cursors...)   t: linear tile, i32
//           CLC queue:    (x, y, z, valid, cursors...) cluster coords, i32
//   start   static: t = c (this cluster's linear id), valid = t < M*N*L
//           CLC:    (x, y, z) = this cluster's id, valid = true
//   body    the tile's coordinates (static: m = t mod M, n = (t / M) mod N,
//           l = t / (M*N)), the skip predicate, then the task's schedule
//           for one tile; the cursors it advances are carried
//   advance static: t += C (clusters launched), valid = t < M*N*L
//           CLC:    the stage's 16-byte response: valid = is_canceled,
//                   (x, y, z) = first ctaid of the cancelled cluster /
//                   cluster extents
//   fetch   CLC scheduler, rank 0, one elected thread: try_cancel
//           (multicast over a cluster) into the stage's response record,
//           completing on the stage's full barrier
//
// Every CTA of a cluster computes the same tile. The producer drains run
// after the loop, once (TSPipeToNVVM.cpp).
//
//===----------------------------------------------------------------------===//

#include "WorkQueueLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tspipe;

static SmallVector<Value> flatten(ArrayRef<Cursor *> cursors) {
  SmallVector<Value> values;
  for (Cursor *c : cursors) {
    values.push_back(c->index);
    values.push_back(c->phase);
  }
  return values;
}

static void unflatten(ArrayRef<Cursor *> cursors, ValueRange values) {
  unsigned pos = 0;
  for (Cursor *c : cursors) {
    c->index = values[pos++];
    c->phase = values[pos++];
  }
}

std::pair<Value, Value> WorkQueueLowering::clusterLinearId(Location loc) {
  OpBuilder &b = host.builder();
  Type i32 = b.getI32Type();
  KernelOp kernel = task->getParentOfType<KernelOp>();
  Value id[3], dim[3];
  if (kernel.getNumCtasInCluster() > 1) {
    id[0] = NVVM::ClusterIdXOp::create(b, loc, i32);
    id[1] = NVVM::ClusterIdYOp::create(b, loc, i32);
    id[2] = NVVM::ClusterIdZOp::create(b, loc, i32);
    dim[0] = NVVM::ClusterDimXOp::create(b, loc, i32);
    dim[1] = NVVM::ClusterDimYOp::create(b, loc, i32);
    dim[2] = NVVM::ClusterDimZOp::create(b, loc, i32);
  } else {
    id[0] = NVVM::BlockIdXOp::create(b, loc, i32);
    id[1] = NVVM::BlockIdYOp::create(b, loc, i32);
    id[2] = NVVM::BlockIdZOp::create(b, loc, i32);
    dim[0] = NVVM::GridDimXOp::create(b, loc, i32);
    dim[1] = NVVM::GridDimYOp::create(b, loc, i32);
    dim[2] = NVVM::GridDimZOp::create(b, loc, i32);
  }
  // c = x + X * (y + Y * z), C = X * Y * Z.
  Value yz = arith::AddIOp::create(
      b, loc, id[1], arith::MulIOp::create(b, loc, dim[1], id[2]));
  Value linearId = arith::AddIOp::create(
      b, loc, id[0], arith::MulIOp::create(b, loc, dim[0], yz));
  Value count = arith::MulIOp::create(
      b, loc, dim[0], arith::MulIOp::create(b, loc, dim[1], dim[2]));
  return {linearId, count};
}

SmallVector<Value> WorkQueueLowering::decode(Location loc, Value t) {
  OpBuilder &b = host.builder();
  SmallVector<Value> coords;
  Value rest = t;
  for (auto [i, extent] : llvm::enumerate(grid)) {
    if (i + 1 == grid.size()) {
      coords.push_back(rest);
      break;
    }
    coords.push_back(arith::RemUIOp::create(b, loc, rest, extent));
    rest = arith::DivUIOp::create(b, loc, rest, extent);
  }
  return coords;
}

LogicalResult WorkQueueLowering::lowerTileLoop(WorkTileLoopOp loop) {
  OpBuilder &b = host.builder();
  IRMapping &mapping = host.valueMapping();
  Location loc = loop.getLoc();
  Type i32 = b.getI32Type();
  queue = loop.getWorkQueueOp();
  if (!queue)
    return loop.emitOpError("names no tspipe.work_queue");
  KernelOp kernel = task->getParentOfType<KernelOp>();

  // The loop state: the tile, whether it is valid, the carried cursors.
  SmallVector<Value> init;
  if (!queue.isClc()) {
    auto [id, count] = clusterLinearId(loc);
    grid.clear();
    numTiles = Value();
    for (Value extent : queue.getGrid()) {
      Value e = arith::IndexCastOp::create(b, loc, i32,
                                           mapping.lookupOrDefault(extent));
      grid.push_back(e);
      numTiles = numTiles ? arith::MulIOp::create(b, loc, numTiles, e) : e;
    }
    stride = count;
    init.push_back(id);
    init.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         id, numTiles));
  } else {
    // The first tile is the cluster's own.
    if (kernel.getNumCtasInCluster() > 1) {
      init.push_back(NVVM::ClusterIdXOp::create(b, loc, i32));
      init.push_back(NVVM::ClusterIdYOp::create(b, loc, i32));
      init.push_back(NVVM::ClusterIdZOp::create(b, loc, i32));
    } else {
      init.push_back(NVVM::BlockIdXOp::create(b, loc, i32));
      init.push_back(NVVM::BlockIdYOp::create(b, loc, i32));
      init.push_back(NVVM::BlockIdZOp::create(b, loc, i32));
    }
    init.push_back(arith::ConstantIntOp::create(b, loc, 1, 1));
  }
  unsigned numState = init.size();
  SmallVector<Cursor *> saved = host.carriedCursors();
  SmallVector<Cursor *> tileCarried = host.cursorsAdvancedIn(loop);
  llvm::append_range(init, flatten(tileCarried));
  SmallVector<Type> types(ValueRange(init).getTypes());
  SmallVector<Location> locs(types.size(), loc);

  auto whileOp = scf::WhileOp::create(b, loc, types, init);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
    scf::ConditionOp::create(b, loc, before->getArgument(numState - 1),
                             before->getArguments());
    Block *after = b.createBlock(&whileOp.getAfter(), {}, types, locs);
    ValueRange state = after->getArguments();
    SmallVector<Value> coords;
    if (!queue.isClc()) {
      linear = state[0];
      coords = decode(loc, linear);
    } else {
      coords.assign(state.begin(), state.begin() + 3);
    }
    unflatten(tileCarried, state.drop_front(numState));
    SmallVector<Value> indexCoords;
    for (Value c : coords)
      indexCoords.push_back(
          arith::IndexCastUIOp::create(b, loc, b.getIndexType(), c));
    for (auto [arg, c] : llvm::zip(loop.getTileCoordinates(), indexCoords))
      mapping.map(arg, c);
    skip = Value();
    if (loop.hasSkipIf()) {
      Block &pred = loop.getSkipIf().front();
      for (auto [arg, c] : llvm::zip(pred.getArguments(), indexCoords))
        mapping.map(arg, c);
      for (Operation &op : pred.without_terminator())
        b.clone(op, mapping);
      skip = mapping.lookup(cast<SkipTileOp>(pred.back()).getSkip());
    }
    next.clear();
    host.carriedCursors() = tileCarried;
    if (failed(host.lowerBlockOps(loop.getBody().front())))
      return failure();
    if (next.empty())
      return loop.emitOpError("has no tspipe.advance_work_tile");
    host.carriedCursors() = tileCarried;
    SmallVector<Value> yielded = next;
    llvm::append_range(yielded, flatten(tileCarried));
    scf::YieldOp::create(b, loc, yielded);
  }
  b.setInsertionPointAfter(whileOp);
  unflatten(tileCarried, whileOp.getResults().drop_front(numState));
  host.carriedCursors() = saved;
  return success();
}

LogicalResult WorkQueueLowering::lowerSkippable(SkippableOp op) {
  OpBuilder &b = host.builder();
  Location loc = op.getLoc();
  if (!skip)
    return op.emitOpError("is not in a work_tile_loop with skip_if");
  SmallVector<Cursor *> saved = host.carriedCursors();
  SmallVector<Cursor *> inner = host.cursorsAdvancedIn(op);
  SmallVector<Value> before = flatten(inner);
  Value run = arith::XOrIOp::create(
      b, loc, skip, arith::ConstantIntOp::create(b, loc, 1, 1));
  auto ifOp = scf::IfOp::create(b, loc, ValueRange(before).getTypes(), run,
                                /*withElseRegion=*/true);
  // Without carried cursors the builder already ended both blocks with an
  // empty scf.yield; the yields below replace it.
  for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
    if (!region->front().empty())
      region->front().back().erase();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    host.carriedCursors() = inner;
    if (failed(host.lowerBlockOps(op.getBody().front())))
      return failure();
    scf::YieldOp::create(b, loc, flatten(inner));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(b, loc, before);
  }
  unflatten(inner, ifOp.getResults());
  host.carriedCursors() = saved;
  return success();
}

LogicalResult WorkQueueLowering::lowerAdvance(AdvanceWorkTileOp op) {
  OpBuilder &b = host.builder();
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  if (!queue)
    return op.emitOpError("is not in a lowered work_tile_loop");
  next.clear();
  if (!queue.isClc()) {
    Value t = arith::AddIOp::create(b, loc, linear, stride);
    next.push_back(t);
    next.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t,
                                         numTiles));
    return success();
  }
  auto [pipe, index] = host.loweredStage(op.getResponse());
  if (!pipe)
    return op.emitOpError("response stage does not come from a bracket of "
                          "this task");
  Value record = pipe->stageBuffer(b, loc, index);
  Type i128 = b.getIntegerType(128);
  Value response = LLVM::LoadOp::create(b, loc, i128, record, /*alignment=*/16);
  auto query = [&](NVVM::ClusterLaunchControlQueryType what, Type type) {
    return NVVM::ClusterLaunchControlQueryCancelOp::create(
        b, loc, type,
        NVVM::ClusterLaunchControlQueryTypeAttr::get(b.getContext(), what),
        response);
  };
  KernelOp kernel = task->getParentOfType<KernelOp>();
  SmallVector<int64_t, 3> extents = kernel.getClusterExtents();
  using Q = NVVM::ClusterLaunchControlQueryType;
  Q axes[3] = {Q::GET_FIRST_CTA_ID_X, Q::GET_FIRST_CTA_ID_Y,
               Q::GET_FIRST_CTA_ID_Z};
  for (unsigned i = 0; i < 3; ++i) {
    Value ctaid = query(axes[i], i32);
    next.push_back(extents[i] == 1
                       ? ctaid
                       : arith::DivUIOp::create(
                             b, loc, ctaid, k.constI32(b, loc, extents[i])));
  }
  next.push_back(query(Q::IS_CANCELED, b.getI1Type()));
  return success();
}

LogicalResult WorkQueueLowering::lowerFetch(FetchWorkTileOp op) {
  OpBuilder &b = host.builder();
  Location loc = op.getLoc();
  auto [pipe, index] = host.loweredStage(op.getStage());
  if (!pipe)
    return op.emitOpError("stage does not come from a bracket of this task");
  KernelOp kernel = task->getParentOfType<KernelOp>();
  bool cluster = kernel.getNumCtasInCluster() > 1;
  Value elected = NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
  Value gate = elected;
  if (cluster) {
    Value rank0 =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              k.ctaRank(b, loc), k.constI32(b, loc, 0));
    gate = arith::AndIOp::create(b, loc, rank0, elected);
  }
  auto ifOp = scf::IfOp::create(b, loc, gate, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  NVVM::ClusterLaunchControlTryCancelOp::create(
      b, loc, cluster ? b.getUnitAttr() : UnitAttr(),
      pipe->stageBuffer(b, loc, index), pipe->fullBarrier(b, loc, index));
  return success();
}
