//===- TSPipeAttrs.cpp - tspipe attributes and config-time rules ----------===//
//
// The `#tspipe.config` attribute: its textual form and the config-time rules
// R1-R10 and R15 of the TS validation catalogue (ts-semantics §3 A/B), plus
// X1 (cta_layout_vmnk is always 4 static extents).
//
//===----------------------------------------------------------------------===//

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
                       << size << "; give the number of " << stringifyAgent(agent)
                       << "s that arrive";
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
    // supports thread groups consistently (ts-semantics §1.5). Count the raw
    // size, as TS's validators do.
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
  SignalingThreads prodSig = type == PipelineType::ClcFetchAsync
                                 ? SignalingThreads::CtaLeader
                                 : SignalingThreads::All;
  return PipelineConfigAttr::get(
      ctx, type, numStages, numBytes, producer, consumer, kDefaultVmnk,
      prodSig, SignalingThreads::All, std::nullopt, PipelineOpKind::AsyncThread,
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
  return emitError() << "[R1] " << field << " = " << stringifySignalingThreads(s)
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
      failed(verifySignaling(emitError, "consumer_signaling",
                             consumerSignaling)))
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
  if (numBytesPerWarpPerCta && *numBytesPerWarpPerCta <= 0)
    return emitError() << "[R9] num_bytes_per_warp_per_cta must be greater "
                          "than 0, got "
                       << *numBytesPerWarpPerCta;

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
  for (auto [i, e] : llvm::enumerate(vmnk))
    if (e < 1)
      return emitError() << "[R10] cta_layout_vmnk extent " << "VMNL"[i]
                         << " must be >= 1, got " << e;
  if (vmnk[0] != 1 && vmnk[0] != 2)
    return emitError() << "[R10] cta_layout_vmnk V = " << vmnk[0]
                       << " is not a tcgen05 CTA group size; V must be 1 or 2";

  // R4: interleave_stride shape and values.
  if (strides.size() != 1 && strides.size() != 4)
    return emitError()
           << "[R4] interleave_stride must be one int or 4 ints "
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

//===----------------------------------------------------------------------===//
// PipelineConfigAttr: textual form
//===----------------------------------------------------------------------===//

static ParseResult parseIntList(AsmParser &parser,
                                SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t v;
        if (parser.parseInteger(v))
          return failure();
        values.push_back(v);
        return success();
      });
}

static ParseResult parseSignaling(AsmParser &parser, SignalingThreads &out) {
  uint32_t bits = 0;
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef kw;
    if (parser.parseKeyword(&kw))
      return failure();
    std::optional<SignalingThreads> bit = symbolizeSignalingThreads(kw);
    if (!bit)
      return parser.emitError(loc)
             << "[R1] unknown signaling threads '" << kw
             << "'; expected all, cta_leader or task_warp_leader";
    bits |= static_cast<uint32_t>(*bit);
  } while (succeeded(parser.parseOptionalVerticalBar()));
  out = static_cast<SignalingThreads>(bits);
  return success();
}

template <typename EnumT>
static ParseResult
parseEnumKeyword(AsmParser &parser, EnumT &out,
                 std::optional<EnumT> (*symbolize)(StringRef), StringRef what) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kw;
  if (parser.parseKeyword(&kw))
    return failure();
  std::optional<EnumT> v = symbolize(kw);
  if (!v)
    return parser.emitError(loc) << "unknown " << what << " '" << kw << "'";
  out = *v;
  return success();
}

static ParseResult parseBool(AsmParser &parser, bool &out) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kw;
  if (parser.parseKeyword(&kw))
    return failure();
  if (kw != "true" && kw != "false")
    return parser.emitError(loc) << "expected 'true' or 'false'";
  out = kw == "true";
  return success();
}

