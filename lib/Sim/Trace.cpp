//===- Trace.cpp - Chrome Trace Event output ------------------------------===//

#include "tpu/Sim/Trace.h"

#include <cstdio>

namespace tpu::sim {

void Trace::add(const std::string &unit, const std::string &name,
                uint64_t begin, uint64_t end) {
  if (end <= begin)
    return;
  auto [it, inserted] = tracks.emplace(unit, int(tracks.size()));
  int track = it->second;
  auto last = lastOfTrack.find(track);
  if (last != lastOfTrack.end()) {
    Event &previous = events[last->second];
    if (previous.name == name && previous.end >= begin) {
      previous.end = std::max(previous.end, end);
      return;
    }
  }
  if (events.size() >= maxEvents) {
    ++dropped;
    return;
  }
  events.push_back({track, name, begin, end});
  lastOfTrack[track] = events.size() - 1;
}

std::string Trace::toJson() const {
  std::string text = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
  char line[256];
  bool first = true;
  auto emit = [&](const std::string &event) {
    text += (first ? "" : ",\n") + event;
    first = false;
  };
  for (const auto &[name, track] : tracks) {
    std::snprintf(line, sizeof(line),
                  "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, "
                  "\"tid\": %d, \"args\": {\"name\": \"%s\"}}",
                  track, name.c_str());
    emit(line);
  }
  double microsPerCycle = 1e6 / double(clockHz);
  for (const Event &event : events) {
    std::snprintf(line, sizeof(line),
                  "{\"ph\": \"X\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, "
                  "\"ts\": %.6f, \"dur\": %.6f, \"args\": {\"cycle\": %llu, "
                  "\"cycles\": %llu}}",
                  event.name.c_str(), event.track,
                  double(event.begin) * microsPerCycle,
                  double(event.end - event.begin) * microsPerCycle,
                  (unsigned long long)event.begin,
                  (unsigned long long)(event.end - event.begin));
    emit(line);
  }
  if (dropped) {
    std::snprintf(line, sizeof(line),
                  "{\"ph\": \"i\", \"name\": \"trace truncated: %llu events "
                  "dropped\", \"pid\": 0, \"tid\": 0, \"ts\": 0, \"s\": \"g\"}",
                  (unsigned long long)dropped);
    emit(line);
  }
  return text + "\n]}\n";
}

} // namespace tpu::sim
