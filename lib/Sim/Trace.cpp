//===- Trace.cpp - Chrome Trace Event output ------------------------------===//

#include "tpu/Sim/Trace.h"

#include "Json.h"

#include "absl/strings/str_format.h"

#include <cstdio>

namespace tpu::sim {

const std::string *Trace::getSourceName(std::optional<uint32_t> source) const {
  return source && *source < sourceNames.size() ? &sourceNames[*source]
                                                : nullptr;
}

void Trace::addSourceOp(uint32_t source, uint64_t begin, uint64_t end) {
  if (const std::string *name = getSourceName(source))
    add("source op", *name, begin, end, source);
}

void Trace::add(const std::string &unit, const std::string &name,
                uint64_t begin, uint64_t end, std::optional<uint32_t> source) {
  if (end <= begin)
    return;
  auto [it, inserted] = tracks.emplace(unit, int(tracks.size()));
  int track = it->second;
  auto last = lastOfTrack.find(track);
  if (last != lastOfTrack.end()) {
    Event &previous = events[last->second];
    if (previous.name == name && previous.source == source &&
        previous.end >= begin) {
      previous.end = std::max(previous.end, end);
      return;
    }
  }
  if (events.size() >= maxEvents) {
    ++dropped;
    return;
  }
  events.push_back({track, name, begin, end, source});
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
    // Event names hold source ops' file names, of any length.
    std::string text = absl::StrFormat(
        "{\"ph\": \"X\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, "
        "\"ts\": %.6f, \"dur\": %.6f, \"args\": {\"cycle\": %d, "
        "\"cycles\": %d",
        jsonEscape(event.name), event.track,
        double(event.begin) * microsPerCycle,
        double(event.end - event.begin) * microsPerCycle, event.begin,
        event.end - event.begin);
    if (const std::string *source = getSourceName(event.source))
      text += ", \"source\": \"" + jsonEscape(*source) + "\"";
    emit(text + "}}");
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
