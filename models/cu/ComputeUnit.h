// A GCN compute unit: 4 SIMD16 with 10 wave slots each, the wave sequencer (fetch, issue,
// s_waitcnt counters, barriers) and the scalar/vector/LDS/branch pipelines in front of the
// ISA library. One SC_THREAD per CU; it sleeps when the CU holds no waves and jumps over
// cycles in which nothing can issue, so idle time costs nothing.
//
// Memory instructions leave through TLM sockets (LDS, texture path, scalar cache); their data
// reaches the registers only when the response's annotated time has passed, so a kernel that
// forgets s_waitcnt misbehaves here as on silicon.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "activity/ActivitySampler.h"
#include "common/Divisor.h"
#include "common/DmiRegions.h"
#include "common/MemoryExtensions.h"
#include "common/PlatformConfig.h"
#include "common/ReusedPayload.h"
#include "common/SimTime.h"
#include "cu/InstructionDecodeCache.h"
#include "cu/InstructionProfile.h"
#include "cu/LatencyPerturbation.h"
#include "cu/MemoryPort.h"
#include "cu/WaitcntCounters.h"
#include "cu/WaveSlots.h"
#include "cu/WorkgroupLaunch.h"
#include "dispatcher/KernelDispatch.h"
#include "isa/HazardChecker.h"
#include "isa/Isa.h"
#include "isa/OpInfo.h"

namespace vgpu {

namespace trace {
class CuProbe;
}

// Why a wave stopped its kernel: the report (wave, PC, encoding, disassembly) and, for a memory
// violation, the first byte the memory refused, which host software reads back from the
// FAULT_ADDRESS registers (docs/register-map.md) instead of parsing the report.
struct WaveFault {
  std::string message;
  std::optional<uint64_t> refusedAddress;
};

// Told by a CU when a workgroup has finished or a wave faulted.
class ComputeUnitListener {
 public:
  virtual ~ComputeUnitListener() = default;
  virtual void workgroupFinished(uint32_t cuId, const KernelDispatch* dispatch) = 0;
  // A wave ended on the CU: its slot and registers are free (workgroupFinished follows when it
  // was the workgroup's last).
  virtual void roomMade(uint32_t /*cuId*/) {}
  virtual void kernelFaulted(uint32_t cuId, const KernelDispatch* dispatch,
                             const WaveFault& fault) = 0;
};

// What the dispatcher (SPI) sees of a compute unit: room for a workgroup, and starting one.
// An interface so that the dispatcher can be tested on its own, against stand-in CUs.
class ComputeUnitPort {
 public:
  virtual ~ComputeUnitPort() = default;
  virtual uint32_t id() const = 0;
  // Wave slots of the CU (scratch is laid out per wave slot of the GPU).
  virtual uint32_t waveSlots() const = 0;
  // The wave slot each wave of the workgroup would get into `placement`; false if the
  // workgroup does not fit now.
  virtual bool findSlots(const WorkgroupResources& r, std::vector<uint32_t>& placement) const = 0;
  // Starts the workgroup in the slots findSlots returned; takes the waves' states if given.
  virtual void launch(WorkgroupLaunch& group) = 0;
};

// The parts, each in its own file: the wave sequencer (issue and settle, ComputeUnit.cpp), the
// wave slots (WaveSlots), the memory port (MemoryPort: timed or direct), instruction fetch
// (InstructionFetch.cpp), barriers and global wave sync (Barriers.cpp), and the watchdog and
// fault reports (Watchdog.cpp).
class ComputeUnit : public sc_core::sc_module, public ComputeUnitPort {
 public:
  tlm_utils::simple_initiator_socket<ComputeUnit> ldsSocket;
  tlm_utils::simple_initiator_socket<ComputeUnit> vectorMemorySocket;  // to the texture path
  tlm_utils::simple_initiator_socket<ComputeUnit> scalarMemorySocket;  // to the scalar cache
  tlm_utils::simple_initiator_socket<ComputeUnit> instructionSocket;   // to the instruction cache

