//===- Stats.cpp - What a simulation reports ------------------------------===//

#include "tpu/Sim/Stats.h"

#include "Json.h"

#include <cstdio>

namespace tpu::sim {

const char *getStallCauseName(StallCause cause) {
  switch (cause) {
#define TPU_STALL_CAUSE_NAME(ENUM, NAME)                                       \
  case StallCause::ENUM:                                                       \
    return NAME;
    TPU_STALL_CAUSES(TPU_STALL_CAUSE_NAME)
#undef TPU_STALL_CAUSE_NAME
  }
  return "?";
}

uint64_t SourceProfile::totalStallCycles() const {
  uint64_t total = 0;
  for (uint64_t stall : stallCycles)
    total += stall;
  return total;
}

std::string Stats::checkUsefulMacs() const {
  if (mxuMacsUseful > mxuMacsIssued)
    return "the binary claims " + std::to_string(mxuMacsUseful) +
           " useful MXU MACs but the run issued " +
           std::to_string(mxuMacsIssued) +
           "; utilization and padding efficiency are withheld (was the "
           "binary edited, or did the run stop early?)";
  if (mxuF32MacsUseful > mxuMacsUseful)
    return "the binary claims " + std::to_string(mxuF32MacsUseful) +
           " useful f32 MACs, more than its " + std::to_string(mxuMacsUseful) +
           " useful MXU MACs; utilization and padding efficiency are "
           "withheld (was the binary edited?)";
  return "";
}

std::optional<double> Stats::mxuUtilization() const {
  if (!checkUsefulMacs().empty())
    return std::nullopt;
  double capacity = double(cycles) * numMxus * kMxuDim * kMxuDim;
  return capacity > 0 ? double(mxuMacsUseful) / capacity : 0.0;
}

std::optional<double> Stats::mxuUtilizationF32() const {
  std::optional<double> passes = mxuUtilization();
  if (!passes || mxuMacsUseful == 0)
    return passes;
  return *passes * double(mxuF32MacsUseful) / double(mxuMacsUseful);
}

std::optional<double> Stats::paddingEfficiency() const {
  if (!checkUsefulMacs().empty())
    return std::nullopt;
  return mxuMacsIssued > 0 ? double(mxuMacsUseful) / double(mxuMacsIssued)
                           : 0.0;
}

double Stats::hbmBandwidthBytesPerSecond() const {
  double seconds = double(cycles) / double(clockHz);
  return seconds > 0 ? double(hbmBytesRead + hbmBytesWritten) / seconds : 0.0;
}

double Stats::hostCyclesPerSecond() const {
  return hostSeconds > 0 ? double(cycles) / hostSeconds : 0.0;
}

namespace {
std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

/// A withheld figure is JSON's null.
std::string number(std::optional<double> value) {
  return value ? number(*value) : "null";
}

/// A fraction as a percentage, or why it is missing.
std::string percent(std::optional<double> value) {
  return value ? number(*value * 100) : "withheld";
}

std::string object(const std::map<std::string, uint64_t> &values,
                   const char *indent) {
  std::string text = "{";
  bool first = true;
  for (const auto &[key, value] : values) {
    text += first ? "\n" : ",\n";
    text += std::string(indent) + "  \"" + key + "\": " + std::to_string(value);
    first = false;
  }
  return text + "\n" + indent + "}";
}
} // namespace

std::string Stats::toJson() const {
  std::string text = "{\n";
  auto field = [&](const char *key, const std::string &value,
                   bool last = false) {
    text += std::string("  \"") + key + "\": " + value + (last ? "\n" : ",\n");
  };
  field("chip", "\"" + chip + "\"");
  field("clock_hz", std::to_string(clockHz));
  field("mxus", std::to_string(numMxus));
  field("cycles", std::to_string(cycles));
  field("time_us", number(timeMicroseconds()));
  field("bundles", std::to_string(bundles));
  field("instructions", std::to_string(instructions));
  field("instruction_mix", object(instructionMix, "  "));
  field("static_bundles", std::to_string(staticBundles));
  field("mxu_macs_useful", std::to_string(mxuMacsUseful));
  field("mxu_f32_macs_useful", std::to_string(mxuF32MacsUseful));
  field("mxu_macs_issued", std::to_string(mxuMacsIssued));
  field("mxu_utilization", number(mxuUtilization()));
  field("mxu_utilization_f32", number(mxuUtilizationF32()));
  field("padding_efficiency", number(paddingEfficiency()));
  field("stall_cycles", object(stallCycles, "  "));
  field("unit_busy_cycles", object(unitBusyCycles, "  "));
  field("hbm_bytes_read", std::to_string(hbmBytesRead));
  field("hbm_bytes_written", std::to_string(hbmBytesWritten));
  field("hbm_bandwidth_bytes_per_s", number(hbmBandwidthBytesPerSecond()));
  field("hbm_share", "\"" + hbmShare + "\"");
  field("hbm_peak_bytes_per_s", number(hbmPeakBytesPerSecond));
  field("hbm_resident_bytes", std::to_string(hbmResidentBytes));
  field("vmem_peak_bytes", std::to_string(vmemPeakBytes));
  field("host_seconds", number(hostSeconds));
  field("host_threads", std::to_string(hostThreads));
  field("host_cycles_per_s", number(hostCyclesPerSecond()), profile.empty());
  if (!profile.empty()) {
    std::string list = "[";
    for (size_t i = 0; i < profile.size(); ++i) {
      const SourceProfile &entry = profile[i];
      std::map<std::string, uint64_t> stalls;
      for (unsigned c = 0; c < kNumStallCauses; ++c)
        stalls[getStallCauseName(StallCause(c))] = entry.stallCycles[c];
      list += std::string(i ? ",\n" : "\n") + "    {\"source\": \"" +
              jsonEscape(entry.source) +
              "\", \"cycles\": " + std::to_string(entry.cycles) +
              ", \"instructions\": " + std::to_string(entry.instructions) +
              ", \"mxu_busy_cycles\": " + std::to_string(entry.mxuBusy) +
              ", \"vpu_busy_cycles\": " + std::to_string(entry.vpuBusy) +
              ", \"dma_busy_cycles\": " + std::to_string(entry.dmaBusy) +
              ",\n     \"stall_cycles\": " + object(stalls, "    ") + "}";
    }
    field("profile", list + "\n  ]", true);
  }
  return text + "}\n";
}

std::string Stats::toTable() const {
  std::string text;
  char line[160];
  auto row = [&](const char *name, const std::string &value,
                 const char *unit = "") {
    std::snprintf(line, sizeof(line), "  %-28s %18s %s\n", name, value.c_str(),
                  unit);
    text += line;
  };
  text += "tpu-sim: " + chip + ", " + std::to_string(numMxus) + " MXU(s), " +
          number(double(clockHz) / 1e6) + " MHz\n";
  row("cycles", std::to_string(cycles));
  row("simulated time", number(timeMicroseconds()), "us");
  row("bundles issued", std::to_string(bundles));
  row("instructions issued", std::to_string(instructions));
  row("MXU MACs useful", std::to_string(mxuMacsUseful));
  row("  f32-equivalent", std::to_string(mxuF32MacsUseful));
  row("MXU MACs issued", std::to_string(mxuMacsIssued));
  row("MXU utilization", percent(mxuUtilization()), "%");
  row("  f32-equivalent", percent(mxuUtilizationF32()), "%");
  row("padding efficiency", percent(paddingEfficiency()), "%");
  row("HBM read", std::to_string(hbmBytesRead), "bytes");
  row("HBM written", std::to_string(hbmBytesWritten), "bytes");
  row("HBM bandwidth", number(hbmBandwidthBytesPerSecond() / 1e9), "GB/s");
  row("  peak", number(hbmPeakBytesPerSecond / 1e9),
      hbmShare == "core" ? "GB/s (the core's share: half the chip's)"
                         : "GB/s (the whole chip's: --hbm-bandwidth=chip)");
  row("VMEM peak", std::to_string(vmemPeakBytes), "bytes");
  text += "  busy cycles by unit:\n";
  for (const auto &[unit, cycleCount] : unitBusyCycles)
    row(("  " + unit).c_str(), std::to_string(cycleCount));
  text += "  stall cycles by cause:\n";
  for (const auto &[cause, cycleCount] : stallCycles)
    row(("  " + cause).c_str(), std::to_string(cycleCount));
  row("host time", number(hostSeconds), "s");
  row("host threads", std::to_string(hostThreads));
  row("host speed", number(hostCyclesPerSecond()), "cycles/s");
  return text;
}

std::string Stats::profileTable() const {
  std::string text = "tpu-sim: cycles by source op (docs/Simulator.md, "
                     "\"Profile\")\n";
  char line[256];
  std::snprintf(line, sizeof(line),
                "  %10s %6s %10s  %-18s %10s %10s %10s  %s\n", "cycles", "%",
                "stalls", "most stalled on", "mxu busy", "vpu busy", "dma busy",
                "source op");
  text += line;
  for (const SourceProfile &entry : profile) {
    unsigned worst = 0;
    for (unsigned c = 1; c < kNumStallCauses; ++c)
      if (entry.stallCycles[c] > entry.stallCycles[worst])
        worst = c;
    uint64_t stalls = entry.totalStallCycles();
    std::snprintf(line, sizeof(line),
                  "  %10llu %6.1f %10llu  %-18s %10llu %10llu %10llu  ",
                  (unsigned long long)entry.cycles,
                  cycles ? 100.0 * double(entry.cycles) / double(cycles) : 0.0,
                  (unsigned long long)stalls,
                  stalls ? getStallCauseName(StallCause(worst)) : "-",
                  (unsigned long long)entry.mxuBusy,
                  (unsigned long long)entry.vpuBusy,
                  (unsigned long long)entry.dmaBusy);
    text += line + entry.source + "\n";
  }
  return text;
}

} // namespace tpu::sim
