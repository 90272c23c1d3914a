//===- Dot.cpp - pictures of the progress checker's findings --------------===//
//
// Two Graphviz DOT pictures: the dependency graph of a kernel (tasks as
// boxes, pipelines as ellipses, an edge per role a task plays), and the
// per-stage timeline of a counterexample (one row per barrier stage, the
// events in the order the checker's run executed them, blocked events in
// red).
//
//===----------------------------------------------------------------------===//

#include "Model.h"

#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress;
using namespace mlir::tspipe::progress::detail;

/// A DOT string literal. Labels use DOT's own `\\n` line breaks, so only
/// quotes are escaped (names are identifiers).
static std::string quote(StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string
progress::detail::graphDot(const Model &m,
                           const std::vector<std::string> &blocked) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "digraph tspipe_dependencies {\n"
     << "  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=11];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (const PipeInfo &p : m.pipes)
    os << "  " << quote("pipe:" + p.name) << " [shape=ellipse, label="
       << quote("@" + p.name + "\\n" +
                (p.named ? std::string("named barrier")
                         : std::to_string(p.stages) + " stages"))
       << "];\n";
  for (const TaskInfo &t : m.tasks) {
    TaskOp op = t.op;
    bool isBlocked = llvm::any_of(blocked, [&](const std::string &b) {
      return b == "@" + t.name || StringRef(b).starts_with("@" + t.name + ".");
    });
    os << "  " << quote("task:" + t.name) << " [shape=box, style="
       << (isBlocked ? "\"filled,bold\", fillcolor=\"#f4cccc\", "
                       "color=\"#cc0000\""
                     : "filled, fillcolor=\"#dde8f5\"")
       << ", label="
       << quote("@" + t.name + "\\nwarps " + std::to_string(op.getWarpIdx()) +
                ".." + std::to_string(op.getWarpIdx() + op.getNumWarps() - 1) +
                (t.agents.size() > 1 ? "\\n(one lane per warp)" : ""))
       << "];\n";
  }
  for (const TaskInfo &t : m.tasks) {
    std::map<unsigned, unsigned> roles; // pipe -> role bits
    for (auto *list : {&t.head, &t.body, &t.tail})
      for (const Step &s : *list)
        roles[s.pipe] |= 1u << s.role;
    for (auto [p, bits] : roles) {
      std::string prod, cons;
      auto add = [&](std::string &into, StepRole r, const char *label) {
        if ((bits >> r) & 1)
          into += (into.empty() ? "" : ", ") + std::string(label);
      };
      add(prod, Acquire, "acquire");
      add(prod, Commit, "commit");
      add(prod, Drain, "tail");
      add(prod, NamedArrive, "arrive");
      add(prod, NamedSync, "sync");
      add(cons, Wait, "wait");
      add(cons, Release, "release");
      if (!prod.empty())
        os << "  " << quote("task:" + t.name) << " -> "
           << quote("pipe:" + m.pipes[p].name) << " [label=" << quote(prod)
           << "];\n";
      if (!cons.empty())
        os << "  " << quote("pipe:" + m.pipes[p].name) << " -> "
           << quote("task:" + t.name) << " [label=" << quote(cons)
           << ", style=dashed];\n";
    }
  }
  os << "}\n";
  return out;
}

std::string progress::detail::timelineDot(const Model &m,
                                          const Counterexample &cex) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "digraph tspipe_timeline {\n"
     << "  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\", "
        "fontsize=10, style=filled, fillcolor=\"#eeeeee\"];\n"
     << "  labelloc=t;\n  label=" << quote("[" + cex.rule + "] " + cex.message)
     << ";\n";
  // One row (cluster) per barrier stage, events chained in run order.
  std::map<std::string, std::vector<size_t>> rows;
  for (size_t i = 0; i < cex.timeline.size(); ++i) {
    const TimelineEvent &e = cex.timeline[i];
    rows["@" + e.pipeline + (e.fullBarrier ? " full" : " empty") + " stage " +
         std::to_string(e.stage)]
        .push_back(i);
  }
  unsigned cluster = 0;
  for (auto &[row, events] : rows) {
    os << "  subgraph cluster_" << cluster++ << " {\n    label=" << quote(row)
       << ";\n    style=rounded;\n";
    std::string prev;
    for (size_t i : events) {
      const TimelineEvent &e = cex.timeline[i];
      std::string id = "e" + std::to_string(i);
      std::string iter = e.iteration == -1 ? "head"
                         : e.iteration == -2
                             ? "tail"
                             : "it " + std::to_string(e.iteration);
      os << "    " << id << " [label="
         << quote(std::to_string(i) + ": " + e.task + "\\n" + e.what + " (" +
                  iter + ", phase " + std::to_string(e.phase) + ")");
      if (e.blocked)
        os << ", fillcolor=\"#f4cccc\", color=\"#cc0000\", penwidth=2";
      os << "];\n";
      if (!prev.empty())
        os << "    " << prev << " -> " << id << ";\n";
      prev = id;
    }
    os << "  }\n";
  }
  os << "}\n";
  (void)m;
  return out;
}

std::string progress::graphDot(KernelOp kernel, const ProgressResult &r) {
  std::vector<std::string> blocked;
  if (r.counterexample)
    for (const Note &n : r.counterexample->notes)
      if (n.kind == NoteKind::Blocked)
        blocked.push_back(n.agent);
  return detail::graphDot(buildModel(kernel), blocked);
}

std::string progress::timelineDot(KernelOp kernel, const ProgressResult &r) {
  if (!r.counterexample)
    return "";
  return detail::timelineDot(buildModel(kernel), *r.counterexample);
}
