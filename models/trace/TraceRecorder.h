// The trace recorder: what blocks call to put their activity into the VCD (vgpu-sim --vcd)
// and the timeline (--timeline). A block calls it with (absolute GPU cycle, signal or track,
// value): the cycle is the block's local time (SystemC time plus its temporal-decoupling
// offset) over the clock period, so records arrive out of time order; the VCD writer sorts
// them (see VcdWriter.h for why sc_trace cannot be used), the timeline needs no order.
//
// Blocks do not call the recorder directly: each holds a pointer to its probe (Probes.h), null
// when tracing is off, so a hook costs one pointer test when nothing is traced. Signals and
// tracks outside the --vcd-scope / --timeline-scope come back as kOff and cost nothing more.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "trace/TimelineWriter.h"
#include "trace/TraceOptions.h"
#include "trace/VcdWriter.h"

namespace vgpu::trace {

// A block's adapter to the recorder (Probes.h); the recorder owns them.
class Probe {
 public:
  virtual ~Probe() = default;
};

class TraceRecorder {
 public:
  static constexpr uint32_t kOff = ~0u;

  // `rootName`: the GPU module's hierarchical name ("system.gpu"); signal and track names
  // start at its last component ("gpu.cu0.simd1.valu_busy"). Opens the output files: a path
  // that cannot be written is an InputError here, before anything is simulated.
  TraceRecorder(const TraceOptions& options, sc_core::sc_time clockPeriod, double clockMHz,
                const std::string& rootName);
  ~TraceRecorder();

  // "gpu.cu0" for the module named "system.gpu.cu0".
  std::string pathOf(const sc_core::sc_object& module) const;
  uint64_t cycleOf(const sc_core::sc_time& t) const { return static_cast<uint64_t>(t / period_); }

  template <class P, class... Args>
  P* make(Args&&... args) {
    auto p = std::make_unique<P>(*this, std::forward<Args>(args)...);
    P* raw = p.get();
    probes_.push_back(std::move(p));
    return raw;
  }

  // ---- VCD ----------------------------------------------------------------------------------
  // A signal at dotted `path` ("gpu.cu0.active_waves"), or kOff (no VCD, or outside its scope).
  uint32_t signal(const std::string& path, uint32_t width, SignalKind kind = SignalKind::Count);
  // Count/Mask signals: `delta` intervals open at `cycle` (on the bits of `mask`).
  // (After finish(), every recording call does nothing: see finish().)
  void change(uint32_t s, uint64_t cycle, int32_t delta, uint64_t mask = 0) {
    if (s != kOff && !finished_) vcd_->change(s, cycle, delta, mask);
  }
  // One interval [from, to) on a Count or Mask signal.
  void interval(uint32_t s, uint64_t from, uint64_t to, uint64_t mask = 0) {
    if (s == kOff || to <= from || finished_) return;
    vcd_->change(s, from, 1, mask);
    vcd_->change(s, to, -1, mask);
  }
  // Level signals: `value` from `cycle` on.
  void set(uint32_t s, uint64_t cycle, uint64_t value) {
    if (s != kOff && !finished_) vcd_->change(s, cycle, 0, value);
  }

  // ---- Timeline -----------------------------------------------------------------------------
  // A track `thread` of the group `process`, for the block at `blockPath`; kOff when there is
  // no timeline or the block is outside its scope.
  uint32_t track(const std::string& blockPath, const std::string& process,
                 const std::string& thread, uint32_t sortIndex);
  void slice(uint32_t t, uint64_t from, uint64_t to, std::string_view name,
             std::string_view category, std::string_view args = {}) {
    if (t != kOff && !finished_) timeline_->slice(t, from, to, name, category, args);
  }

  // Memory transactions as flows. A compute unit sets the origin (its instruction's slice)
  // before sending a request; the blocks the request passes through add steps at their
  // slices. The texture-address unit begins one flow per line transaction; elsewhere the first
  // step begins the flow. Calls nest inside one b_transport chain, so one open flow at a time.
  void setFlowOrigin(uint32_t t, uint64_t cycle) {
    if (timeline_ == nullptr || finished_) return;
    endFlow();
    origin_ = {t, cycle};
    hasOrigin_ = true;
  }
  void clearFlowOrigin() {
    if (timeline_ == nullptr || finished_) return;
    endFlow();
    hasOrigin_ = false;
  }
  void beginFlow();
  void endFlow();
  void flowStep(uint32_t t, uint64_t cycle);
  // Traffic that is not part of the current transaction (an L2 write-back) adds no steps.
  void pauseFlows(bool paused) { flowsPaused_ += paused ? 1 : -1; }

  // Kernel dispatches, from the command processor: the first start anchors the windows counted
  // from the kernel (TraceFilter::fromKernel); both give the range empty-window warnings name.
  void kernelStarted(uint64_t cycle);
  void kernelEnded(uint64_t startCycle, uint64_t endCycle);
  // After finish(): one message per output whose window was asked for and kept no activity
  // (no value change in the VCD, no slice in the timeline), naming the window in absolute
  // cycles and the cycles the kernels ran in.
  std::vector<std::string> emptyWindowWarnings() const;

  // Throws InputError naming a --vcd-scope / --timeline-scope entry that matches no block.
  void validateScopes() const;
  // Writes out and closes both files (atomically): after the simulation, or earlier when a
  // program may end without returning (a queue's fault, which ROCclr answers with abort()). The
  // simulation may go on after it: what it records from then on is dropped, and a second call
  // does nothing.
  void finish();

 private:
  struct Point {
    uint32_t track = kOff;
    uint64_t cycle = 0;
  };
  bool inScope(const TraceFilter& filter, const std::string& path);
  std::string relative(const std::string& path) const;

  TraceOptions options_;
  sc_core::sc_time period_;
  std::string rootPrefix_;  // "system." for the GPU "system.gpu"
  std::string rootName_;    // "gpu"
  std::unique_ptr<VcdWriter> vcd_;
  std::unique_ptr<TimelineWriter> timeline_;
  std::vector<std::unique_ptr<Probe>> probes_;
  std::vector<std::string> knownBlocks_;  // every block path asked about, relative to the GPU
  std::set<std::string> knownSet_;

  Point origin_;
  bool hasOrigin_ = false;
  bool flowOpen_ = false;
  Point pending_;  // the latest point of the open flow, written when the next one comes
  bool pendingValid_ = false;
  uint32_t flowPointsWritten_ = 0;
  uint64_t flowId_ = 0;
  int flowsPaused_ = 0;
  bool finished_ = false;
  // Kernel dispatches seen: the first start, the last end.
  uint64_t kernels_ = 0, firstKernelStart_ = 0, lastKernelEnd_ = 0;
};

}  // namespace vgpu::trace
