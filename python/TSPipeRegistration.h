//===- TSPipeRegistration.h - upstream registration for Python ----*- C -*-===//
//
// The registration the `_tspipe` extension calls is part of tspipe's C API:
// tspipe-c/Registration.h (defined in TSPipeCAPI).
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_PYTHON_TSPIPEREGISTRATION_H
#define TSPIPE_PYTHON_TSPIPEREGISTRATION_H

#include "tspipe-c/Registration.h"

#endif // TSPIPE_PYTHON_TSPIPEREGISTRATION_H
