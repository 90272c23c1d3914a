//===- TSPipeTypes.td - tspipe types -----------------------*- tablegen -*-===//

#ifndef TSPIPE_TYPES_TD
#define TSPIPE_TYPES_TD

include "tspipe/Dialect/TSPipe/IR/TSPipeDialect.td"
include "mlir/IR/AttrTypeBase.td"

class TSPipe_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TSPipe_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TSPipe_StageType : TSPipe_Type<"Stage", "stage"> {
  let summary = "handle of the pipeline stage a bracket operates on";
  let description = [{
    A `!tspipe.stage` is TS's `StageInfo`: the stage a producer acquired or a
    consumer waited for. `tspipe.stage_index`, `tspipe.full_barrier`,
    `tspipe.empty_barrier` and `tspipe.stage_buffer` read it, so that work ops
    (e.g. a bulk copy completing on the stage's full barrier) can address the
    stage. It has no run-time representation of its own: lowering replaces
    every use by the cursor values of the task.
  }];
}

#endif // TSPIPE_TYPES_TD
