//===- Trace.h - Chrome Trace Event output ----------------------*- C++ -*-===//
//
// One track per unit (scalar, vpu, each MXU, dma), one for stalls and one
// for the source op whose bundles issue. Adjacent busy intervals of the
// same name and source op merge into one event, so a steady stream of
// pushes shows as one bar, not thousands. Timestamps are
// simulated microseconds at the chip's clock. Readable in Perfetto and
// chrome://tracing.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SIM_TRACE_H
#define TPU_SIM_TRACE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tpu::sim {

class Trace {
public:
  explicit Trace(uint64_t clockHz, size_t maxEvents = 2000000)
      : clockHz(clockHz), maxEvents(maxEvents) {}

  /// Names of the program's source ops, by index (the profile's sources,
  /// docs/Simulator.md, "Profile"); an event for source s carries
  /// `names[s]` as its "source" argument.
  void setSourceNames(std::vector<std::string> names) {
    sourceNames = std::move(names);
  }
  /// `name` kept `unit` busy over cycles [begin, end), for an instruction
  /// of source op `source`, if it has one.
  void add(const std::string &unit, const std::string &name, uint64_t begin,
           uint64_t end, std::optional<uint32_t> source = std::nullopt);
  /// The "source op" track: bundles of source op `source` issued over
  /// [begin, end), the event named after the op.
  void addSourceOp(uint32_t source, uint64_t begin, uint64_t end);
  std::string toJson() const;

private:
  struct Event {
    int track;
    std::string name;
    uint64_t begin, end;
    std::optional<uint32_t> source;
  };
  const std::string *getSourceName(std::optional<uint32_t> source) const;
  std::vector<std::string> sourceNames;
  uint64_t clockHz;
  size_t maxEvents;
  uint64_t dropped = 0;
  std::map<std::string, int> tracks;
  std::vector<Event> events;
  /// The last event of each track, for merging.
  std::map<int, size_t> lastOfTrack;
};

} // namespace tpu::sim

#endif // TPU_SIM_TRACE_H
