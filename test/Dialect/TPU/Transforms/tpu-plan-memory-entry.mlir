// RUN: not tpu-opt %s --tpu-plan-memory=entry=absent 2>&1 | FileCheck %s
// CHECK: error: tpu-plan-memory: no func.func @absent to compile (name the entry with entry=NAME)
module {}
