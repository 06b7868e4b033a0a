//===- Sync.cpp - nop and halt --------------------------------------------===//

#include "Semantics.h"

namespace tpu::sim {

TPU_NO_ISSUE_RULE(Sync)

TPU_SEMANTICS(Nop) { return true; }

/// The run ends; the step loop waits for DMAs still in flight.
TPU_SEMANTICS(Halt) {
  core.halt();
  return true;
}

} // namespace tpu::sim
