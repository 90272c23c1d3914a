//===- TSPipeAttrs.cpp - tspipe attributes and config-time rules ----------===//
//
// The `#tspipe.config` attribute: its textual form and the config-time rules
// R1-R10 and R15 of the TS validation catalogue (docs/Rules.md, A and B), plus
// X1 (cta_layout_vmnk is always 4 static extents).
//
//===----------------------------------------------------------------------===//

#include "tspipe/Dialect/TSPipe/IR/PipelineTypeFacts.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipe.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tspipe;

#define GET_ATTRDEF_CLASSES
#include "tspipe/Dialect/TSPipe/IR/TSPipeAttrs.cpp.inc"

void TSPipeDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tspipe/Dialect/TSPipe/IR/TSPipeAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// CooperativeGroupAttr
//===----------------------------------------------------------------------===//

LogicalResult
CooperativeGroupAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             Agent agent, int64_t size) {
  if (size <= 0)
    return emitError() << "[R8] cooperative group size must be greater than 0, "
                          "got "
                       << size << "; give the number of "
                       << stringifyAgent(agent) << "s that arrive";
  // An mbarrier's expected arrival count is at most 2^20 - 1 (PTX ISA,
  // mbarrier.init); a group larger than that cannot be a barrier's count,
  // and bounding it here also keeps 32 x size from overflowing.
  constexpr int64_t kMaxArrivals = (int64_t(1) << 20) - 1;
  int64_t perMember = agent == Agent::Warp ? 32 : 1;
  if (size > kMaxArrivals / perMember)
    return emitError() << "[R8] cooperative group of " << size << " "
                       << stringifyAgent(agent) << "s gives more than "
                       << kMaxArrivals
                       << " arrivals, the largest count an mbarrier takes; "
                          "give at most "
                       << kMaxArrivals / perMember << " "
                       << stringifyAgent(agent) << "s";
  return success();
}

static int64_t scaleByAgent(CooperativeGroupAttr group) {
  switch (group.getAgent()) {
  case Agent::Thread:
    return group.getSize();
  case Agent::Warp:
    return 32 * group.getSize();
  case Agent::ThreadBlock:
  case Agent::ThreadBlockCluster:
    // Arrive counts of block-wide agents depend on the launch shape; TS only
    // supports thread groups consistently (docs/Protocols.md, Cooperative
    // groups and arrive counts). Count the raw size, as TS's validators do.
    return group.getSize();
  }
  return group.getSize();
}

//===----------------------------------------------------------------------===//
// PipelineConfigAttr: helpers
//===----------------------------------------------------------------------===//

static const int64_t kDefaultVmnk[4] = {1, 1, 1, 1};
static const int64_t kDefaultStride[1] = {1};
static const int64_t kDefaultMcast[2] = {1, 1};

PipelineConfigAttr PipelineConfigAttr::getDefault(
    MLIRContext *ctx, PipelineType type, int64_t numStages, int64_t numBytes,
    CooperativeGroupAttr producer, CooperativeGroupAttr consumer) {
  SignalingThreads prodSig =
      getPipelineTypeFacts(type).defaultProducerSignaling;
  return PipelineConfigAttr::get(
      ctx, type, numStages, numBytes, producer, consumer, kDefaultVmnk, prodSig,
      SignalingThreads::All, std::nullopt, PipelineOpKind::AsyncThread,
      PipelineOpKind::AsyncThread, false, false, kDefaultStride, std::nullopt,
      kDefaultMcast);
}

static int64_t strideOf(ArrayRef<int64_t> strides, unsigned role) {
  if (strides.size() == 4)
    return strides[role];
  return strides.empty() ? 1 : strides.front();
}

