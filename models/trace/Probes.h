// Each traced block's adapter to the recorder: the block calls its probe at the points where
// something happens (a wave starts, an instruction issues, a cache port is reserved) with the
// GPU cycles or SystemC times it already has; the probe knows which VCD signals and timeline
// tracks that feeds. A block holds a null probe pointer when tracing is off.
//
// Signal and track names follow the module hierarchy from the GPU down:
//   gpu.cuN            active_waves, waves_at_waitcnt, waves_at_barrier, issue_valu, issue_vmem,
//                      issue_scalar (SALU and SMEM), issue_lds, issue_branch (branch and
//                      message unit); simdK.valu_busy
//   gpu.ldsN           bank_busy[31:0], busy, conflict
//   gpu.tcN            ta_busy (texture-address unit)
//   gpu.tcN.vector_l1, gpu.sqcN.scalar_cache, gpu.sqcN.instruction_cache, gpu.l2
//                      hits, misses (per cycle), mshrs (outstanding misses); per channel (L2:
//                      channelNN) or for the cache (one channel): busy, queue (requests waiting
//                      for the port)
//   gpu.dram.channelNN busy (data bus), queue (requests not yet on the bus)
//   gpu.cp             kernels_running, kernel_start, kernel_end (one-cycle markers);
//                      queueN.state (0 idle, 1 running a kernel dispatch, 2 at a barrier packet)
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "isa/Isa.h"
#include "trace/TraceRecorder.h"

namespace vgpu::trace {

class CuProbe : public Probe {
 public:
  // Why an issued instruction is not finished when it leaves the issue stage.
  enum class Block : uint8_t { None, Waitcnt, Barrier, Draining };

  CuProbe(TraceRecorder& recorder, const std::string& path, uint32_t simds, uint32_t slotsPerSimd,
          isa::GfxTarget target);

  void waveStarted(uint32_t slot, uint64_t cycle);
  // Also finishes the wave's open instruction (s_endpgm, after its memory drained).
  void waveEnded(uint32_t slot, uint64_t cycle);
  // An instruction issued; for a memory instruction the CU sends the request next, and the
  // request's flows start at this instruction's slice.
  void issued(uint32_t slot, uint32_t simd, const isa::Instruction& inst, uint64_t cycle,
              uint32_t busyCycles, bool memory);
  // The memory instruction issued last on `slot` completes at `completion`.
  void memoryDone(uint32_t slot, uint64_t completion);
  // After issue: the wave is ready again at `readyCycle`, or blocked.
  void settled(uint32_t slot, Block block, uint64_t readyCycle);
  // A blocked wave (s_waitcnt, s_barrier) may issue again from `readyCycle`.
  void released(uint32_t slot, uint64_t readyCycle);
  void faulted() { recorder_.clearFlowOrigin(); }

 private:
  struct Described {
    std::string mnemonic, args;
  };
  struct Slot {
    const isa::Instruction* inst = nullptr;
    uint64_t issue = 0;
    bool open = false;
    Block block = Block::None;
    std::vector<uint64_t> laneEnd;  // memory lanes: when each one's last slice ends
    std::vector<uint32_t> tracks;   // lane 0: the wave's other instructions; then memory lanes
    uint32_t memoryLane = 0;
  };
  const Described& describe(const isa::Instruction& inst);
  uint32_t laneTrack(uint32_t slot, uint32_t lane);
  void close(uint32_t slot, uint32_t lane, uint64_t end);

