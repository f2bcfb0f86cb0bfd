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
#include "dram/DeviceMemoryMap.h"
#include "isa/Gws.h"
#include "isa/OpInfo.h"
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
constexpr uint64_t kNever = ~0ull;
}  // namespace

struct ComputeUnit::Workgroup {
  const KernelDispatch* dispatch = nullptr;
  std::vector<uint32_t> slots;  // its waves' slots, ascending (a barrier releases them in order)
  uint8_t* lds = nullptr;       // its LDS allocation in the CU's LDS array (nullptr: not attached)
  std::array<uint32_t, 3> groupId{};
  WorkgroupResources resources;
  uint32_t ldsBase = 0;
  uint32_t wavesTotal = 0, wavesEnded = 0, wavesAtBarrier = 0;
};

struct ComputeUnit::Wave {
  enum class State { Ready, Waitcnt, Barrier, Draining, Gws };
  std::unique_ptr<isa::WaveState> s;
  Workgroup* group = nullptr;
  uint32_t slot = 0, simd = 0, indexInGroup = 0;
  State state = State::Ready;
  uint64_t readyCycle = 0;                         // earliest cycle the next instruction may issue
  WaitcntCounters counters;                        // and the order accesses complete in
  uint32_t outstanding = 0;                        // all accesses not yet completed
  uint32_t waitVm = 0, waitLgkm = 0, waitExp = 0;  // s_waitcnt thresholds
  uint64_t fetchedLine = kNever;
  uint64_t prefetchedTo = 0;       // lines up to here were already requested by this wave
  uint64_t prefetchDoneCycle = 0;  // when the latest of those requests completes
  uint64_t waitStart = 0;
  bool waitingOnVm = false;  // which counter blocked the current s_waitcnt
  uint64_t blockedPc = 0;    // the s_waitcnt or s_barrier the wave waits in (PC is past it)
  // State::Gws: the global wave sync resource, and for a barrier the generation to pass.
  uint32_t gwsResource = 0;
  bool gwsBarrier = false;
  uint64_t gwsGeneration = 0;
  isa::HazardChecker::WaveHistory hazardHistory;  // --check-hazards: recent instructions
  // The decode cache's entry after the last instruction issued (nullptr: none): the next to
  // issue unless that one branched, which its PC tells (saves a cache lookup per issue).
  const isa::Instruction* next = nullptr;
};

struct ComputeUnit::PendingAccess {
  uint64_t completion = 0;
  uint64_t sequence = 0;
  Wave* wave = nullptr;
  isa::WaitCounter counter = isa::WaitCounter::None;
  std::unique_ptr<isa::MemRequest> request;
};

