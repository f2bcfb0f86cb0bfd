#include "trace/VcdWriter.h"

#include <algorithm>
#include <cmath>

namespace vgpu::trace {

namespace {
// Changes buffered before the first sort; later the threshold follows what stays buffered.
constexpr size_t kFlushEvents = size_t{1} << 16;

// VCD identifier codes: base 94 over the printable characters '!'..'~'.
std::string identifier(size_t index) {
  std::string id;
  do {
    id += static_cast<char>('!' + index % 94);
    index /= 94;
  } while (index > 0);
  return id;
}
}  // namespace

VcdWriter::VcdWriter(const std::string& path, const TraceFilter& filter,
                     sc_core::sc_time clockPeriod)
    : out_(path, "--vcd"),
      filter_(filter),
      relative_(filter),
      period_(clockPeriod),
      periodPs_(static_cast<uint64_t>(std::llround(clockPeriod.to_seconds() * 1e12))),
      flushAt_(kFlushEvents) {
  // Until the kernel starts, a kernel-relative window lies beyond every cycle: changes are
  // kept (they give the values at the window's start) and nothing is written.
  if (filter.fromKernel) filter_.startCycle = filter_.endCycle = ~uint64_t{0};
}

void VcdWriter::anchor(uint64_t kernelStart) {
  if (!relative_.fromKernel || anchored_) return;
  anchored_ = true;
  // Nothing is written yet: the horizon (SystemC time) has not passed the kernel's start,
  // which is the command processor's SystemC time, so no change at or after it is final.
  filter_ = anchoredAt(relative_, kernelStart);
}

VcdWriter::~VcdWriter() = default;

uint32_t VcdWriter::declare(const std::string& path, uint32_t width, SignalKind kind) {
  Signal s;
  s.path = path;
  s.width = std::clamp(width, 1u, 64u);
  s.kind = kind;
  s.id = identifier(signals_.size());
  if (kind == SignalKind::Mask) s.bits.assign(s.width, 0);
  signals_.push_back(std::move(s));
  return static_cast<uint32_t>(signals_.size() - 1);
}

uint64_t VcdWriter::currentHorizon() const {
  // No block records a change before SystemC time (see the header), so the cycles before the
  // current one are complete.
  return static_cast<uint64_t>(sc_core::sc_time_stamp() / period_);
}

uint64_t VcdWriter::valueOf(const Signal& s) const {
  const uint64_t max = s.width >= 64 ? ~uint64_t{0} : (uint64_t{1} << s.width) - 1;
  switch (s.kind) {
    case SignalKind::Count:
      return s.count <= 0 ? 0 : std::min<uint64_t>(static_cast<uint64_t>(s.count), max);
    case SignalKind::Mask: {
      uint64_t v = 0;
      for (uint32_t b = 0; b < s.width; ++b)
        if (s.bits[b] > 0) v |= uint64_t{1} << b;
      return v;
    }
    case SignalKind::Level:
      return s.level & max;
  }
  return 0;
}

void VcdWriter::apply(Signal& s, const Event& e) {
  switch (s.kind) {
    case SignalKind::Count:
      s.count += e.delta;
      break;
    case SignalKind::Mask:
      for (uint64_t m = e.value; m; m &= m - 1) {
        const int bit = __builtin_ctzll(m);
        if (bit < static_cast<int>(s.width)) s.bits[bit] += e.delta;
      }
      break;
    case SignalKind::Level:
      s.level = e.value;
      break;
  }
}

void VcdWriter::writeTime(uint64_t cycle) {
  line_ = "#" + std::to_string(cycle * periodPs_) + "\n";
  out_.write(line_);
}

void VcdWriter::writeValue(const Signal& s, uint64_t value) {
  if (s.width == 1) {
    line_.assign(1, value ? '1' : '0');
  } else {
    line_ = "b";
    if (value == 0) {
      line_ += '0';
    } else {
      for (int b = 63 - __builtin_clzll(value); b >= 0; --b)
        line_ += ((value >> b) & 1) ? '1' : '0';
    }
    line_ += ' ';
  }
  line_ += s.id;
  line_ += '\n';
  out_.write(line_);
}

void VcdWriter::writeHeader() {
  headerWritten_ = true;
  out_.write(
      "$comment vgpu model activity. Times are SystemC time: GPU cycle x clock period ("
      "1 cycle = " +
      std::to_string(periodPs_) +
      " ps). Written sorted by time from changes the blocks recorded at their local time "
      "(temporal decoupling). $end\n$version vgpu $end\n$timescale 1ps $end\n");
  // Scopes from the dotted paths, in the order signals were declared.
  struct Scope {
    std::string name;
    std::vector<std::unique_ptr<Scope>> children;
    std::vector<size_t> signals;
  };
  Scope root;
  for (size_t i = 0; i < signals_.size(); ++i) {
    Scope* scope = &root;
    const std::string& p = signals_[i].path;
    size_t start = 0;
    for (size_t dot; (dot = p.find('.', start)) != std::string::npos; start = dot + 1) {
      const std::string name = p.substr(start, dot - start);
      auto it = std::find_if(scope->children.begin(), scope->children.end(),
                             [&](const auto& c) { return c->name == name; });
      if (it == scope->children.end()) {
        scope->children.push_back(std::make_unique<Scope>());
        scope->children.back()->name = name;
        it = std::prev(scope->children.end());
      }
      scope = it->get();
    }
    scope->signals.push_back(i);
  }
  auto write = [&](const Scope& s, auto& self) -> void {
    for (size_t i : s.signals) {
      const Signal& sig = signals_[i];
      const std::string name = sig.path.substr(sig.path.rfind('.') + 1);
      out_.write("$var wire " + std::to_string(sig.width) + " " + sig.id + " " + name +
                 (sig.width > 1 ? " [" + std::to_string(sig.width - 1) + ":0]" : "") + " $end\n");
    }
    for (const auto& c : s.children) {
      out_.write("$scope module " + c->name + " $end\n");
      self(*c, self);
      out_.write("$upscope $end\n");
    }
  };
  write(root, write);
  out_.write("$enddefinitions $end\n");
}

void VcdWriter::writeDump(uint64_t cycle) {
  if (!headerWritten_) writeHeader();
  dumped_ = true;
  writeTime(cycle);
  out_.write("$dumpvars\n");
  for (auto& s : signals_) {
    s.written = valueOf(s);
    writeValue(s, s.written);
  }
  out_.write("$end\n");
}

void VcdWriter::flushBefore(uint64_t horizon) {
  std::stable_sort(events_.begin(), events_.end(),
                   [](const Event& a, const Event& b) { return a.cycle < b.cycle; });
  std::vector<uint32_t> touched;
  size_t i = 0;
  while (i < events_.size() && events_[i].cycle < horizon) {
    const uint64_t cycle = events_[i].cycle;
    if (!dumped_ && cycle > filter_.startCycle) writeDump(filter_.startCycle);
    ++step_;
    touched.clear();
    for (; i < events_.size() && events_[i].cycle == cycle; ++i) {
      Signal& s = signals_[events_[i].signal];
      apply(s, events_[i]);
      if (s.touched != step_) s.touched = step_, touched.push_back(events_[i].signal);
    }
    lastCycle_ = std::max(lastCycle_, cycle);
    if (!dumped_) {
      if (cycle == filter_.startCycle) writeDump(cycle);
      continue;
    }
    // Recorded before a kernel-relative window was anchored, past its end.
    if (cycle > filter_.endCycle) continue;
    bool timeWritten = false;
    std::sort(touched.begin(), touched.end());  // a deterministic order within the step
    for (uint32_t index : touched) {
      Signal& s = signals_[index];
      const uint64_t v = valueOf(s);
      if (v == s.written) continue;
      if (!timeWritten) writeTime(cycle), timeWritten = true;
      writeValue(s, v);
      s.written = v;
      ++changesWritten_;
    }
  }
  events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(i));
  horizon_ = std::max(horizon_, horizon);
  if (!dumped_ && horizon_ > filter_.startCycle) writeDump(filter_.startCycle);
  flushAt_ = std::max(kFlushEvents, 2 * events_.size());
}

void VcdWriter::finish() {
  // A kernel-relative window of a run without a kernel: the values at cycle 0, nothing more.
  if (!anchored()) filter_.startCycle = filter_.endCycle = 0;
  flushBefore(~uint64_t{0});
  if (!dumped_) writeDump(filter_.startCycle);
  // A closing timestamp one cycle after the last change (or at the window's end), so viewers
  // show the last values for a cycle.
  const uint64_t last = std::max(lastCycle_, filter_.startCycle);
  writeTime(std::min(last, filter_.endCycle - (filter_.endCycle == ~uint64_t{0} ? 1 : 0)) + 1);
  out_.commit();
}

}  // namespace vgpu::trace