  SC_HAS_PROCESS(ComputeUnit);
  ComputeUnit(sc_core::sc_module_name name, uint32_t id, const PlatformConfig& config,
              ComputeUnitListener& listener);
  ~ComputeUnit() override;

  uint32_t id() const override { return id_; }
  // The wave slot each wave of the workgroup would get (spread over the SIMDs round-robin, each
  // with room for its VGPRs and SGPRs) into `placement`; false if it does not fit now (slots,
  // registers, LDS). A wave's scratch follows its slot, as the SPI's per-wave scratch offsets do.
  bool findSlots(const WorkgroupResources& r, std::vector<uint32_t>& placement) const override;
  uint32_t waveSlots() const override { return slots_.count(); }
  // Starts the workgroup in the slots findSlots returned, from the launch's start cycle: the
  // waves are resident from here on, their registers are written when this CU next runs
  // (startArrivedWaves). Takes the waves' states where given; the caller may reuse
  // `group.waves` (its storage) for the next workgroup.
  void launch(WorkgroupLaunch& group) override;
  bool idle() const { return slots_.resident() == 0; }
  // The CU's LDS array, for instructions that read the LDS as an operand at issue
  // (LDS_DIRECT, interpolation, DS src2 forms) and, in functional mode, DS instructions done at
  // issue. Set once by the GPU when it wires the LDS.
  void attachLdsStorage(uint8_t* storage) { ldsStorage_ = storage; }
  // The GPU's decoded instructions, which every wave runs from: attach before any launch.
  void attachDecodeCache(InstructionDecodeCache* code) { code_ = code; }
  // The device's global data share, which DS instructions with gds=1 access (isa/Ds.cpp).
  void attachGds(uint8_t* data, uint32_t size) {
    gds_ = data;
    gdsSize_ = size;
    cycleCtx_.gdsData = data;
    cycleCtx_.gdsSize = size;
  }
  // The device's global wave sync resources (ds_gws_*), and the event the CUs notify when one
  // changes: it wakes CUs whose waves wait in ds_gws_sema_p or at a ds_gws_barrier.
  void attachGws(isa::GwsState* gws, sc_core::sc_event* changed) {
    gws_ = gws;
    gwsChanged_ = changed;
    cycleCtx_.gws = gws;
  }
  // When a wave of the device last changed memory (a store, or an atomic that left a different
  // value), in cycles: one record shared by the GPU's CUs (a CU alone keeps its own). The
  // watchdog does not call a wait at a barrier a deadlock while waves are still writing memory
  // somewhere: the rest of the workgroup may be in an atomic retry loop, or a workgroup in a long
  // phase that a grid-wide sync waits for.
  void attachDeviceWrites(uint64_t* lastWriteCycle) { lastDeviceWrite_ = lastWriteCycle; }
  // Co-verification (--check-hazards): every instruction a wave issues goes to `checker`, in
  // the wave's program order; nullptr (the default) checks nothing and costs nothing.
  void setHazardChecker(isa::HazardChecker* checker) { hazardChecker_ = checker; }
  // The per-instruction profile (--profile-instructions): issues and stall cycles per
  // instruction address; nullptr (the default) records nothing and costs a null test per issue.
  void setInstructionProfile(InstructionProfile* profile) { profile_ = profile; }
  // Time series for the report (vgpu-sim --report); without it the hooks cost a null test.
  void attachActivity(ActivitySampler* sampler, const CuActivityChannels& channels) {
    activity_ = sampler;
    activityChannels_ = channels;
  }

  // The VCD and timeline (models/trace), set by the GPU when tracing; null: off (one test per
  // hook).
  trace::CuProbe* traceProbe = nullptr;

