//===- Report.cpp - the progress checker's verdict as JSON and text -------===//
//
// Formats a ProgressResult (Progress.h) for the pass's files, the C API and
// Python: nothing here decides anything, every field comes from the
// findings.
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/Analysis/Progress.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress;

const char *progress::kindName(FailureKind k) {
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

std::string progress::kernelName(KernelOp kernel, unsigned ordinal) {
  for (Operation *op = kernel->getParentOp(); op; op = op->getParentOp())
    if (auto name =
            op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      return name.getValue().str();
  return "kernel" + std::to_string(ordinal);
}

bool progress::isFailure(KernelOp kernel, const ProgressResult &r) {
  return r.counterexample.has_value() ||
         (!r.unproven.empty() && !kernel->hasAttr(kAssumeProgressAttr));
}

static std::string locText(Location loc) {
  std::string out;
  llvm::raw_string_ostream os(out);
  loc.print(os);
  return out;
}

static const char *noteKindName(NoteKind k) {
  switch (k) {
  case NoteKind::Blocked:
    return "blocked";
  case NoteKind::CreditHolder:
    return "credit-holder";
  case NoteKind::Context:
    break;
  }
  return "context";
}

std::string progress::reportJson(KernelOp kernel, StringRef name,
                                 const ProgressResult &r, bool withDot) {
  bool assumed = kernel->hasAttr(kAssumeProgressAttr);
  llvm::json::Object obj;
  obj["kernel"] = name.str();
  obj["ok"] = !isFailure(kernel, r);
  obj["assume_progress"] = assumed;
  obj["assignments_checked"] = r.assignmentsChecked;
  obj["max_value_checked"] = r.maxValueChecked;
  llvm::json::Array warnings, unproven;
  for (const std::string &w : r.warnings)
    warnings.push_back(w);
  for (const std::string &u : r.unproven)
    unproven.push_back(u);
  obj["warnings"] = std::move(warnings);
  obj["unproven"] = std::move(unproven);
  obj["text"] = reportText(kernel, r);
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
    for (const Note &n : cex->notes) {
      llvm::json::Object note{{"op", n.op->getName().getStringRef().str()},
                              {"loc", locText(n.op->getLoc())},
                              {"text", n.text},
                              {"kind", noteKindName(n.kind)}};
      if (!n.agent.empty())
        note["task"] = n.agent;
      if (n.iteration != -3)
        note["iteration"] = n.iteration;
      if (!n.bracket.empty())
        note["bracket"] = n.bracket;
      if (!n.pipeline.empty()) {
        note["pipeline"] = n.pipeline;
        note["full"] = n.fullBarrier;
        note["stage"] = n.stage;
      }
      if (n.phase >= 0)
        note["phase"] = n.phase;
      notes.push_back(std::move(note));
    }
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
  if (withDot) {
    obj["graph_dot"] = graphDot(kernel, r);
    std::string timeline = timelineDot(kernel, r);
    obj["timeline_dot"] =
        timeline.empty() ? llvm::json::Value(nullptr) : timeline;
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(obj))) << "\n";
  return out;
}

std::string progress::reportText(KernelOp kernel, const ProgressResult &r) {
  std::string out;
  llvm::raw_string_ostream os(out);
  std::string at = locText(kernel.getLoc());
  if (const auto &cex = r.counterexample) {
    os << locText(cex->anchor->getLoc()) << ": error: [" << cex->rule << "] "
       << cex->message << "\n";
    for (const Note &n : cex->notes)
      os << locText(n.op->getLoc()) << ": note: " << n.text << "\n";
    return out;
  }
  bool assumed = kernel->hasAttr(kAssumeProgressAttr);
  for (const std::string &w : r.warnings)
    os << at << ": warning: [R70] progress checked for some lengths only: " << w
       << "\n";
  for (const std::string &u : r.unproven)
    os << at << (assumed ? ": warning: " : ": error: ")
       << "[R70] progress not proven for every domain length"
       << (assumed ? " (accepted by tspipe.assume_progress)" : "") << ": " << u
       << "\n";
  return out;
}