int64_t PipelineConfigAttr::getAcquireStride() const {
  return strideOf(getInterleaveStride(), 0);
}
int64_t PipelineConfigAttr::getCommitStride() const {
  return strideOf(getInterleaveStride(), 1);
}
int64_t PipelineConfigAttr::getWaitStride() const {
  return strideOf(getInterleaveStride(), 2);
}
int64_t PipelineConfigAttr::getReleaseStride() const {
  return strideOf(getInterleaveStride(), 3);
}
bool PipelineConfigAttr::isInterleaved() const {
  return llvm::any_of(getInterleaveStride(), [](int64_t s) { return s > 1; });
}
int64_t PipelineConfigAttr::getClusterSize() const {
  int64_t t = 1;
  for (int64_t e : getCtaLayoutVmnk())
    t *= e;
  return t;
}
SignalingThreads PipelineConfigAttr::getEffectiveWaitSignaling() const {
  if (auto wait = getConsumerWaitSignaling())
    return *wait;
  return getConsumerSignaling();
}
int64_t PipelineConfigAttr::getFullArriveCount() const {
  return scaleByAgent(getProducerGroup());
}
int64_t PipelineConfigAttr::getEmptyArriveCount() const {
  return scaleByAgent(getConsumerGroup());
}

//===----------------------------------------------------------------------===//
// PipelineConfigAttr: config-time rules
//===----------------------------------------------------------------------===//

static bool isValidSignaling(SignalingThreads s) {
  using S = SignalingThreads;
  return s == S::All || s == S::CtaLeader || s == S::TaskWarpLeader ||
         s == (S::CtaLeader | S::TaskWarpLeader);
}

static LogicalResult
verifySignaling(function_ref<InFlightDiagnostic()> emitError, StringRef field,
                SignalingThreads s) {
  if (isValidSignaling(s))
    return success();
  return emitError() << "[R1] " << field << " = "
                     << stringifySignalingThreads(s)
                     << " is an unsupported combination; supported values are "
                        "all, cta_leader, task_warp_leader and "
                        "cta_leader|task_warp_leader ('all' combines with "
                        "nothing)";
}

static const char *kRoleNames[4] = {"producer_acquire", "producer_commit",
                                    "consumer_wait", "consumer_release"};

