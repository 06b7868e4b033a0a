//===- Vector.cpp - Vector loads and stores, the VPU and the XLU ----------===//
//
// Elementwise over the 8 x 128 words of a vreg, each lane's f32 arithmetic
// as tpu/Sim/VpuArithmetic.h defines it; docs/ISA.md gives each
// instruction's semantics.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

#include "tpu/Sim/VpuArithmetic.h"
#include "tpu/Support/BF16.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tpu::sim {

using isa::Instruction;
using isa::OperandKind;

TPU_NO_ISSUE_RULE(VectorLoad)
TPU_NO_ISSUE_RULE(VectorStore)
TPU_NO_ISSUE_RULE(Vpu)
TPU_NO_ISSUE_RULE(Xlu)

namespace {

/// vD[i] = fn(vA[i]) on the 32-bit patterns.
template <typename Fn> bool unary(Core &core, const Instruction &inst, Fn fn) {
  VReg &out = core.writeVector(inst.operands[0]);
  const VReg &a = core.vreg(inst.operands[1]);
  for (size_t i = 0; i < kWordsPerTile; ++i)
    out[i] = fn(a[i]);
  return true;
}

/// vD[i] = fn(vA[i], vB[i]) on the 32-bit patterns.
template <typename Fn> bool binary(Core &core, const Instruction &inst, Fn fn) {
  VReg &out = core.writeVector(inst.operands[0]);
  const VReg &a = core.vreg(inst.operands[1]), &b = core.vreg(inst.operands[2]);
  for (size_t i = 0; i < kWordsPerTile; ++i)
    out[i] = fn(a[i], b[i]);
  return true;
}

/// All ones where fn(vA[i], vB[i]) holds, else 0.
template <typename Fn>
bool compare(Core &core, const Instruction &inst, Fn fn) {
  return binary(core, inst, [&](uint32_t a, uint32_t b) {
    return fn(a, b) ? 0xFFFFFFFFu : 0u;
  });
}

/// Per sublane: fold the lanes from lane 0 up, broadcast the result.
template <typename Fn> bool reduce(Core &core, const Instruction &inst, Fn fn) {
  VReg &out = core.writeVector(inst.operands[0]);
  const VReg &a = core.vreg(inst.operands[1]);
  for (unsigned s = 0; s < kSublanes; ++s) {
    const uint32_t *row = &a[s * kLanes];
    uint32_t acc = row[0];
    for (unsigned l = 1; l < kLanes; ++l)
      acc = fn(acc, row[l]);
    std::fill(&out[s * kLanes], &out[s * kLanes] + kLanes, acc);
  }
  return true;
}

/// v.ld / v.st: sublane s <-> VMEM row base + s * stride, for s in the mask.
bool moveRows(Core &core, const Instruction &inst, bool load) {
  const auto &op = inst.operands;
  int64_t base = int64_t(core.sreg(op[1])) + op[2];
  int64_t stride = core.sreg(op[3]);
  unsigned mask = unsigned(op[4]);
  // Every row is checked, in order, before any moves.
  for (unsigned s = 0; s < kSublanes; ++s) {
    if (!(mask & (1u << s)))
      continue;
    int64_t row = base + int64_t(s) * stride;
    if (!core.check(core.memory.checkVmemRows(row, 1), inst) ||
        !checkDmaRace(core, inst, row, 1, !load) ||
        (!load && !checkWeightLoadRace(core, inst, row, 1)) ||
        (load && !core.check(core.memory.checkVmemRowsWritten(row, 1), inst)))
      return false;
  }
  const VReg &source = core.vreg(op[0]);
  VReg *loaded = load ? &core.writeVector(op[0]) : nullptr;
  // The common case, all 8 sublanes from consecutive rows, moves as one
  // block.
  if (mask == 0xFF && stride == 1) {
    if (load) {
      std::memcpy(loaded->data(), core.memory.vmemRow(base), sizeof(VReg));
    } else {
      std::memcpy(core.memory.vmemRow(base), source.data(), sizeof(VReg));
      core.memory.noteVmemWrite(base, kSublanes);
    }
    return true;
  }
  if (load)
    *loaded = source; // masked-off sublanes keep their value
  for (unsigned s = 0; s < kSublanes; ++s) {
    if (!(mask & (1u << s)))
      continue;
    int64_t row = base + int64_t(s) * stride;
    if (load) {
      std::memcpy(&(*loaded)[s * kLanes], core.memory.vmemRow(row),
                  kLanes * sizeof(uint32_t));
    } else {
      std::memcpy(core.memory.vmemRow(row), &source[s * kLanes],
                  kLanes * sizeof(uint32_t));
      core.memory.noteVmemWrite(row, 1);
    }
  }
  return true;
}

} // namespace

TPU_SEMANTICS(VLd) { return moveRows(core, inst, /*load=*/true); }
TPU_SEMANTICS(VSt) { return moveRows(core, inst, /*load=*/false); }

TPU_SEMANTICS(VAdd) { return binary(core, inst, vpuAdd); }

TPU_SEMANTICS(VSub) { return binary(core, inst, vpuSub); }

TPU_SEMANTICS(VMul) { return binary(core, inst, vpuMul); }

TPU_SEMANTICS(VDiv) { return binary(core, inst, vpuDiv); }

TPU_SEMANTICS(VMax) { return binary(core, inst, vpuMax); }

TPU_SEMANTICS(VMin) { return binary(core, inst, vpuMin); }

