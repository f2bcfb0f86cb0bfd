// The state the compute unit keeps for each resident workgroup and wave, and for each memory
// access in flight: shared by the CU's parts (ComputeUnit.cpp, WaveSlots, InstructionFetch.cpp,
// Barriers.cpp, Watchdog.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "cu/WaitcntCounters.h"
#include "cu/WorkgroupLaunch.h"
#include "dispatcher/KernelDispatch.h"
#include "isa/HazardChecker.h"
#include "isa/Isa.h"

namespace vgpu {

constexpr uint64_t kNever = ~0ull;  // a cycle that never comes

struct ResidentWorkgroup {
  const KernelDispatch* dispatch = nullptr;
  std::vector<uint32_t> slots;  // its waves' slots, ascending (a barrier releases them in order)
  uint8_t* lds = nullptr;       // its LDS allocation in the CU's LDS array (nullptr: not attached)
  std::array<uint32_t, 3> groupId{};
  std::array<uint32_t, 3> extent{};  // work-items per dimension
  WorkgroupResources resources;
  InitialWaveStateFn initialState = nullptr;  // writes its waves' initial registers
  uint32_t ldsBase = 0;
  uint32_t wavesTotal = 0, wavesEnded = 0, wavesAtBarrier = 0;
};

struct ResidentWave {
  enum class State { Ready, Waitcnt, Barrier, Draining, Gws };
  std::unique_ptr<isa::WaveState> s;  // nullptr until the wave starts (WaveSlots::startUnstarted)
  ResidentWorkgroup* group = nullptr;
  WavePlacement where;  // what its initial registers are written from
  uint32_t slot = 0, simd = 0, indexInGroup = 0;
  State state = State::Ready;
  uint64_t readyCycle = 0;   // earliest cycle the next instruction may issue
  WaitcntCounters counters;  // and the order accesses complete in
  uint32_t outstanding = 0;  // all accesses not yet completed
  // Accesses in flight whose data a request of their own keeps for completion, by the
  // registers they will write then: while any is, no load writes the same kind at issue (a
  // later load's data must not be overwritten by an earlier one's).
  uint32_t vgprResultsInFlight = 0, sgprResultsInFlight = 0;
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

}  // namespace vgpu
