// Workgroup barriers (s_barrier) and the device's global wave sync (ds_gws_*): who waits, and
// when the waves are released.
#include "cu/ComputeUnit.h"

#include <cmath>

#include "cu/ResidentWave.h"
#include "isa/Gws.h"
#include "trace/Probes.h"

namespace vgpu {

using namespace sc_core;

void ComputeUnit::arriveAtBarrier(Wave& w) {
  ++barrierWaits;
  w.state = Wave::State::Barrier;
  markIssuable(w);
  w.waitStart = now_;
  ++w.group->wavesAtBarrier;
  releaseBarrierIfComplete(*w.group);
}

void ComputeUnit::releaseBarrierIfComplete(Workgroup& g) {
  // Waves that have ended count as arrived (Vega ISA guide 4.3 "Workgroups").
  if (g.wavesAtBarrier == 0 || g.wavesAtBarrier + g.wavesEnded < g.wavesTotal) return;
  g.wavesAtBarrier = 0;
  for (const uint32_t slot : g.slots) {  // a slot whose wave ended may hold another group's
    Wave* w = slots_[slot];
    if (w && w->group == &g && w->state == Wave::State::Barrier) releaseFromBarrier(*w);
  }
}

void ComputeUnit::releaseFromBarrier(Wave& w) {
  barrierStallCycles += now_ - w.waitStart;
  if (profile_) profile_->stalled(w.blockedPc, StallReason::Barrier, now_ - w.waitStart);
  if (activity_) activity_->addSpan(activityChannels_.stallBarrier, w.waitStart, now_, 1);
  w.state = Wave::State::Ready;
  markIssuable(w);
  w.readyCycle = std::max(w.readyCycle, now_ + 1);
  if (traceProbe) traceProbe->released(w.slot, w.readyCycle);
}

void ComputeUnit::pollGws() {
  gwsPolled_ = gws_->version();
  for (auto& w : slots_.all()) {
    if (!w || w->state != Wave::State::Gws) continue;
    const bool pass = w->gwsBarrier ? gws_->barrierPassed(w->gwsResource, w->gwsGeneration)
                                    : gws_->tryQueuedP(w->gwsResource);
    if (!pass) continue;
    --gwsWaiting_;
    // Counted with the workgroup barriers: a GWS barrier or semaphore is a device-wide one.
    releaseFromBarrier(*w);
  }
}

void ComputeUnit::waitForGws(uint64_t next) {
  // Only a wave on another CU (or a later event here) can change what the waiting waves wait
  // for: catch up with SystemC time and sleep until a CU notifies gwsChanged_, a workgroup
  // arrives here, or the next local event, the watchdog check or the cycle limit is due.
  uint64_t until = next;
  if (config_.watchdogCycles != 0) until = std::min(until, nextWatchdogCheck_);
  if (config_.maxCycles != 0) until = std::min(until, config_.maxCycles + 1);
  const uint64_t launched = wavesLaunched;
  qk_.sync();
  const sc_time start = sc_time_stamp();
  // Other processes ran during the sync: what they did then was notified before this wait.
  if (gws_->version() != gwsPolled_ || wavesLaunched != launched) {
    qk_.reset();
    return;
  }
  const sc_time timeout = period_ * static_cast<double>(until > now_ ? until - now_ : 1);
  if (gwsChanged_ && until == kNever)
    wait(*gwsChanged_ | workArrived_);
  else if (gwsChanged_)
    wait(timeout, *gwsChanged_ | workArrived_);
  else if (until == kNever)
    wait(workArrived_);
  else
    wait(timeout, workArrived_);
  const uint64_t elapsed = static_cast<uint64_t>(std::llround((sc_time_stamp() - start) / period_));
  residentWaveCycles += slots_.resident() * elapsed;
  if (activity_ && elapsed)
    activity_->addSpan(activityChannels_.activeWaves, now_, now_ + elapsed, slots_.resident());
  now_ += elapsed;
  qk_.reset();
}

}  // namespace vgpu
