#include "trace/TraceRecorder.h"

#include <algorithm>
#include <cctype>

#include "common/Error.h"

namespace vgpu::trace {

namespace {

// `path` is `block` or below it.
bool under(const std::string& path, const std::string& block) {
  return path == block || (path.size() > block.size() &&
                           path.compare(0, block.size(), block) == 0 && path[block.size()] == '.');
}

// A scope entry matches a block path (both relative to the GPU). "cuN" also takes the CU's own
// LDS and texture path (ldsN, tcN), which are its siblings in the module hierarchy.
bool scopeMatches(const std::string& entry, const std::string& path) {
  if (under(path, entry)) return true;
  if (entry.size() > 2 && entry.compare(0, 2, "cu") == 0 &&
      std::all_of(entry.begin() + 2, entry.end(), [](char c) { return std::isdigit(c); })) {
    const std::string n = entry.substr(2);
    return under(path, "lds" + n) || under(path, "tc" + n);
  }
  return false;
}

}  // namespace

TraceRecorder::TraceRecorder(const TraceOptions& options, sc_core::sc_time clockPeriod,
                             double clockMHz, const std::string& rootName)
    : options_(options), period_(clockPeriod) {
  const size_t dot = rootName.rfind('.');
  rootPrefix_ = dot == std::string::npos ? "" : rootName.substr(0, dot + 1);
  rootName_ = rootName.substr(rootPrefix_.size());
  // Scope entries may be written with or without the GPU's name ("gpu.cu0" or "cu0").
  for (TraceFilter* f : {&options_.vcd, &options_.timeline})
    for (std::string& s : f->scopes)
      if (under(s, rootName_) && s != rootName_) s = s.substr(rootName_.size() + 1);
  if (!options_.vcdPath.empty())
    vcd_ = std::make_unique<VcdWriter>(options_.vcdPath, options_.vcd, clockPeriod);
  if (!options_.timelinePath.empty())
    timeline_ =
        std::make_unique<TimelineWriter>(options_.timelinePath, options_.timeline, clockMHz);
}

TraceRecorder::~TraceRecorder() = default;

std::string TraceRecorder::pathOf(const sc_core::sc_object& module) const {
  const std::string name = module.name();
  if (!rootPrefix_.empty() && name.compare(0, rootPrefix_.size(), rootPrefix_) == 0)
    return name.substr(rootPrefix_.size());
  return name;
}

std::string TraceRecorder::relative(const std::string& path) const {
  if (path == rootName_) return "";
  if (under(path, rootName_)) return path.substr(rootName_.size() + 1);
  return path;
}

bool TraceRecorder::inScope(const TraceFilter& filter, const std::string& path) {
  const std::string rel = relative(path);
  if (knownSet_.insert(rel).second) knownBlocks_.push_back(rel);
  if (filter.scopes.empty()) return true;
  return std::any_of(filter.scopes.begin(), filter.scopes.end(),
                     [&](const std::string& s) { return scopeMatches(s, rel); });
}

uint32_t TraceRecorder::signal(const std::string& path, uint32_t width, SignalKind kind) {
  // The block is the signal's scope: everything before the signal's own name.
  const std::string block = path.substr(0, path.rfind('.'));
  const bool wanted = inScope(options_.vcd, block);
  if (vcd_ == nullptr || !wanted) return kOff;
  return vcd_->declare(path, width, kind);
}

uint32_t TraceRecorder::track(const std::string& blockPath, const std::string& process,
                              const std::string& thread, uint32_t sortIndex) {
  const bool wanted = inScope(options_.timeline, blockPath);
  if (timeline_ == nullptr || !wanted) return kOff;
  return timeline_->track(process, thread, sortIndex);
}

void TraceRecorder::beginFlow() {
  if (timeline_ == nullptr || finished_) return;
  endFlow();
  if (!hasOrigin_ || flowsPaused_ > 0) return;
  flowOpen_ = true;
  ++flowId_;
  flowStep(origin_.track, origin_.cycle);
}

void TraceRecorder::flowStep(uint32_t t, uint64_t cycle) {
  if (timeline_ == nullptr || flowsPaused_ > 0 || finished_) return;
  if (!flowOpen_) {
    if (!hasOrigin_) return;
    beginFlow();
    if (!flowOpen_) return;
  }
  // Points outside the timeline's scope or window are left out; the flow links the rest.
  if (t == kOff || !timeline_->inWindow(cycle)) return;
  if (pendingValid_) {
    timeline_->flowPoint(flowId_, flowPointsWritten_ == 0 ? 's' : 't', pending_.track,
                         pending_.cycle);
    ++flowPointsWritten_;
  }
  pending_ = {t, cycle};
  pendingValid_ = true;
}

void TraceRecorder::endFlow() {
  if (!flowOpen_) return;
  // A flow needs two points; a lone point is no arrow.
  if (pendingValid_ && flowPointsWritten_ > 0)
    timeline_->flowPoint(flowId_, 'f', pending_.track, pending_.cycle);
  flowOpen_ = false;
  pendingValid_ = false;
  flowPointsWritten_ = 0;
}

void TraceRecorder::validateScopes() const {
  auto check = [&](const TraceFilter& f, const char* option) {
    for (const std::string& s : f.scopes) {
      const bool found = std::any_of(knownBlocks_.begin(), knownBlocks_.end(),
                                     [&](const std::string& b) { return scopeMatches(s, b); });
      if (found) continue;
      std::vector<std::string> tops;  // the GPU's blocks: first components, in order
      for (const std::string& b : knownBlocks_) {
        const std::string top = b.substr(0, b.find('.'));
        if (!top.empty() && std::find(tops.begin(), tops.end(), top) == tops.end())
          tops.push_back(top);
      }
      std::string blocks;
      for (const std::string& b : tops) blocks += (blocks.empty() ? "" : ", ") + b;
      throw InputError(std::string(option) + ": this GPU has no block named '" + s +
                       "' (blocks: " + blocks + ")");
    }
  };
  if (vcd_) check(options_.vcd, "--vcd-scope");
  if (timeline_) check(options_.timeline, "--timeline-scope");
}

void TraceRecorder::kernelStarted(uint64_t cycle) {
  if (finished_ || kernels_++ > 0) return;
  firstKernelStart_ = cycle;
  if (vcd_) vcd_->anchor(cycle);
  if (timeline_) timeline_->anchor(cycle);
}

void TraceRecorder::kernelEnded(uint64_t, uint64_t endCycle) {
  lastKernelEnd_ = std::max(lastKernelEnd_, endCycle);
}

std::vector<std::string> TraceRecorder::emptyWindowWarnings() const {
  std::vector<std::string> warnings;
  std::string ran;
  if (kernels_ == 0)
    ran = "no kernel ran";
  else if (lastKernelEnd_ < firstKernelStart_)  // stopped before any dispatch completed
    ran = "the kernel started at GPU cycle " + std::to_string(firstKernelStart_);
  else
    ran = std::string(kernels_ == 1 ? "the kernel ran" : "the kernels ran") + " in GPU cycles " +
          std::to_string(firstKernelStart_) + ".." + std::to_string(lastKernelEnd_);
  auto check = [&](const char* option, const TraceFilter& given, const TraceFilter& absolute,
                   bool anchored, bool empty, const char* nothing) {
    if (!given.windowed() || !empty) return;
    std::string window = std::string(option) + " " + given.windowText();
    if (given.fromKernel && anchored)
      window += " (GPU cycles " + std::to_string(absolute.startCycle) + ".." +
                std::to_string(absolute.endCycle) + ")";
    warnings.push_back(window + " kept " + nothing + ": " + ran);
  };
  if (vcd_)
    check("--vcd-window", options_.vcd, vcd_->window(), vcd_->anchored(),
          vcd_->changesWritten() == 0, "no value change");
  if (timeline_)
    check("--timeline-window", options_.timeline, timeline_->window(), timeline_->anchored(),
          timeline_->slicesWritten() == 0, "no slice");
  return warnings;
}

void TraceRecorder::finish() {
  if (finished_) return;
  clearFlowOrigin();
  finished_ = true;
  if (vcd_) vcd_->finish();
  if (timeline_) timeline_->finish();
}

}  // namespace vgpu::trace