bool ComputeUnit::PendingOrder::operator()(const PendingAccess* a, const PendingAccess* b) const {
  // Min-heap on (completion, issue order): deterministic among equal completion times.
  if (a->completion != b->completion) return a->completion > b->completion;
  return a->sequence > b->sequence;
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
      slots_(config.cu.simdsPerCu * config.cu.waveSlotsPerSimd),
      residentSlots_((slots_.size() + 63) / 64),
      issuableSlots_(residentSlots_.size()),
      vgprsUsed_(config.cu.simdsPerCu, 0),
      sgprsUsed_(config.cu.simdsPerCu, 0),
      simdValuFree_(config.cu.simdsPerCu, 0) {
  cycleCtx_.target = config_.target;
  cycleCtx_.sharedApertureBase = kSharedApertureBase;
  cycleCtx_.privateApertureBase = kPrivateApertureBase;
  // Functional mode: plain loads and stores complete at issue where DMI maps their bytes.
  if (config_.functionalMode) cycleCtx_.directMemory = this;
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
  SC_THREAD(run);
}

ComputeUnit::~ComputeUnit() {
  while (!pending_.empty()) {
    delete pending_.top();
    pending_.pop();
  }
  for (PendingAccess* p : freePending_) delete p;
}

bool ComputeUnit::findSlots(const WorkgroupResources& r, std::vector<uint32_t>& placement) const {
  if (halted_) return false;
  // Too few free slots: the search below would fail too (the dispatcher asks every CU of a full
  // GPU each time a workgroup ends).
  if (slots_.size() - wavesResident_ < r.waves) return false;
  if (r.ldsBytes > 0) {  // first fit in the LDS
    uint32_t cursor = 0;
    bool fits = false;
    for (const auto& [base, size] : ldsAllocations_) {
      if (base - cursor >= r.ldsBytes) {
        fits = true;
        break;
      }
      cursor = base + size;
    }
    if (!fits && config_.lds.sizeBytes - cursor < r.ldsBytes) return false;
  }
  const uint32_t simds = config_.cu.simdsPerCu, perSimd = config_.cu.waveSlotsPerSimd;
  // Working copies: the slots taken (a bit per slot, as residentSlots_) and registers used.
  std::vector<uint64_t>& taken = slotTaken_;
  taken.assign(residentSlots_.begin(), residentSlots_.end());
  std::vector<uint32_t>& vgprs = vgprsTaken_;
  std::vector<uint32_t>& sgprs = sgprsTaken_;
  vgprs.assign(vgprsUsed_.begin(), vgprsUsed_.end());
  sgprs.assign(sgprsUsed_.begin(), sgprsUsed_.end());
  placement.clear();
  uint32_t simd = nextSimd_;
  for (uint32_t w = 0; w < r.waves; ++w) {
    bool placed = false;
    for (uint32_t tries = 0; tries < simds && !placed; ++tries, simd = (simd + 1) % simds) {
      if (vgprs[simd] + r.vgprsPerWave > config_.cu.vgprsPerSimdLane ||
          sgprs[simd] + r.sgprsPerWave > config_.cu.sgprsPerSimd)
        continue;
      for (uint32_t slot = simd * perSimd; slot < (simd + 1) * perSimd; ++slot) {
        uint64_t& word = taken[slot / 64];
        const uint64_t bit = uint64_t{1} << (slot % 64);
        if (word & bit) continue;
        word |= bit;
        vgprs[simd] += r.vgprsPerWave;
        sgprs[simd] += r.sgprsPerWave;
        placement.push_back(slot);
        placed = true;
        break;
      }
    }
    if (!placed) return false;
  }
  return true;
}

void ComputeUnit::launch(WorkgroupLaunch& launch) {
  std::unique_ptr<Workgroup> group;
  if (spareGroups_.empty()) {
    group = std::make_unique<Workgroup>();
  } else {
    group = std::move(spareGroups_.back());
    spareGroups_.pop_back();
    std::vector<uint32_t> slots = std::move(group->slots);  // keeps its storage
    *group = Workgroup{};
    group->slots = std::move(slots);
    group->slots.clear();
  }
  group->dispatch = launch.dispatch;
  group->groupId = launch.groupId;
  group->resources = launch.resources;
  group->wavesTotal = static_cast<uint32_t>(launch.waves.size());
  if (launch.resources.ldsBytes > 0) {
    uint32_t cursor = 0;
    auto it = ldsAllocations_.begin();
    for (; it != ldsAllocations_.end(); ++it) {
      if (it->first - cursor >= launch.resources.ldsBytes) break;
      cursor = it->first + it->second;
    }
    group->ldsBase = cursor;
    ldsAllocations_.insert(it, {cursor, launch.resources.ldsBytes});
  }
  group->lds = ldsStorage_ ? ldsStorage_ + group->ldsBase : nullptr;

  // The SystemC time of the launch, in this CU's cycles.
  const uint64_t start =
      static_cast<uint64_t>(sc_time_stamp() / period_) + 1;  // one cycle to start the waves
  const uint32_t simds = config_.cu.simdsPerCu;
  uint32_t index = 0;
  group->slots.reserve(launch.waves.size());
  for (auto& wl : launch.waves) {
    const uint32_t simd = wl.slot / config_.cu.waveSlotsPerSimd;
    std::unique_ptr<Wave> w;
    if (spareWaves_.empty()) {
      w = std::make_unique<Wave>();
    } else {
      w = std::move(spareWaves_.back());
      spareWaves_.pop_back();
      *w = Wave{};
    }
    w->s = std::move(wl.state);
    w->group = group.get();
    w->slot = wl.slot;
    w->simd = simd;
    w->indexInGroup = index++;
    w->readyCycle = start;
    vgprsUsed_[simd] += launch.resources.vgprsPerWave;
    sgprsUsed_[simd] += launch.resources.sgprsPerWave;
    slots_[wl.slot] = std::move(w);
    residentSlots_[wl.slot / 64] |= uint64_t{1} << (wl.slot % 64);
    issuableSlots_[wl.slot / 64] |= uint64_t{1} << (wl.slot % 64);  // Ready
    if (traceProbe) traceProbe->waveStarted(wl.slot, start);
    ++wavesResident_;
    ++wavesLaunched;
    nextSimd_ = (simd + 1) % simds;
    group->slots.push_back(wl.slot);
  }
  contextGroup_ = nullptr;  // the new group may sit where an ended one did
  std::sort(group->slots.begin(), group->slots.end());
  groups_.push_back(std::move(group));
  workArrived_.notify(SC_ZERO_TIME);
}

void ComputeUnit::markIssuable(const Wave& w) {
  const uint64_t bit = uint64_t{1} << (w.slot % 64);
  uint64_t& word = issuableSlots_[w.slot / 64];
  word = w.state == Wave::State::Ready ? word | bit : word & ~bit;
}

void ComputeUnit::advance(uint64_t cycles) {
  residentWaveCycles += wavesResident_ * cycles;
  if (activity_)
    activity_->addSpan(activityChannels_.activeWaves, now_, now_ + cycles, wavesResident_);
  now_ += cycles;
  qk_.inc(period_ * static_cast<double>(cycles));
  if (qk_.need_sync()) qk_.sync();
}

void ComputeUnit::run() {
  qk_.reset();
  while (true) {
    if (wavesResident_ == 0 || halted_) {
      qk_.sync();
      // Other processes ran during the sync: a workgroup the dispatcher launched here then was
      // notified before this wait, and waiting for the next notification would sleep for ever
      // (seen when a dispatch starts in the delta cycle its predecessor ended in).
      if (wavesResident_ != 0 && !halted_) {
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
    if (wavesResident_ == 0 || halted_) continue;
    if (gwsWaiting_ != 0 && gws_->version() != gwsPolled_) pollGws();
    if (config_.maxCycles != 0 && now_ > config_.maxCycles) {
      for (auto& w : slots_)
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
  uint64_t next = kNever;
  if (!pending_.empty()) next = pending_.top()->completion;
  for (const auto& w : slots_)
    if (w && w->state == Wave::State::Ready)
      next = std::min(next, std::max(w->readyCycle, now_ + 1));
  return next;
}

void ComputeUnit::retireCompleted() {
  while (!pending_.empty() && pending_.top()->completion <= now_) {
    PendingAccess* p = pending_.top();
    pending_.pop();
    freePending_.push_back(p);  // reused by the next access; its request goes to the pool
    Wave& w = *p->wave;
    if (p->request) {  // (only accesses that return data keep theirs)
      isa::completeMemory(*w.s, *p->request, ldsStorage_ ? ldsStorage_ + w.group->ldsBase : nullptr,
                          w.group->resources.ldsBytes);
      requestPool_.push_back(std::move(p->request));
    }
    w.counters.retire(p->counter);
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
  if (!nextRequest_) nextRequest_ = newRequest();
  isa::executeInto(inst, *w.s, *nextRequest_, cycleCtx_, step_);
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
  for (uint32_t word = 0; word < issuableSlots_.size(); ++word) {
    // Re-read after every issue: an instruction can end its own wave (s_endpgm), a barrier
    // release others.
    for (uint64_t above = ~uint64_t{0};;) {
      const uint64_t waiting = issuableSlots_[word] & above;
      if (waiting == 0) break;
      const uint32_t bit = static_cast<uint32_t>(__builtin_ctzll(waiting));
      above = ~uint64_t{1} << bit;  // the slots after this one
      Wave* w = slots_[word * 64 + bit].get();
      if (w->readyCycle > now_) continue;  // (in the Ready state: issuableSlots_)
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
  cycleCtx_.cycle = now_;
  cycleCtx_.realtime =
      static_cast<uint64_t>((sc_time_stamp() + qk_.get_local_time()) / realtimePeriod_);
}

unsigned ComputeUnit::issueCycle() {
  if (config_.functionalMode) return issueFunctional();
  // One SIMD per cycle, round-robin; from it at most one instruction per pipeline type, each
  // from a different wave, oldest (lowest slot) first.
  const uint32_t simd = static_cast<uint32_t>(now_ % config_.cu.simdsPerCu);
  const uint32_t first = simd * config_.cu.waveSlotsPerSimd;
  bool typeUsed[8] = {};
  unsigned issued = 0;
  updateCycleContext();
  contextGroup_ = nullptr;
  for (uint32_t slot = first; slot < first + config_.cu.waveSlotsPerSimd && !halted_; ++slot) {
    Wave* w = slots_[slot].get();
    if (!w || w->state != Wave::State::Ready || w->readyCycle > now_) continue;
    const isa::Instruction* inst = nextInstruction(*w);
    if (inst == nullptr) {
      fault(*w, nullptr, "the program counter is outside device memory");
      return issued;
    }
    const auto type = static_cast<size_t>(inst->issue);
    if (typeUsed[type]) {
      ++issueConflictCycles;
      if (profile_) profile_->stalled(inst->pc, StallReason::IssueConflict, 1);
      if (activity_) activity_->add(activityChannels_.stallIssueConflict, now_, 1);
      continue;
    }
    // A VALU instruction also needs the SIMD's VALU free (FP64 and transcendentals hold it).
    if (inst->issue == isa::IssueType::Valu && simdValuFree_[simd] > now_) {
      ++valuBusyCycles;
      if (profile_) profile_->stalled(inst->pc, StallReason::ValuBusy, 1);
      if (activity_) activity_->add(activityChannels_.stallValuBusy, now_, 1);
      continue;
    }
    // The instruction's line must be fetched before it issues; a miss stalls the wave.
    fetch(*w);
    if (w->readyCycle > now_) continue;
    typeUsed[type] = true;
    issue(*w, *inst);
    ++issued;
  }
  return issued;
}

std::unique_ptr<isa::MemRequest> ComputeUnit::newRequest() {
  if (requestPool_.empty()) return std::make_unique<isa::MemRequest>();
  auto r = std::move(requestPool_.back());
  requestPool_.pop_back();
  r->faulted = false;
  r->writeback = {};
  return r;
}

void ComputeUnit::fetch(Wave& w) {
  // A hit (lookup plus one line transfer) is hidden by the instruction buffer.
  const uint64_t kHiddenFetch =
      config_.instructionCache.hitLatencyCycles +
      (64 + config_.instructionCache.bytesPerCycle - 1) / config_.instructionCache.bytesPerCycle;
  // Instructions are decoded once per address (InstructionDecodeCache, which reads their bytes);
  // the fetch models the instruction cache traffic when a wave moves into a new 64-byte line. The
  // wave's instruction buffer holds the lines it prefetched (cu.instruction_prefetch_lines ahead):
  // moving forward into one of them reads nothing; any other line (a branch back, a jump) is read
  // from the instruction cache.
  const uint64_t line = w.s->pc & ~uint64_t{63};
  if (line == w.fetchedLine) return;
  const bool buffered = w.fetchedLine != kNever && line > w.fetchedLine && line <= w.prefetchedTo;
  w.fetchedLine = line;
  const sc_time local = qk_.get_local_time();
  auto read = [&](uint64_t address) {
    uint8_t buffer[64];
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(address);
    p.set_data_ptr(buffer);
    p.set_data_length(64);
    p.set_streaming_width(64);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time delay = local;
    instructionSocket->b_transport(p, delay);
    ++instructionFetches;
    return p.is_response_ok() ? delay - local : SC_ZERO_TIME;
  };
  // A buffered line may still be on its way: wait for the prefetches (conservatively, all).
  const sc_time latency =
      buffered ? period_ * static_cast<double>(w.prefetchDoneCycle > now_
                                                   ? w.prefetchDoneCycle - now_ + kHiddenFetch
                                                   : 0)
               : read(line);
  const uint64_t last = line + 64ull * config_.cu.instructionPrefetchLines;
  uint64_t next = buffered ? w.prefetchedTo + 64 : line + 64;
  for (; next <= last; next += 64) {
    const uint64_t done = now_ + static_cast<uint64_t>(read(next) / period_);
    w.prefetchDoneCycle = std::max(w.prefetchDoneCycle, done);
  }
  w.prefetchedTo = std::max(line, next - 64);
  if (config_.functionalMode) return;
  // A hit (lookup plus one line transfer) is hidden by the instruction buffer; a miss, or a
  // hit queued behind other fetches, stalls the wave for the rest.
  const uint64_t hidden = kHiddenFetch;
  const uint64_t cycles = static_cast<uint64_t>(latency / period_);
  if (cycles > hidden) {
    const uint64_t until = now_ + cycles - hidden;
    if (until > w.readyCycle) {
      fetchStallCycles += until - std::max(w.readyCycle, now_);
      if (profile_)
        profile_->stalled(w.s->pc, StallReason::Fetch, until - std::max(w.readyCycle, now_));
      if (activity_)
        activity_->addSpan(activityChannels_.stallFetch, std::max(w.readyCycle, now_), until, 1);
    }
    w.readyCycle = std::max(w.readyCycle, until);
  }
}

const isa::Instruction* ComputeUnit::nextInstruction(const Wave& w) const {
  const isa::Instruction* next = w.next;
  return next && next->pc == w.s->pc ? next : code_->at(w.s->pc);
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
  if (!nextRequest_) nextRequest_ = newRequest();
}

void ComputeUnit::issue(Wave& w, const isa::Instruction& inst) {
  prepareIssue(w, inst);
  if (hazardChecker_) hazardChecker_->observe(w.hazardHistory, inst);
  isa::executeInto(inst, *w.s, *nextRequest_, cycleCtx_, step_);
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
    // the request: the next one starts as newRequest() would give it.
    nextRequest_->faulted = false;
    nextRequest_->writeback = {};
  }
  if (traceProbe)
    traceProbe->issued(w.slot, w.simd, inst, now_, busy,
                       r.kind == isa::StepKind::Memory || r.kind == isa::StepKind::MemoryDone);

  const uint32_t slot = w.slot;  // the wave may end inside the switch (s_endpgm)
  switch (r.kind) {
    case isa::StepKind::Continue:
      break;
    case isa::StepKind::Memory:
      sendMemory(w, inst, std::move(nextRequest_));
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

void ComputeUnit::sendMemory(Wave& w, const isa::Instruction& inst,
                             std::unique_ptr<isa::MemRequest> req) {
  // Functional mode completes every access at issue: the data is in the registers before the
  // wave's next instruction, as it was when it arrived one cycle later.
  auto completeNow = [&] {
    if (req->writeback.kind != 0)
      isa::completeMemory(*w.s, *req, ldsStorage_ ? ldsStorage_ + w.group->ldsBase : nullptr,
                          w.group->resources.ldsBytes);
    if (traceProbe) traceProbe->memoryDone(w.slot, now_ + 1);
    requestPool_.push_back(std::move(req));
  };
  if (config_.functionalMode && !req->faulted &&
      ((req->space == isa::MemSpace::Vector && req->op != isa::MemOp::Atomic &&
        accessVectorMemoryDirect(*req)) ||
       (req->space == isa::MemSpace::Scalar && req->op == isa::MemOp::Load &&
        accessScalarMemoryDirect(*req)))) {
    completeNow();
    return;
  }

  tlm::tlm_generic_payload p;
  WaveAccessExtension ext;
  ext.request = req.get();
  ext.cuId = id_;
  ext.waveSlot = w.slot;
  ext.simd = w.slot / config_.cu.waveSlotsPerSimd;
  ext.ldsBase = w.group->ldsBase;
  ext.ldsSize = w.group->resources.ldsBytes;

  const bool isWrite = req->op != isa::MemOp::Load;
  p.set_command(isWrite ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  // Loosely timed: the request leaves at this CU's local time, ahead of SystemC time.
  const sc_time local = qk_.get_local_time();
  sc_time delay = local;
  AtomicExtension atomic;
  RefusedAddressExtension refused;

  switch (req->space) {
    case isa::MemSpace::Scalar:
      // SMEM moves one contiguous block: a plain base-protocol transaction.
      p.set_address(req->addr[0][0]);
      p.set_data_ptr(req->data.data());
      p.set_data_length(req->elementBytes);
      p.set_streaming_width(req->elementBytes);
      if (req->op == isa::MemOp::Atomic) {
        atomic.op = req->atomic;
        atomic.compare = req->cmp.data();
        atomic.returnsData = true;
        p.set_extension(&atomic);
      }
      if (req->laneMask & 1) {
        p.set_extension(&refused);
        scalarMemorySocket->b_transport(p, delay);
        p.clear_extension(&refused);
      } else {
        p.set_response_status(tlm::TLM_OK_RESPONSE);
      }
      if (p.get_extension<AtomicExtension>()) p.clear_extension(&atomic);
      if (p.is_response_error()) {
        // The first byte memory refused: the block may start inside a mapped range.
        req->faulted = true;
        req->faultAddress = refused.valid ? refused.address : req->addr[0][0];
      }
      break;
    case isa::MemSpace::Lds:
    case isa::MemSpace::Vector: {
      int first = 0;
      while (first < 64 && !((req->laneMask >> first) & 1)) ++first;
      p.set_address(first < 64 ? req->addr[first][0] : 0);
      p.set_data_ptr(req->data.data());
      p.set_data_length(req->elementBytes);
      p.set_streaming_width(req->elementBytes);
      p.set_extension(&ext);
      if (req->laneMask == 0) {
        p.set_response_status(tlm::TLM_OK_RESPONSE);  // nothing to access; still counts
      } else if (req->space == isa::MemSpace::Lds) {
        ldsSocket->b_transport(p, delay);
      } else {
        vectorMemorySocket->b_transport(p, delay);
      }
      p.clear_extension(&ext);
      break;
    }
  }

  if (p.is_response_error() || req->faulted) {
    fault(w, &inst,
          std::string("memory violation: ") +
              (req->space == isa::MemSpace::Scalar ? "scalar " : "") + "access to " +
              hex(req->faultAddress) + ", which is " +
              whereNothingAnswersIn(req->faultAddress, config_.dram.sizeBytes),
          req->faultAddress);
    return;
  }

  if (config_.functionalMode) {
    completeNow();
    return;
  }

  PendingAccess* pa;
  if (freePending_.empty()) {
    pa = new PendingAccess;
  } else {
    pa = freePending_.back();
    freePending_.pop_back();
  }
  uint64_t latency = static_cast<uint64_t>(std::ceil((delay - local) / period_));
  if (config_.perturbLatencySeed != 0) latency += perturbation_.extraCycles();
  pa->sequence = issueSequence_++;
  pa->wave = &w;
  pa->counter = req->counter;
  // The wave sees the access complete when the memory path has answered and every earlier
  // access that must return before it has (WaitcntCounters: the hardware's order rules).
  pa->completion =
      w.counters.issue(req->counter, req->space, now_ + std::max<uint64_t>(1, latency));
  ++w.outstanding;
  // Only an access that returns data needs its request (6.5 KB) until it completes; the
  // others' go back to the pool now. A CU running ahead of memory keeps hundreds of stores in
  // flight (private_array's scratch on 60 CUs: about 290 per CU), and requests kept for them
  // made each CU's pool that large: tens of megabytes allocated, zeroed and paged in, which cost
  // more host time than anything else that grows with the number of CUs.
  if (req->writeback.kind != 0)
    pa->request = std::move(req);
  else
    requestPool_.push_back(std::move(req));
  if (traceProbe) traceProbe->memoryDone(w.slot, pa->completion);
  pending_.push(pa);
}

const tlm::tlm_dmi* ComputeUnit::dmiRegionFor(
    DmiRegions& known, tlm_utils::simple_initiator_socket<ComputeUnit>& socket, uint64_t address,
    uint32_t bytes) {
  return known.region(address, bytes, [&](tlm::tlm_generic_payload& p, tlm::tlm_dmi& d) {
    return socket->get_direct_mem_ptr(p, d);
  });
}

uint8_t* ComputeUnit::lookup(isa::MemSpace space, uint64_t address, uint64_t bytes) {
  if (bytes == 0 || bytes > UINT32_MAX || address + bytes - 1 < address) return nullptr;
  const bool scalar = space == isa::MemSpace::Scalar;
  const tlm::tlm_dmi* d = dmiRegionFor(scalar ? scalarDmi_ : vectorDmi_,
                                       scalar ? scalarMemorySocket : vectorMemorySocket, address,
                                       static_cast<uint32_t>(bytes));
  if (d == nullptr) return nullptr;
  // TLM's region end is inclusive, the remembered one's is not (device memory ends well below
  // 2^64 - 1).
  remember(space, {d->get_start_address(), d->get_end_address() + 1, d->get_dmi_ptr()});
  return d->get_dmi_ptr() + (address - d->get_start_address());
}

bool ComputeUnit::accessScalarMemoryDirect(isa::MemRequest& req) {
  // One contiguous block, as the scalar path sends it; nothing to read when bit 0 is clear.
  if (!(req.laneMask & 1)) return true;
  const uint64_t address = req.addr[0][0];
  const tlm::tlm_dmi* d = dmiRegionFor(scalarDmi_, scalarMemorySocket, address, req.elementBytes);
  if (d == nullptr) return false;
  std::memcpy(req.data.data(), d->get_dmi_ptr() + (address - d->get_start_address()),
              req.elementBytes);
  return true;
}

namespace {

// One lane's element between device memory and a MemRequest. Fixed sizes compile to plain
// moves; a memcpy of a run-time size is a library call.
inline void copyElement(uint8_t* to, const uint8_t* from, uint32_t bytes) {
  switch (bytes) {
    case 4:
      std::memcpy(to, from, 4);
      break;
    case 8:
      std::memcpy(to, from, 8);
      break;
    case 16:
      std::memcpy(to, from, 16);
      break;
    default:
      std::memcpy(to, from, bytes);
      break;
  }
}

}  // namespace

bool ComputeUnit::accessVectorMemoryDirect(isa::MemRequest& req) {
  if (!req.texels.empty()) return false;  // image sampling's texel list: the texture path
  // The element count as a constant: the lane loops below then have no inner loop.
  if (req.elementsPerLane == 1) return accessVectorMemoryDirectElements<1>(req);
  if (req.elementsPerLane == 2) return accessVectorMemoryDirectElements<2>(req);
  return false;  // the texture path handles anything else
}

template <int kElements>
bool ComputeUnit::accessVectorMemoryDirectElements(isa::MemRequest& req) {
  // Every element's host address first: an access that DMI does not cover entirely (outside
  // every allocation, across two allocations) goes through the texture path, which reports
  // faults exactly as in timing mode, and nothing has been written before.
  uint8_t* host[64][kElements];
  uint64_t regionStart = 1, regionEnd = 0;  // the region the previous lane used (none yet)
  uint8_t* regionPtr = nullptr;
  for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctzll(lanes);
    const uint32_t bytes = req.laneBytes[lane] ? req.laneBytes[lane] : req.elementBytes;
    for (int e = 0; e < kElements; ++e) {
      const uint64_t address = req.addr[lane][e];
      if (address < regionStart || address + bytes - 1 > regionEnd) {
        const tlm::tlm_dmi* d = dmiRegionFor(vectorDmi_, vectorMemorySocket, address, bytes);
        if (d == nullptr) return false;
        regionStart = d->get_start_address();
        regionEnd = d->get_end_address();
        regionPtr = d->get_dmi_ptr();
      }
      host[lane][e] = regionPtr + (address - regionStart);
    }
  }
  // Lanes in ascending order, as the texture path orders them: of two stores to the same
  // bytes, the higher lane's wins.
  const bool isStore = req.op == isa::MemOp::Store;
  for (uint64_t lanes = req.laneMask; lanes != 0; lanes &= lanes - 1) {
    const int lane = __builtin_ctzll(lanes);
    const uint32_t bytes = req.laneBytes[lane] ? req.laneBytes[lane] : req.elementBytes;
    for (int e = 0; e < kElements; ++e) {
      if (isStore)
        copyElement(host[lane][e], req.element(lane, e), bytes);
      else
        copyElement(req.element(lane, e), host[lane][e], bytes);
    }
  }
  return true;
}

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
    const auto& w = slots_[slot];
    if (w && w->group == &g && w->state == Wave::State::Barrier) {
      barrierStallCycles += now_ - w->waitStart;
      if (profile_) profile_->stalled(w->blockedPc, StallReason::Barrier, now_ - w->waitStart);
      if (activity_) activity_->addSpan(activityChannels_.stallBarrier, w->waitStart, now_, 1);
      w->state = Wave::State::Ready;
      markIssuable(*w);
      w->readyCycle = std::max(w->readyCycle, now_ + 1);
      if (traceProbe) traceProbe->released(w->slot, w->readyCycle);
    }
  }
}

void ComputeUnit::pollGws() {
  gwsPolled_ = gws_->version();
  for (auto& w : slots_) {
    if (!w || w->state != Wave::State::Gws) continue;
    const bool pass = w->gwsBarrier ? gws_->barrierPassed(w->gwsResource, w->gwsGeneration)
                                    : gws_->tryQueuedP(w->gwsResource);
    if (!pass) continue;
    --gwsWaiting_;
    // Counted with the workgroup barriers: a GWS barrier or semaphore is a device-wide one.
    barrierStallCycles += now_ - w->waitStart;
    if (profile_) profile_->stalled(w->blockedPc, StallReason::Barrier, now_ - w->waitStart);
    if (activity_) activity_->addSpan(activityChannels_.stallBarrier, w->waitStart, now_, 1);
    w->state = Wave::State::Ready;
    markIssuable(*w);
    w->readyCycle = std::max(w->readyCycle, now_ + 1);
    if (traceProbe) traceProbe->released(w->slot, w->readyCycle);
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
  residentWaveCycles += wavesResident_ * elapsed;
  if (activity_ && elapsed)
    activity_->addSpan(activityChannels_.activeWaves, now_, now_ + elapsed, wavesResident_);
  now_ += elapsed;
  qk_.reset();
}

void ComputeUnit::endWave(Wave& w) {
  Workgroup* g = w.group;
  vgprsUsed_[w.simd] -= g->resources.vgprsPerWave;
  sgprsUsed_[w.simd] -= g->resources.sgprsPerWave;
  ++g->wavesEnded;
  --wavesResident_;
  if (traceProbe) traceProbe->waveEnded(w.slot, now_);
  residentSlots_[w.slot / 64] &= ~(uint64_t{1} << (w.slot % 64));
  issuableSlots_[w.slot / 64] &= ~(uint64_t{1} << (w.slot % 64));
  spareStates_.push_back(std::move(w.s));
  spareWaves_.push_back(std::move(slots_[w.slot]));  // w is a spare from here on
  releaseBarrierIfComplete(*g);
  if (g->wavesEnded < g->wavesTotal) return;

  if (g->resources.ldsBytes > 0)
    ldsAllocations_.erase(std::find_if(ldsAllocations_.begin(), ldsAllocations_.end(),
                                       [&](const auto& a) { return a.first == g->ldsBase; }));
  ++workgroupsFinished;
  const KernelDispatch* dispatch = g->dispatch;
  const auto ended =
      std::find_if(groups_.begin(), groups_.end(), [&](const auto& p) { return p.get() == g; });
  spareGroups_.push_back(std::move(*ended));
  groups_.erase(ended);
  // The dispatcher lives at SystemC time: catch up before telling it.
  qk_.sync();
  listener_.workgroupFinished(id_, dispatch);
}

std::string ComputeUnit::describeWave(const Wave& w) const {
  std::ostringstream os;
  const auto& g = *w.group;
  os << "wave " << w.indexInGroup << " of workgroup (" << g.groupId[0] << "," << g.groupId[1] << ","
     << g.groupId[2] << ") on CU " << id_ << " (SIMD " << w.simd << ", slot " << w.slot << ")";
  return os.str();
}

std::string ComputeUnit::describeWaveProgress(const Wave& w) const {
  const bool blocked = w.state == Wave::State::Waitcnt || w.state == Wave::State::Barrier ||
                       w.state == Wave::State::Gws;
  const uint64_t pc = blocked ? w.blockedPc : w.s->pc;
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
  for (const auto& w : slots_)
    if (w) os << "\n    " << describeWaveProgress(*w);
  return os.str();
}

void ComputeUnit::faultDeadlock(const std::string& reason) {
  // The report points at the wave that has waited longest, at the instruction it waits in.
  const Wave* oldest = nullptr;
  for (const auto& w : slots_)
    if (w &&
        (w->state == Wave::State::Waitcnt || w->state == Wave::State::Barrier ||
         w->state == Wave::State::Gws) &&
        (!oldest || w->waitStart < oldest->waitStart))
      oldest = w.get();
  for (const auto& w : slots_)
    if (!oldest && w) oldest = w.get();
  if (!oldest) return;
  const bool blocked = oldest->state == Wave::State::Waitcnt ||
                       oldest->state == Wave::State::Barrier || oldest->state == Wave::State::Gws;
  fault(*oldest, blocked ? code_->at(oldest->blockedPc) : nullptr,
        reason + "\n" + describeEveryWave());
}

void ComputeUnit::checkWatchdog() {
  // Only waits count: a wave that keeps issuing (a spin loop) is the cycle limit's business,
  // but the barrier its workgroup's other waves wait at shows up here.
  const Wave* oldest = nullptr;
  for (const auto& w : slots_)
    if (w &&
        (w->state == Wave::State::Waitcnt || w->state == Wave::State::Barrier ||
         w->state == Wave::State::Gws) &&
        (!oldest || w->waitStart < oldest->waitStart))
      oldest = w.get();
  if (oldest == nullptr) {
    nextWatchdogCheck_ = now_ + config_.watchdogCycles;
    return;
  }
  if (now_ - oldest->waitStart <= config_.watchdogCycles) {
    nextWatchdogCheck_ = oldest->waitStart + config_.watchdogCycles + 1;
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
                " since cycle " + std::to_string(oldest->waitStart));
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
