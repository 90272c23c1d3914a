//===- TSPipeDialect.td - tspipe dialect definition --------*- tablegen -*-===//
//
// The tspipe dialect: warp-specialized tasks that hand data to each other
// through multi-stage mbarrier pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TD
#define TSPIPE_DIALECT_TD

include "mlir/IR/OpBase.td"

def TSPipe_Dialect : Dialect {
  let name = "tspipe";
  let cppNamespace = "::mlir::tspipe";
  let summary = "Multi-stage mbarrier pipelines between warp-specialized tasks";
  let description = [{
    The `tspipe` dialect models the pipelined resources of the CuTe DSL Task
    Scheduling (TS) framework as IR. A `tspipe.kernel` owns pipelines (rings of
    `num_stages` full/empty mbarrier pairs, optionally guarding a shared-memory
    data buffer) and tasks (contiguous warp ranges of every CTA). Producers
    bracket their work with `tspipe.producer_acquire` / `tspipe.producer_commit`,
    consumers with `tspipe.consumer_wait` / `tspipe.consumer_release`.

    Verifiers check each `#tspipe.config` against the TS validation rules (the
    rule id, e.g. `[R5]`, is part of every diagnostic). The `tspipe-to-nvvm`
    pass pipeline lowers kernels to NVVM mbarrier, TMA and cp.async operations
    with the per-type protocols of the TS pipeline classes.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
  }];
}

class TSPipe_Op<string mnemonic, list<Trait> traits = []>
    : Op<TSPipe_Dialect, mnemonic, traits>;

#endif // TSPIPE_DIALECT_TD
