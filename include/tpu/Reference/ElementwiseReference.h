//===- ElementwiseReference.h - Plain C++ model of the VPU ops --*- C++ -*-===//
//
// The elementwise ops a program may hold, each written from its row in
// docs/ISA.md as one f32 function, to check the simulator and the
// compiler against (tpu-ref elementwise). Named as the arith op is
// (`divf` for arith.divf). One table row per op: docs/Building.md, "Adding
// an op".
//
//===----------------------------------------------------------------------===//

#ifndef TPU_REFERENCE_ELEMENTWISEREFERENCE_H
#define TPU_REFERENCE_ELEMENTWISEREFERENCE_H

#include <string>
#include <string_view>

namespace tpu::reference {

struct ElementwiseOp {
  const char *name;
  /// Operands it takes (1 or 2).
  unsigned arity;
  /// The result for operands `a` (and `b`).
  float (*apply)(float a, float b);
};

/// The VPU's f32 addition (v.add): subnormals read and written as zeros,
/// a NaN sum canonical. The matmul's epilogue adds with it too.
float addf(float a, float b);
/// v.max and v.min: IEEE-754 (2019) maximum and minimum on flushed
/// operands. Reductions combine with them too.
float maximumf(float a, float b);
float minimumf(float a, float b);
/// arith.maxnumf and arith.minnumf (v.maxnum, v.minnum): a NaN operand
/// gives the other, two NaNs the first, quieted; otherwise as maximumf
/// and minimumf.
float maxnumf(float a, float b);
float minnumf(float a, float b);

/// The op called `name`, or null.
const ElementwiseOp *lookupElementwiseOp(std::string_view name);

/// The names, comma-separated, for error messages.
std::string listElementwiseOps();

} // namespace tpu::reference

#endif // TPU_REFERENCE_ELEMENTWISEREFERENCE_H
