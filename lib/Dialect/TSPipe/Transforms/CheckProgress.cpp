//===- CheckProgress.cpp - the tspipe-check-progress pass -----------------===//
//
// Reports the progress checker's verdict (lib/Dialect/TSPipe/Analysis) as
// diagnostics: an error naming the rule (R70, R71, X8) on the kernel, with
// notes on the operations of the counterexample. Writes DOT, SVG and JSON
// files when `dot-dir` is set.
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
#include "llvm/Support/xxhash.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tspipe {
#define GEN_PASS_DEF_TSPIPECHECKPROGRESS
#include "tspipe/Dialect/TSPipe/Transforms/Passes.h.inc"
} // namespace mlir::tspipe

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress;

namespace {

const char *kindName(FailureKind k) {
  switch (k) {
  case FailureKind::Deadlock:
    return "deadlock";
  case FailureKind::Unbalanced:
    return "unbalanced";
  case FailureKind::PhaseOverrun:
    return "phase-overrun";
  case FailureKind::OverArrival:
    return "early-arrival";
  case FailureKind::LapEarly:
    return "lap-early";
  case FailureKind::NotModeled:
    return "not-modeled";
  }
  return "?";
}

/// A file-name stem for a kernel: the symbol of the nearest enclosing op
/// that has one (the gpu.func), made unique by a counter.
std::string kernelName(KernelOp kernel, unsigned ordinal) {
  for (Operation *op = kernel->getParentOp(); op; op = op->getParentOp())
    if (auto name = op->getAttrOfType<StringAttr>(
            SymbolTable::getSymbolAttrName()))
      return name.getValue().str();
  return "kernel" + std::to_string(ordinal);
}

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

std::string locText(Location loc) {
  std::string out;
  llvm::raw_string_ostream os(out);
  loc.print(os);
  return out;
}

llvm::json::Value toJson(StringRef name, const ProgressResult &r,
                         bool assumed) {
  llvm::json::Object obj;
  obj["kernel"] = name.str();
  obj["ok"] = !r.counterexample.has_value() && (r.unproven.empty() || assumed);
  obj["assume_progress"] = assumed;
  llvm::json::Array unproven;
  for (const std::string &u : r.unproven)
    unproven.push_back(u);
  obj["unproven"] = std::move(unproven);
  obj["assignments_checked"] = r.assignmentsChecked;
  obj["max_value_checked"] = r.maxValueChecked;
  llvm::json::Array warnings;
  for (const std::string &w : r.warnings)
    warnings.push_back(w);
  obj["warnings"] = std::move(warnings);
  if (const auto &cex = r.counterexample) {
    llvm::json::Object c;
    c["rule"] = cex->rule;
    c["kind"] = kindName(cex->kind);
    c["message"] = cex->message;
    llvm::json::Object lengths, symbols;
    for (auto &[task, n] : cex->lengths)
      lengths[task] = n;
    for (auto &[sym, v] : cex->symbols)
      symbols[sym] = v;
    c["lengths"] = std::move(lengths);
    c["symbols"] = std::move(symbols);
    llvm::json::Array notes;
    for (const Note &n : cex->notes)
      notes.push_back(llvm::json::Object{
          {"op", n.op->getName().getStringRef().str()},
          {"loc", locText(n.op->getLoc())},
          {"text", n.text}});
    c["notes"] = std::move(notes);
    llvm::json::Array timeline;
    for (const TimelineEvent &e : cex->timeline)
      timeline.push_back(llvm::json::Object{{"task", e.task},
                                            {"pipeline", e.pipeline},
                                            {"full", e.fullBarrier},
                                            {"stage", e.stage},
                                            {"phase", e.phase},
                                            {"what", e.what},
                                            {"iteration", e.iteration},
                                            {"blocked", e.blocked}});
    c["timeline"] = std::move(timeline);
    obj["counterexample"] = std::move(c);
  }
  return obj;
}

struct TSPipeCheckProgress
    : public tspipe::impl::TSPipeCheckProgressBase<TSPipeCheckProgress> {
  using Base::Base;

  void runOnOperation() override {
    unsigned ordinal = 0;
    llvm::StringSet<> usedNames;
    getOperation()->walk([&](KernelOp kernel) {
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
      if (!dotDir.empty() &&
          failed(writeFiles(kernel, name, stem, r, assumed)))
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
                           const std::string &stem, const ProgressResult &r,
                           bool assumed) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dotDir))
      return kernel.emitError() << "cannot create dot-dir '" << dotDir
                                << "': " << ec.message();
    auto write = [&](StringRef suffix, StringRef text) -> LogicalResult {
      SmallString<256> path(dotDir);
      llvm::sys::path::append(path, stem + suffix);
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      if (ec)
        return kernel.emitError()
               << "cannot write '" << path << "': " << ec.message();
      os << text;
      os.close();
      if (!suffix.ends_with(".dot"))
        return success();
      // SVG when Graphviz is installed (optional at run time).
      if (auto dot = llvm::sys::findProgramByName("dot")) {
        SmallString<256> svg(path);
        llvm::sys::path::replace_extension(svg, "svg");
        std::string in = path.str().str(), out = svg.str().str();
        StringRef args[] = {*dot, "-Tsvg", in, "-o", out};
        llvm::sys::ExecuteAndWait(*dot, args);
      }
      return success();
    };
    if (failed(write(".graph.dot", r.graphDot)))
      return failure();
    if (!r.timelineDot.empty() &&
        failed(write(".timeline.dot", r.timelineDot)))
      return failure();
    std::string json;
    llvm::raw_string_ostream os(json);
    os << llvm::formatv("{0:2}", toJson(name, r, assumed)) << "\n";
    return write(".progress.json", json);
  }
};

} // namespace