Attribute PipelineConfigAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc startLoc = parser.getCurrentLocation();
  PipelineType type;
  if (parser.parseLess() ||
      parseEnumKeyword<PipelineType>(parser, type, symbolizePipelineType,
                                     "pipeline type"))
    return {};

  std::optional<int64_t> numStages;
  int64_t numBytes = 0;
  CooperativeGroupAttr producer, consumer;
  SmallVector<int64_t> vmnk(std::begin(kDefaultVmnk), std::end(kDefaultVmnk));
  SignalingThreads prodSig = type == PipelineType::ClcFetchAsync
                                 ? SignalingThreads::CtaLeader
                                 : SignalingThreads::All;
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
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (!seen.insert(key).second) {
      parser.emitError(keyLoc) << "duplicate field '" << key << "'";
      return {};
    }
    ParseResult r = success();
    if (key == "num_stages") {
      int64_t v;
      r = parser.parseInteger(v);
      numStages = v;
    } else if (key == "num_bytes") {
      r = parser.parseInteger(numBytes);
    } else if (key == "producer_group" || key == "consumer_group") {
      Attribute a = CooperativeGroupAttr::parse(parser, Type());
      if (!a)
        return {};
      (key == "producer_group" ? producer : consumer) =
          cast<CooperativeGroupAttr>(a);
    } else if (key == "cta_layout_vmnk") {
      vmnk.clear();
      r = parseIntList(parser, vmnk);
    } else if (key == "producer_signaling") {
      r = parseSignaling(parser, prodSig);
    } else if (key == "consumer_signaling") {
      r = parseSignaling(parser, consSig);
    } else if (key == "consumer_wait_signaling") {
      SignalingThreads s;
      r = parseSignaling(parser, s);
      waitSig = s;
    } else if (key == "async_producer_op") {
      r = parseEnumKeyword<PipelineOpKind>(parser, asyncOp, symbolizePipelineOpKind,
                                       "pipeline op");
    } else if (key == "umma_consumer_producer_op") {
      r = parseEnumKeyword<PipelineOpKind>(parser, ummaOp, symbolizePipelineOpKind,
                                       "pipeline op");
    } else if (key == "advance_on_wait") {
      r = parseBool(parser, advanceOnWait);
    } else if (key == "advance_on_acquire") {
      r = parseBool(parser, advanceOnAcquire);
    } else if (key == "interleave_stride") {
      strides.clear();
      int64_t single;
      OptionalParseResult one = parser.parseOptionalInteger(single);
      if (one.has_value()) {
        r = *one;
        strides.push_back(single);
      } else {
        r = parseIntList(parser, strides);
      }
    } else if (key == "num_bytes_per_warp_per_cta") {
      int64_t v;
      r = parser.parseInteger(v);
      bpwpc = v;
    } else if (key == "mcast_mode_mn") {
      mcast.clear();
      r = parseIntList(parser, mcast);
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
  for (auto [name, present] :
       {std::make_pair("num_stages", numStages.has_value()),
        std::make_pair("producer_group", bool(producer)),
        std::make_pair("consumer_group", bool(consumer))})
    if (!present) {
      parser.emitError(startLoc)
          << "#tspipe.config requires '" << name << "'";
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
  SignalingThreads defaultProd = getPipelineType() == PipelineType::ClcFetchAsync
                                     ? SignalingThreads::CtaLeader
                                     : SignalingThreads::All;
  if (getProducerSignaling() != defaultProd)
    os << ", producer_signaling = "
       << stringifySignalingThreads(getProducerSignaling());
  if (getConsumerSignaling() != SignalingThreads::All)
    os << ", consumer_signaling = "
       << stringifySignalingThreads(getConsumerSignaling());
  if (auto wait = getConsumerWaitSignaling())
    os << ", consumer_wait_signaling = " << stringifySignalingThreads(*wait);
  if (getAsyncProducerOp() != PipelineOpKind::AsyncThread)
    os << ", async_producer_op = " << stringifyPipelineOpKind(getAsyncProducerOp());
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