  TraceRecorder& recorder_;
  std::string path_;
  uint32_t slotsPerSimd_;
  isa::GfxTarget target_;
  std::vector<Slot> slots_;
  std::unordered_map<const isa::Instruction*, Described> described_;
  uint32_t activeWaves_, wavesAtWaitcnt_, wavesAtBarrier_;
  uint32_t issue_[5];  // valu, vmem, scalar, lds, branch
  std::vector<uint32_t> valuBusy_, valuTracks_;
};

// Which banks serve in each cycle of an LDS bank schedule. The schedule lists, per cycle, the
// lanes served and the request slots of their lane group (LdsBankArbiter.h: a group holds
// lanesPerGroup lanes, slot = lane in group << slotShift | dword of the lane). A template so the
// trace library needs no link to the LDS; `groups` is the request's LdsLaneGroups.
template <class Request, class Schedule, class LaneGroups>
std::vector<uint64_t> ldsBankMasks(const Request& req, const Schedule& sched,
                                   const LaneGroups& groups, uint32_t banks) {
  const uint32_t perElement = req.dwordsPerElement ? req.dwordsPerElement : 1;
  const uint32_t perGroup = groups.lanesPerGroup ? groups.lanesPerGroup : 1;
  banks = banks ? banks : 1;
  auto bankOf = [&](uint32_t lane, uint32_t dwordOfLane) {
    const uint32_t element = std::min<uint32_t>(dwordOfLane / perElement, 1);
    return ((req.addr[lane][element] / 4 + dwordOfLane % perElement) % banks) % 64;
  };
  std::vector<uint64_t> masks(sched.servedLanes.size(), 0);
  for (size_t c = 0; c < sched.servedLanes.size(); ++c) {
    const uint64_t lanes = sched.servedLanes[c];
    if (lanes == 0) continue;
    uint64_t& mask = masks[c];
    if (c < sched.servedSlots.size()) {
      const uint32_t firstLane =
          static_cast<uint32_t>(__builtin_ctzll(lanes)) / perGroup * perGroup;
      for (uint32_t slots = sched.servedSlots[c]; slots; slots &= slots - 1) {
        const uint32_t slot = static_cast<uint32_t>(__builtin_ctz(slots));
        const uint32_t lane = firstLane + (slot >> groups.slotShift);
        const uint32_t dword = slot & ((1u << groups.slotShift) - 1);
        if (lane < 64 && dword < groups.dwordsPerLane) mask |= uint64_t{1} << bankOf(lane, dword);
      }
    } else {
      // No slots from this arbiter: every bank the served lanes could use.
      for (uint64_t l = lanes; l; l &= l - 1)
        for (uint32_t d = 0; d < groups.dwordsPerLane; ++d)
          mask |= uint64_t{1} << bankOf(static_cast<uint32_t>(__builtin_ctzll(l)), d);
    }
  }
  return masks;
}

class LdsProbe : public Probe {
 public:
  // `group`: the timeline group the LDS's track joins (its compute unit's).
  LdsProbe(TraceRecorder& recorder, const std::string& path, const std::string& group,
           uint32_t banks);
  // An access holds the banks over [start, start + cycles); its last `conflictCycles` cycles
  // are the ones beyond the conflict-free minimum. `bankMasks`: the banks serving, per cycle.
  void access(uint64_t start, uint32_t cycles, uint32_t conflictCycles,
              const std::vector<uint64_t>& bankMasks);

 private:
  TraceRecorder& recorder_;
  uint32_t bankBusy_, busy_, conflict_, track_;
};

class TextureAddressProbe : public Probe {
 public:
  TextureAddressProbe(TraceRecorder& recorder, const std::string& path, const std::string& group);
  // One line transaction leaves the address unit at `cycle` (one cycle); a flow begins.
  void lineSent(uint64_t cycle, uint64_t address, uint32_t bytes, bool write);
  void lineDone() { recorder_.endFlow(); }

 private:
  TraceRecorder& recorder_;
  uint32_t busy_, track_;
};

class CacheProbe : public Probe {
 public:
  enum class Access : uint8_t { Hit, Miss, Write, Atomic };
  CacheProbe(TraceRecorder& recorder, const std::string& path, const std::string& group,
             uint32_t channels, uint32_t mshrsPerChannel);
  // A request reached `channel` at `arrival`; its port transfer is [portStart, portEnd).
  void access(size_t channel, const sc_core::sc_time& arrival, const sc_core::sc_time& portStart,
              const sc_core::sc_time& portEnd, Access kind, uint64_t address, uint64_t bytes);
  // A miss held an MSHR of `channel` over [from, to).
  void mshrHeld(size_t channel, const sc_core::sc_time& from, const sc_core::sc_time& to);
  // Write-backs of evicted lines are not part of the transaction that caused them.
  void writeBack(bool starting) { recorder_.pauseFlows(starting); }

 private:
  TraceRecorder& recorder_;
  uint32_t hits_, misses_, mshrs_;
  std::vector<uint32_t> busy_, queue_, tracks_;
};

class DramProbe : public Probe {
 public:
  enum class Row : uint8_t { Hit, Miss, Conflict };
  DramProbe(TraceRecorder& recorder, const std::string& path, uint32_t channels);
  // A request reached the controller at `arrival`; its data used `channel`'s bus over
  // [busStart, busEnd).
  void access(uint32_t channel, const sc_core::sc_time& arrival, const sc_core::sc_time& busStart,
              const sc_core::sc_time& busEnd, Row row, uint64_t address, uint64_t bytes);

 private:
  TraceRecorder& recorder_;
  std::vector<uint32_t> busy_, queue_, tracks_;
};

class CommandProcessorProbe : public Probe {
 public:
  enum class QueueState : uint8_t { Idle = 0, Kernel = 1, Barrier = 2 };
  CommandProcessorProbe(TraceRecorder& recorder, const std::string& path, uint32_t queues);
  // Queue `q` runs a kernel dispatch from `cycle`.
  void kernelStarted(uint32_t q, uint64_t cycle);
  void kernelEnded(uint32_t q, const std::string& name, uint64_t startCycle, uint64_t endCycle,
                   uint64_t workgroups, uint64_t waves, bool faulted);
  // Queue `q` waits at a barrier packet, or has retired its packet.
  void queueState(uint32_t q, const sc_core::sc_time& now, QueueState s);

 private:
  TraceRecorder& recorder_;
  uint32_t running_, start_, end_;
  std::vector<uint32_t> state_, tracks_;
  std::vector<uint64_t> barrierSince_;
  std::vector<bool> atBarrier_;
};

}  // namespace vgpu::trace
