//===- ProtocolRegistry.cpp - pipeline type -> protocol -------------------===//
//
// Maps each `PipelineType` listed in Protocols.def to its protocol.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

using namespace mlir;
using namespace mlir::tspipe;

const PipelineProtocol *mlir::tspipe::getPipelineProtocol(PipelineType type) {
  switch (type) {
#define TSPIPE_PROTOCOL(Type)                                                  \
  case PipelineType::Type:                                                     \
    return &get##Type##Protocol();
#include "Protocols.def"
  default:
    return nullptr;
  }
}
