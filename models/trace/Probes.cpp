#include "trace/Probes.h"

#include <algorithm>
#include <cstdio>

#include "common/Hex.h"

namespace vgpu::trace {

namespace {

constexpr uint32_t kOff = TraceRecorder::kOff;

std::string twoDigits(size_t n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02zu", n);
  return buf;
}

// Bits for a count of up to `n`.
uint32_t widthFor(uint64_t n) {
  uint32_t w = 1;
  while (w < 64 && (n >> w) != 0) ++w;
  return w;
}

}  // namespace

// ---- compute unit ----------------------------------------------------------------------------

CuProbe::CuProbe(TraceRecorder& recorder, const std::string& path, uint32_t simds,
                 uint32_t slotsPerSimd, isa::GfxTarget target)
    : recorder_(recorder),
      path_(path),
      slotsPerSimd_(std::max(1u, slotsPerSimd)),
      target_(target),
      slots_(simds * slotsPerSimd) {
  const uint32_t waves = widthFor(slots_.size());
  activeWaves_ = recorder.signal(path + ".active_waves", waves);
  wavesAtWaitcnt_ = recorder.signal(path + ".waves_at_waitcnt", waves);
  wavesAtBarrier_ = recorder.signal(path + ".waves_at_barrier", waves);
  const char* types[5] = {"valu", "vmem", "scalar", "lds", "branch"};
  for (int t = 0; t < 5; ++t) issue_[t] = recorder.signal(path + ".issue_" + types[t], 1);
  for (uint32_t s = 0; s < simds; ++s) {
    const std::string simd = "simd" + std::to_string(s);
    valuBusy_.push_back(recorder.signal(path + "." + simd + ".valu_busy", 1));
    valuTracks_.push_back(recorder.track(path, path, simd + " valu", 1 + s));
  }
}

const CuProbe::Described& CuProbe::describe(const isa::Instruction& inst) {
  auto it = described_.find(&inst);
  if (it != described_.end()) return it->second;
  Described d;
  const std::string text = isa::disassemble(inst, target_);
  d.mnemonic = text.substr(0, text.find(' '));
  d.args = "\"pc\":\"" + hex(inst.pc) + "\",\"disasm\":\"" + jsonEscape(text) + "\"";
  return described_.emplace(&inst, std::move(d)).first->second;
}

uint32_t CuProbe::laneTrack(uint32_t slot, uint32_t lane) {
  Slot& s = slots_[slot];
  if (s.tracks.size() <= lane) s.tracks.resize(lane + 1, kOff - 1);  // kOff - 1: not yet asked
  if (s.tracks[lane] == kOff - 1) {
    // Lane 0 holds the wave's instructions that finish in order; a memory instruction overlaps
    // the ones after it, so memory instructions go to lanes of their own, each lane's slices
    // disjoint (the viewers need the slices of a track nested or disjoint).
    const std::string name = "slot " + twoDigits(slot) + " (simd" +
                             std::to_string(slot / slotsPerSimd_) + ")" +
                             (lane ? " memory " + std::to_string(lane) : "");
    s.tracks[lane] = recorder_.track(path_, path_, name, 100 + slot * 100 + lane);
  }
  return s.tracks[lane];
}

void CuProbe::waveStarted(uint32_t slot, uint64_t cycle) {
  recorder_.change(activeWaves_, cycle, 1);
  slots_[slot].open = false;
}

void CuProbe::close(uint32_t slot, uint32_t lane, uint64_t end) {
  Slot& s = slots_[slot];
  s.open = false;
  const Described& d = describe(*s.inst);
  recorder_.slice(laneTrack(slot, lane), s.issue, std::max(end, s.issue + 1), d.mnemonic,
                  "instruction", d.args);
}

void CuProbe::waveEnded(uint32_t slot, uint64_t cycle) {
  if (slots_[slot].open) close(slot, 0, cycle);
  recorder_.change(activeWaves_, cycle, -1);
}

void CuProbe::issued(uint32_t slot, uint32_t simd, const isa::Instruction& inst, uint64_t cycle,
                     uint32_t busyCycles, bool memory) {
  Slot& s = slots_[slot];
  s.inst = &inst;
  s.issue = cycle;
  s.open = true;
  s.block = Block::None;
  int type = -1;
  switch (inst.issue) {
    case isa::IssueType::Valu:
      type = 0;
      recorder_.interval(valuBusy_[simd], cycle, cycle + busyCycles);
      // The unit's view: the mnemonic only (the wave slot's slice has the PC and disassembly).
      if (valuTracks_[simd] != kOff)
        recorder_.slice(valuTracks_[simd], cycle, cycle + busyCycles, describe(inst).mnemonic,
                        "valu");
      break;
    case isa::IssueType::Vmem:
      type = 1;
      break;
    case isa::IssueType::Salu:
    case isa::IssueType::Smem:
      type = 2;
      break;
    case isa::IssueType::Lds:
      type = 3;
      break;
    case isa::IssueType::Branch:
    case isa::IssueType::Message:
      type = 4;
      break;
    default:
      break;
  }
  if (type >= 0) recorder_.interval(issue_[type], cycle, cycle + 1);
  if (!memory) return;
  // The first memory lane whose last slice has ended (slices of a wave start in issue order,
  // so this colours them with the fewest lanes).
  uint32_t lane = 0;
  while (lane < s.laneEnd.size() && s.laneEnd[lane] > cycle) ++lane;
  if (lane == s.laneEnd.size()) s.laneEnd.push_back(cycle);
  s.memoryLane = lane;
  recorder_.setFlowOrigin(laneTrack(slot, lane + 1), cycle);
}

void CuProbe::memoryDone(uint32_t slot, uint64_t completion) {
  Slot& s = slots_[slot];
  recorder_.clearFlowOrigin();
  if (!s.open) return;
  s.laneEnd[s.memoryLane] = std::max(completion, s.issue + 1);
  close(slot, s.memoryLane + 1, completion);
}

void CuProbe::settled(uint32_t slot, Block block, uint64_t readyCycle) {
  Slot& s = slots_[slot];
  if (!s.open) return;  // a memory instruction: its slice is written
  s.block = block;
  switch (block) {
    case Block::None:
      close(slot, 0, readyCycle);
      break;
    case Block::Waitcnt:
      recorder_.change(wavesAtWaitcnt_, s.issue, 1);
      break;
    case Block::Barrier:
      recorder_.change(wavesAtBarrier_, s.issue, 1);
      break;
    case Block::Draining:
      break;
  }
}

void CuProbe::released(uint32_t slot, uint64_t readyCycle) {
  Slot& s = slots_[slot];
  if (!s.open) return;
  if (s.block == Block::Waitcnt) recorder_.change(wavesAtWaitcnt_, readyCycle, -1);
  if (s.block == Block::Barrier) recorder_.change(wavesAtBarrier_, readyCycle, -1);
  close(slot, 0, readyCycle);
}

// ---- LDS -----------------------------------------------------------------------------------

LdsProbe::LdsProbe(TraceRecorder& recorder, const std::string& path, const std::string& group,
                   uint32_t banks)
    : recorder_(recorder) {
  bankBusy_ = recorder.signal(path + ".bank_busy", std::clamp(banks, 1u, 64u), SignalKind::Mask);
  busy_ = recorder.signal(path + ".busy", 1);
  conflict_ = recorder.signal(path + ".conflict", 1);
  track_ = recorder.track(path, group, "lds banks", 10);
}

void LdsProbe::access(uint64_t start, uint32_t cycles, uint32_t conflictCycles,
                      const std::vector<uint64_t>& bankMasks) {
  const uint64_t end = start + cycles;
  recorder_.interval(busy_, start, end);
  recorder_.interval(conflict_, end - std::min(conflictCycles, cycles), end);
  if (bankBusy_ != kOff) {
    // One interval per run of cycles with the same banks.
    for (size_t i = 0; i < bankMasks.size() && i < cycles;) {
      size_t j = i + 1;
      while (j < bankMasks.size() && j < cycles && bankMasks[j] == bankMasks[i]) ++j;
      recorder_.interval(bankBusy_, start + i, start + j, bankMasks[i]);
      i = j;
    }
  }
  if (track_ != kOff) {
    recorder_.slice(track_, start, end, conflictCycles ? "lds access (conflict)" : "lds access",
                    "lds",
                    "\"cycles\":" + std::to_string(cycles) +
                        ",\"conflict_cycles\":" + std::to_string(conflictCycles));
    recorder_.flowStep(track_, start);
  }
}

// ---- texture-address unit -------------------------------------------------------------------

TextureAddressProbe::TextureAddressProbe(TraceRecorder& recorder, const std::string& path,
                                         const std::string& group)
    : recorder_(recorder) {
  busy_ = recorder.signal(path + ".ta_busy", 1);
  track_ = recorder.track(path, group, "texture address", 11);
}

void TextureAddressProbe::lineSent(uint64_t cycle, uint64_t address, uint32_t bytes, bool write) {
  recorder_.interval(busy_, cycle, cycle + 1);
  recorder_.beginFlow();
  if (track_ == kOff) return;
  recorder_.slice(track_, cycle, cycle + 1, write ? "line write" : "line read", "memory",
                  "\"address\":\"" + hex(address) + "\",\"bytes\":" + std::to_string(bytes));
  recorder_.flowStep(track_, cycle);
}

// ---- caches ----------------------------------------------------------------------------------

CacheProbe::CacheProbe(TraceRecorder& recorder, const std::string& path, const std::string& group,
                       uint32_t channels, uint32_t mshrsPerChannel)
    : recorder_(recorder) {
  channels = std::max(1u, channels);
  hits_ = recorder.signal(path + ".hits", 8);
  misses_ = recorder.signal(path + ".misses", 8);
  mshrs_ = recorder.signal(path + ".mshrs", widthFor(uint64_t{channels} * mshrsPerChannel));
  const std::string leaf = path.substr(path.rfind('.') + 1);
  for (uint32_t c = 0; c < channels; ++c) {
    const std::string base = channels == 1 ? path : path + ".channel" + twoDigits(c);
    busy_.push_back(recorder.signal(base + ".busy", 1));
    queue_.push_back(recorder.signal(base + ".queue", 8));
    tracks_.push_back(
        recorder.track(path, group, channels == 1 ? leaf : "channel " + twoDigits(c), 12 + c));
  }
}

void CacheProbe::access(size_t channel, const sc_core::sc_time& arrival,
                        const sc_core::sc_time& portStart, const sc_core::sc_time& portEnd,
                        Access kind, uint64_t address, uint64_t bytes) {
  const uint64_t start = recorder_.cycleOf(portStart), end = recorder_.cycleOf(portEnd);
  recorder_.interval(queue_[channel], recorder_.cycleOf(arrival), start);
  recorder_.interval(busy_[channel], start, end);
  if (kind == Access::Hit) recorder_.interval(hits_, start, start + 1);
  if (kind == Access::Miss) recorder_.interval(misses_, start, start + 1);
  const uint32_t t = tracks_[channel];
  if (t == kOff) return;
  static const char* names[] = {"hit", "miss", "write", "atomic"};
  recorder_.slice(t, start, end, names[static_cast<int>(kind)], "memory",
                  "\"address\":\"" + hex(address) + "\",\"bytes\":" + std::to_string(bytes));
  recorder_.flowStep(t, start);
}

void CacheProbe::mshrHeld(size_t, const sc_core::sc_time& from, const sc_core::sc_time& to) {
  recorder_.interval(mshrs_, recorder_.cycleOf(from), recorder_.cycleOf(to));
}

// ---- DRAM ------------------------------------------------------------------------------------

DramProbe::DramProbe(TraceRecorder& recorder, const std::string& path, uint32_t channels)
    : recorder_(recorder) {
  for (uint32_t c = 0; c < std::max(1u, channels); ++c) {
    const std::string base = path + ".channel" + twoDigits(c);
    busy_.push_back(recorder.signal(base + ".busy", 1));
    queue_.push_back(recorder.signal(base + ".queue", 8));
    tracks_.push_back(recorder.track(path, path, "channel " + twoDigits(c), c));
  }
}

void DramProbe::access(uint32_t channel, const sc_core::sc_time& arrival,
                       const sc_core::sc_time& busStart, const sc_core::sc_time& busEnd, Row row,
                       uint64_t address, uint64_t bytes) {
  const uint64_t start = recorder_.cycleOf(busStart), end = recorder_.cycleOf(busEnd);
  recorder_.interval(queue_[channel], recorder_.cycleOf(arrival), start);
  recorder_.interval(busy_[channel], start, end);
  const uint32_t t = tracks_[channel];
  if (t == kOff) return;
  static const char* names[] = {"row hit", "row miss", "row conflict"};
  recorder_.slice(t, start, end, names[static_cast<int>(row)], "memory",
                  "\"address\":\"" + hex(address) + "\",\"bytes\":" + std::to_string(bytes));
  recorder_.flowStep(t, start);
}

// ---- command processor -----------------------------------------------------------------------

CommandProcessorProbe::CommandProcessorProbe(TraceRecorder& recorder, const std::string& path,
                                             uint32_t queues)
    : recorder_(recorder), barrierSince_(queues, 0), atBarrier_(queues, false) {
  running_ = recorder.signal(path + ".kernels_running", widthFor(queues));
  start_ = recorder.signal(path + ".kernel_start", 1);
  end_ = recorder.signal(path + ".kernel_end", 1);
  for (uint32_t q = 0; q < queues; ++q) {
    state_.push_back(
        recorder.signal(path + ".queue" + std::to_string(q) + ".state", 2, SignalKind::Level));
    tracks_.push_back(recorder.track(path, path, "queue " + std::to_string(q), q));
  }
}

void CommandProcessorProbe::kernelStarted(uint32_t q, uint64_t cycle) {
  recorder_.kernelStarted(cycle);
  if (q >= state_.size()) return;
  recorder_.change(running_, cycle, 1);
  recorder_.interval(start_, cycle, cycle + 1);
  recorder_.set(state_[q], cycle, static_cast<uint64_t>(QueueState::Kernel));
}

void CommandProcessorProbe::kernelEnded(uint32_t q, const std::string& name, uint64_t startCycle,
                                        uint64_t endCycle, uint64_t workgroups, uint64_t waves,
                                        bool faulted) {
  recorder_.kernelEnded(startCycle, endCycle);
  if (q >= state_.size()) return;
  recorder_.change(running_, endCycle, -1);
  recorder_.interval(end_, endCycle, endCycle + 1);
  recorder_.set(state_[q], endCycle, static_cast<uint64_t>(QueueState::Idle));
  recorder_.slice(tracks_[q], startCycle, endCycle, name, "kernel",
                  "\"workgroups\":" + std::to_string(workgroups) + ",\"waves\":" +
                      std::to_string(waves) + ",\"faulted\":" + (faulted ? "true" : "false"));
}

void CommandProcessorProbe::queueState(uint32_t q, const sc_core::sc_time& now, QueueState s) {
  if (q >= state_.size()) return;
  const uint64_t cycle = recorder_.cycleOf(now);
  if (s == QueueState::Barrier && !atBarrier_[q]) barrierSince_[q] = cycle;
  if (s != QueueState::Barrier && atBarrier_[q])
    recorder_.slice(tracks_[q], barrierSince_[q], cycle, "barrier packet", "barrier");
  atBarrier_[q] = s == QueueState::Barrier;
  recorder_.set(state_[q], cycle, static_cast<uint64_t>(s));
}

}  // namespace vgpu::trace
