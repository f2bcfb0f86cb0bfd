// What stops a kernel from the compute unit: the watchdog and deadlock reports, the cycle
// limit, and the fault report with wave, PC, encoding and disassembly.
#include "cu/ComputeUnit.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "common/Hex.h"
#include "cu/ResidentWave.h"
#include "isa/Gws.h"
#include "trace/Probes.h"

namespace vgpu {

using namespace sc_core;

std::string ComputeUnit::describeWave(const Wave& w) const {
  std::ostringstream os;
  const auto& g = *w.group;
  os << "wave " << w.indexInGroup << " of workgroup (" << g.groupId[0] << "," << g.groupId[1] << ","
     << g.groupId[2] << ") on CU " << id_ << " (SIMD " << w.simd << ", slot " << w.slot << ")";
  return os.str();
}

std::string ComputeUnit::describeWaveProgress(const Wave& w) const {
  const uint64_t pc = waiting(w) ? w.blockedPc : w.s->pc;
  const isa::Instruction* inst = code_->at(pc);
  const uint64_t base = w.group->dispatch->codeObjectBase;  // 0: no code object known
  std::ostringstream os;
  os << describeWave(w) << ": PC " << hex(pc) << (base ? " (offset " + hex(pc - base) + ")" : "")
     << " "
     << (inst ? isa::disassemble(*inst, config_.target) : std::string("(outside device memory)"))
     << ": ";
  switch (w.state) {
    case Wave::State::Barrier: {
      const Workgroup& g = *w.group;
      os << "waits at the barrier since cycle " << w.waitStart << " (" << g.wavesAtBarrier << " of "
         << g.wavesTotal << " waves arrived, " << g.wavesEnded << " ended)";
      break;
    }
    case Wave::State::Waitcnt:
      os << "waits in s_waitcnt since cycle " << w.waitStart << " for vmcnt <= " << w.waitVm
         << " (outstanding " << w.counters.vm << "), lgkmcnt <= " << w.waitLgkm << " (outstanding "
         << w.counters.lgkm << "), expcnt <= " << w.waitExp << " (outstanding " << w.counters.exp
         << ")";
      break;
    case Wave::State::Draining:
      os << "ended; " << w.outstanding << " memory accesses still outstanding";
      break;
    case Wave::State::Gws:
      os << "waits for global wave sync resource " << w.gwsResource << " since cycle "
         << w.waitStart << " (counter " << gws_->counter(w.gwsResource)
         << (w.gwsBarrier ? ", waves queued at its barrier: " : ", waves queued in sema_p: ")
         << (w.gwsBarrier ? gws_->queuedAtBarrier(w.gwsResource) : gws_->queuedP(w.gwsResource))
         << ")";
      break;
    case Wave::State::Ready:
      if (w.readyCycle > now_)
        os << "issues next at cycle " << w.readyCycle
           << " (instruction fetch, s_sleep or a busy pipeline)";
      else
        os << "ready to issue";
      if (w.outstanding) os << "; " << w.outstanding << " memory accesses outstanding";
      break;
  }
  return os.str();
}

std::string ComputeUnit::describeEveryWave() const {
  std::ostringstream os;
  os << "  waves on CU " << id_ << " at cycle " << now_ << ":";
  for (const auto& w : slots_.all())
    if (w) os << "\n    " << describeWaveProgress(*w);
  return os.str();
}

uint64_t ComputeUnit::stuckSince(const Wave& w) const {
  // A wave at a workgroup barrier or a GWS barrier or semaphore waits for other waves. Those
  // that still change memory are working (a compare-and-swap retry loop under contention, where
  // one lane wins each round; a long phase that a grid-wide sync waits for), and only the cycle
  // limit can tell a loop of stores that never ends. A wave that spins on loads, or on
  // atomics that change nothing (a spin lock's failing compare-and-swaps while its holder waits
  // at the barrier), writes nothing. A counter that does not come down (s_waitcnt) is stuck
  // whatever others do.
  if (w.state == Wave::State::Waitcnt) return w.waitStart;
  return std::max(w.waitStart, *lastDeviceWrite_);
}

const ResidentWave* ComputeUnit::longestWaiting() const {
  const Wave* oldest = nullptr;
  for (const auto& w : slots_.all())
    if (w && waiting(*w) && (!oldest || stuckSince(*w) < stuckSince(*oldest))) oldest = w.get();
  return oldest;
}

void ComputeUnit::faultDeadlock(const std::string& reason) {
  // The report points at the wave that has waited longest, at the instruction it waits in.
  const Wave* oldest = longestWaiting();
  for (const auto& w : slots_.all())
    if (!oldest && w) oldest = w.get();
  if (!oldest) return;
  fault(*oldest, waiting(*oldest) ? code_->at(oldest->blockedPc) : nullptr,
        reason + "\n" + describeEveryWave());
}

void ComputeUnit::checkWatchdog() {
  // Only waits count: a wave that keeps issuing (a spin loop) is the cycle limit's business,
  // but the barrier its workgroup's other waves wait at shows up here, once no wave of the
  // device has written memory for as long (stuckSince).
  const Wave* oldest = longestWaiting();
  if (oldest == nullptr) {
    nextWatchdogCheck_ = now_ + config_.watchdogCycles;
    return;
  }
  // (The last write may be another CU's, at its local time: ahead of this one's.)
  const uint64_t since = stuckSince(*oldest);
  if (since >= now_ || now_ - since <= config_.watchdogCycles) {
    nextWatchdogCheck_ = since + config_.watchdogCycles + 1;
    return;
  }
  faultDeadlock("deadlock: no forward progress for " + std::to_string(config_.watchdogCycles) +
                " cycles (--watchdog-cycles): a wave has waited " +
                (oldest->state == Wave::State::Barrier
                     ? std::string("at a barrier that the rest of its workgroup does not reach")
                 : oldest->state == Wave::State::Gws
                     ? std::string("for a global wave sync resource (ds_gws_sema_p or "
                                   "ds_gws_barrier) that no wave releases")
                     : std::string("for memory counters that have not come down")) +
                " since cycle " + std::to_string(oldest->waitStart) +
                (since > oldest->waitStart
                     ? ", and no wave has changed memory (a store, or an atomic that "
                       "left a different value) since cycle " +
                           std::to_string(since)
                     : std::string()));
}

void ComputeUnit::fault(const Wave& w, const isa::Instruction* inst, const std::string& reason,
                        std::optional<uint64_t> refusedAddress) {
  std::ostringstream os;
  os << "kernel '" << w.group->dispatch->kernelName << "' faulted: " << reason << "\n  at "
     << describeWave(w) << ", cycle " << now_;
  char buf[128];
  const isa::Instruction* shown = inst ? inst : code_->at(w.s->pc);
  // Device addresses, and the offsets in the code object that `vgpu-sim disasm` prints when
  // host software told the GPU where the code object lies (Gpu::debugCodeObjectLoaded).
  const uint64_t base = w.group->dispatch->codeObjectBase;
  os << "\n  PC " << hex(w.s->pc);
  if (base != 0) os << " (code object offset " << hex(w.s->pc - base) << ")";
  if (inst) {
    os << " (instruction at " << hex(inst->pc);
    if (base != 0) os << ", offset " << hex(inst->pc - base);
    os << ")";
  }
  if (shown) {
    os << ", encoding";
    for (unsigned i = 0; i < shown->sizeBytes / 4 && i < 3; ++i) {
      std::snprintf(buf, sizeof buf, " %08X", shown->words[i]);
      os << buf;
    }
    os << ": " << isa::disassemble(*shown, config_.target);
  }
  halted_ = true;
  if (traceProbe) traceProbe->faulted();
  qk_.sync();
  listener_.kernelFaulted(id_, w.group->dispatch, WaveFault{os.str(), refusedAddress});
}

}  // namespace vgpu