  // Statistics.
  uint64_t waveInstructions = 0, barrierWaits = 0, wavesLaunched = 0, workgroupsFinished = 0,
           activeCycles = 0, instructionFetches = 0, messages = 0;
  // Instructions issued by pipeline type (isa::IssueType): one increment per issue.
  std::array<uint64_t, 8> instructionsByType{};
  uint64_t instructions(isa::IssueType type) const {
    return instructionsByType[static_cast<size_t>(type)];
  }
  // Stall cycles by reason, summed over waves (a wave waiting 10 cycles adds 10).
  uint64_t waitcntVmStallCycles = 0, waitcntLgkmStallCycles = 0, barrierStallCycles = 0,
           fetchStallCycles = 0, issueConflictCycles = 0, valuBusyCycles = 0;
  // Waves resident x cycles: divided by the cycles, the CU's average occupancy.
  uint64_t residentWaveCycles = 0;

 private:
  using Wave = ResidentWave;
  using Workgroup = ResidentWorkgroup;
  void run();
  // Issues from the SIMD whose turn it is; returns how many instructions issued.
  unsigned issueCycle();
  // The instruction at the wave's PC (nullptr: outside the code).
  const isa::Instruction* nextInstruction(const Wave& w) const;
  // Executes the wave's next instruction (`inst`, at its PC) and accounts for it.
  void issue(Wave& w, const isa::Instruction& inst);
  // The same in functional mode with no hazard checker, activity sampler or trace attached:
  // no pipeline timing and nothing to tell. False when the kernel faulted (the CU halted).
  bool issuePlain(Wave& w, const isa::Instruction& inst);
  // Points the issue context at the wave's workgroup's LDS and sets the wave's next instruction.
  void prepareIssue(Wave& w, const isa::Instruction& inst);
  // What issue() does after executing an instruction that does more than continue (send a
  // request, wait, end the wave, fault) or when tracing.
  [[gnu::noinline]] void settle(Wave& w, const isa::Instruction& inst, const isa::StepResult& r,
                                uint32_t busy);
  // Brings the clocks of what every instruction issued this cycle sees of the machine
  // (cycleCtx_) up to date; the rest of it is set when the CU is built and attached, and
  // issue() adds the workgroup's LDS.
  void updateCycleContext();
  // Sends issueRequest_ (the instruction's access) to memory.
  void sendMemory(Wave& w, const isa::Instruction& inst);
  // What the next instruction finds of the last one's outcome in issueRequest_ (it fills in
  // the rest): no fault, no writeback.
  void clearRequestOutcome() {
    issueRequest_.faulted = false;
    issueRequest_.writeback = {};
  }
  void retireCompleted();
  bool waitSatisfied(const Wave& w) const;
  void arriveAtBarrier(Wave& w);
  // A wave waiting at a barrier or for a GWS resource goes on (stall counted, trace told).
  void releaseFromBarrier(Wave& w);
  void releaseBarrierIfComplete(Workgroup& g);
  // GWS: wakes the waves whose resource lets them pass; sleeps until a resource changes (or
  // `next`, the watchdog or the cycle limit is due) when nothing else can issue.
  void pollGws();
  void waitForGws(uint64_t next);
  void endWave(Wave& w);
  // Writes the initial registers of the waves launched while this CU waited (reusing the states
  // of ended waves) and lets them issue. Called wherever the CU thread resumes: nothing of this
  // CU looks at a wave before it.
  void startArrivedWaves() {
    if (slots_.unstarted()) slots_.startUnstarted();
  }
  void fault(const Wave& w, const isa::Instruction* inst, const std::string& reason,
             std::optional<uint64_t> refusedAddress = std::nullopt);
  std::string describeWave(const Wave& w) const;
  // Deadlock and runaway reports: what one wave is doing (PC, the instruction it waits in or
  // issues next, what it waits for), and that for every wave on the CU.
  std::string describeWaveProgress(const Wave& w) const;
  std::string describeEveryWave() const;
  // Stops the kernel when no wave can issue again, or one has waited longer than the watchdog.
  void faultDeadlock(const std::string& reason);
  void checkWatchdog();
  // Whether the wave waits (s_waitcnt, a barrier, GWS), and the one that has waited longest.
  static bool waiting(const Wave& w) {
    return w.state == Wave::State::Waitcnt || w.state == Wave::State::Barrier ||
           w.state == Wave::State::Gws;
  }
  const Wave* longestWaiting() const;
  // The cycle from which the watchdog counts a wave's wait (see attachDeviceWrites).
  uint64_t stuckSince(const Wave& w) const;
  // After `inst` executed: a store, or an atomic performed at issue that changed memory, moves the
  // device's last-write cycle (what the watchdog counts progress by). An atomic sent as a request
  // is performed by the memory side when the request is sent: sendMemory looks then.
  void noteMemoryWrite(const isa::Instruction& inst) {
    const bool memory =
        step_.kind == isa::StepKind::Memory || step_.kind == isa::StepKind::MemoryDone;
    if ((memory && inst.execOp->mem.op == isa::MemOp::Store) || step_.atomicChangedMemory)
      noteDeviceWrite();
    step_.atomicChangedMemory = false;  // (the executors only set it)
  }
  void noteDeviceWrite() {
    if (*lastDeviceWrite_ < now_) *lastDeviceWrite_ = now_;
  }
  uint64_t nextEventCycle() const;
  void advance(uint64_t cycles);
  // The instruction's line must be fetched before it issues; a miss stalls the wave (its
  // readyCycle moves). A wave still in the line it fetched last (most instructions) looks no
  // further.
  void fetch(Wave& w) {
    if ((w.s->pc & ~uint64_t{63}) != w.fetchedLine) fetchNewLine(w);
  }
  void fetchNewLine(Wave& w);
  isa::MemRequest* newRequest();
  // Whether a load's data may go to its registers at issue, as functional mode does, rather than
  // wait in a request of its own for the load's completion (isa/LoadResultAtIssue.h).
  bool resultLandsAtIssue(const Wave& w, const isa::Instruction& inst, const isa::MemRequest& req);
  unsigned issueFunctional();
  void invalidateVectorDmi(sc_dt::uint64 start, sc_dt::uint64 end) {
    if (directPort_) directPort_->invalidate(isa::MemSpace::Vector, start, end);
  }
  void invalidateScalarDmi(sc_dt::uint64 start, sc_dt::uint64 end) {
    if (directPort_) directPort_->invalidate(isa::MemSpace::Scalar, start, end);
  }
  void invalidateInstructionDmi(sc_dt::uint64 start, sc_dt::uint64 end) {
    fetchDmi_.forget(start, end);
  }

