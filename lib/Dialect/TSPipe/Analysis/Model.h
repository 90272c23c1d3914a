//===- Model.h - the progress checker's abstraction of a kernel -*- C++ -*-===//
//
// Internal to the progress checker (Progress.cpp, Simulate.cpp, Dot.cpp).
// A kernel becomes a set of agents (a task, or one warp of a task that owns
// a warp lane), each running a straight-line schedule: head steps, the body
// steps of its domain loop (guarded by first_iter / last_iter or not), tail
// steps, and the producer drains. A step touches one pipeline's barrier with
// one of the agent's cursors; cursors are kept as absolute positions
// (stage = position mod num_stages, visit = position div num_stages), so
// phases never alias inside the model (docs/ProgressChecker.md).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_LIB_DIALECT_TSPIPE_ANALYSIS_MODEL_H
#define TSPIPE_LIB_DIALECT_TSPIPE_ANALYSIS_MODEL_H

#include "TripCount.h"
#include "tspipe/Dialect/TSPipe/Analysis/Progress.h"

#include "llvm/ADT/StringMap.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace mlir::tspipe::progress::detail {

/// Roles of a barrier step. Acquire and Drain wait on the empty barrier,
/// Wait waits on the full barrier; Commit arrives on the full barrier,
/// Release on the empty barrier. NamedArrive and NamedSync are the steps of
/// a named barrier (NamedBarriers.cpp): an arrival, and an arrival followed
/// by a wait for the phase it arrived in; their events carry the roles
/// Commit (the arrival) and Wait.
enum StepRole : uint8_t {
  Acquire = 0,
  Commit = 1,
  Wait = 2,
  Release = 3,
  Drain = 4,
  NamedArrive = 5,
  NamedSync = 6
};
/// The four cursors of a pipeline in a task (docs/Protocols.md, Cursors).
enum CursorId : uint8_t { CurP = 0, CurPC = 1, CurC = 2, CurCR = 3 };
/// The loop guard of a body step (TSPipeGuards.h): Every runs on the
/// iterations k with k mod period == start, WhenTrue / WhenFalse on those
/// where condition `cond` of the model is true / false (Guards.cpp).
enum class Guard : uint8_t { Always, First, Last, Every, WhenTrue, WhenFalse };
enum class Section : uint8_t { Head, Loop, Tail, Drains, Done };

const char *roleName(StepRole r);
/// The roles (bit i = StepRole i) whose cursors and barriers a step of role
/// `r` uses: a named-barrier arrival is a Commit, a sync a Commit and a Wait.
uint8_t roleBits(StepRole r);

struct PipeInfo {
  PipelineOp op;
  /// A named barrier (tspipe.named_barrier) modeled as a ring of one stage
  /// whose full barrier counts the arrivals of every listed task's agents
  /// and whose only cursor, `p`, counts the agent's arrivals
  /// (NamedBarriers.cpp); `op` is null then.
  Operation *named = nullptr;
  std::string name;
  int64_t stages = 1;
  /// Strides of acquire, commit, wait, release.
  std::array<int64_t, 4> stride{1, 1, 1, 1};
  bool advanceOnAcquire = false;
  bool advanceOnWait = false;
  /// Index of this pipeline's first barrier in the flat barrier arrays:
  /// full barriers [base, base + S), empty barriers [base + S, base + 2S).
  unsigned barrierBase = 0;

  /// The op that declares it (tspipe.pipeline or tspipe.named_barrier).
  Operation *decl() const {
    return named ? named : PipelineOp(op).getOperation();
  }
  /// Cursor a role moves, and the stride it moves by.
  CursorId cursorOf(StepRole r) const;
  int64_t strideOf(StepRole r) const;
  /// The cursor and stride of the drain of a task whose roles on this
  /// pipeline are `roles` (bit i = StepRole i): the lowering's
  /// (Cursor.h, getDrainCursor), `p` in a task that acquires a split
  /// pipeline without committing it, otherwise the commit cursor.
  CursorId drainCursor(uint8_t roles) const;
  int64_t drainStride(uint8_t roles) const;
};

/// One step of a task's schedule that touches a barrier (try forms and
/// stage queries are kept for notes but produce no event).
struct Step {
  Operation *op;
  unsigned pipe;
  StepRole role;
  Guard guard;
  /// Inside a tspipe.skippable: dropped on a skipped tile (TileModel.cpp).
  bool skippable = false;
  /// Every: the period and start; WhenTrue / WhenFalse: the index of the
  /// condition in Model::conds.
  int64_t period = 1, start = 0;
  int cond = -1;
};

