//===- TSPipePdlOps.td - PDL points and loop guards --------*- tablegen -*-===//
//
// Programmatic dependent launch (TS's PdlWaitBarrier / PdlLaunchBarrier)
// and the loop guards `every`, `when_true`, `when_false` of a task's domain
// loop. Included from TSPipeOps.td; rules in docs/Rules.md (R37, X20-X22).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_PDL_OPS_TD
#define TSPIPE_PDL_OPS_TD

//===----------------------------------------------------------------------===//
// Programmatic dependent launch
//===----------------------------------------------------------------------===//

class TSPipe_PdlOp<string mnemonic> : TSPipe_Op<mnemonic, []> {
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TSPipe_PdlWaitOp : TSPipe_PdlOp<"pdl_wait"> {
  let summary = "wait until the previous grid has completed (griddepcontrol.wait)";
  let description = [{
    TS's `PdlWaitBarrier.wait_griddep()`: the executing threads wait until
    every grid this launch depends on has completed and its memory
    operations are visible (PTX ISA, griddepcontrol). It lowers to
    `nvvm.griddepcontrol wait` and needs sm_90 or later (X21). Without a
    programmatic dependent launch it returns at once.

    Global inputs the previous grid writes are marked on the kernel function
    with the argument attribute `tspipe.pdl_input`; every access of such an
    input in a task must be dominated by a `tspipe.pdl_wait` of that task
    (X20), whatever the task's role. Pipelines the previous grid's data
    feeds (TS's dependency edges from a PdlWaitBarrier) are listed in the
    kernel attribute `tspipe.pdl_pipelines`; a task producing one of them
    must wait before its first bracket on it (R37).

    Example:

    ```mlir
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.pdl_wait
      tspipe.domain_loop %i = %c0 to %n step %c1 { ... }
    }
    ```
  }];
}

def TSPipe_PdlLaunchDependentsOp : TSPipe_PdlOp<"pdl_launch_dependents"> {
  let summary = "allow the next grid to launch (griddepcontrol.launch_dependents)";
  let description = [{
    TS's `PdlLaunchBarrier.launch_dependents()`: signals that the grid
    launched after this one with programmatic stream serialization may be
    scheduled once every CTA of this grid has issued it or exited (PTX ISA,
    griddepcontrol). It lowers to `nvvm.griddepcontrol launch_dependents`
    and needs sm_90 or later (X21).

    It may come before this kernel's last write of data the next grid
    reads: the next grid's `griddepcontrol.wait` still waits for this whole
    grid to complete and flush its memory, so the early signal only lets
    the next grid's prologue overlap this grid's tail (docs/Protocols.md,
    Programmatic dependent launch).

    Example: `tspipe.pdl_launch_dependents`
  }];
}

//===----------------------------------------------------------------------===//
// Loop guards
//===----------------------------------------------------------------------===//

def TSPipe_EveryOp : TSPipe_Op<"every", [HasParent<"DomainLoopOp">,
                                        SingleBlock, NoTerminator]> {
  let summary = "run the body on every period-th iteration of the domain loop";
  let description = [{
    TS's `every(period, start)`: the body runs on the iterations of the
    enclosing `tspipe.domain_loop` whose zero-based count `k` (not the
    induction value) satisfies `k mod period == start`. Over `n` iterations
    it runs `max(0, ceil((n - start) / period))` times. `period` must be
    positive and `0 <= start < period` (X22).

    Example:

    ```mlir
    tspipe.every period(2) start(0) {
      tspipe.consumer_release @ring
    }
    ```
  }];
  let arguments = (ins I64Attr:$period, I64Attr:$start);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `period` `(` $period `)` `start` `(` $start `)` attr-dict-with-keyword
    $body
  }];
  let hasVerifier = 1;
}

class TSPipe_CondGuardOp<string mnemonic, string when>
    : TSPipe_Op<mnemonic, [HasParent<"DomainLoopOp">, SingleBlock,
                           NoTerminator]> {
  let summary = "run the body on the iterations where `cond` is " # when;
  let description = [{
    TS's `}] # mnemonic # [{(token)`: the body runs on the iterations of the
    enclosing `tspipe.domain_loop` where the `i1` value `cond` is }] # when #
    [{. The verifier and the progress checker know nothing of its value: the
    progress checker proves a kernel only when the brackets of both sides of
    a pipeline are guarded by the same `cond`, defined outside the tasks from
    kernel arguments and constants (it then checks both values); otherwise
    it reports progress not proven (R70).

    Example:

    ```mlir
    tspipe.}] # mnemonic # [{ %flag {
      tspipe.producer_commit @ring
    }
    ```
  }];
  let arguments = (ins I1:$cond);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$cond attr-dict-with-keyword $body";
}

def TSPipe_WhenTrueOp : TSPipe_CondGuardOp<"when_true", "true">;
def TSPipe_WhenFalseOp : TSPipe_CondGuardOp<"when_false", "false">;

#endif // TSPIPE_PDL_OPS_TD