LogicalResult PipelineConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, PipelineType type,
    int64_t numStages, int64_t numBytes, CooperativeGroupAttr producerGroup,
    CooperativeGroupAttr consumerGroup, ArrayRef<int64_t> vmnk,
    SignalingThreads producerSignaling, SignalingThreads consumerSignaling,
    std::optional<SignalingThreads> consumerWaitSignaling,
    PipelineOpKind asyncProducerOp, PipelineOpKind ummaConsumerProducerOp,
    bool advanceOnWait, bool advanceOnAcquire, ArrayRef<int64_t> strides,
    std::optional<int64_t> numBytesPerWarpPerCta,
    ArrayRef<int64_t> mcastModeMn) {
  StringRef typeName = stringifyPipelineType(type);
  // R1: signaling thread values.
  if (failed(verifySignaling(emitError, "producer_signaling",
                             producerSignaling)) ||
      failed(
          verifySignaling(emitError, "consumer_signaling", consumerSignaling)))
    return failure();
  if (consumerWaitSignaling &&
      failed(verifySignaling(emitError, "consumer_wait_signaling",
                             *consumerWaitSignaling)))
    return failure();

  // R2 / R3: async producer ops.
  if (asyncProducerOp != PipelineOpKind::AsyncThread &&
      type != PipelineType::AsyncAsync)
    return emitError() << "[R2] async_producer_op = "
                       << stringifyPipelineOpKind(asyncProducerOp)
                       << " can only be changed for async_async pipelines, "
                          "this one is "
                       << typeName << "; remove async_producer_op";
  if (ummaConsumerProducerOp != PipelineOpKind::AsyncThread &&
      type != PipelineType::AsyncUmma)
    return emitError() << "[R3] umma_consumer_producer_op = "
                       << stringifyPipelineOpKind(ummaConsumerProducerOp)
                       << " can only be changed for async_umma pipelines, "
                          "this one is "
                       << typeName << "; remove umma_consumer_producer_op";

  // R9: stage count and transaction bytes.
  if (numStages <= 0)
    return emitError() << "[R9] num_stages must be greater than 0, got "
                       << numStages;
  if (numBytes < 0)
    return emitError() << "[R9] num_bytes must be >= 0, got " << numBytes
                       << " (transaction bytes one stage expects)";
  // An mbarrier's tx-count holds at most 2^20 - 1 (PTX ISA, mbarrier
  // tx-count range).
  constexpr int64_t kMaxTxCount = (int64_t(1) << 20) - 1;
  if (numBytes > kMaxTxCount)
    return emitError() << "[R9] num_bytes = " << numBytes
                       << " exceeds the mbarrier transaction count limit of "
                       << kMaxTxCount
                       << " bytes per phase; split the stage into smaller ones";
  // X6 (B19): TMA stages are filled by bulk copies, whose sizes are
  // multiples of 16 bytes (PTX ISA, cp.async.bulk), so no other byte count
  // can ever complete.
  if (getPipelineTypeFacts(type).bulkCopyBytes && numBytes % 16 != 0)
    return emitError() << "[X6] num_bytes = " << numBytes
                       << " is not a multiple of 16, but the bulk copies "
                          "that fill a "
                       << typeName
                       << " stage move multiples of 16 bytes; round "
                          "num_bytes (and the copies) to a multiple of 16";
  if (numBytesPerWarpPerCta && *numBytesPerWarpPerCta <= 0)
    return emitError() << "[R9] num_bytes_per_warp_per_cta must be greater "
                          "than 0, got "
                       << *numBytesPerWarpPerCta;
  // One warp's bytes land on the same full barrier as num_bytes: the same
  // mbarrier transaction count limit bounds them.
  if (numBytesPerWarpPerCta && *numBytesPerWarpPerCta > kMaxTxCount)
    return emitError() << "[R9] num_bytes_per_warp_per_cta = "
                       << *numBytesPerWarpPerCta
                       << " exceeds the mbarrier transaction count limit of "
                       << kMaxTxCount
                       << " bytes per phase; split the stage into smaller ones";

  // R8 for groups built in C++ without their own verifier run.
  for (auto [name, group] : {std::make_pair("producer_group", producerGroup),
                             std::make_pair("consumer_group", consumerGroup)}) {
    if (!group)
      return emitError() << "[R8] " << name << " is required";
    if (group.getSize() <= 0)
      return emitError() << "[R8] " << name
                         << " size must be greater than 0, got "
                         << group.getSize();
  }

  // R10 + X1: cta_layout_vmnk is four static extents.
  if (vmnk.size() != 4)
    return emitError() << "[R10] cta_layout_vmnk must be rank 4 (V, M, N, L), "
                          "got "
                       << vmnk.size() << " extents; write e.g. [1, 1, 1, 1]";
  for (auto [i, e] : llvm::enumerate(vmnk)) {
    if (e < 1)
      return emitError() << "[R10] cta_layout_vmnk extent " << "VMNL"[i]
                         << " must be >= 1, got " << e;
    // A cluster holds at most 16 CTAs; the bound also keeps V*M*N*L from
    // overflowing.
    if (e > 16)
      return emitError() << "[R10] cta_layout_vmnk extent " << "VMNL"[i]
                         << " = " << e
                         << " exceeds 16, the most CTAs a cluster may hold";
  }
  if (vmnk[0] != 1 && vmnk[0] != 2)
    return emitError() << "[R10] cta_layout_vmnk V = " << vmnk[0]
                       << " is not a tcgen05 CTA group size; V must be 1 or 2";

  // R4: interleave_stride shape and values.
  if (strides.size() != 1 && strides.size() != 4)
    return emitError() << "[R4] interleave_stride must be one int or 4 ints "
                          "(producer_acquire, producer_commit, consumer_wait, "
                          "consumer_release), got "
                       << strides.size() << " values";
  for (auto [i, s] : llvm::enumerate(strides))
    if (s < 1)
      return emitError() << "[R4] interleave_stride"
                         << (strides.size() == 4
                                 ? (Twine(" ") + kRoleNames[i]).str()
                                 : std::string())
                         << " must be >= 1, got " << s;

  // R5: each role stride divides num_stages.
  for (unsigned role = 0; role < 4; ++role) {
    int64_t k = strideOf(strides, role);
    if (numStages % k != 0)
      return emitError() << "[R5] " << kRoleNames[role]
                         << " interleave_stride=" << k
                         << " must evenly divide num_stages=" << numStages
                         << "; use a stride that divides num_stages or a "
                            "multiple of "
                         << k << " stages";
  }
  // R6 / R7: asymmetric strides need split cursors.
  int64_t pa = strideOf(strides, 0), pc = strideOf(strides, 1),
          cw = strideOf(strides, 2), cr = strideOf(strides, 3);
  if (pa != pc && !advanceOnAcquire)
    return emitError() << "[R6] producer_acquire stride " << pa
                       << " differs from producer_commit stride " << pc
                       << "; set advance_on_acquire = true so the acquire and "
                          "commit roles use separate producer cursors";
  if (cw != cr && !advanceOnWait)
    return emitError() << "[R7] consumer_wait stride " << cw
                       << " differs from consumer_release stride " << cr
                       << "; set advance_on_wait = true so the wait and "
                          "release roles use separate consumer cursors";

  // R15: multicast mode.
  if (mcastModeMn.size() != 2 ||
      !llvm::all_of(mcastModeMn, [](int64_t v) { return v == 0 || v == 1; }) ||
      (mcastModeMn[0] == 0 && mcastModeMn[1] == 0)) {
    InFlightDiagnostic diag = emitError() << "[R15] invalid mcast_mode_mn [";
    llvm::interleaveComma(mcastModeMn, diag);
    return diag << "]; expected one of [1, 0], [0, 1] or [1, 1]";
  }
  return success();
}

