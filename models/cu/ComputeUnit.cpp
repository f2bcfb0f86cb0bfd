#include "cu/ComputeUnit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "common/Apertures.h"
#include "common/Hex.h"
#include "common/MemoryExtensions.h"
#include "common/RefusedAddressExtension.h"
#include "cu/ResidentWave.h"
#include "dram/DeviceMemoryMap.h"
#include "isa/Gws.h"
#include "isa/LoadResultAtIssue.h"
#include "isa/Memory.h"
#include "isa/OpInfo.h"
#include "lds/LdsAtIssue.h"
#include "trace/Probes.h"

namespace vgpu {

using namespace sc_core;

namespace {

// Why nothing answered an access (the fault report's words).
std::string whereNothingAnswersIn(uint64_t address, uint64_t deviceBytes) {
  if (address >= DeviceMemoryMap::kBase && address - DeviceMemoryMap::kBase < deviceBytes)
    return "in device memory but outside every range host software mapped (MEM_MAP)";
  return "outside device memory and outside every system memory the platform answers for";
}
}  // namespace

bool ComputeUnit::PendingOrder::operator()(const PendingEntry& a, const PendingEntry& b) const {
  // Min-heap on (completion, issue order): deterministic among equal completion times.
  if (a.completion != b.completion) return a.completion > b.completion;
  return a.sequence > b.sequence;
}

ComputeUnit::ComputeUnit(sc_module_name name, uint32_t id, const PlatformConfig& config,
                         ComputeUnitListener& listener)
    : sc_module(name),
      ldsSocket("lds_socket"),
      vectorMemorySocket("vector_memory_socket"),
      scalarMemorySocket("scalar_memory_socket"),
      instructionSocket("instruction_socket"),
      id_(id),
      config_(config),
      listener_(listener),
      period_(sc_time(config.clockPeriodNs(), SC_NS)),
      slots_(config),
      simdValuFree_(config.cu.simdsPerCu, 0) {
  cycleCtx_.target = config_.target;
  cycleCtx_.sharedApertureBase = kSharedApertureBase;
  cycleCtx_.privateApertureBase = kPrivateApertureBase;
  cycleCtx_.realtimeClock = &realtimeClock_;
  simdOfCycle_ = Divisor(config_.cu.simdsPerCu);
  for (uint32_t simd = 0; simd < config_.cu.simdsPerCu; ++simd) {
    simdSlotWordsBegin_.push_back(static_cast<uint32_t>(simdSlotWords_.size()));
    const uint32_t first = simd * config_.cu.waveSlotsPerSimd;
    const uint32_t end = first + config_.cu.waveSlotsPerSimd;
    for (uint32_t word = first / 64; word * 64 < end; ++word) {
      const uint32_t lo = std::max(first, word * 64) - word * 64;
      const uint32_t hi = std::min(end, word * 64 + 64) - word * 64;  // 1..64
      const uint64_t below = hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1;
      simdSlotWords_.push_back({word, below & (~uint64_t{0} << lo)});
    }
  }
  simdSlotWordsBegin_.push_back(static_cast<uint32_t>(simdSlotWords_.size()));
  const MemoryPort::Sockets sockets{ldsSocket, vectorMemorySocket, scalarMemorySocket};
  if (config_.functionalMode) {
    // Plain loads and stores go through DMI, and complete at issue where it maps their bytes.
    auto direct = std::make_unique<DirectMemoryPort>(sockets);
    directPort_ = direct.get();
    cycleCtx_.directMemory = directPort_;
    cycleCtx_.dsAtIssue = lds::executeAtIssue;  // and DS instructions on the workgroup's LDS
    memoryPort_ = std::move(direct);
  } else {
    memoryPort_ = std::make_unique<TimedMemoryPort>(sockets);
  }
  perturbation_.seed(config_.perturbLatencySeed, id_);
  // The slowest of the rates that apply (an f64 transcendental at the slower of the two).
  for (uint32_t rate = 0; rate < valuCyclesByRate_.size(); ++rate) {
    uint32_t divisor = 1;
    if (rate & isa::kValuFp64) divisor = config_.cu.fp64RateDivisor;
    if (rate & isa::kValuTranscendental)
      divisor = std::max(divisor, config_.cu.transcendentalRateDivisor);
    if (rate & isa::kValuQuarterRateInt) divisor = std::max(divisor, 4u);
    valuCyclesByRate_[rate] = config_.cu.valuCycles * divisor;
  }
  vectorMemorySocket.register_invalidate_direct_mem_ptr(this, &ComputeUnit::invalidateVectorDmi);
  scalarMemorySocket.register_invalidate_direct_mem_ptr(this, &ComputeUnit::invalidateScalarDmi);
  instructionSocket.register_invalidate_direct_mem_ptr(this,
                                                       &ComputeUnit::invalidateInstructionDmi);
  SC_THREAD(run);
}

ComputeUnit::~ComputeUnit() {
  // A payload frees the extensions it still carries; this one is a member.
  if (fetchMarkedDataMoved_) fetchPayload_.payload().clear_extension(&fetchDataMoved_);
}

bool ComputeUnit::findSlots(const WorkgroupResources& r, std::vector<uint32_t>& placement) const {
  return !halted_ && slots_.find(r, placement);
}

void ComputeUnit::launch(WorkgroupLaunch& launch) {
  // The SystemC time of the launch, in this CU's cycles; one cycle to start the waves.
  const uint64_t start = static_cast<uint64_t>(sc_time_stamp() / period_) + 1;
  const Workgroup& group = slots_.place(launch, ldsStorage_, start);
  if (traceProbe)
    for (const auto& wave : launch.waves) traceProbe->waveStarted(wave.slot, start);
  wavesLaunched += group.wavesTotal;
  contextGroup_ = nullptr;  // the new group may sit where an ended one did
  workArrived_.notify(SC_ZERO_TIME);
}

void ComputeUnit::advance(uint64_t cycles) {
  residentWaveCycles += slots_.resident() * cycles;
  if (activity_)
    activity_->addSpan(activityChannels_.activeWaves, now_, now_ + cycles, slots_.resident());
  now_ += cycles;
  // In integers: sc_time * double converts both ways (the same value below 2^53 ps).
  qk_.inc(timeFromValue(period_.value() * cycles));
  if (qk_.need_sync()) qk_.sync();
}

void ComputeUnit::run() {
  qk_.reset();
  while (true) {
    startArrivedWaves();  // launched while this thread waited, in the last iteration
    if (slots_.resident() == 0 || halted_) {
      qk_.sync();
      // Other processes ran during the sync: a workgroup the dispatcher launched here then was
      // notified before this wait, and waiting for the next notification would sleep for ever
      // (seen when a dispatch starts in the delta cycle its predecessor ended in).
      if (slots_.resident() != 0 && !halted_) {
        now_ = std::max(now_, static_cast<uint64_t>(sc_time_stamp() / period_));
        qk_.reset();
        continue;
      }
      wait(workArrived_);
      now_ = std::max(now_, static_cast<uint64_t>(sc_time_stamp() / period_));
      qk_.reset();
      continue;
    }
    retireCompleted();
    if (slots_.resident() == 0 || halted_) continue;
    if (gwsWaiting_ != 0 && gws_->version() != gwsPolled_) pollGws();
    if (config_.maxCycles != 0 && now_ > config_.maxCycles) {
      for (auto& w : slots_.all())
        if (w) {
          fault(*w, nullptr,
                "the kernel ran past the cycle limit (" + std::to_string(config_.maxCycles) +
                    " cycles, --max-cycles); a runaway loop?\n" + describeEveryWave());
          break;
        }
      continue;
    }
    if (config_.watchdogCycles != 0 && now_ >= nextWatchdogCheck_) {
      checkWatchdog();
      if (halted_) continue;
    }
    const unsigned issued = issueCycle();
    if (halted_) continue;
    if (issued > 0) {
      ++activeCycles;
      advance(1);
      continue;
    }
    // Nothing could issue: jump to the next cycle at which something changes.
    const uint64_t next = nextEventCycle();
    if (gwsWaiting_ != 0) {  // waves on other CUs may release the waves waiting for GWS
      waitForGws(next);
      continue;
    }
    if (next == kNever) {
      faultDeadlock(
          "deadlock: no wave can make progress (every wave waits at a barrier or for a "
          "counter that nothing will decrement)");
      continue;
    }
    advance(next > now_ ? next - now_ : 1);
  }
}

uint64_t ComputeUnit::nextEventCycle() const {
  // Nothing comes before the next cycle: the scan stops at the first wave (or access) that is
  // due by then. Usually one is (a wave of another SIMD, whose turn it is next), and scanning
  // every wave to learn so was a tenth of a loop kernel's host time.
  const uint64_t soonest = now_ + 1;
  uint64_t next = kNever;
  if (!pending_.empty()) next = std::max(pending_.top().completion, soonest);
  // The waves in the Ready state only (the others wait for an access, a barrier or the end).
  for (uint32_t word = 0; word < slots_.issuable().size() && next > soonest; ++word)
    for (uint64_t ready = slots_.issuable()[word]; ready != 0; ready &= ready - 1) {
      const Wave* w = slots_[word * 64 + static_cast<uint32_t>(__builtin_ctzll(ready))];
      if (w->readyCycle <= soonest) return soonest;
      next = std::min(next, w->readyCycle);
    }
  return next;
}

void ComputeUnit::retireCompleted() {
  while (!pending_.empty() && pending_.top().completion <= now_) {
    const PendingEntry p = pending_.top();
    pending_.pop();
    Wave& w = *p.wave;
    if (p.request) {  // (only accesses that return data keep one)
      if (p.request->writeback.kind == isa::kWbVgpr) --w.vgprResultsInFlight;
      if (p.request->writeback.kind == isa::kWbSgpr) --w.sgprResultsInFlight;
      isa::completeMemory(*w.s, *p.request);
      requestPool_.push_back(p.request);  // reused by the next access
    }
    w.counters.retire(p.counter);
    if (w.state == Wave::State::Waitcnt && waitSatisfied(w)) {
      w.state = Wave::State::Ready;
      markIssuable(w);
      (w.waitingOnVm ? waitcntVmStallCycles : waitcntLgkmStallCycles) += now_ - w.waitStart;
      if (profile_)
        profile_->stalled(w.blockedPc,
                          w.waitingOnVm ? StallReason::WaitcntVm : StallReason::WaitcntLgkm,
                          now_ - w.waitStart);
      if (activity_)
        activity_->addSpan(
            w.waitingOnVm ? activityChannels_.stallWaitcntVm : activityChannels_.stallWaitcntLgkm,
            w.waitStart, now_, 1);
      w.readyCycle = std::max(w.readyCycle, now_);
      if (traceProbe) traceProbe->released(w.slot, w.readyCycle);
    }
    --w.outstanding;
    if (w.state == Wave::State::Draining && w.outstanding == 0) endWave(w);
  }
}

bool ComputeUnit::waitSatisfied(const Wave& w) const {
  return w.counters.satisfied(w.waitVm, w.waitLgkm, w.waitExp);
}

// Inlined into the issue loops (once per issued instruction).
[[gnu::always_inline]] inline const isa::Instruction* ComputeUnit::nextInstruction(
    const Wave& w) const {
  const isa::Instruction* next = w.next;
  return next && next->pc == w.s->pc ? next : code_->at(w.s->pc);
}

// Inlined into issueFunctional's loop: the path nearly every instruction takes in functional
// mode, with what it does not need left out (pipeline timing, hooks).
[[gnu::always_inline]] inline bool ComputeUnit::issuePlain(Wave& w, const isa::Instruction& inst) {
  const Workgroup& group = *w.group;
  // The issue context holds the wave's workgroup's LDS (set every time: the waves of a
  // workgroup sit on different SIMDs, so consecutive issues are mostly from different groups).
  cycleCtx_.ldsSize = group.resources.ldsBytes;
  cycleCtx_.ldsData = group.lds;
  cycleCtx_.ldsAtIssue = group.lds;     // DS instructions execute on the LDS bytes at issue
  w.next = &inst + inst.sizeBytes / 4;  // (InstructionDecodeCache: always a valid entry)
  isa::executeInto(inst, *w.s, issueRequest_, cycleCtx_, step_);
  noteMemoryWrite(inst);
  ++waveInstructions;
  ++instructionsByType[static_cast<size_t>(inst.issue)];
  w.readyCycle = now_ + 1;
  if (inst.issue == isa::IssueType::Lds && gwsChanged_ && gws_->version() != gwsAnnounced_) {
    gwsAnnounced_ = gws_->version();  // a ds_gws_* changed a resource
    gwsChanged_->notify(qk_.get_local_time());
  }
  if (step_.kind == isa::StepKind::Continue || step_.kind == isa::StepKind::MemoryDone) return true;
  if (step_.kind == isa::StepKind::Waitcnt) {  // settle's, inline: usually nothing to wait for
    w.waitVm = step_.vmcnt, w.waitLgkm = step_.lgkmcnt, w.waitExp = step_.expcnt;
    if (waitSatisfied(w)) return true;  // (Waitcnt sets all three next time too)
  }
  settle(w, inst, step_, 1);
  resetStep();
  return !halted_;
}

unsigned ComputeUnit::issueFunctional() {
  // Functional mode: every ready wave issues one instruction per cycle.
  unsigned issued = 0;
  updateCycleContext();
  contextGroup_ = nullptr;  // issuePlain sets the LDS fields on its own
  const bool observed = hazardChecker_ || activity_ || traceProbe || profile_;
  for (uint32_t word = 0; word < slots_.issuable().size(); ++word) {
    // Re-read after every issue: an instruction can end its own wave (s_endpgm), a barrier
    // release others.
    for (uint64_t above = ~uint64_t{0};;) {
      const uint64_t waiting = slots_.issuable()[word] & above;
      if (waiting == 0) break;
      const uint32_t bit = static_cast<uint32_t>(__builtin_ctzll(waiting));
      above = ~uint64_t{1} << bit;  // the slots after this one
      Wave* w = slots_[word * 64 + bit];
      if (w->readyCycle > now_) continue;  // (in the Ready state: slots_.issuable())
      const isa::Instruction* inst = nextInstruction(*w);
      if (inst == nullptr) {
        fault(*w, nullptr, "the program counter is outside device memory");
        return issued;
      }
      // No instruction fetch: the decode cache read the bytes, and fetch only times traffic.
      ++issued;
      if (observed) {
        issue(*w, *inst);
        if (halted_) return issued;
      } else if (!issuePlain(*w, *inst)) {
        return issued;  // the kernel faulted
      }
    }
  }
  return issued;
}

void ComputeUnit::updateCycleContext() {
  cycleCtx_.cycle = now_;  // (s_memrealtime reads realtimeClock_ when it executes)
}

unsigned ComputeUnit::issueCycle() {
  if (config_.functionalMode) return issueFunctional();
  // One SIMD per cycle, round-robin; from it at most one instruction per pipeline type, each
  // from a different wave, oldest (lowest slot) first.
  const uint32_t simd = static_cast<uint32_t>(simdOfCycle_.remainder(now_));
  bool typeUsed[8] = {};
  unsigned issued = 0;
  updateCycleContext();
  contextGroup_ = nullptr;
  const bool stallHooks = profile_ != nullptr || activity_ != nullptr;
  // The SIMD's waves in the Ready state, in slot order, word by word of the ready mask. Only an
  // issue changes the mask (it can end its own wave with s_endpgm, or release others at a
  // barrier): the slots after the issuing one are read again then. In a VALU-bound kernel most
  // waves visited are refused (their pipeline taken this cycle), so a visit costs little.
  for (uint32_t i = simdSlotWordsBegin_[simd]; i < simdSlotWordsBegin_[simd + 1]; ++i) {
    const uint32_t word = simdSlotWords_[i].word;
    const uint64_t range = simdSlotWords_[i].mask;
    for (uint64_t waiting = slots_.issuable()[word] & range; waiting != 0;) {
      const uint32_t bit = static_cast<uint32_t>(__builtin_ctzll(waiting));
      waiting &= waiting - 1;
      Wave* w = slots_[word * 64 + bit];
      if (w->readyCycle > now_) continue;
      const isa::Instruction* inst = nextInstruction(*w);
      if (inst == nullptr) {
        fault(*w, nullptr, "the program counter is outside device memory");
        return issued;
      }
      const auto type = static_cast<size_t>(inst->issue);
      if (typeUsed[type]) {
        ++issueConflictCycles;
        if (stallHooks) {
          if (profile_) profile_->stalled(inst->pc, StallReason::IssueConflict, 1);
          if (activity_) activity_->add(activityChannels_.stallIssueConflict, now_, 1);
        }
        continue;
      }
      // A VALU instruction also needs the SIMD's VALU free (FP64 and transcendentals hold it).
      if (inst->issue == isa::IssueType::Valu && simdValuFree_[simd] > now_) {
        ++valuBusyCycles;
        if (stallHooks) {
          if (profile_) profile_->stalled(inst->pc, StallReason::ValuBusy, 1);
          if (activity_) activity_->add(activityChannels_.stallValuBusy, now_, 1);
        }
        continue;
      }
      fetch(*w);
      if (w->readyCycle > now_) continue;
      typeUsed[type] = true;
      issue(*w, *inst);
      ++issued;
      if (halted_) return issued;
      waiting = slots_.issuable()[word] & range & (~uint64_t{1} << bit);  // the slots after it
    }
  }
  return issued;
}

isa::MemRequest* ComputeUnit::newRequest() {
  if (requestPool_.empty())
    return requests_.emplace_back(std::make_unique<isa::MemRequest>()).get();
  isa::MemRequest* r = requestPool_.back();
  requestPool_.pop_back();
  return r;
}

void ComputeUnit::prepareIssue(Wave& w, const isa::Instruction& inst) {
  Workgroup* const group = w.group;
  if (group != contextGroup_) {  // the context holds the last issuing wave's workgroup's LDS
    contextGroup_ = group;
    cycleCtx_.ldsSize = group->resources.ldsBytes;
    cycleCtx_.ldsData = group->lds;
    // Functional mode: DS instructions execute on the LDS bytes at issue (no LDS block timing).
    if (config_.functionalMode) cycleCtx_.ldsAtIssue = group->lds;
  }
  w.next = &inst + inst.sizeBytes / 4;
}

void ComputeUnit::issue(Wave& w, const isa::Instruction& inst) {
  prepareIssue(w, inst);
  if (hazardChecker_) hazardChecker_->observe(w.hazardHistory, inst);
  isa::executeInto(inst, *w.s, issueRequest_, cycleCtx_, step_);
  noteMemoryWrite(inst);
  const isa::StepResult& r = step_;
  ++waveInstructions;
  ++instructionsByType[static_cast<size_t>(inst.issue)];
  if (profile_) profile_->issued(inst, w.group->dispatch->kernelName);
  if (activity_) activity_->add(activityChannels_.instructions, now_, 1);
  uint32_t busy = 1;
  switch (inst.issue) {
    case isa::IssueType::Valu:
      // Functional mode has no VALU timing; the trace still shows the cycles.
      if (config_.functionalMode && !traceProbe) break;
      busy = valuCyclesByRate_[inst.valuRate & 7];
      simdValuFree_[w.simd] = now_ + busy;
      break;
    case isa::IssueType::Salu:
      busy = config_.cu.saluCycles;
      break;
    case isa::IssueType::Lds:
      if (gwsChanged_ && gws_->version() != gwsAnnounced_) {  // a ds_gws_* changed a resource
        gwsAnnounced_ = gws_->version();
        gwsChanged_->notify(qk_.get_local_time());
      }
      break;
    case isa::IssueType::Branch:
      busy = config_.cu.branchCycles;
      break;
    default:
      break;
  }
  w.readyCycle = now_ + (config_.functionalMode ? 1 : busy);
  // Most instructions are done here: nothing to send (a memory access completed at issue
  // needs nothing more either), nothing to wait for, and no trace to tell.
  if ((r.kind == isa::StepKind::Continue || r.kind == isa::StepKind::MemoryDone) && !traceProbe)
    return;
  settle(w, inst, r, busy);
  resetStep();
}

void ComputeUnit::resetStep() {
  isa::StepResult& r = step_;
  r.kind = isa::StepKind::Continue;
  r.vmcnt = r.expcnt = r.lgkmcnt = r.cycles = r.trapId = r.message = r.messageData = 0;
  r.gwsResource = 0;
  r.gwsBarrier = false;
  r.gwsGeneration = 0;
  if (!r.fault.empty()) r.fault.clear();
}

void ComputeUnit::settle(Wave& w, const isa::Instruction& inst, const isa::StepResult& r,
                         uint32_t busy) {
  if (r.kind != isa::StepKind::Memory &&
      (inst.issue == isa::IssueType::Vmem || inst.issue == isa::IssueType::Smem ||
       inst.issue == isa::IssueType::Lds)) {
    // A memory instruction that sent nothing (EXEC empty, a fault) may have filled parts of
    // the request: the next one starts as sendMemory leaves it.
    clearRequestOutcome();
  }
  if (traceProbe)
    traceProbe->issued(w.slot, w.simd, inst, now_, busy,
                       r.kind == isa::StepKind::Memory || r.kind == isa::StepKind::MemoryDone);

  const uint32_t slot = w.slot;  // the wave may end inside the switch (s_endpgm)
  switch (r.kind) {
    case isa::StepKind::Continue:
      break;
    case isa::StepKind::Memory:
      sendMemory(w, inst);
      break;
    case isa::StepKind::MemoryDone:  // completed at issue, as sendMemory's completeNow does
      if (traceProbe) traceProbe->memoryDone(w.slot, now_ + 1);
      break;
    case isa::StepKind::Waitcnt:
      w.waitVm = r.vmcnt, w.waitLgkm = r.lgkmcnt, w.waitExp = r.expcnt;
      if (!waitSatisfied(w)) {
        w.state = Wave::State::Waitcnt;
        markIssuable(w);
        w.waitStart = now_;
        w.waitingOnVm = w.counters.vm > w.waitVm;
        w.blockedPc = inst.pc;
      }
      break;
    case isa::StepKind::Barrier:
      w.blockedPc = inst.pc;
      arriveAtBarrier(w);
      break;
    case isa::StepKind::GwsWait:
      w.state = Wave::State::Gws;
      markIssuable(w);
      w.waitStart = now_;
      w.blockedPc = inst.pc;
      w.gwsResource = r.gwsResource;
      w.gwsBarrier = r.gwsBarrier;
      w.gwsGeneration = r.gwsGeneration;
      ++gwsWaiting_;
      break;
    case isa::StepKind::EndProgram:
      if (w.outstanding == 0) {
        endWave(w);
      } else {
        w.state = Wave::State::Draining;  // outstanding memory completes first
        markIssuable(w);
      }
      break;
    case isa::StepKind::Sleep:
      w.readyCycle = now_ + std::max<uint32_t>(1, r.cycles);
      break;
    case isa::StepKind::Message:
      ++messages;
      break;
    case isa::StepKind::Trap:
      fault(w, &inst, "s_trap " + std::to_string(r.trapId) + " with no trap handler installed");
      break;
    case isa::StepKind::Fault:
    case isa::StepKind::Halt:  // no debugger resumes a halted wave: stopped as a fault
      fault(w, &inst, r.fault);
      break;
  }
  if (traceProbe && slots_[slot]) {
    const Wave& after = *slots_[slot];
    using Block = trace::CuProbe::Block;
    traceProbe->settled(slot,
                        after.state == Wave::State::Waitcnt    ? Block::Waitcnt
                        : after.state == Wave::State::Barrier  ? Block::Barrier
                        : after.state == Wave::State::Gws      ? Block::Barrier
                        : after.state == Wave::State::Draining ? Block::Draining
                                                               : Block::None,
                        after.readyCycle);
  }
}

void ComputeUnit::sendMemory(Wave& w, const isa::Instruction& inst) {
  isa::MemRequest& req = issueRequest_;
  WaveAccessExtension source;
  source.cuId = id_;
  source.waveSlot = w.slot;
  source.simd = w.slot / config_.cu.waveSlotsPerSimd;
  source.ldsBase = w.group->ldsBase;
  source.ldsSize = w.group->resources.ldsBytes;
  // Loosely timed: the request leaves at this CU's local time, ahead of SystemC time.
  const sc_time local = qk_.get_local_time();
  const sc_time delay = memoryPort_->access(req, source, local);
  if (req.faulted) {
    const uint64_t address = req.faultAddress;
    const bool scalar = req.space == isa::MemSpace::Scalar;
    clearRequestOutcome();
    fault(w, &inst,
          std::string("memory violation: ") + (scalar ? "scalar " : "") + "access to " +
              hex(address) + ", which is " + whereNothingAnswersIn(address, config_.dram.sizeBytes),
          address);
    return;
  }
  // The memory side has performed the access (loosely timed): an atomic that changed memory is
  // progress for the watchdog (a store was counted at issue).
  if (req.atomicChangedMemory) noteDeviceWrite();

  if (config_.functionalMode) {
    // Functional mode completes every access at issue: the data is in the registers before the
    // wave's next instruction, as it was when it arrived one cycle later.
    if (req.writeback.kind != 0) isa::completeMemory(*w.s, req);
    if (traceProbe) traceProbe->memoryDone(w.slot, now_ + 1);
    clearRequestOutcome();
    return;
  }

  uint64_t latency = static_cast<uint64_t>(std::ceil(delay / period_));
  if (config_.perturbLatencySeed != 0) latency += perturbation_.extraCycles();
  // The wave sees the access complete when the memory path has answered and every earlier
  // access that must return before it has (WaitcntCounters: the hardware's order rules).
  const uint64_t completion =
      w.counters.issue(req.counter, req.space, now_ + std::max<uint64_t>(1, latency));
  ++w.outstanding;
  // Only an access that returns data keeps a request of its own until it completes, with only
  // what completing needs. A CU running ahead of memory keeps hundreds of stores in flight
  // (private_array's scratch on 60 CUs: about 290 per CU), and requests kept for them made each
  // CU's pool that large: tens of megabytes allocated, zeroed and paged in. A load whose
  // destination nothing reads or writes before its wait needs none either: its data goes to
  // the registers now, while they and the data are in the host's caches.
  isa::MemRequest* result = nullptr;
  if (req.writeback.kind != 0) {
    if (resultLandsAtIssue(w, inst, req)) {
      isa::completeMemory(*w.s, req);
    } else {
      result = newRequest();
      req.moveResultTo(*result);
      if (result->writeback.kind == isa::kWbVgpr) ++w.vgprResultsInFlight;
      if (result->writeback.kind == isa::kWbSgpr) ++w.sgprResultsInFlight;
    }
  }
  const isa::WaitCounter counter = req.counter;
  clearRequestOutcome();
  if (traceProbe) traceProbe->memoryDone(w.slot, completion);
  pending_.push({completion, issueSequence_++, &w, result, counter});
}

bool ComputeUnit::resultLandsAtIssue(const Wave& w, const isa::Instruction& inst,
                                     const isa::MemRequest& req) {
  using isa::Instruction;
  const isa::MemRequest::Writeback& wb = req.writeback;
  if (req.op != isa::MemOp::Load || code_ == nullptr) return false;
  isa::LoadResult result;
  uint32_t count = wb.count;
  if (req.space == isa::MemSpace::Vector && wb.kind == isa::kWbVgpr) {
    // Image loads (addresses the search cannot bound) and M0-relative VGPR indexing (which moves
    // every later VALU operand) keep the request.
    if ((wb.flags & isa::kWbImage) || (w.s->mode & isa::kModeGprIdxEnable) ||
        w.vgprResultsInFlight != 0)
      return false;
    result = isa::LoadResult::Vgprs;
    count += (wb.flags & isa::kWbTfe) ? 1u : 0u;
  } else if (req.space == isa::MemSpace::Scalar && wb.kind == isa::kWbSgpr) {
    // s0..s101 only: above them lie VCC, EXEC, M0 and the trap temporaries, which instructions
    // read and write without naming them.
    if (wb.reg + count > isa::kNumSgprs || w.sgprResultsInFlight != 0) return false;
    result = isa::LoadResult::Sgprs;
  } else {
    return false;
  }
  if (inst.resultAtIssue == Instruction::ResultAtIssue::Unknown) {
    // Decided once per decoded instruction, from the instructions after it on its page of code:
    // a write to the page decodes them all again, this one included.
    const uint64_t pageBegin = inst.pc & ~(kWatchedPageBytes - 1);
    const bool yes = isa::loadResultUnobservedBeforeWait(
        inst, result, wb.reg, count, pageBegin, pageBegin + kWatchedPageBytes,
        [this](uint64_t pc) { return code_->at(pc); });
    inst.resultAtIssue = yes ? Instruction::ResultAtIssue::Yes : Instruction::ResultAtIssue::No;
    inst.resultFirstRegister = wb.reg;
    inst.resultRegisters = static_cast<uint8_t>(count);
  }
  return inst.resultAtIssue == Instruction::ResultAtIssue::Yes &&
         inst.resultFirstRegister == wb.reg && inst.resultRegisters == count;
}

void ComputeUnit::endWave(Wave& w) {
  if (traceProbe) traceProbe->waveEnded(w.slot, now_);
  Workgroup* g = w.group;
  const bool groupEnded = slots_.release(w);  // w is a spare from here on
  listener_.roomMade(id_);
  releaseBarrierIfComplete(*g);
  if (!groupEnded) return;
  ++workgroupsFinished;
  // (g is a spare now: during the sync the dispatcher may start a workgroup in it.)
  const KernelDispatch* dispatch = g->dispatch;
  // The dispatcher lives at SystemC time: catch up before telling it.
  qk_.sync();
  // The caller goes on visiting waves (issueCycle, retireCompleted): those launched during the
  // sync start now.
  startArrivedWaves();
  listener_.workgroupFinished(id_, dispatch);
}

}  // namespace vgpu
