// The timeline of a run (vgpu-sim --timeline) as Chrome/Perfetto trace-event JSON (the "JSON
// Object Format" of the Trace Event Format: {"traceEvents": [...], "displayTimeUnit": "ns"}),
// which ui.perfetto.dev and chrome://tracing open.
//
// Layout: a process (pid) per group of tracks, e.g. "gpu.cu0" holding its wave slots, SIMD
// VALUs, LDS, texture-address unit and vector L1, or "gpu.l2" holding one track per channel; a
// thread (tid) per track. Slices are complete events (ph "X"); memory transactions are flows
// (ph "s", "t", "f") between the slices they pass through.
//
// Time: one GPU cycle is one nanosecond on the time axis (ts and dur are in microseconds, so a
// cycle is 0.001). Real time (a 580 ps cycle) cannot be shown: the viewers keep whole
// nanoseconds. Read "ns" as "cycles"; otherData.clock_mhz gives the clock.
//
// Events stream to the file as they are recorded: trace-event JSON need not be sorted (the
// viewers sort), so a long run needs no memory for its timeline.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/OutputFile.h"
#include "trace/TraceOptions.h"

namespace vgpu::trace {

// `text` as the inside of a JSON string.
std::string jsonEscape(std::string_view text);

class TimelineWriter {
 public:
  TimelineWriter(const std::string& path, const TraceFilter& filter, double clockMHz);

  // A track `thread` in the group `process`; tracks sort by `sortIndex` within their group.
  // Nothing is written for a track until it gets its first event.
  uint32_t track(const std::string& process, const std::string& thread, uint32_t sortIndex);

  bool inWindow(uint64_t cycle) const {
    return anchored_ && cycle >= filter_.startCycle && cycle <= filter_.endCycle;
  }
  // A window counted from the kernel (TraceFilter::fromKernel) starts at `kernelStart` + START;
  // until then nothing is written. The first call counts (the first dispatch).
  void anchor(uint64_t kernelStart);
  bool anchored() const { return anchored_; }
  // The window in absolute cycles (for a kernel-relative one: once anchored).
  const TraceFilter& window() const { return filter_; }
  // Slices written (inside the window).
  uint64_t slicesWritten() const { return slicesWritten_; }
  // A complete slice over the cycles [from, to); `args` is the inside of a JSON object or empty.
  void slice(uint32_t track, uint64_t from, uint64_t to, std::string_view name,
             std::string_view category, std::string_view args);
  // One point of flow `id`: phase 's' (start), 't' (step) or 'f' (finish), bound to the slice
  // of `track` that encloses `cycle`.
  void flowPoint(uint64_t id, char phase, uint32_t track, uint64_t cycle);

  void finish();

 private:
  struct Group {
    std::string name;
    bool written = false;
  };
  struct Track {
    uint32_t group;
    std::string name;
    uint32_t sortIndex;
    bool written = false;
  };
  void begin(uint32_t track);  // metadata, then the separator before an event
  void appendTime(uint64_t cycle);

  OutputFile out_;
  TraceFilter filter_;  // absolute cycles once anchored
  bool anchored_;
  uint64_t slicesWritten_ = 0;
  std::vector<Group> groups_;
  std::vector<Track> tracks_;
  bool first_ = true;
  std::string line_;
};

}  // namespace vgpu::trace