/// Parses one integer value of `field`. MLIR's integer parser reads the
/// keywords `true` and `false` as the 1-bit integers -1 and 0; a config field
/// never takes a boolean, so they are rejected here with a clear message
/// rather than turning into a confusing range error later.
static ParseResult parseIntField(AsmParser &parser, StringRef field,
                                 int64_t &out) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("true")) ||
      succeeded(parser.parseOptionalKeyword("false")))
    return parser.emitError(loc)
           << (field == "interleave_stride" ? "[R4] " : "") << field
           << " expects an integer, got a boolean";
  OptionalParseResult r = parser.parseOptionalInteger(out);
  if (!r.has_value())
    return parser.emitError(loc) << field << " expects an integer";
  return *r;
}

/// Parses `[i, j, ...]` for `field`.
static ParseResult parseIntList(AsmParser &parser, StringRef field,
                                SmallVectorImpl<int64_t> &values) {
  SMLoc loc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalLSquare()))
    return parser.emitError(loc)
           << field << " expects a list of integers such as [1, 1]";
  if (succeeded(parser.parseOptionalRSquare()))
    return success();
  do {
    int64_t v;
    if (parseIntField(parser, field, v))
      return failure();
    values.push_back(v);
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseRSquare();
}

/// The keywords of an enum, for "expected one of" lists.
template <typename EnumT>
static std::string enumKeywords(unsigned maxValue,
                                StringRef (*stringify)(EnumT)) {
  std::string list;
  for (unsigned v = 0; v <= maxValue; ++v) {
    if (v)
      list += v == maxValue ? " or " : ", ";
    list += stringify(static_cast<EnumT>(v)).str();
  }
  return list;
}

static const char *kSignalingValues =
    "all, cta_leader, task_warp_leader or cta_leader|task_warp_leader";

