//===- HwyTargets.h - Run a check on every SIMD target ----------*- C++ -*-===//
//
// The simulator's SIMD kernels dispatch at run time to the best target the
// host has; a test must hold every target to the same bits, so it runs its
// check once per target Highway built and this host supports.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_UNITTESTS_SIM_HWYTARGETS_H
#define TPU_UNITTESTS_SIM_HWYTARGETS_H

#include "hwy/targets.h"
#include "gtest/gtest.h"

namespace tpu::sim::testing {

/// Runs `check()` with dispatch pinned to each target in turn.
template <typename CheckFn> void forEachHwyTarget(const CheckFn &check) {
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    SCOPED_TRACE(hwy::TargetName(target));
    hwy::SetSupportedTargetsForTest(target);
    check();
  }
  hwy::SetSupportedTargetsForTest(0);
}

} // namespace tpu::sim::testing

#endif // TPU_UNITTESTS_SIM_HWYTARGETS_H
