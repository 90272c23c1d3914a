//===- TSPipeWorkQueueOps.td - work queues, tile loops ------*- tablegen -*-===//
//
// Persistent kernels (TS WorkQueue, work_tile_loop, skippable): a kernel
// declares one work queue; every task walks its tiles with a
// `tspipe.work_tile_loop`, whose body holds the task's schedule for one
// tile (head, domain loop, tail) and ends the tile with
// `tspipe.advance_work_tile` (docs/Protocols.md, Work queues; ts-semantics
// 2.7, 2.8, 4.1; rules R19-R22, R35).
//
// Included from TSPipeOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_WORK_QUEUE_OPS_TD
#define TSPIPE_WORK_QUEUE_OPS_TD

def TSPipe_WorkQueueOp : TSPipe_Op<"work_queue", [
    Symbol, HasParent<"KernelOp">]> {
  let summary = "the kernel's tile scheduler (TS WorkQueue)";
  let description = [{
    TS's `WorkQueue`: the source of the work tiles every task of a
    persistent kernel walks (ts-semantics 2.7, 2.8).

    * `grid(%m, %n, %l)` (one to three `index` extents, in tiles): the
      static persistent scheduler (`StaticPersistent`). Each cluster (each
      CTA when the kernel has no cluster) takes the tiles `c, c + C,
      c + 2C, ...` of the linearized grid, where `c` is its linear cluster
      id and `C` the number of clusters launched; every CTA of a cluster
      works on the same tile. The tile's coordinates are decoded m-major:
      `m = t mod M`, `n = (t / M) mod N`, `l = t / (M * N)`. The queue has
      no pipeline: no task produces it (R35).
    * `clc(@p)`: the CLC-driven dynamic scheduler
      (`ClcDynamicPersistent`). `@p` is a `clc_fetch_async` pipeline whose
      stages hold the 16-byte responses of `clusterlaunchcontrol.try_cancel`.
      The grid is launched with one cluster per tile; a cluster's first
      tile is its own (`%clusterid`), the next ones are clusters it cancels
      before they launch. One scheduler task produces `@p` and issues the
      fetch (`tspipe.fetch_work_tile`); every task consumes `@p` (R35).

    Example:

    ```mlir
    tspipe.work_queue @tiles grid(%tm, %tn, %c1)
    tspipe.work_queue @dyn clc(@clc)
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       Variadic<Index>:$grid,
                       OptionalAttr<FlatSymbolRefAttr>:$clc_pipeline);
  let assemblyFormat = [{
    $sym_name (`grid` `(` $grid^ `)`)? (`clc` `(` $clc_pipeline^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True for the CLC-driven dynamic scheduler.
    bool isClc() { return getClcPipelineAttr() != nullptr; }
    /// The number of tile coordinates the queue hands out: the grid's rank
    /// (static), 3 (CLC: x, y, z of the cluster).
    unsigned getNumCoordinates();
    /// The clc_fetch_async pipeline of a CLC queue (null for a static
    /// queue, or when the name does not resolve).
    PipelineOp getClcPipelineOp();
  }];
}

def TSPipe_WorkTileLoopOp : TSPipe_Op<"work_tile_loop", [
    HasParent<"TaskOp">, NoTerminator,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the task's persistent loop over the work queue's tiles";
  let description = [{
    TS's `work_tile_loop(wq, skip_if=...)`: the body runs once per tile the
    queue `@wq` hands this CTA, with the tile coordinates as its block
    arguments (`index`; one per grid extent of a static queue, three for a
    CLC queue). The body is the task's schedule for one tile: head
    operations, the `tspipe.domain_loop` (whose upper bound may be computed
    from the coordinates: a per-tile dynamic domain, R20), tail operations,
    and last, in the tail, `tspipe.advance_work_tile`, which fetches the
    next tile (R35). At most one per task, at the top of the task, the only
    operation there (R22). Pipeline cursors (index, phase) carry from tile
    to tile; the producer drains run once, after the last tile.

    `skip_if` (R21) computes from the tile coordinates whether a tile is
    skipped: one block whose arguments are the coordinates, of
    side-effect-free operations, ended by `tspipe.skip_tile` of an `i1`. On
    a skipped tile the `tspipe.skippable` regions of the body (which must
    hold the domain loop, R22) do not run; everything else does.

    Example:

    ```mlir
    tspipe.work_tile_loop @tiles skip_if {
    ^bb0(%m: index, %n: index, %l: index):
      %odd = arith.remui %m, %c2 : index
      %skip = arith.cmpi eq, %odd, %c1 : index
      tspipe.skip_tile %skip
    } {
    ^bb0(%m: index, %n: index, %l: index):
      tspipe.skippable {
        tspipe.domain_loop %i = %c0 to %k step %c1 {
          ...
        }
      }
      tspipe.advance_work_tile @tiles
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$queue);
  let regions = (region MaxSizedRegion<1>:$skip_if, SizedRegion<1>:$body);
  let assemblyFormat = [{
    $queue (`skip_if` $skip_if^)? $body attr-dict-with-keyword
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The work queue this loop walks (null if the name does not resolve).
    WorkQueueOp getWorkQueueOp();
    /// The tile coordinates (the body's block arguments).
    ::mlir::Block::BlockArgListType getTileCoordinates() {
      return getBody().front().getArguments();
    }
    /// True when the loop has a skip_if predicate.
    bool hasSkipIf() { return !getSkipIf().empty(); }
    /// The loop's tspipe.advance_work_tile (null when missing).
    class AdvanceWorkTileOp getAdvanceOp();
  }];
}

def TSPipe_SkipTileOp : TSPipe_Op<"skip_tile", [
    Terminator, HasParent<"WorkTileLoopOp">]> {
  let summary = "the skip decision of a work_tile_loop's skip_if";
  let description = [{
    Ends the `skip_if` region of a `tspipe.work_tile_loop`: `%skip` true
    skips the tile's `tspipe.skippable` regions (R21).

    Example: `tspipe.skip_tile %skip`
  }];
  let arguments = (ins I1:$skip);
  let assemblyFormat = "$skip attr-dict";
}

def TSPipe_SkippableOp : TSPipe_Op<"skippable", [
    HasParent<"WorkTileLoopOp">, SingleBlock, NoTerminator]> {
  let summary = "steps of a tile that a skipped tile leaves out";
  let description = [{
    TS's `wtl.skippable()`: the body runs only on tiles the enclosing
    `tspipe.work_tile_loop`'s `skip_if` does not skip. Only in a tile loop
    with `skip_if`, directly in its body, and it must hold the task's
    domain loop (R22). The queue's own bookkeeping
    (`tspipe.advance_work_tile`, brackets on a CLC queue's pipeline) stays
    outside, so that every tile is fetched and released (R22, R35).

    Example:

    ```mlir
    tspipe.skippable {
      tspipe.domain_loop %i = %c0 to %k step %c1 { }
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
}

def TSPipe_AdvanceWorkTileOp : TSPipe_Op<"advance_work_tile", [
    HasParent<"WorkTileLoopOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "fetch the task's next tile (TS get_and_advance_work_tile)";
  let description = [{
    Ends the current tile: the next iteration of the enclosing
    `tspipe.work_tile_loop` runs on the tile this op fetches, and the loop
    ends when there is none.

    * Static queue: no operand. Adds the number of clusters launched to the
      linear tile index and decodes it (docs/Protocols.md, Work queues).
    * CLC queue: `response(%s)` is the stage of the `consumer_wait` on the
      queue's pipeline; the op reads the stage's 16-byte response
      (`clusterlaunchcontrol.query_cancel`): the tile is the cancelled
      cluster's, and there is none when nothing was cancelled. The
      `consumer_release` of that stage follows (R35).

    Exactly one per tile loop, directly in its body, after the domain loop
    (R35).

    Example:

    ```mlir
    %s = tspipe.consumer_wait @clc
    tspipe.advance_work_tile @dyn response(%s)
    tspipe.consumer_release @clc
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$queue,
                       Optional<TSPipe_StageType>:$response);
  let assemblyFormat = "$queue (`response` `(` $response^ `)`)? attr-dict";
  let hasVerifier = 1;
}

def TSPipe_FetchWorkTileOp : TSPipe_Op<"fetch_work_tile", [
    HasParent<"WorkTileLoopOp">, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "ask cluster launch control for the next tile (TS fetch_work_tile)";
  let description = [{
    The scheduler task's producer work on a CLC queue's pipeline: one
    elected thread of cluster rank 0 issues
    `clusterlaunchcontrol.try_cancel` into the stage's response record,
    completing the response bytes on the stage's full barrier (multicast to
    every CTA of the cluster when it has more than one). `%s` is the stage
    of the `producer_acquire` on the queue's pipeline; the
    `producer_commit` follows (R35). Needs an sm_100-family target (X7).

    Example:

    ```mlir
    %p = tspipe.producer_acquire @clc
    tspipe.fetch_work_tile @dyn stage(%p)
    tspipe.producer_commit @clc
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$queue, TSPipe_StageType:$stage);
  let assemblyFormat = "$queue `stage` `(` $stage `)` attr-dict";
  let hasVerifier = 1;
}

#endif // TSPIPE_WORK_QUEUE_OPS_TD
