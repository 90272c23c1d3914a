//===- TensorMapParams.cpp - tensor maps as __grid_constant__ parameters --===//
//
// A kernel parameter that holds a CUtensorMap (tspipe.ts.tensor_maps) is
// passed by value, 128 bytes aligned to 64, and read in place: in LLVM a
// `byval` pointer argument marked `nvvm.grid_constant`, which the NVPTX
// backend prints as `.param .align 64 .b8 name[128]` and addresses with
// `cvta.param` (what TMA requires: the map must stay in parameter space).
// The NVVM dialect admits `nvvm.grid_constant` on LLVM kernel functions
// only, and the gpu.func lowering keeps no byval attribute, so the kernel
// names those parameters in its `tspipe.grid_constants` attribute (argument
// positions) and this step, run after convert-gpu-to-nvvm, marks them.
//
//===----------------------------------------------------------------------===//

#include "TensorMapParams.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kGridConstants = "tspipe.grid_constants";
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlign = 64;

struct TensorMapParamsPass
    : public PassWrapper<TensorMapParamsPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TensorMapParamsPass)

  StringRef getArgument() const final { return "tspipe-tensor-map-params"; }
  StringRef getDescription() const final {
    return "mark the tensor-map parameters of lowered kernels byval, "
           "64-byte aligned and nvvm.grid_constant";
  }

  void runOnOperation() override {
    Builder b(&getContext());
    Type bytes = LLVM::LLVMArrayType::get(b.getI8Type(), kTensorMapBytes);
    bool ok = true;
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto positions = func->getAttrOfType<DenseI64ArrayAttr>(kGridConstants);
      if (!positions)
        return;
      func->removeAttr(kGridConstants);
      for (int64_t pos : positions.asArrayRef()) {
        auto ptr = pos >= 0 && pos < func.getNumArguments()
                       ? dyn_cast<LLVM::LLVMPointerType>(
                             func.getArgument(pos).getType())
                       : LLVM::LLVMPointerType();
        if (!ptr || ptr.getAddressSpace() != 0) {
          func.emitError() << "[X28] tensor-map parameter #" << pos
                           << " of @" << func.getSymName()
                           << " must be a generic !llvm.ptr argument (the "
                              "address of a 128-byte CUtensorMap passed by "
                              "value); declare it with TensorMapArg";
          ok = false;
          continue;
        }
        func.setArgAttr(pos, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(bytes));
        func.setArgAttr(pos, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(kTensorMapAlign));
        func.setArgAttr(pos, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> mlir::tspipe::createTensorMapParamsPass() {
  return std::make_unique<TensorMapParamsPass>();
}
