//===- TSPipeOps.td - Python bindings input for the tspipe ops -*- tablegen -*-===//
//
// mlir-tblgen -gen-python-op-bindings / -gen-python-enum-bindings read this
// file; it only pulls in the dialect's own ODS. Its location decides where the
// generated `_tspipe_ops_gen.py` / `_tspipe_enum_gen.py` land
// (`tspipe/dialects/`).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_PYTHON_OPS_TD
#define TSPIPE_PYTHON_OPS_TD

include "tspipe/Dialect/TSPipe/IR/TSPipeOps.td"

#endif // TSPIPE_PYTHON_OPS_TD
