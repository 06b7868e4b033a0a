//===- VpuArithmetic.h - The VPU's f32 arithmetic on words ------*- C++ -*-===//
//
// What one lane of each VPU arithmetic instruction computes, on the 32-bit
// words a vreg holds: IEEE-754 binary32, round to nearest even, subnormal
// operands read as a zero of the same sign and subnormal results flushed
// to one (as TPUs do), a NaN result the canonical NaN. docs/ISA.md
// ("Numerics") defines each one; `v.exp`'s algorithm is spelled out there
// and in docs/Numerics.md, so that no result depends on the host's libm.
//
// The simulator executes these; the reference model (lib/Reference) has
// its own copy written from the docs, and a test compares the two on every
// f32 input.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SIM_VPUARITHMETIC_H
#define TPU_SIM_VPUARITHMETIC_H

#include <cstdint>

namespace tpu::sim {

uint32_t vpuAdd(uint32_t a, uint32_t b);
uint32_t vpuSub(uint32_t a, uint32_t b);
uint32_t vpuMul(uint32_t a, uint32_t b);
uint32_t vpuDiv(uint32_t a, uint32_t b);
/// IEEE-754 (2019) maximum/minimum: the first NaN operand, quieted; -0 < +0.
uint32_t vpuMax(uint32_t a, uint32_t b);
uint32_t vpuMin(uint32_t a, uint32_t b);
/// IEEE-754 (2008) maxNum/minNum, as arith.maxnumf/minnumf: a NaN operand
/// gives the other operand (both NaN: the first, quieted); else as
/// vpuMax/vpuMin.
uint32_t vpuMaxNum(uint32_t a, uint32_t b);
uint32_t vpuMinNum(uint32_t a, uint32_t b);
/// exp(a) by docs/Numerics.md's range reduction and polynomial.
uint32_t vpuExp(uint32_t a);
/// tanh(a) and log(a) by docs/Numerics.md's algorithms.
uint32_t vpuTanh(uint32_t a);
uint32_t vpuLog(uint32_t a);
/// erf(a) by docs/Numerics.md's algorithm (Cephes' erff, with vpuExp).
uint32_t vpuErf(uint32_t a);
/// sqrt(a), IEEE (correctly rounded), and 1/sqrt(a) correctly rounded
/// from double.
uint32_t vpuSqrt(uint32_t a);
uint32_t vpuRsqrt(uint32_t a);
/// The comparisons, on the flushed operands (a NaN compares unordered).
bool vpuEqual(uint32_t a, uint32_t b);
bool vpuLess(uint32_t a, uint32_t b);
bool vpuLessEqual(uint32_t a, uint32_t b);

} // namespace tpu::sim

#endif // TPU_SIM_VPUARITHMETIC_H