static ParseResult parseSignaling(AsmParser &parser, StringRef field,
                                  SignalingThreads &out) {
  uint32_t bits = 0;
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef kw;
    if (failed(parser.parseOptionalKeyword(&kw)))
      return parser.emitError(loc)
             << "[R1] " << field << " must be a signaling threads value ("
             << kSignalingValues << ")";
    std::optional<SignalingThreads> bit = symbolizeSignalingThreads(kw);
    if (!bit)
      return parser.emitError(loc)
             << "[R1] unknown signaling threads '" << kw << "' in " << field
             << "; expected " << kSignalingValues;
    bits |= static_cast<uint32_t>(*bit);
  } while (succeeded(parser.parseOptionalVerticalBar()));
  out = static_cast<SignalingThreads>(bits);
  return success();
}

template <typename EnumT>
static ParseResult parseEnumKeyword(
    AsmParser &parser, EnumT &out, std::optional<EnumT> (*symbolize)(StringRef),
    StringRef (*stringify)(EnumT), unsigned maxValue, StringRef what) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kw;
  bool isKeyword = succeeded(parser.parseOptionalKeyword(&kw));
  std::optional<EnumT> v;
  if (isKeyword)
    v = symbolize(kw);
  if (!v) {
    InFlightDiagnostic diag = parser.emitError(loc);
    if (isKeyword)
      diag << "unknown " << what << " '" << kw << "'; expected one of ";
    else
      diag << "expected a " << what << ", one of ";
    return diag << enumKeywords<EnumT>(maxValue, stringify);
  }
  out = *v;
  return success();
}

static ParseResult parseAgent(AsmParser &parser, Agent &out) {
  return parseEnumKeyword<Agent>(parser, out, symbolizeAgent, stringifyAgent,
                                 getMaxEnumValForAgent(), "agent");
}
static ParseResult parsePipelineType(AsmParser &parser, PipelineType &out) {
  return parseEnumKeyword<PipelineType>(
      parser, out, symbolizePipelineType, stringifyPipelineType,
      getMaxEnumValForPipelineType(), "pipeline type");
}
/// `what` names the field in the diagnostic (R14 for the AsyncUmma producer
/// op: TS's AsyncUmma pipeline takes only these two ops).
static ParseResult parsePipelineOpKind(AsmParser &parser, PipelineOpKind &out,
                                       StringRef what = "pipeline op") {
  return parseEnumKeyword<PipelineOpKind>(
      parser, out, symbolizePipelineOpKind, stringifyPipelineOpKind,
      getMaxEnumValForPipelineOpKind(), what);
}

static ParseResult parseBool(AsmParser &parser, StringRef field, bool &out) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("true")))
    out = true;
  else if (succeeded(parser.parseOptionalKeyword("false")))
    out = false;
  else
    return parser.emitError(loc) << field << " expects true or false";
  return success();
}

//===----------------------------------------------------------------------===//
// CooperativeGroupAttr: textual form
//===----------------------------------------------------------------------===//

Attribute CooperativeGroupAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  Agent agent;
  int64_t size;
  if (parser.parseLess() || parseAgent(parser, agent) || parser.parseComma() ||
      parseIntField(parser, "group size", size) || parser.parseGreater())
    return {};
  return parser.getChecked<CooperativeGroupAttr>(loc, parser.getContext(),
                                                 agent, size);
}

void CooperativeGroupAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyAgent(getAgent()) << ", " << getSize() << ">";
}

//===----------------------------------------------------------------------===//
// PipelineConfigAttr: textual form
//===----------------------------------------------------------------------===//

