#include "activity/ProgressMeter.h"

#include "activity/RunSummary.h"

namespace vgpu {

using namespace sc_core;

namespace {

// A dispatch in which no wave issued anything for this many simulated cycles is stuck in a way
// the model did not detect: the meter stops waking up then, so that SystemC can still run out
// of events and end the simulation as it would without the meter.
constexpr uint64_t kStuckCycles = 1000000;

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

ProgressMeter::ProgressMeter(sc_module_name name, const Gpu& gpu, ProgressOptions options)
    : sc_module(name),
      gpu_(gpu),
      options_(options),
      period_(gpu.config().clockPeriodNs(), SC_NS),
      start_(std::chrono::steady_clock::now()) {
  // The counters are read through their registered pointers: cheap enough for every check.
  for (const auto& [counter, value] : gpu.statistics().counters()) {
    if (counter.compare(0, 2, "cu") != 0) continue;
    if (endsWith(counter, ".wave_instructions")) waveInstructions_.push_back(value);
    if (endsWith(counter, ".workgroups")) workgroupsFinished_.push_back(value);
  }
  const auto dispatched = gpu.statistics().counters().find("dispatcher.workgroups");
  if (dispatched != gpu.statistics().counters().end()) workgroupsDispatched_ = dispatched->second;
  SC_THREAD(run);
}

uint64_t ProgressMeter::sum(const std::vector<const uint64_t*>& counters) const {
  uint64_t total = 0;
  for (const uint64_t* c : counters) total += *c;
  return total;
}

void ProgressMeter::run() {
  const sc_time tick = period_ * static_cast<double>(std::max<uint64_t>(1, options_.checkCycles));
  uint64_t lastInstructions = 0, idleCycles = 0;
  while (true) {
    if (gpu_.activeDispatches() == 0 || idleCycles >= kStuckCycles) {
      idleCycles = 0;
      wait(gpu_.dispatchSubmittedEvent());
    }
    wait(tick);
    const uint64_t instructions = sum(waveInstructions_);
    idleCycles = instructions == lastInstructions ? idleCycles + options_.checkCycles : 0;
    lastInstructions = instructions;
    show(instructions);
  }
}

std::string ProgressMeter::formatLine(uint64_t dispatched, uint64_t finished, uint64_t cycle,
                                      double waveInstructionsPerSecond) {
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.2f", waveInstructionsPerSecond / 1e6);
  return "vgpu-sim: workgroups " + withThousands(dispatched) + " dispatched, " +
         withThousands(finished) + " finished | cycle " + withThousands(cycle) + " | " + rate +
         " M wave-instructions/s";
}

void ProgressMeter::show(uint64_t waveInstructions) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < options_.quietSeconds) return;
  if (updates_ > 0 &&
      std::chrono::duration<double>(now - lastUpdate_).count() < options_.intervalSeconds)
    return;
  lastUpdate_ = now;
  ++updates_;
  const std::string line =
      formatLine(workgroupsDispatched_ ? *workgroupsDispatched_ : 0, sum(workgroupsFinished_),
                 static_cast<uint64_t>(sc_time_stamp() / period_),
                 elapsed > 0 ? double(waveInstructions) / elapsed : 0);
  if (options_.inPlace)
    std::fprintf(options_.out, "\r%s\033[K", line.c_str());
  else
    std::fprintf(options_.out, "%s\n", line.c_str());
  std::fflush(options_.out);
}

void ProgressMeter::finish() {
  if (options_.inPlace && updates_ > 0) {
    std::fputs("\r\033[K", options_.out);
    std::fflush(options_.out);
  }
}

}  // namespace vgpu
