//===- CheckProgress.cpp - the tspipe-check-progress pass -----------------===//
//
// Reports the progress checker's verdict (lib/Dialect/TSPipe/Analysis) as
// diagnostics: an error naming the rule (R70, R71, X8) on the kernel, with
// notes on the operations of the counterexample. Writes DOT and JSON files
// when `dot-dir` is set (Analysis/Report.cpp formats them); it starts no
// program (SVG is made by the caller, e.g. tspipe.progress).
//
// It is a pass, not part of the kernel's verifier: the check simulates
// every task over many domain lengths, which is neither cheap nor local,
// and MLIR's verifiers must be both (docs/ProgressChecker.md, "Where it
// runs").
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/Analysis/Progress.h"
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

namespace mlir::tspipe {
#define GEN_PASS_DEF_TSPIPECHECKPROGRESS
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h.inc"
} // namespace mlir::tspipe

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress;

namespace {

/// The file stem for a kernel's files in `dot-dir`: the kernel name when it
/// is short and made of identifier characters, otherwise its first 48 such
/// characters and a 64-bit hash of the whole name in hex. A kernel name is
/// unbounded, a file name is not (255 bytes on common file systems).
std::string fileStem(StringRef name) {
  constexpr size_t kMaxStem = 64;
  auto plain = [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; };
  if (!name.empty() && name.size() <= kMaxStem && llvm::all_of(name, plain))
    return name.str();
  std::string stem;
  for (char c : name.take_front(48))
    stem.push_back(plain(c) ? c : '_');
  return stem + "_" + llvm::utohexstr(llvm::xxh3_64bits(name), true, 16);
}

struct TSPipeCheckProgress
    : public tspipe::impl::TSPipeCheckProgressBase<TSPipeCheckProgress> {
  using Base::Base;

  void runOnOperation() override {
    unsigned ordinal = 0;
    llvm::StringSet<> usedNames;
    getOperation()->walk([&](KernelOp kernel) {
      if (printModel)
        for (auto &[op, text] : describeModel(kernel))
          mlir::emitRemark(op->getLoc()) << text;
      ProgressResult r = checkKernel(kernel);
      bool assumed = kernel->hasAttr(kAssumeProgressAttr);
      if (!r.counterexample) {
        for (const std::string &w : r.warnings)
          mlir::emitWarning(kernel.getLoc())
              << "[R70] progress checked for some lengths only: " << w;
        // What the checker could not prove is an error, unless the author
        // accepted the risk on the kernel.
        for (const std::string &u : r.unproven) {
          if (assumed) {
            mlir::emitWarning(kernel.getLoc())
                << "[R70] progress not proven for every domain length "
                   "(accepted by "
                << kAssumeProgressAttr << "): " << u;
            continue;
          }
          mlir::emitError(kernel.getLoc())
              << "[R70] progress not proven for every domain length: " << u
              << "; no counterexample was found among the lengths checked; "
                 "make the lengths decidable, or mark the kernel `attributes "
                 "{"
              << kAssumeProgressAttr << "}` to accept the risk";
          signalPassFailure();
        }
      }
      std::string name = kernelName(kernel, ordinal);
      std::string stem = fileStem(name);
      if (!usedNames.insert(stem).second)
        stem += "_" + std::to_string(ordinal);
      if (!dotDir.empty() && failed(writeFiles(kernel, name, stem, r)))
        signalPassFailure();
      ++ordinal;
      if (!r.counterexample)
        return;
      const Counterexample &cex = *r.counterexample;
      // At the anchor's location, not the op: an op diagnostic would print
      // the whole kernel in generic form as a note.
      InFlightDiagnostic diag = mlir::emitError(cex.anchor->getLoc())
                                << "[" << cex.rule << "] " << cex.message;
      for (const Note &n : cex.notes)
        diag.attachNote(n.op->getLoc()) << n.text;
      signalPassFailure();
    });
  }

  /// Writes the files of kernel `name` as `<stem>.*` in `dot-dir`; the
  /// JSON verdict names the kernel in full.
  LogicalResult writeFiles(KernelOp kernel, const std::string &name,
                           const std::string &stem, const ProgressResult &r) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dotDir))
      return kernel.emitError()
             << "cannot create dot-dir '" << dotDir << "': " << ec.message();
    auto write = [&](StringRef suffix, StringRef text) -> LogicalResult {
      SmallString<256> path(dotDir);
      llvm::sys::path::append(path, stem + suffix);
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      if (ec)
        return kernel.emitError()
               << "cannot write '" << path << "': " << ec.message();
      os << text;
      return success();
    };
    // The pictures are made here only because they are asked for; SVG is
    // left to the caller (Graphviz's `dot`), the pass starts no program.
    if (failed(write(".graph.dot", graphDot(kernel, r))))
      return failure();
    std::string timeline = timelineDot(kernel, r);
    if (!timeline.empty() && failed(write(".timeline.dot", timeline)))
      return failure();
    return write(".progress.json",
                 reportJson(kernel, name, r, /*withDot=*/false));
  }
};

} // namespace
