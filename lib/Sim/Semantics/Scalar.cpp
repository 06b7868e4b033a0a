//===- Scalar.cpp - The scalar unit: integer ALU, SMEM, branches ----------===//
//
// docs/ISA.md gives each instruction's semantics; 32-bit arithmetic wraps.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

namespace tpu::sim {

using isa::Instruction;

TPU_NO_ISSUE_RULE(Scalar)

namespace {
/// sD = fn(sA, sB) on the 32-bit patterns.
template <typename Fn> bool binary(Core &core, const Instruction &inst, Fn fn) {
  const auto &op = inst.operands;
  core.writeScalar(op[0],
                   fn(uint32_t(core.sreg(op[1])), uint32_t(core.sreg(op[2]))));
  return true;
}

/// Branches to operand 2 when fn(sA, sB) holds (signed).
template <typename Fn>
bool branchIf(Core &core, const Instruction &inst, Fn fn) {
  const auto &op = inst.operands;
  if (fn(core.sreg(op[0]), core.sreg(op[1])))
    core.branchTo(op[2]);
  return true;
}
} // namespace

TPU_SEMANTICS(SLi) {
  core.writeScalar(inst.operands[0], uint32_t(inst.operands[1]));
  return true;
}

TPU_SEMANTICS(SAdd) {
  return binary(core, inst, [](uint32_t a, uint32_t b) { return a + b; });
}

TPU_SEMANTICS(SAddi) {
  const auto &op = inst.operands;
  core.writeScalar(op[0], uint32_t(core.sreg(op[1])) + uint32_t(op[2]));
  return true;
}

TPU_SEMANTICS(SSub) {
  return binary(core, inst, [](uint32_t a, uint32_t b) { return a - b; });
}

TPU_SEMANTICS(SMul) {
  return binary(core, inst, [](uint32_t a, uint32_t b) { return a * b; });
}

TPU_SEMANTICS(SAnd) {
  return binary(core, inst, [](uint32_t a, uint32_t b) { return a & b; });
}

TPU_SEMANTICS(SOr) {
  return binary(core, inst, [](uint32_t a, uint32_t b) { return a | b; });
}

TPU_SEMANTICS(SXor) {
  return binary(core, inst, [](uint32_t a, uint32_t b) { return a ^ b; });
}

TPU_SEMANTICS(SShl) {
  return binary(core, inst,
                [](uint32_t a, uint32_t b) { return a << (b & 31); });
}

TPU_SEMANTICS(SShr) {
  return binary(core, inst,
                [](uint32_t a, uint32_t b) { return a >> (b & 31); });
}

TPU_SEMANTICS(SSlt) {
  return binary(core, inst, [](uint32_t a, uint32_t b) {
    return uint32_t(int32_t(a) < int32_t(b) ? 1 : 0);
  });
}

TPU_SEMANTICS(SMin) {
  return binary(core, inst, [](uint32_t a, uint32_t b) {
    return int32_t(a) < int32_t(b) ? a : b;
  });
}

TPU_SEMANTICS(SLd) {
  const auto &op = inst.operands;
  uint32_t value;
  if (!core.check(
          core.memory.readSmem(int64_t(core.sreg(op[1])) + op[2], value), inst))
    return false;
  core.writeScalar(op[0], value);
  return true;
}

TPU_SEMANTICS(SSt) {
  const auto &op = inst.operands;
  return core.check(core.memory.writeSmem(int64_t(core.sreg(op[1])) + op[2],
                                          uint32_t(core.sreg(op[0]))),
                    inst);
}

TPU_SEMANTICS(BrEq) {
  return branchIf(core, inst, [](int32_t a, int32_t b) { return a == b; });
}

TPU_SEMANTICS(BrNe) {
  return branchIf(core, inst, [](int32_t a, int32_t b) { return a != b; });
}

TPU_SEMANTICS(BrLt) {
  return branchIf(core, inst, [](int32_t a, int32_t b) { return a < b; });
}

TPU_SEMANTICS(BrGe) {
  return branchIf(core, inst, [](int32_t a, int32_t b) { return a >= b; });
}

TPU_SEMANTICS(Jmp) {
  core.branchTo(inst.operands[0]);
  return true;
}

} // namespace tpu::sim
