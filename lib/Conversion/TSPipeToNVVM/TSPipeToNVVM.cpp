// placeholder, replaced below
#include "tspipe/Conversion/Passes.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
namespace mlir::tspipe {
#define GEN_PASS_DEF_CONVERTTSPIPETONVVM
#include "tspipe/Conversion/Passes.h.inc"
}
using namespace mlir;
namespace {
struct ConvertTSPipeToNVVM : public tspipe::impl::ConvertTSPipeToNVVMBase<ConvertTSPipeToNVVM> {
  using Base::Base;
  void runOnOperation() override {}
};
}
