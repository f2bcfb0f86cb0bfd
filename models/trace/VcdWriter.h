// The VCD of model activity (vgpu-sim --vcd), written by the recorder itself rather than by
// sc_trace. Why: the model is temporally decoupled. Each compute unit runs up to a quantum ahead
// of SystemC time, and caches and DRAM reserve their resources at the requester's local time
// (common/Reservation.h), often in the future of SystemC time and out of time order. sc_trace
// samples members at SystemC time, so it would stamp every value at the wrong time. Instead,
// blocks record timestamped changes (GPU cycle = SystemC time + the block's local offset, over
// the clock period) and this writer sorts them by time before writing.
//
// Signals are of three kinds, chosen so that out-of-order, overlapping records add up right:
//   Count  the number of open intervals (+1 at the start, -1 at the end), saturated to the
//          signal's width: 1-bit "busy" signals, queue depths, outstanding MSHRs, hits per cycle;
//   Mask   a bit vector, each bit the OR of the intervals that cover it (LDS bank busy);
//   Level  a value set at a cycle (command-processor state); the last one recorded wins.
//
// Memory stays bounded on long runs: no block ever records a change before the current SystemC
// time (its local time is never behind it), so every change before SystemC time is final and is
// written out when the buffer fills.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "trace/OutputFile.h"
#include "trace/TraceOptions.h"

namespace vgpu::trace {

enum class SignalKind : uint8_t { Count, Mask, Level };

class VcdWriter {
 public:
  // Times in the file are SystemC's (1 ps units): GPU cycle x the clock period.
  VcdWriter(const std::string& path, const TraceFilter& filter, sc_core::sc_time clockPeriod);
  ~VcdWriter();

  // Declares a signal; `path` is dotted ("gpu.cu0.simd1.valu_busy"), its scopes are the
  // components before the last. All signals must be declared before the first change.
  uint32_t declare(const std::string& path, uint32_t width, SignalKind kind);

  // Count: `delta` open intervals; Mask: `delta` on every bit of `mask`; Level: `value`.
  void change(uint32_t signal, uint64_t cycle, int32_t delta, uint64_t value) {
    if (cycle > filter_.endCycle) return;
    if (cycle < horizon_) {
      cycle = horizon_;  // never happens in a well-behaved model; keeps the file monotonic
      ++lateChanges_;
    }
    events_.push_back({cycle, signal, delta, value});
    if (events_.size() >= flushAt_) flushBefore(currentHorizon());
  }
  // A window counted from the kernel (TraceFilter::fromKernel) starts at `kernelStart` + START:
  // until then the changes update the signals' values but nothing is written. The first call
  // counts (the first dispatch); later ones do nothing.
  void anchor(uint64_t kernelStart);
  // Writes everything recorded, then the closing timestamp.
  void finish();
  uint64_t lateChanges() const { return lateChanges_; }
  // Value changes written inside the window, after the values at its start.
  uint64_t changesWritten() const { return changesWritten_; }
  // The window in absolute cycles (for a kernel-relative one: once anchored).
  const TraceFilter& window() const { return filter_; }
  bool anchored() const { return !relative_.fromKernel || anchored_; }

 private:
  struct Event {
    uint64_t cycle;
    uint32_t signal;
    int32_t delta;
    uint64_t value;
  };
  struct Signal {
    std::string path;
    uint32_t width;
    SignalKind kind;
    std::string id;
    int64_t count = 0;          // Count
    std::vector<int32_t> bits;  // Mask: open intervals per bit
    uint64_t level = 0;         // Level
    uint64_t written = 0;       // the value the file shows
    uint64_t touched = 0;       // the time step that last changed it (dedup)
  };

  uint64_t currentHorizon() const;
  void flushBefore(uint64_t horizon);
  void writeHeader();
  void writeDump(uint64_t cycle);
  void writeValue(const Signal& s, uint64_t value);
  void writeTime(uint64_t cycle);
  uint64_t valueOf(const Signal& s) const;
  void apply(Signal& s, const Event& e);

  OutputFile out_;
  TraceFilter filter_;    // absolute cycles; a kernel-relative window: nothing before anchor()
  TraceFilter relative_;  // the window as given
  bool anchored_ = false;
  uint64_t changesWritten_ = 0;
  sc_core::sc_time period_;
  uint64_t periodPs_;
  std::vector<Signal> signals_;
  std::vector<Event> events_;
  size_t flushAt_;
  uint64_t horizon_ = 0;    // every change before this cycle has been written
  uint64_t step_ = 0;       // time steps processed (for Signal::touched)
  uint64_t lastCycle_ = 0;  // the latest cycle of any change
  bool headerWritten_ = false, dumped_ = false;
  uint64_t lateChanges_ = 0;
  std::string line_;
};

}  // namespace vgpu::trace