  uint32_t id_;
  PlatformConfig config_;
  ComputeUnitListener& listener_;
  sc_core::sc_time period_;
  QuantumKeeper qk_;
  sc_core::sc_event workArrived_;

  uint64_t now_ = 0;  // this CU's current cycle (local time, ahead of SystemC time)
  bool halted_ = false;
  WaveSlots slots_;
  void markIssuable(const Wave& w) { slots_.markIssuable(w); }
  uint8_t* ldsStorage_ = nullptr;           // the workgroups' LDS allocations lie in it
  InstructionDecodeCache* code_ = nullptr;  // the GPU's decoded instructions (shared)
  uint8_t* gds_ = nullptr;
  uint32_t gdsSize_ = 0;
  isa::GwsState* gws_ = nullptr;
  sc_core::sc_event* gwsChanged_ = nullptr;
  uint32_t gwsWaiting_ = 0;    // waves in Wave::State::Gws
  uint64_t gwsPolled_ = 0;     // GwsState::version() at the last pollGws
  uint64_t gwsAnnounced_ = 0;  // GwsState::version() this CU last notified gwsChanged_ for
  isa::HazardChecker* hazardChecker_ = nullptr;
  InstructionProfile* profile_ = nullptr;
  ActivitySampler* activity_ = nullptr;
  CuActivityChannels activityChannels_;
  std::vector<uint64_t> simdValuFree_;  // per SIMD: cycle its VALU accepts the next instruction
  // VALU cycles of an instruction by its rate class (isa::ValuRate bits, decided at decode):
  // FP64, transcendental and 32-bit integer multiply rates from the platform.
  std::array<uint32_t, 8> valuCyclesByRate_{};
  // The one way to memory: timed, or direct in functional mode (then also directPort_).
  std::unique_ptr<MemoryPort> memoryPort_;
  DirectMemoryPort* directPort_ = nullptr;
  // s_memrealtime's clock, 100 MHz: this CU's current time in whole periods, worked out only
  // when an instruction reads it (a division every issue cycle otherwise).
  class CuRealtimeClock final : public isa::RealtimeClock {
   public:
    explicit CuRealtimeClock(const QuantumKeeper& qk) : qk_(qk) {}
    uint64_t ticks() const override { return qk_.get_current_time().value() / period_.value(); }

