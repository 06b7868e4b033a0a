//===- SimTestUtils.h - Programs from text for simulator tests --*- C++ -*-===//

#ifndef TPU_UNITTESTS_SIM_SIMTESTUTILS_H
#define TPU_UNITTESTS_SIM_SIMTESTUTILS_H

#include "tpu/ISA/Program.h"
#include "tpu/Sim/Simulator.h"
#include "tpu/Support/BF16.h"

#include "gtest/gtest.h"

#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace tpu::sim::testing {

/// A program from lines of "inst ; inst ; ..." (one line a bundle), run on a
/// fresh simulator. The test reads and writes memory and registers through
/// `sim()` before and after `run()`.
class Machine {
public:
  explicit Machine(const std::vector<std::string> &bundles,
                   ChipKind chip = ChipKind::V4,
                   SimulatorOptions options = SimulatorOptions()) {
    program.chip = chip;
    for (const std::string &line : bundles) {
      isa::Bundle bundle;
      std::stringstream stream(line);
      std::string text;
      while (std::getline(stream, text, ';')) {
        absl::StatusOr<isa::Instruction> inst = isa::parseInstruction(text);
        EXPECT_TRUE(inst.ok()) << text << ": " << inst.status();
        if (inst.ok())
          bundle.instructions.push_back(*inst);
      }
      program.bundles.push_back(bundle);
    }
    absl::StatusOr<std::unique_ptr<Simulator>> created =
        Simulator::create(program, options);
    EXPECT_TRUE(created.ok()) << created.status();
    if (created.ok())
      simulator = *std::move(created);
  }

  Simulator &sim() { return *simulator; }
  std::optional<Trap> run() { return simulator->run(); }
  const Stats &stats() { return simulator->getStats(); }
  VReg &vreg(int index) { return simulator->getState().vregs[index]; }
  uint32_t sreg(int index) { return simulator->getState().sregs[index]; }
  float vf(int reg, int sublane, int lane) {
    return floatOf(vreg(reg)[sublane * kLanes + lane]);
  }
  void setVf(int reg, int sublane, int lane, float value) {
    vreg(reg)[sublane * kLanes + lane] = bitsOf(value);
  }
  uint32_t *vmem(int64_t row) { return simulator->getMemory().vmemRow(row); }

private:
  isa::Program program;
  std::unique_ptr<Simulator> simulator;
};

} // namespace tpu::sim::testing

#endif // TPU_UNITTESTS_SIM_SIMTESTUTILS_H
