//===- Semantics.h - One handler per instruction ----------------*- C++ -*-===//
//
// Every row of ISA.def has a handler, `TPU_SEMANTICS(Enum) { ... }`, in the
// file of its unit (Scalar.cpp, Vector.cpp, Mxu.cpp, Dma.cpp, Sync.cpp): it
// reads its operands through the Core, computes, and writes or traps. Every
// unit has an issue rule, `TPU_ISSUE_RULE(Unit) { ... }` (or
// TPU_NO_ISSUE_RULE), for what it must wait for beyond registers and its
// issue interval. Dispatch.cpp builds the opcode table from ISA.def, so a
// row without a handler does not link.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_SIM_SEMANTICS_SEMANTICS_H
#define TPU_LIB_SIM_SEMANTICS_SEMANTICS_H

#include "../Core.h"

namespace tpu::sim {

/// Executes one instruction; false if it trapped.
using ExecuteFn = bool (*)(Core &core, const isa::Instruction &inst);
/// The earliest cycle the instruction's unit can take it (0 if nothing
/// holds it back); sets `cause` to what it waits for.
using IssueRuleFn = uint64_t (*)(const Core &core, const isa::Instruction &inst,
                                 StallCause &cause);

#define TPU_SEMANTICS(ENUM)                                                    \
  bool execute##ENUM(Core &core, const isa::Instruction &inst)
#define TPU_ISSUE_RULE(UNIT)                                                   \
  uint64_t issueRule##UNIT(const Core &core, const isa::Instruction &inst,     \
                           StallCause &cause)
#define TPU_NO_ISSUE_RULE(UNIT)                                                \
  TPU_ISSUE_RULE(UNIT) { return 0; }

#define TPU_INST(ENUM, ...) TPU_SEMANTICS(ENUM);
#include "tpu/ISA/ISA.def"
#define TPU_UNIT(ENUM, ...) TPU_ISSUE_RULE(ENUM);
#include "tpu/ISA/ISA.def"

/// The handler and issue rule of each opcode.
ExecuteFn getExecuteFn(isa::Opcode opcode);
IssueRuleFn getIssueRuleFn(isa::Unit unit);

/// Traps if a DMA in flight at `core.now` conflicts with `inst` accessing
/// VMEM rows [first, first + count): one that writes them, or (when `inst`
/// writes) one that reads them.
bool checkDmaRace(Core &core, const isa::Instruction &inst, int64_t first,
                  int64_t count, bool isWrite);

/// Traps if `inst`, writing VMEM rows [first, first + count) at
/// `core.now`, writes rows a weight load is still shifting in: the MXU
/// takes its weights one row a cycle (docs/Simulator.md), so the hardware
/// would latch some of the new values.
bool checkWeightLoadRace(Core &core, const isa::Instruction &inst,
                         int64_t first, int64_t count);

} // namespace tpu::sim

#endif // TPU_LIB_SIM_SEMANTICS_SEMANTICS_H