/// Floor division (rounds toward negative infinity); b > 0.
int64_t floorDiv(int64_t a, int64_t b);

/// An integer quasi-affine function of one domain symbol X:
/// max(0, mul * floor((a * X + b) / d) + add) with d > 0; sym < 0 means a
/// constant. It is the exact trip count for X >= `from` (TaskInfo).
struct TripExpr {
  int sym = -1;
  int64_t a = 0, b = 0, d = 1, mul = 1, add = 0;
  int64_t eval(int64_t x) const;
  bool growing() const { return sym >= 0 && a > 0 && mul > 0; }
  QuasiAffine form() const {
    QuasiAffine q;
    q.sym = sym;
    q.a = a;
    q.b = b;
    q.d = d;
    q.mul = mul;
    q.add = add;
    return q;
  }
};

struct TaskInfo {
  TaskOp op;
  std::string name;
  std::vector<Step> head, body, tail;
  /// Produced pipelines drained implicitly at task exit.
  std::vector<unsigned> implicitDrains;
  /// Try ops (producer_try_acquire / consumer_try_wait) without a blocking
  /// op consuming their token.
  std::vector<Operation *> unusedProbes;
  /// Domain bounds as nodes of Model::exprs (-1 without a domain loop).
  int lbNode = -1, ubNode = -1, stepNode = -1;
  /// Leaves (Model::symbols) the trip count depends on.
  std::vector<int> leaves;
  /// When `affine`, the trip count equals `trip` at every value X >= tripFrom
  /// of its only leaf (or is the constant `trip` without a leaf).
  TripExpr trip;
  bool affine = true;
  int64_t tripFrom = 0;
  bool hasGuardedArrive = false;
  /// The least common multiple of the periods of the task's tspipe.every
  /// guards (1 without one): the schedule of iteration k depends on k mod
  /// guardPeriod.
  int64_t guardPeriod = 1;
  std::vector<unsigned> agents;
  /// Persistent tasks (TileModel.cpp): head, domain loop and tail run once
  /// per modelled tile, the cursors carried from tile to tile, the drains
  /// after the last; on tile `skippedTile` (-1: none) the skippable steps
  /// and the domain loop do not run.
  int64_t tiles = 1;
  int64_t skippedTile = -1;
};

struct AgentInfo {
  unsigned task;
  int64_t warp = -1; ///< warp offset in the task for warp-lane agents
  std::string name;
  /// Start position of each cursor of each pipeline (lane seeds).
  std::vector<std::array<int64_t, 4>> seed;
  /// Cursors / roles the agent uses per pipeline (bit i = CursorId i / StepRole
  /// i).
  std::vector<uint8_t> usedCursors, usedRoles;
  unsigned component = 0;
};

struct SymbolInfo {
  Value value; ///< null for an opaque trip count
  std::string name;
};

struct Model {
  KernelOp kernel;
  /// Domain bounds, interned: equal expressions share one node.
  ExprTable exprs;
  std::vector<PipeInfo> pipes;
  std::vector<TaskInfo> tasks;
  std::vector<AgentInfo> agents;
  std::vector<SymbolInfo> symbols;
  /// Nominal arrivers per barrier: how many agents arrive on it per phase.
  std::vector<int64_t> count;
  /// Nominal participants per barrier and role: nominal[b][role] lists the
  /// agents whose cursor for that role visits barrier b's stage.
  std::vector<std::array<std::vector<unsigned>, 4>> nominal;
  unsigned numBarriers = 0;
  unsigned numComponents = 0;
  /// Bracket ops the model cannot place (nested in other ops than the
  /// task, its domain loop or a loop guard): reported as warnings.
  std::vector<Operation *> unmodeled;
  /// Conditions of tspipe.when_true / when_false guards over barrier steps,
  /// and the value each has in the run being checked (Guards.cpp).
  std::vector<Value> conds;
  std::vector<bool> condValue;
  /// Guard ops whose condition the checker cannot treat as one value for
  /// the whole kernel (it depends on the thread, the iteration or memory).
  std::vector<Operation *> unknownConds;

  /// Whether flat barrier `b` is a named barrier's.
  bool isNamed(unsigned b) const;
  unsigned barrier(unsigned pipe, bool full, int64_t stage) const {
    return pipes[pipe].barrierBase + (full ? 0 : pipes[pipe].stages) +
           static_cast<unsigned>(stage);
  }
  /// (pipe, full?, stage) of a flat barrier index.
  void decode(unsigned b, unsigned &pipe, bool &full, int64_t &stage) const;
};

