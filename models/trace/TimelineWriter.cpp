#include "trace/TimelineWriter.h"

#include <algorithm>
#include <cstdio>

namespace vgpu::trace {

std::string jsonEscape(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '"':
        s += "\\\"";
        break;
      case '\\':
        s += "\\\\";
        break;
      case '\n':
        s += "\\n";
        break;
      case '\t':
        s += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          s += buf;
        } else {
          s += c;
        }
    }
  }
  return s;
}

TimelineWriter::TimelineWriter(const std::string& path, const TraceFilter& filter, double clockMHz)
    : out_(path, "--timeline"), filter_(filter), anchored_(!filter.fromKernel) {
  char clock[64];
  std::snprintf(clock, sizeof clock, "%.6g", clockMHz);
  out_.write(std::string("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"vgpu\","
                         "\"time_unit\":\"1 ns on the time axis = 1 GPU cycle\",\"clock_mhz\":") +
             clock + "},\n\"traceEvents\":[\n");
}

void TimelineWriter::anchor(uint64_t kernelStart) {
  if (anchored_) return;
  anchored_ = true;
  filter_ = anchoredAt(filter_, kernelStart);
}

uint32_t TimelineWriter::track(const std::string& process, const std::string& thread,
                               uint32_t sortIndex) {
  auto g = std::find_if(groups_.begin(), groups_.end(),
                        [&](const Group& x) { return x.name == process; });
  if (g == groups_.end()) {
    groups_.push_back({process});
    g = std::prev(groups_.end());
  }
  tracks_.push_back({static_cast<uint32_t>(g - groups_.begin()), thread, sortIndex});
  return static_cast<uint32_t>(tracks_.size() - 1);
}

void TimelineWriter::appendTime(uint64_t cycle) {
  // Microseconds with three decimals: one cycle per nanosecond.
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(cycle / 1000),
                static_cast<unsigned long long>(cycle % 1000));
  line_ += buf;
}

void TimelineWriter::begin(uint32_t index) {
  Track& t = tracks_[index];
  Group& g = groups_[t.group];
  const std::string pid = std::to_string(t.group + 1), tid = std::to_string(index + 1);
  auto event = [&](const std::string& text) {
    if (!first_) out_.write(",\n");
    first_ = false;
    out_.write(text);
  };
  if (!g.written) {
    g.written = true;
    event("{\"ph\":\"M\",\"pid\":" + pid + ",\"name\":\"process_name\",\"args\":{\"name\":\"" +
          jsonEscape(g.name) + "\"}}");
    event("{\"ph\":\"M\",\"pid\":" + pid +
          ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" + pid + "}}");
  }
  if (!t.written) {
    t.written = true;
    event("{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":" + tid +
          ",\"name\":\"thread_name\",\"args\":{\"name\":\"" + jsonEscape(t.name) + "\"}}");
    event("{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":" + tid +
          ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" +
          std::to_string(t.sortIndex) + "}}");
  }
  if (!first_) out_.write(",\n");
  first_ = false;
  line_ = "{\"pid\":" + pid + ",\"tid\":" + tid + ",";
}

void TimelineWriter::slice(uint32_t track, uint64_t from, uint64_t to, std::string_view name,
                           std::string_view category, std::string_view args) {
  if (to < from) to = from;
  if (!anchored_ || from > filter_.endCycle || to < filter_.startCycle) return;
  ++slicesWritten_;
  begin(track);
  line_ += "\"ph\":\"X\",\"ts\":";
  appendTime(from);
  line_ += ",\"dur\":";
  appendTime(to - from);
  line_ += ",\"name\":\"";
  line_ += jsonEscape(name);
  line_ += "\",\"cat\":\"";
  line_ += category;
  line_ += '"';
  if (!args.empty()) {
    line_ += ",\"args\":{";
    line_ += args;
    line_ += '}';
  }
  line_ += '}';
  out_.write(line_);
}

void TimelineWriter::flowPoint(uint64_t id, char phase, uint32_t track, uint64_t cycle) {
  begin(track);
  line_ += "\"ph\":\"";
  line_ += phase;
  line_ += "\",\"id\":" + std::to_string(id) + ",\"name\":\"memory\",\"cat\":\"memory\",\"ts\":";
  appendTime(cycle);
  // The finish binds to the slice that encloses it, like the start and steps, rather than to
  // the next slice that begins.
  if (phase == 'f') line_ += ",\"bp\":\"e\"";
  line_ += '}';
  out_.write(line_);
}

void TimelineWriter::finish() {
  out_.write("\n]}\n");
  out_.commit();
}

}  // namespace vgpu::trace
