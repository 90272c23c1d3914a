//===- TSPipeGroupRules.cpp - pipeline groups (Merge, Fork) ---------------===//
//
// tspipe.pipeline_group: symbol helpers, the op's own verifier, the bracket
// rule R24 (members are named through their group; the group takes only the
// bracket its mode collapses) and the group rules over a whole kernel: R67
// (members and derived config), R68 and R69 (an explicit group config).
// Rules from ts-semantics §3.H and §4.6; docs/Rules.md (H. Pipeline groups).
//
//===----------------------------------------------------------------------===//

#include "TSPipeRules.h"
#include "tspipe/Dialect/TSPipe/IR/TSPipeForkArm.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tspipe;

//===----------------------------------------------------------------------===//
// PipelineGroupOp
//===----------------------------------------------------------------------===//

int64_t PipelineGroupOp::memberIndex(StringRef pipeline) {
  for (auto [i, m] : llvm::enumerate(getMembers()))
    if (cast<FlatSymbolRefAttr>(m).getValue() == pipeline)
      return static_cast<int64_t>(i);
  return -1;
}

bool PipelineGroupOp::hasMember(StringRef pipeline) {
  return memberIndex(pipeline) >= 0;
}

LogicalResult PipelineGroupOp::verify() {
  if (getMembers().empty())
    return emitOpError() << "[R67] a pipeline group needs at least one "
                            "member; list the pipelines that share its "
                            "barriers";
  llvm::StringSet<> seen;
  for (Attribute m : getMembers()) {
    StringRef name = cast<FlatSymbolRefAttr>(m).getValue();
    if (!seen.insert(name).second)
      return emitOpError() << "[R67] lists member '@" << name
                           << "' twice; list each pipeline once";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// R24: brackets on groups and their members
//===----------------------------------------------------------------------===//

static StringRef modeName(GroupMode mode) { return stringifyGroupMode(mode); }

/// The brackets a group of `mode` collapses into one op on the group (TS:
/// merge `ConsumerRelease`, fork `ProducerCommit`, fused merge the whole
/// consumer side).
static bool isCollapsedBracket(GroupMode mode, Operation *op) {
  switch (mode) {
  case GroupMode::Merge:
    return isa<ConsumerReleaseOp>(op);
  case GroupMode::Fork:
    return isa<ProducerCommitOp>(op);
  case GroupMode::FusedMerge:
    return isa<ConsumerTryWaitOp, ConsumerWaitOp, ConsumerReleaseOp>(op);
  }
  return false;
}

static StringRef collapsedBracketName(GroupMode mode) {
  switch (mode) {
  case GroupMode::Merge:
    return "tspipe.consumer_release";
  case GroupMode::Fork:
    return "tspipe.producer_commit";
  case GroupMode::FusedMerge:
    return "tspipe.consumer_try_wait, tspipe.consumer_wait and "
           "tspipe.consumer_release";
  }
  return "";
}

/// The barrier arrays the members of a group of `mode` share.
static StringRef sharedArrays(GroupMode mode) {
  switch (mode) {
  case GroupMode::Merge:
    return "one empty barrier";
  case GroupMode::Fork:
    return "one full barrier";
  case GroupMode::FusedMerge:
    return "one full and one empty barrier";
  }
  return "";
}

/// The group of `kernel` that has `pipeline` as a member, if any.
static PipelineGroupOp groupOfMember(KernelOp kernel, StringRef pipeline) {
  for (auto group : kernel.getBody().getOps<PipelineGroupOp>())
    if (group.hasMember(pipeline))
      return group;
  return {};
}

LogicalResult mlir::tspipe::verifyGroupBracket(Operation *op, TaskOp task,
                                               FlatSymbolRefAttr name,
                                               FlatSymbolRefAttr group,
                                               bool producerSide) {
  // A bracket on the group itself.
  if (PipelineGroupOp named = lookupGroup(op, name)) {
    GroupMode mode = named.getMode();
    if (group)
      return op->emitOpError()
             << "names the pipeline group " << name << " and group(" << group
             << "); a bracket on the group itself takes no group(...)";
    if (!isCollapsedBracket(mode, op))
      return op->emitOpError()
             << "[R24] " << modeName(mode) << " group " << name
             << " takes only " << collapsedBracketName(mode)
             << " (the bracket its members share); name one member: '"
             << op->getName() << " @<member> group(" << name << ")'";
    for (Attribute m : named.getMembers()) {
      StringRef member = cast<FlatSymbolRefAttr>(m).getValue();
      bool listed = producerSide ? task.producesPipeline(member)
                                 : task.consumesPipeline(member);
      if (!listed)
        return op->emitOpError()
               << "[R27] task '@" << task.getSymName() << "' uses "
               << (producerSide ? "the producer" : "the consumer")
               << " side of group " << name
               << " but does not list its member '@" << member << "' in '"
               << (producerSide ? "produces" : "consumes") << "'; add @"
               << member << " to the task's "
               << (producerSide ? "produces" : "consumes") << " list";
    }
    return success();
  }

  // A bracket on a member names the group: TS's `group.member`.
  StringRef pipe = name.getValue();
  if (group) {
    PipelineGroupOp g = lookupGroup(op, group);
    if (!g)
      return op->emitOpError()
             << "[R24] group(" << group
             << ") does not name a tspipe.pipeline_group of the enclosing "
                "tspipe.kernel; name the group '"
             << name << "' belongs to, or drop group(...)";
    if (!g.hasMember(pipe))
      return op->emitOpError()
             << "[R24] '" << name << "' is not a member of pipeline group "
             << group << "; drop group(...) or add '" << name
             << "' to the group's members";
    if (isCollapsedBracket(g.getMode(), op))
      return op->emitOpError()
             << "[R24] the members of " << modeName(g.getMode()) << " group "
             << group << " share " << sharedArrays(g.getMode()) << ", so "
             << op->getName() << " is issued once on the group, not on member "
             << name << "; write '" << op->getName() << " " << group << "'";
    return success();
  }
  auto kernel = op->getParentOfType<KernelOp>();
  if (PipelineGroupOp g =
          kernel ? groupOfMember(kernel, pipe) : PipelineGroupOp())
    return op->emitOpError()
           << "[R24] '" << name << "' is a member of pipeline group '@"
           << g.getSymName() << "' and is used through it; write '"
           << op->getName() << " " << name << " group(@" << g.getSymName()
           << ")'";
  return success();
}

//===----------------------------------------------------------------------===//
// R67-R69: the group and its members
//===----------------------------------------------------------------------===//

namespace {
/// Which hardware unit drives one side of a pipeline type, as TS's group
/// modes count them: threads, a copy engine (TMA, CLC) or tcgen05.
enum class Unit { Async, Tma, Umma };
} // namespace

static Unit groupUnit(PipeUnit u) {
  switch (u) {
  case PipeUnit::Threads:
    return Unit::Async;
  case PipeUnit::Tma:
  case PipeUnit::Clc:
    return Unit::Tma;
  case PipeUnit::Umma:
    return Unit::Umma;
  }
  llvm_unreachable("unknown PipeUnit");
}

static Unit producerUnit(PipelineType t) {
  return groupUnit(getPipelineTypeFacts(t).producer.unit);
}

static Unit consumerUnit(PipelineType t) {
  return groupUnit(getPipelineTypeFacts(t).consumer.unit);
}

/// "async_async, tma_async, ... and umma_umma": the types a group takes.
static std::string groupableTypes() {
  SmallVector<StringRef> names;
  for (unsigned i = 0, e = getNumPipelineTypes(); i < e; ++i) {
    auto type = static_cast<PipelineType>(i);
    if (getPipelineTypeFacts(type).groupable)
      names.push_back(stringifyPipelineType(type));
  }
  std::string out;
  for (auto [i, name] : llvm::enumerate(names)) {
    if (i)
      out += i + 1 == names.size() ? " and " : ", ";
    out += name.str();
  }
  return out;
}

static std::string groupText(CooperativeGroupAttr g) {
  return ("<" + stringifyAgent(g.getAgent()) + ", " +
          std::to_string(g.getSize()) + ">")
      .str();
}

static std::string listText(ArrayRef<int64_t> v) {
  std::string out = "[";
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(v, os);
  os << "]";
  return out;
}

/// One field the members must agree on (R67): its name and its value,
/// printed.
struct Field {
  const char *name;
  std::string (*value)(PipelineConfigAttr);
};

static std::string signalingText(SignalingThreads s) {
  return stringifySignalingThreads(s);
}

static const Field kSharedFields[] = {
    {"num_stages",
     [](PipelineConfigAttr c) { return std::to_string(c.getNumStages()); }},
    {"interleave_stride",
     [](PipelineConfigAttr c) { return listText(c.getInterleaveStride()); }},
    {"advance_on_wait",
     [](PipelineConfigAttr c) {
       return std::string(c.getAdvanceOnWait() ? "true" : "false");
     }},
    {"advance_on_acquire",
     [](PipelineConfigAttr c) {
       return std::string(c.getAdvanceOnAcquire() ? "true" : "false");
     }},
    {"cta_layout_vmnk",
     [](PipelineConfigAttr c) { return listText(c.getCtaLayoutVmnk()); }},
    {"num_bytes_per_warp_per_cta",
     [](PipelineConfigAttr c) {
       auto v = c.getNumBytesPerWarpPerCta();
       return v ? std::to_string(*v) : std::string("unset");
     }},
    {"mcast_mode_mn",
     [](PipelineConfigAttr c) { return listText(c.getMcastModeMn()); }},
};

static const Field kMergeFields[] = {
    {"consumer_signaling",
     [](PipelineConfigAttr c) {
       return signalingText(c.getConsumerSignaling());
     }},
    {"consumer wait signaling",
     [](PipelineConfigAttr c) {
       return signalingText(c.getEffectiveWaitSignaling());
     }},
};

static const Field kForkFields[] = {
    {"producer_signaling",
     [](PipelineConfigAttr c) {
       return signalingText(c.getProducerSignaling());
     }},
};

/// R67 for one group whose members all resolve.
static LogicalResult verifyDerivedConfig(PipelineGroupOp group,
                                         ArrayRef<PipelineOp> members) {
  bool ok = true;
  GroupMode mode = group.getMode();
  PipelineOp first = members.front();
  PipelineConfigAttr c0 = first.getConfig();

  // Allowed types: a CLC fetch ring cannot share its barriers.
  for (PipelineOp m : members) {
    PipelineType type = m.getConfig().getPipelineType();
    if (getPipelineTypeFacts(type).groupable)
      continue;
    ok = false;
    group.emitOpError() << "[R67] member '@" << m.getSymName() << "' is a "
                        << stringifyPipelineType(type)
                        << " pipeline, which cannot join a group; groups take "
                        << groupableTypes() << " pipelines";
  }

  // Fields every member shares, and the signaling of the shared side.
  auto checkFields = [&](ArrayRef<Field> fields, StringRef why) {
    for (const Field &f : fields)
      for (PipelineOp m : members.drop_front()) {
        std::string mine = f.value(m.getConfig()), theirs = f.value(c0);
        if (mine == theirs)
          continue;
        ok = false;
        group.emitOpError()
            << "[R67] member '@" << m.getSymName() << "' has " << f.name
            << " = " << mine << " but '@" << first.getSymName() << "' has "
            << theirs << "; " << why << ", so " << f.name
            << " must be equal; make it " << theirs << " on '@"
            << m.getSymName() << "'";
      }
  };
  checkFields(kSharedFields,
              "the members of a group advance through one ring of stages");
  if (mode == GroupMode::Merge)
    checkFields(kMergeFields, "the members of a merge group share the "
                              "consumer side");
  else if (mode == GroupMode::Fork)
    checkFields(kForkFields, "the members of a fork group share the "
                             "producer side");
  else {
    // TS 4.8.1 (PipelineGroup): a fused merge shares both sides' signaling.
    checkFields(kMergeFields, "the members of a fused_merge group share the "
                              "consumer side");
    checkFields(kForkFields, "the producers of a fused_merge group arrive "
                             "on one full barrier");
    // TS rejects interleaved fused merges: lanes would need one shared
    // full barrier per lane.
    if (c0.isInterleaved()) {
      ok = false;
      group.emitOpError()
          << "[R67] fused_merge group members have interleave_stride = "
          << listText(c0.getInterleaveStride())
          << "; a fused_merge group cannot be interleaved (its producers "
             "share one full barrier per stage); use a merge group or drop "
             "the stride";
    }
  }
  // A fused merge has the merge topology (N producer sides, one consumer
  // side) for everything below.
  GroupMode topology = mode == GroupMode::FusedMerge ? GroupMode::Merge : mode;

  // Producer and consumer units (bit sets over Unit); the mode they imply.
  unsigned producers = 0, consumers = 0;
  for (PipelineOp m : members) {
    producers |= 1u << static_cast<unsigned>(
                     producerUnit(m.getConfig().getPipelineType()));
    consumers |= 1u << static_cast<unsigned>(
                     consumerUnit(m.getConfig().getPipelineType()));
  }
  bool producersDiffer = llvm::popcount(producers) > 1,
       consumersDiffer = llvm::popcount(consumers) > 1;
  if (producersDiffer && consumersDiffer) {
    ok = false;
    group.emitOpError()
        << "[R67] the members differ in both their producer units and their "
           "consumer units; a group shares one side, so its members may "
           "differ on the other side only";
  } else if (producersDiffer || consumersDiffer) {
    GroupMode derived = producersDiffer ? GroupMode::Merge : GroupMode::Fork;
    if (derived != topology) {
      ok = false;
      group.emitOpError() << "[R67] the members differ in their "
                          << (producersDiffer ? "producer" : "consumer")
                          << " units, which makes this a " << modeName(derived)
                          << " group (it shares the "
                          << (producersDiffer ? "consumer" : "producer")
                          << " side), but the group is declared "
                          << modeName(mode) << "; declare it "
                          << modeName(derived);
    }
  }

  // The collapsed side counts one group of arrivals: equal sizes. With TMA
  // and non-TMA members mixed, only the non-TMA members' groups count (TS).
  bool mixedTma =
      (producers >> static_cast<unsigned>(Unit::Tma)) & 1 && producersDiffer;
  PipelineOp ref;
  for (PipelineOp m : members) {
    if (mixedTma && producerUnit(m.getConfig().getPipelineType()) == Unit::Tma)
      continue;
    if (!ref) {
      ref = m;
      continue;
    }
    PipelineConfigAttr mc = m.getConfig(), rc = ref.getConfig();
    bool merge = topology == GroupMode::Merge;
    int64_t mine = merge ? mc.getEmptyArriveCount() : mc.getFullArriveCount();
    int64_t theirs = merge ? rc.getEmptyArriveCount() : rc.getFullArriveCount();
    if (mine == theirs)
      continue;
    ok = false;
    group.emitOpError()
        << "[R67] member '@" << m.getSymName() << "' has "
        << (merge ? "consumer_group " : "producer_group ")
        << groupText(merge ? mc.getConsumerGroup() : mc.getProducerGroup())
        << " but '@" << ref.getSymName() << "' has "
        << groupText(merge ? rc.getConsumerGroup() : rc.getProducerGroup())
        << "; the shared " << (merge ? "empty" : "full") << " barrier of a "
        << modeName(mode)
        << " group counts one group of arrivals, so the groups must be "
           "equal";
  }

  // The shared full barrier of a fork expects every member's bytes (R68,
  // docs/Rules.md); like any transaction count, their sum must fit the
  // mbarrier's tx-count (R9, PTX ISA: at most 2^20 - 1 per phase).
  // A fused merge's shared full barrier likewise expects every TMA
  // member's bytes, and counts every member's producer arrivals (R8, PTX
  // ISA: an arrive count of at most 2^20 - 1).
  if (mode != GroupMode::Merge) {
    constexpr int64_t kMaxTxCount = (int64_t(1) << 20) - 1;
    int64_t sum = 0, arrivals = 0;
    for (PipelineOp m : members) {
      sum += m.getConfig().getNumBytes();
      arrivals += m.getConfig().getFullArriveCount();
    }
    // A fork's shared barrier expects the bytes of the members its
    // producer fills (one load every member reads: the common value).
    if (mode == GroupMode::Fork)
      sum = getForkArm(group).bytes;
    StringRef what = mode == GroupMode::Fork ? "fork" : "fused_merge";
    if (sum > kMaxTxCount) {
      ok = false;
      group.emitOpError()
          << "[R9] the " << what
          << "'s shared full barrier expects "
             "the bytes of the members its producer fills, "
          << sum << ", which exceeds the mbarrier transaction count limit of "
          << kMaxTxCount
          << " bytes per phase; give the members smaller stages or fewer "
             "members";
    }
    if (mode == GroupMode::FusedMerge && arrivals > kMaxTxCount) {
      ok = false;
      group.emitOpError()
          << "[R8] the fused_merge's shared full barrier counts the sum of "
             "its members' producer arrivals, "
          << arrivals << ", more than an mbarrier's limit of " << kMaxTxCount
          << "; give the members smaller producer groups";
    }
  }

  // A fork member's consumers see the bytes of one shared full barrier.
  if (mode == GroupMode::Fork)
    for (PipelineOp m : members.drop_front())
      if (m.getConfig().getNumBytes() != c0.getNumBytes()) {
        ok = false;
        group.emitOpError()
            << "[R67] fork member '@" << m.getSymName()
            << "' has num_bytes = " << m.getConfig().getNumBytes() << " but '@"
            << first.getSymName() << "' has " << c0.getNumBytes()
            << "; the members of a fork group fill their stages together, so "
               "their num_bytes must be equal";
      }
  return success(ok);
}

/// R68 and R69: an explicit group config agrees with the members.
static LogicalResult verifyExplicitConfig(PipelineGroupOp group,
                                          ArrayRef<PipelineOp> members) {
  PipelineConfigAttr cfg = *group.getConfig();
  bool ok = true;
  if (!getPipelineTypeFacts(cfg.getPipelineType()).groupable) {
    ok = false;
    group.emitOpError() << "[R68] the group config has type "
                        << stringifyPipelineType(cfg.getPipelineType())
                        << ", which a group cannot have; use the members' type";
  }
  int64_t sumBytes = 0;
  for (PipelineOp m : members) {
    PipelineConfigAttr mc = m.getConfig();
    sumBytes += mc.getNumBytes();
    if (mc.getNumStages() != cfg.getNumStages()) {
      ok = false;
      group.emitOpError() << "[R68] the group config has num_stages = "
                          << cfg.getNumStages() << " but member '@"
                          << m.getSymName() << "' has " << mc.getNumStages()
                          << "; make them equal";
    }
    if (mc.getInterleaveStride() != cfg.getInterleaveStride()) {
      ok = false;
      group.emitOpError() << "[R68] the group config has interleave_stride = "
                          << listText(cfg.getInterleaveStride())
                          << " but member '@" << m.getSymName() << "' has "
                          << listText(mc.getInterleaveStride())
                          << "; make them equal";
    }
    // R69: an explicit config describes a homogeneous group.
    if (mc.getPipelineType() != cfg.getPipelineType()) {
      ok = false;
      group.emitOpError()
          << "[R69] the group config has type "
          << stringifyPipelineType(cfg.getPipelineType()) << " but member '@"
          << m.getSymName() << "' is "
          << stringifyPipelineType(mc.getPipelineType())
          << "; a group with an explicit config is homogeneous (drop the "
             "config to derive a mixed group's)";
    }
  }
  // Every member's transaction bytes complete on the group's barriers of a
  // stage: for merge on the members' own full barriers, for fork on the one
  // shared full barrier, which expects the bytes of the members the
  // producer fills with copies of their own: k times the members' common
  // num_bytes, k = 1 (one load every member reads) up to the member count
  // (one copy per member); docs/Rules.md, R68.
  int64_t common = PipelineOp(members.front()).getConfig().getNumBytes();
  if (group.getMode() == GroupMode::Fork) {
    int64_t n = static_cast<int64_t>(members.size());
    int64_t got = cfg.getNumBytes();
    bool multiple =
        common > 0 ? got % common == 0 && got / common >= 1 && got / common <= n
                   : got == 0;
    if (!multiple) {
      ok = false;
      group.emitOpError()
          << "[R68] the fork group config has num_bytes = " << got
          << ", but its shared full barrier receives the bytes of the "
             "members the producer fills: "
          << common << " (one load that every member reads) up to " << sumBytes
          << " (one copy per member), in steps of " << common
          << "; set num_bytes = " << common << " or " << sumBytes;
    }
  } else if (cfg.getNumBytes() != sumBytes) {
    ok = false;
    group.emitOpError() << "[R68] the group config has num_bytes = "
                        << cfg.getNumBytes()
                        << " but the members' num_bytes sum to " << sumBytes
                        << "; set num_bytes = " << sumBytes;
  }
  // The shared side's arrive count is the members' common group.
  bool merge = group.getMode() != GroupMode::Fork;
  PipelineOp first = members.front();
  PipelineConfigAttr c0 = first.getConfig();
  int64_t shared = merge ? c0.getEmptyArriveCount() : c0.getFullArriveCount();
  int64_t mine = merge ? cfg.getEmptyArriveCount() : cfg.getFullArriveCount();
  if (shared != mine) {
    ok = false;
    group.emitOpError() << "[R68] the group config's "
                        << (merge ? "consumer_group " : "producer_group ")
                        << groupText(merge ? cfg.getConsumerGroup()
                                           : cfg.getProducerGroup())
                        << " counts " << mine << " arrivals but the shared "
                        << (merge ? "empty" : "full") << " barrier receives "
                        << shared << " (member '@" << first.getSymName()
                        << "'); make the groups equal";
  }
  return success(ok);
}

LogicalResult mlir::tspipe::rules::verifyGroupRules(KernelOp kernel) {
  bool ok = true;
  llvm::StringMap<PipelineGroupOp> owner;
  for (auto group : kernel.getBody().getOps<PipelineGroupOp>()) {
    SmallVector<PipelineOp> members;
    bool resolved = true;
    for (Attribute a : group.getMembers()) {
      auto ref = cast<FlatSymbolRefAttr>(a);
      PipelineOp pipe = lookupPipeline(group, ref);
      if (!pipe) {
        ok = resolved = false;
        group.emitOpError() << "[R67] member " << ref
                            << " is not a tspipe.pipeline of the enclosing "
                               "tspipe.kernel";
        continue;
      }
      auto [it, fresh] = owner.try_emplace(ref.getValue(), group);
      if (!fresh) {
        ok = false;
        group.emitOpError()
            << "[R67] pipeline " << ref << " is already a member of group '@"
            << it->second.getSymName()
            << "'; a pipeline joins at most one group";
      }
      members.push_back(pipe);
    }
    if (!resolved || members.empty())
      continue;
    bool derivedOk = succeeded(verifyDerivedConfig(group, members));
    ok &= derivedOk;
    if (derivedOk)
      ok &= succeeded(verifyGroupArrivals(group, members));
    if (group.getConfig())
      ok &= succeeded(verifyExplicitConfig(group, members));
  }
  return success(ok);
}
