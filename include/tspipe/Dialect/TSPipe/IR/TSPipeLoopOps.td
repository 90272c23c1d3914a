//===- TSPipeLoopOps.td - loop-carried task state ------------*- tablegen -*-===//
//
// The terminator that hands a domain loop's carried values (accumulators,
// counters, tile coordinates) to its next iteration.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LOOP_OPS_TD
#define TSPIPE_LOOP_OPS_TD

def TSPipe_YieldOp : TSPipe_Op<"yield", [
    HasParent<"DomainLoopOp">, Pure, Terminator]> {
  let summary = "the values a domain loop carries into its next iteration";
  let description = [{
    Ends the body of a `tspipe.domain_loop` with `iter_args`: its operands
    become the loop's carried block arguments on the next iteration and the
    loop's results after the last one. One operand per carried value, of its
    type (rule X26). A loop that carries nothing needs no yield.

    Example:

    ```mlir
    tspipe.yield %next_acc, %next_count : f32, i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // TSPIPE_LOOP_OPS_TD
