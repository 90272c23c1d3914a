//===- NamedBarriers.cpp - named barriers in the progress model -----------===//
//
// A tspipe.named_barrier (bar.sync / bar.arrive with the id and thread
// count tspipe gives it, rule X13) in the progress model. Its hardware
// state is a count of arrived threads: a phase completes when every thread
// of the listed tasks has arrived (the count, 32 x their warps), which
// releases the threads waiting in bar.sync and starts the next phase.
// `tspipe.named_barrier_arrive` adds the calling task's threads and goes
// on; `tspipe.named_barrier_sync` adds them and waits until that phase
// completes.
//
// The model counts arrivals per agent, as for an mbarrier: the barrier is a
// ring of one stage whose full barrier's nominal arrivers are the agents of
// the listed tasks (so a phase completes once each has arrived once), and
// each agent's cursor `p` counts its own arrivals. The k-th arrival of an
// agent (k from 0) belongs to phase k; a sync's wait then needs k + 1
// completions. This is exact as long as no agent arrives twice in one
// phase: an arrive-only side that runs a phase ahead (flashinfer PR 4732,
// vllm PR 26026) makes the hardware count its two arrivals toward one phase,
// which the checker's early-arrival check reports (rule X30). A bar.sync
// waits for the phase it arrived in, not for a parity, so neither the
// lap-early nor the phase-overrun hazards of mbarrier waits apply, and the
// credit balance does not apply either: arrivals that no sync meets at
// kernel exit block nobody (docs/ProgressChecker.md, Named barriers).
//
//===----------------------------------------------------------------------===//

#include "Checker.h"

using namespace mlir;
using namespace mlir::tspipe;
using namespace mlir::tspipe::progress::detail;

uint8_t progress::detail::roleBits(StepRole r) {
  switch (r) {
  case NamedArrive:
    return 1u << Commit;
  case NamedSync:
    return (1u << Commit) | (1u << Wait);
  default:
    return static_cast<uint8_t>(1u << r);
  }
}

bool Model::isNamed(unsigned b) const {
  unsigned p;
  bool full;
  int64_t stage;
  decode(b, p, full, stage);
  return p < pipes.size() && pipes[p].named;
}

void progress::detail::addNamedBarriers(Model &m,
                                        llvm::StringMap<unsigned> &index) {
  for (auto barrier : m.kernel.getBody().getOps<NamedBarrierOp>()) {
    PipeInfo p;
    p.named = barrier;
    p.name = barrier.getSymName().str();
    p.stages = 1;
    p.barrierBase = m.numBarriers;
    m.numBarriers += 2; // the layout of a ring; the empty barrier is unused
    index[p.name] = m.pipes.size();
    m.pipes.push_back(std::move(p));
  }
}

std::optional<Step>
progress::detail::namedBarrierStep(Operation *op,
                                   const llvm::StringMap<unsigned> &index) {
  if (!isa<NamedBarrierSyncOp, NamedBarrierArriveOp>(op))
    return std::nullopt;
  auto ref = op->getAttrOfType<FlatSymbolRefAttr>("barrier");
  auto it = ref ? index.find(ref.getValue()) : index.end();
  if (it == index.end())
    return std::nullopt;
  Step s{op, it->second, isa<NamedBarrierSyncOp>(op) ? NamedSync : NamedArrive,
         Guard::Always};
  return s;
}

void progress::detail::emitNamed(const Model &m, const Step &s,
                                 int64_t &arrivals, int64_t iterTag, Event &e,
                                 bool &hasPending, Event &pending) {
  unsigned b = m.barrier(s.pipe, /*full=*/true, 0);
  e = {s.op, b, Commit, false, 0, iterTag};
  ++arrivals;
  if (s.role != NamedSync)
    return;
  // The sync's wait: the phase of this arrival, i.e. `arrivals` completions.
  pending = {s.op, b, Wait, true, arrivals, iterTag};
  hasPending = true;
}

//===----------------------------------------------------------------------===//
// Counterexample notes
//===----------------------------------------------------------------------===//

namespace mlir::tspipe::progress::detail {

void Checker::namedDeadlockNotes(Counterexample &cex,
                                 const std::vector<unsigned> &agents,
                                 const std::vector<std::vector<Event>> &ev,
                                 const Sim &sim, unsigned a) {
  const Event &e = ev[a][sim.idx[a]];
  unsigned b = e.barrier;
  int64_t phase = e.target - 1;
  Note blocked{e.op, agentName(agents, a) + " blocks in " + iterText(e.iter) +
                         " in its named_barrier_sync on " + barrierText(b) +
                         ", phase " + std::to_string(phase) +
                         " (it needs completion " + std::to_string(e.target) +
                         ", the barrier has " +
                         std::to_string(sim.completions(b)) + ")"};
  blocked.kind = NoteKind::Blocked;
  blocked.agent = agentName(agents, a);
  blocked.iteration = e.iter;
  blocked.bracket = "named_barrier_sync";
  describeBarrier(blocked, b);
  blocked.phase = phase;
  cex.notes.push_back(std::move(blocked));
  // The listed tasks whose arrival for that phase is missing.
  for (unsigned owner : m.nominal[b][Commit]) {
    auto it = llvm::find(agents, owner);
    if (it == agents.end())
      continue;
    unsigned o = it - agents.begin();
    int64_t did = sim.arr[o][b];
    if (did > phase)
      continue;
    std::string holds = "the arrival for phase " + std::to_string(phase) +
                        " of " + barrierText(b) + " is missing from " +
                        agentName(agents, o) + ": it has arrived " +
                        std::to_string(did) + " time(s) and ";
    Note holder = creditHolderNote(agents, ev, sim, o, owner, holds);
    holder.bracket = "named_barrier_arrive";
    describeBarrier(holder, b);
    cex.notes.push_back(std::move(holder));
  }
}

void Checker::namedEarlyArrival(Counterexample &cex,
                                const std::vector<unsigned> &agents,
                                const std::vector<std::vector<Event>> &ev,
                                const Sim &fz, unsigned a, unsigned o,
                                const Event &e) {
  unsigned b = e.barrier;
  int64_t mine = fz.arr[a][b];
  cex.rule = "X30";
  cex.message =
      "named barrier phase overrun " + lengthsText(cex) + ": " +
      agentName(agents, o) + " can arrive at " + barrierText(b) +
      " for phase " + std::to_string(mine + 1) + " before " +
      agentName(agents, a) + " arrives for phase " + std::to_string(mine) +
      "; the barrier counts threads, so that arrival counts toward phase " +
      std::to_string(mine) + ", which completes without " +
      agentName(agents, a) +
      ", and a later sync waits for arrivals that "
      "were already spent (a hang: flashinfer PR 4732, vllm PR 26026); make "
      "the "
      "arriving side wait before it arrives again (a named_barrier_sync, a "
      "second barrier in the other direction, or a pipeline), or alternate "
      "two named barriers";
  cex.notes.push_back({e.op, agentName(agents, a) +
                                 " has not arrived yet, in " +
                                 iterText(e.iter) + " (" + roleText(e) + ")"});
  auto [lo, lk] = fz.last[b];
  if (lo >= 0)
    cex.notes.push_back(
        {ev[lo][lk].op, agentName(agents, lo) + " arrives again here, in " +
                            iterText(ev[lo][lk].iter) +
                            ", without waiting for " + agentName(agents, a)});
  addTimeline(cex, fz, ev, {pipeOf(b)});
}

} // namespace mlir::tspipe::progress::detail
