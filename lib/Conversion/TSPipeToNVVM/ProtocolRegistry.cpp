//===- ProtocolRegistry.cpp - pipeline type -> protocol -------------------===//
//
// Maps each `PipelineType` to its protocol (Protocols.def). The switch has
// no default, so a type without a protocol is a compiler warning here.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

using namespace mlir;
using namespace mlir::tspipe;

const PipelineProtocol &mlir::tspipe::getPipelineProtocol(PipelineType type) {
  switch (type) {
#define TSPIPE_PROTOCOL(Type)                                                  \
  case PipelineType::Type:                                                     \
    return get##Type##Protocol();
#include "Protocols.def"
  }
  llvm_unreachable("every PipelineType has a protocol (Protocols.def)");
}