TPU_SEMANTICS(VMaxNum) { return binary(core, inst, vpuMaxNum); }

TPU_SEMANTICS(VMinNum) { return binary(core, inst, vpuMinNum); }

TPU_SEMANTICS(VCmpEq) { return compare(core, inst, vpuEqual); }

TPU_SEMANTICS(VCmpNe) {
  return compare(core, inst,
                 [](uint32_t a, uint32_t b) { return !vpuEqual(a, b); });
}

TPU_SEMANTICS(VCmpLt) { return compare(core, inst, vpuLess); }

TPU_SEMANTICS(VCmpLe) { return compare(core, inst, vpuLessEqual); }

TPU_SEMANTICS(VSel) {
  const auto &op = inst.operands;
  VReg &out = core.writeVector(op[0]);
  const VReg &mask = core.vreg(op[1]), &a = core.vreg(op[2]),
             &b = core.vreg(op[3]);
  for (size_t i = 0; i < kWordsPerTile; ++i)
    out[i] = mask[i] ? a[i] : b[i];
  return true;
}

TPU_SEMANTICS(VMov) {
  return unary(core, inst, [](uint32_t a) { return a; });
}

TPU_SEMANTICS(VBcast) {
  core.writeVector(inst.operands[0])
      .fill(uint32_t(core.sreg(inst.operands[1])));
  return true;
}

TPU_SEMANTICS(VRneBf16) {
  return unary(core, inst,
               [](uint32_t a) { return bitsOf(roundToBF16(floatOf(a))); });
}

TPU_SEMANTICS(VTruncBf16) {
  return unary(core, inst, [](uint32_t a) {
    return bitsOf(roundToBF16(floatOf(a), BF16Rounding::Truncate));
  });
}

TPU_SEMANTICS(VPackBf16) {
  return binary(core, inst, [](uint32_t a, uint32_t b) {
    return uint32_t(toBF16(floatOf(a))) | (uint32_t(toBF16(floatOf(b))) << 16);
  });
}

TPU_SEMANTICS(VUnpackLo) {
  return unary(core, inst, [](uint32_t a) {
    return bitsOf(fromBF16(uint16_t(a & 0xFFFF)));
  });
}

TPU_SEMANTICS(VUnpackHi) {
  return unary(core, inst,
               [](uint32_t a) { return bitsOf(fromBF16(uint16_t(a >> 16))); });
}

TPU_SEMANTICS(VExp) { return unary(core, inst, vpuExp); }
TPU_SEMANTICS(VTanh) { return unary(core, inst, vpuTanh); }
TPU_SEMANTICS(VLog) { return unary(core, inst, vpuLog); }
TPU_SEMANTICS(VSqrt) { return unary(core, inst, vpuSqrt); }
TPU_SEMANTICS(VRsqrt) { return unary(core, inst, vpuRsqrt); }
TPU_SEMANTICS(VErf) { return unary(core, inst, vpuErf); }

TPU_SEMANTICS(VNeg) {
  return unary(core, inst, [](uint32_t a) { return a ^ 0x80000000u; });
}

TPU_SEMANTICS(VAbs) {
  return unary(core, inst, [](uint32_t a) { return a & 0x7FFFFFFFu; });
}

TPU_SEMANTICS(VRsum) { return reduce(core, inst, vpuAdd); }

TPU_SEMANTICS(VRmax) { return reduce(core, inst, vpuMax); }

TPU_SEMANTICS(VRmin) { return reduce(core, inst, vpuMin); }

TPU_SEMANTICS(VRmaxnum) { return reduce(core, inst, vpuMaxNum); }

TPU_SEMANTICS(VRminnum) { return reduce(core, inst, vpuMinNum); }

TPU_SEMANTICS(VLbcast) {
  // Per sublane: lane 0's word in every lane, bits unchanged.
  VReg &out = core.writeVector(inst.operands[0]);
  const VReg &a = core.vreg(inst.operands[1]);
  for (unsigned s = 0; s < kSublanes; ++s)
    std::fill(&out[s * kLanes], &out[s * kLanes] + kLanes, a[s * kLanes]);
  return true;
}

TPU_SEMANTICS(VLmask) {
  // All ones in the lanes below the count, zero from it on, every sublane.
  int64_t count = core.sreg(inst.operands[1]);
  VReg &out = core.writeVector(inst.operands[0]);
  for (unsigned s = 0; s < kSublanes; ++s)
    for (unsigned l = 0; l < kLanes; ++l)
      out[s * kLanes + l] = int64_t(l) < count ? 0xFFFFFFFFu : 0u;
  return true;
}

TPU_SEMANTICS(VXpose) {
  // The group's registers hold one kLanes x kLanes block: element (r, c)
  // lives in register r / 8, sublane r % 8, lane c.
  constexpr unsigned kGroup =
      isa::getOperandKindInfo(OperandKind::VSrc16).group;
  static_assert(kGroup * kSublanes == kLanes, "a group is one square block");
  const auto &op = inst.operands;
  std::array<VReg *, kGroup> out;
  for (unsigned j = 0; j < kGroup; ++j)
    out[j] = &core.writeVector(op[0] + j);
  for (unsigned r = 0; r < kLanes; ++r)
    for (unsigned c = 0; c < kLanes; ++c)
      (*out[c / kSublanes])[(c % kSublanes) * kLanes + r] =
          core.vreg(op[1] + r / kSublanes)[(r % kSublanes) * kLanes + c];
  return true;
}

} // namespace tpu::sim
