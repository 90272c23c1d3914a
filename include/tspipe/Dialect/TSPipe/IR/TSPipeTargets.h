//===- TSPipeTargets.h - the chips tspipe knows (rule X7) -------*- C++ -*-===//
//
// One list of chips: which ones the CUDA 13 toolkit and LLVM 22's NVPTX
// backend accept, which ones tspipe kernels lower for, which of those run
// tcgen05 and cluster launch control, the least PTX ISA version of each and
// the shared memory a CTA may use. The kernel verifier (X7), the target
// verification of every gpu.module, tspipe-allocate-smem (R43) and, through
// the C API (tspipe-c/Targets.h), the Python front end all read it.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_DIALECT_TSPIPE_IR_TSPIPETARGETS_H
#define TSPIPE_DIALECT_TSPIPE_IR_TSPIPETARGETS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::tspipe {

/// One chip of the CUDA 13 toolkit (ptxas 13.0) that LLVM 22's NVPTX backend
/// also knows.
struct ChipInfo {
  /// The `chip` of an `#nvvm.target`: "sm_90a".
  StringLiteral name;
  /// The SM number: 90 for sm_90a.
  unsigned sm;
  /// The least PTX ISA version (x10) the chip accepts (PTX ISA release
  /// notes; the minimum LLVM 22's NVPTX backend enforces).
  int minPtx;
  /// tspipe kernels lower for the chip: sm_90 or newer (mbarrier transaction
  /// counts, elect.sync, TMA).
  bool lowers;
  /// Architecture-specific (`a` suffix): `setmaxnreg` exists (registers(n)).
  bool archSpecific;
  /// tspipe lowers tcgen05 pipelines for the chip. sm_103a, sm_110a and the
  /// `f` forms have tcgen05 too, but LLVM 22.1.8's NVVM dialect accepts
  /// `tcgen05.commit` for sm_100a and sm_101a only (and CUDA 13 renamed
  /// sm_101a to sm_110a).
  bool hasTcgen05;
  /// Cluster launch control (`clusterlaunchcontrol.try_cancel`, sm_100 on).
  bool hasClc;
  /// Shared memory one CTA may use, in bytes (the opt-in maximum of dynamic
  /// shared memory per thread block); 0 for a chip tspipe does not lower
  /// for. CUDA C++ Programming Guide, "Technical Specifications per Compute
  /// Capability" (maximum amount of shared memory per thread block): 227 KiB
  /// for compute capability 9.0, 10.x and 11.0, 99 KiB for 12.x; the Hopper
  /// and Blackwell tuning guides give the same 227 KiB.
  int64_t smemBytesPerBlock;
};

/// Every chip, in SM order.
ArrayRef<ChipInfo> getChips();
/// The chip named `name`, or null.
const ChipInfo *lookupChip(StringRef name);

/// The newest PTX ISA version (x10) LLVM 22 and ptxas 13.0 know (9.0).
constexpr int kMaxPtxVersion = 90;
/// The least PTX ISA version (x10) tspipe's lowering needs whatever the
/// chip (elect.sync, mbarrier.try_wait with a suspend hint: PTX ISA 8.0).
constexpr int kLoweringMinPtx = 80;
/// The shared memory tspipe-allocate-smem assumes for a kernel whose
/// gpu.module names no chip (bytes; sm_90 and sm_100 allow 227 KiB).
constexpr int64_t kDefaultSmemBytesPerBlock = 232448;

/// The `features` the compile API gives the chip's `#nvvm.target`:
/// "+ptxNN" with NN the larger of the chip's and the lowering's least PTX
/// ISA version; empty for an unknown chip.
std::string getPtxFeatures(StringRef chip);

/// Whether PTX ISA version `v` (x10) is one LLVM 22's NVPTX backend knows
/// as a `ptxNN` subtarget feature.
bool isKnownPtxVersion(int v);

/// Checks `chip` and `features` as an `#nvvm.target` of gpu.module
/// `moduleName` would carry them (rule X7: a chip the CUDA 13 toolkit knows,
/// `features` empty or one `+ptxNN` with a PTX ISA version LLVM knows, in
/// range for the chip). Returns the problem as one sentence with the fix,
/// starting with "[X7]", or nothing when the target is fine.
std::optional<std::string> checkTarget(StringRef moduleName, StringRef chip,
                                       StringRef features);

/// Rule X7 for one `#nvvm.target` of gpu.module `moduleName` (checkTarget).
/// The error is emitted at `diagAt`. Checked for every gpu.module, with or
/// without a tspipe kernel, before LLVM's NVPTX backend sees the target (it
/// aborts on a malformed feature string). Returns the least PTX ISA version
/// (x10) the chip needs, or failure; an attribute other than an
/// `#nvvm.target` gives 0.
FailureOr<int> verifyNVVMTarget(Operation *diagAt, StringRef moduleName,
                                Attribute target);

/// X7 for every gpu.module nested in `root` (root included) that lists
/// targets: verifyNVVMTarget on each of them. Reports every bad target.
LogicalResult verifyGPUModuleTargets(Operation *root);

/// The shared memory (bytes) a CTA of the kernel in gpu.module `module` may
/// use: the least `smemBytesPerBlock` over the chips of its NVVM targets, or
/// kDefaultSmemBytesPerBlock when it names none (or `module` is null).
int64_t getSmemCapacity(Operation *module);

} // namespace mlir::tspipe

#endif // TSPIPE_DIALECT_TSPIPE_IR_TSPIPETARGETS_H