Model buildModel(KernelOp kernel);

/// The ops of a task's schedule in order, with whether each sits in a
/// tspipe.skippable: the task body, or for a persistent task the body of
/// its work_tile_loop with each skippable's ops in place (TileModel.cpp).
std::vector<std::pair<Operation *, bool>> scheduleOps(TaskOp task);
/// Sets the tiles each persistent task runs in the model and the tile it
/// skips (TileModel.cpp): every task sees the same tiles; tasks whose
/// skip_if predicates are not the same skip differently.
void modelTileLoops(Model &m);
/// Sets the guard fields of `s`, a step under loop guard `guardOp` of task
/// `t` (Guards.cpp).
void setStepGuard(Model &m, TaskInfo &t, Operation *guardOp, Step &s);
/// Whether body step `s` runs on zero-based iteration `iter` of `trips`
/// (trips < 0: endless) with the model's condition values.
bool stepRuns(const Model &m, const Step &s, int64_t iter, int64_t trips);
/// The first zero-based iteration k >= `iter` on which body step `s` runs
/// (stepRuns), or INT64_MAX when it runs on none of them (a first_iter step
/// past iteration 0, a last_iter step of an endless loop, an every step
/// whose next iteration is beyond int64).
int64_t nextRunIter(const Model &m, const Step &s, int64_t iter, int64_t trips);

/// The exact trip count of task `t` with the model's symbols (leaves) set to
/// `leafValues`: max(0, ceil((end - start) / step)), each bound evaluated
/// with the semantics of its arith ops; nullopt where a bound is undefined
/// (a division by zero) or the step is 0.
std::optional<int64_t> tripAt(const Model &m, const TaskInfo &t,
                              llvm::ArrayRef<int64_t> leafValues);

/// One barrier event of an agent's expanded schedule.
struct Event {
  Operation *op;
  uint32_t barrier;
  StepRole role;
  bool wait;
  int64_t target; ///< waits: completions needed; arrivals: unused
  int64_t iter;   ///< -1 head, -2 tail or drain, else the iteration
};

/// Produces an agent's events one at a time for a given trip count
/// (trips < 0: the loop never ends).
class Generator {
public:
  Generator(const Model &m, unsigned agent, int64_t trips);
  /// Next event; false at the end (or when an endless loop produces no more
  /// events: `idle` is then set).
  bool next(Event &e);

  Section section = Section::Head;
  size_t stepIdx = 0;
  int64_t iter = 0;
  int64_t drainLeft = 0;
  size_t drainIdx = 0;
  int64_t tile = 0;
  bool idle = false;
  /// The wait of a named-barrier sync whose arrival was the last event.
  bool hasPending = false;
  Event pending{};
  std::vector<std::array<int64_t, 4>> pos;

private:
  bool emit(const Step &s, Event &e);
  bool emitDrain(Event &e);
  const Model &m;
  const AgentInfo &agent;
  const TaskInfo &task;
  int64_t trips;
  unsigned drainPipe = 0;
  Operation *drainOp = nullptr;
  bool bodyHasAlways = false;
  size_t eventsThisIter = 0;
};

/// Named barriers (NamedBarriers.cpp): appends one PipeInfo per
/// tspipe.named_barrier of `m.kernel`, indexed by symbol in `index`.
void addNamedBarriers(Model &m, llvm::StringMap<unsigned> &index);
/// The step of a named-barrier sync / arrive (unguarded), or nullopt for
/// another op.
std::optional<Step> namedBarrierStep(Operation *op,
                                     const llvm::StringMap<unsigned> &index);
/// The events of named-barrier step `s`: its arrival in `e` (counted in
/// `arrivals`, the agent's arrivals on it so far), and for a sync the wait
/// for that arrival's phase in `pending`.
void emitNamed(const Model &m, const Step &s, int64_t &arrivals,
               int64_t iterTag, Event &e, bool &hasPending, Event &pending);

/// DOT text of the task / pipeline dependency graph; tasks named in
/// `blocked` are drawn in red.
std::string graphDot(const Model &m, const std::vector<std::string> &blocked);
/// DOT text of a counterexample's per-stage timeline.
std::string timelineDot(const Model &m, const Counterexample &cex);

} // namespace mlir::tspipe::progress::detail

#endif // TSPIPE_LIB_DIALECT_TSPIPE_ANALYSIS_MODEL_H
