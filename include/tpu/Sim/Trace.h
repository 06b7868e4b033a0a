//===- Trace.h - Chrome Trace Event output ----------------------*- C++ -*-===//
//
// One track per unit (scalar, vpu, each MXU, dma) plus one for stalls.
// Adjacent busy intervals of the same name merge into one event, so a
// steady stream of pushes shows as one bar, not thousands. Timestamps are
// simulated microseconds at the chip's clock. Readable in Perfetto and
// chrome://tracing.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SIM_TRACE_H
#define TPU_SIM_TRACE_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tpu::sim {

class Trace {
public:
  explicit Trace(uint64_t clockHz, size_t maxEvents = 2000000)
      : clockHz(clockHz), maxEvents(maxEvents) {}

  /// `name` kept `unit` busy over cycles [begin, end).
  void add(const std::string &unit, const std::string &name, uint64_t begin,
           uint64_t end);
  std::string toJson() const;

private:
  struct Event {
    int track;
    std::string name;
    uint64_t begin, end;
  };
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