Attribute PipelineConfigAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc startLoc = parser.getCurrentLocation();
  PipelineType type;
  if (parser.parseLess() || parsePipelineType(parser, type))
    return {};

  std::optional<int64_t> numStages;
  int64_t numBytes = 0;
  CooperativeGroupAttr producer, consumer;
  SmallVector<int64_t> vmnk(std::begin(kDefaultVmnk), std::end(kDefaultVmnk));
  SignalingThreads prodSig =
      getPipelineTypeFacts(type).defaultProducerSignaling;
  SignalingThreads consSig = SignalingThreads::All;
  std::optional<SignalingThreads> waitSig;
  PipelineOpKind asyncOp = PipelineOpKind::AsyncThread;
  PipelineOpKind ummaOp = PipelineOpKind::AsyncThread;
  bool advanceOnWait = false, advanceOnAcquire = false;
  SmallVector<int64_t> strides{1};
  std::optional<int64_t> bpwpc;
  SmallVector<int64_t> mcast{1, 1};
  llvm::StringSet<> seen;

  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (failed(parser.parseOptionalKeyword(&key))) {
      parser.emitError(keyLoc) << "expected a #tspipe.config field name";
      return {};
    }
    if (parser.parseEqual())
      return {};
    if (!seen.insert(key).second) {
      parser.emitError(keyLoc) << "duplicate field '" << key
                               << "' in #tspipe.config; give each field once";
      return {};
    }
    ParseResult r = success();
    if (key == "num_stages") {
      int64_t v;
      r = parseIntField(parser, key, v);
      numStages = v;
    } else if (key == "num_bytes") {
      r = parseIntField(parser, key, numBytes);
    } else if (key == "producer_group" || key == "consumer_group") {
      // The short form `<thread, 1>` (what the printer writes) or a full
      // `#tspipe.group<thread, 1>` attribute.
      Attribute a;
      SMLoc valueLoc = parser.getCurrentLocation();
      OptionalParseResult full = parser.parseOptionalAttribute(a);
      if (full.has_value()) {
        if (failed(*full))
          return {};
        if (!isa<CooperativeGroupAttr>(a)) {
          parser.emitError(valueLoc)
              << key << " expects a cooperative group such as <thread, 1>, "
              << "got " << a;
          return {};
        }
      } else {
        a = CooperativeGroupAttr::parse(parser, Type());
      }
      if (!a)
        return {};
      (key == "producer_group" ? producer : consumer) =
          cast<CooperativeGroupAttr>(a);
    } else if (key == "cta_layout_vmnk") {
      vmnk.clear();
      r = parseIntList(parser, key, vmnk);
    } else if (key == "producer_signaling") {
      r = parseSignaling(parser, key, prodSig);
    } else if (key == "consumer_signaling") {
      r = parseSignaling(parser, key, consSig);
    } else if (key == "consumer_wait_signaling") {
      SignalingThreads s;
      r = parseSignaling(parser, key, s);
      waitSig = s;
    } else if (key == "async_producer_op") {
      r = parsePipelineOpKind(parser, asyncOp);
    } else if (key == "umma_consumer_producer_op") {
      r = parsePipelineOpKind(parser, ummaOp, "[R14] async_umma producer op");
    } else if (key == "advance_on_wait") {
      r = parseBool(parser, key, advanceOnWait);
    } else if (key == "advance_on_acquire") {
      r = parseBool(parser, key, advanceOnAcquire);
    } else if (key == "interleave_stride") {
      // One integer for every role, or the 4-tuple. Booleans are rejected
      // (R4), unlike TS's Python, where True passes as the int 1.
      strides.clear();
      SMLoc valueLoc = parser.getCurrentLocation();
      int64_t single;
      if (succeeded(parser.parseOptionalKeyword("true")) ||
          succeeded(parser.parseOptionalKeyword("false"))) {
        parser.emitError(valueLoc) << "[R4] interleave_stride expects an "
                                      "integer or a list of 4 integers, got a "
                                      "boolean";
        return {};
      }
      OptionalParseResult one = parser.parseOptionalInteger(single);
      if (one.has_value()) {
        r = *one;
        strides.push_back(single);
      } else {
        r = parseIntList(parser, key, strides);
      }
    } else if (key == "num_bytes_per_warp_per_cta") {
      int64_t v;
      r = parseIntField(parser, key, v);
      bpwpc = v;
    } else if (key == "mcast_mode_mn") {
      mcast.clear();
      r = parseIntList(parser, key, mcast);
    } else {
      parser.emitError(keyLoc)
          << "unknown field '" << key
          << "'; expected one of num_stages, num_bytes, producer_group, "
             "consumer_group, cta_layout_vmnk, producer_signaling, "
             "consumer_signaling, consumer_wait_signaling, async_producer_op, "
             "umma_consumer_producer_op, advance_on_wait, advance_on_acquire, "
             "interleave_stride, num_bytes_per_warp_per_cta, mcast_mode_mn";
      return {};
    }
    if (failed(r))
      return {};
  }
  if (parser.parseGreater())
    return {};
  struct Required {
    const char *name;
    bool present;
    const char *example;
  };
  for (Required req :
       {Required{"num_stages", numStages.has_value(), "num_stages = 2"},
        Required{"producer_group", bool(producer),
                 "producer_group = <thread, 1>"},
        Required{"consumer_group", bool(consumer),
                 "consumer_group = <thread, 1>"}})
    if (!req.present) {
      parser.emitError(startLoc)
          << "#tspipe.config is missing the required field '" << req.name
          << "'; add it, e.g. " << req.example;
      return {};
    }
  return parser.getChecked<PipelineConfigAttr>(
      startLoc, ctx, type, *numStages, numBytes, producer, consumer, vmnk,
      prodSig, consSig, waitSig, asyncOp, ummaOp, advanceOnWait,
      advanceOnAcquire, strides, bpwpc, mcast);
}

void PipelineConfigAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<" << stringifyPipelineType(getPipelineType())
     << ", num_stages = " << getNumStages();
  if (getNumBytes() != 0)
    os << ", num_bytes = " << getNumBytes();
  os << ", producer_group = ";
  getProducerGroup().print(printer);
  os << ", consumer_group = ";
  getConsumerGroup().print(printer);
  if (getCtaLayoutVmnk() != ArrayRef<int64_t>(kDefaultVmnk)) {
    os << ", cta_layout_vmnk = [";
    llvm::interleaveComma(getCtaLayoutVmnk(), os);
    os << "]";
  }
  SignalingThreads defaultProd =
      getPipelineTypeFacts(getPipelineType()).defaultProducerSignaling;
  if (getProducerSignaling() != defaultProd)
    os << ", producer_signaling = "
       << stringifySignalingThreads(getProducerSignaling());
  if (getConsumerSignaling() != SignalingThreads::All)
    os << ", consumer_signaling = "
       << stringifySignalingThreads(getConsumerSignaling());
  if (auto wait = getConsumerWaitSignaling())
    os << ", consumer_wait_signaling = " << stringifySignalingThreads(*wait);
  if (getAsyncProducerOp() != PipelineOpKind::AsyncThread)
    os << ", async_producer_op = "
       << stringifyPipelineOpKind(getAsyncProducerOp());
  if (getUmmaConsumerProducerOp() != PipelineOpKind::AsyncThread)
    os << ", umma_consumer_producer_op = "
       << stringifyPipelineOpKind(getUmmaConsumerProducerOp());
  if (getAdvanceOnWait())
    os << ", advance_on_wait = true";
  if (getAdvanceOnAcquire())
    os << ", advance_on_acquire = true";
  ArrayRef<int64_t> strides = getInterleaveStride();
  if (strides.size() == 1 && strides[0] != 1)
    os << ", interleave_stride = " << strides[0];
  else if (strides.size() != 1) {
    os << ", interleave_stride = [";
    llvm::interleaveComma(strides, os);
    os << "]";
  }
  if (auto b = getNumBytesPerWarpPerCta())
    os << ", num_bytes_per_warp_per_cta = " << *b;
  if (getMcastModeMn() != ArrayRef<int64_t>(kDefaultMcast)) {
    os << ", mcast_mode_mn = [";
    llvm::interleaveComma(getMcastModeMn(), os);
    os << "]";
  }
  os << ">";
}
