// RUN: not tpu-opt %s --tpu-lower-to-isa=entry=absent 2>&1 | FileCheck %s
// CHECK: error: tpu-lower-to-isa: no func.func @absent to compile (name the entry with entry=NAME)
module {}