   private:
    const QuantumKeeper& qk_;
    const sc_core::sc_time period_{10, sc_core::SC_NS};
  };
  CuRealtimeClock realtimeClock_{qk_};
  // The issue arbiter's SIMD of a cycle (the cycle modulo the SIMDs), and each SIMD's wave slots
  // as words of the issuable mask with the SIMD's bits, worked out once: the division and the
  // word arithmetic had been a fifth of the issue loop's own host instructions (a loop kernel).
  Divisor simdOfCycle_;
  struct SlotWord {
    uint32_t word;
    uint64_t mask;
  };
  std::vector<SlotWord> simdSlotWords_;       // SIMD by SIMD
  std::vector<uint32_t> simdSlotWordsBegin_;  // SIMD s's are [begin[s], begin[s + 1])
  uint64_t issueSequence_ = 0;
  LatencyPerturbation perturbation_;  // used when config_.perturbLatencySeed != 0
  uint64_t nextWatchdogCheck_ = 0;    // cycle at which the oldest wait could pass the watchdog
  uint64_t ownLastWrite_ = 0;         // the record of attachDeviceWrites while none is attached
  uint64_t* lastDeviceWrite_ = &ownLastWrite_;

  // An access in flight, all of it in the heap's entry: the keys, so that ordering the heap
  // reads nothing else (a CU of a streaming kernel has hundreds in flight, 60 CUs tens of
  // thousands, and following a pointer per comparison missed the host's caches), and what
  // retiring it needs, so that retiring reads no record of its own (a record kept apart, its
  // last use an access earlier, was 0.14 M of vector_add's 19.0 M host cache misses on 60 CUs).
  struct PendingEntry {
    uint64_t completion;
    uint64_t sequence;
    ResidentWave* wave;
    isa::MemRequest* request;  // the load's result (from requestPool_), or nullptr
    isa::WaitCounter counter;
  };
  struct PendingOrder {
    bool operator()(const PendingEntry& a, const PendingEntry& b) const;
  };
  std::priority_queue<PendingEntry, std::vector<PendingEntry>, PendingOrder> pending_;
  // Every instruction issues into this one request (a memory instruction fills it in), and the
  // memory side performs the access when it is sent, so the lanes' addresses and most of it are
  // needed only then: a load keeps its result in one of requestPool_'s until it completes
  // (MemRequest::moveResultTo). Filling a pooled request instead wrote its addresses into host
  // cache lines last touched when its previous access was issued, thousands of cycles and, on 60
  // CUs, megabytes of other CUs' state earlier.
  isa::MemRequest issueRequest_;
  ReusedPayload fetchPayload_;  // the instruction-cache reads' (fetch)
  // The code's DMI regions behind the instruction socket (read-only ones suffice), and the role
  // a fetch through them carries.
  DmiRegions fetchDmi_;
  MemoryRoleExtension fetchDataMoved_{MemoryRoleExtension::Role::DataMoved};
  bool fetchMarkedDataMoved_ = false;  // whether fetchPayload_ carries it
  std::vector<isa::MemRequest*> requestPool_;
  std::vector<std::unique_ptr<isa::MemRequest>> requests_;  // every one made (owns them)
  isa::ExecContext cycleCtx_;  // what the instructions of this cycle see
  // What the last instruction did: kept from one instruction to the next (isa::executeInto),
  // reset (resetStep) after any result but Continue and MemoryDone.
  isa::StepResult step_;
  void resetStep();
  const Workgroup* contextGroup_ = nullptr;  // whose LDS cycleCtx_ holds (nullptr: none yet)
};

}  // namespace vgpu
