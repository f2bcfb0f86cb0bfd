// Decides how many cycles the LDS banks need for one wave's access and which lanes each bank
// serves in each cycle. An interface, so the Verilated RTL arbiter (rtl_cosim/) can stand in
// for the C++ one.
//
// Rules: 32 banks of 4 bytes, bank = dword address mod 32 (Vega ISA guide ch. 9); each cycle the
// banks take up to 32 dword requests from one group of lanes; lanes reading the same dword are
// served together (broadcast); distinct dwords in one bank are served one per cycle, the lowest
// request first (AMD OpenCL optimization guide, "LDS optimizations").
//
// Lane groups. A lane's request is all the dwords it accesses: dwordsPerElement x
// elementsPerLane (D). The wave is cut into groups of 32 / S consecutive lanes, S = D rounded
// up to a power of two, so a group asks for at most 32 dwords, each lane's dwords together:
//   b8/b16/b32 (D = 1): 32 lanes, a half-wave (AMD OpenCL guide: "threads 0 through 31 are
//     checked for conflicts as are threads 32 through 63");
//   b64 (D = 2): 16 lanes, a quarter-wave (AMD OpenCL guide: "memory requests generated from a
//     quarter-wavefront"; consecutive float2 per lane is conflict-free);
//   b128 (D = 4): 8 lanes (ROCm composable_kernel docs, "Understanding AMD GPU LDS and bank
//     conflicts": ds_write_b128 is served in 8 phases of 8 lanes; nod-ai SHARK "AMDGPU kernel
//     optimization guide": b128 handles all dwords of 8 adjacent threads, 32 in total);
//   b96 (D = 3): 8 lanes, as b128 with one dword unused (model choice: not published);
//   read2/write2: both elements of a lane together, so read2_b32 is grouped as b64 and
//     read2_b64 as b128. Model choice, consistent with LLVM (SIISelLowering.cpp,
//     allowsMisalignedMemoryAccessesImpl), which rates a 4-byte aligned ds_read2_b32 with
//     adjacent offsets as fast as ds_read_b64 and an 8-byte aligned ds_read2_b64 as ds_read_b128.
// Inside a group, request slot i * S + j is lane i's dword j (j = element x dwordsPerElement +
// dword of the element); groups are served in lane order and a group with no active lane takes
// no cycle, so a conflict-free access takes one cycle per active group: 2 (b32), 4 (b64),
// 8 (b96, b128) for a whole wave.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vgpu {

// How a request's dwords are grouped (see the rules above).
struct LdsLaneGroups {
  uint32_t dwordsPerLane = 1;  // D
  uint32_t slotShift = 0;      // log2(S): slot = lane in group << slotShift | dword of the lane
  uint32_t lanesPerGroup = 32;
  uint32_t groups = 2;
  static LdsLaneGroups of(uint32_t dwordsPerElement, uint32_t elementsPerLane);
};

struct LdsBankRequest {
  uint64_t laneMask = 0;
  uint8_t dwordsPerElement = 1;  // 1 (b8/b16/b32), 2, 3, 4
  uint8_t elementsPerLane = 1;   // 2 for read2/write2
  // Byte address of each lane's element in the LDS.
  std::array<std::array<uint32_t, 2>, 64> addr{};
  // GPU cycle at which the access reaches the LDS. The C++ arbiter ignores it; the RTL arbiter
  // (rtl_cosim/) places its clock cycles there on its waveform.
  uint64_t cycle = 0;
};

struct LdsBankSchedule {
  uint32_t cycles = 0;          // bank cycles the access occupies
  uint32_t conflictCycles = 0;  // cycles beyond the first of each lane group
  // One entry per cycle, for waveforms and equivalence: the lanes that get at least one dword
  // in that cycle (wave64 mask), and exactly which request slots of their group are served.
  std::vector<uint64_t> servedLanes;
  std::vector<uint32_t> servedSlots;
};

// The cycle counts of a schedule without its per-cycle detail.
struct LdsBankCycles {
  uint32_t cycles = 0;
  uint32_t conflictCycles = 0;
};

class LdsBankArbiter {
 public:
  virtual ~LdsBankArbiter() = default;
  virtual LdsBankSchedule schedule(const LdsBankRequest& request) = 0;
  // The cycle counts of schedule(request), for a caller that needs no per-cycle detail (the
  // LDS without a trace). An implementation may count them faster; the default schedules.
  virtual LdsBankCycles cycles(const LdsBankRequest& request) {
    const LdsBankSchedule s = schedule(request);
    return {s.cycles, s.conflictCycles};
  }
};

class CppLdsBankArbiter : public LdsBankArbiter {
 public:
  explicit CppLdsBankArbiter(uint32_t banks = 32)
      : banks_(banks ? banks : 1),
        bankMask_((banks_ & (banks_ - 1)) == 0 ? banks_ - 1 : 0),
        bankEpoch_(banks_, 0),
        bankDword_(banks_, 0),
        bankDistinct_(banks_, 0),
        bankDwords_(static_cast<size_t>(banks_) * 32, 0),
        seenDwords_(kSeenDwords / 64, 0) {}
  LdsBankSchedule schedule(const LdsBankRequest& request) override;
  // Counted without serving the slots cycle by cycle: a group takes as many cycles as its
  // busiest bank has distinct dwords.
  LdsBankCycles cycles(const LdsBankRequest& request) override;

 private:
  // Serves group g's pending slots (dwords in slotDword) cycle by cycle, calling
  // onCycle(servedLanes, servedSlots) for each cycle.
  template <typename OnCycle>
  void serveGroup(uint32_t firstLane, uint32_t slotShift, uint32_t pending,
                  const std::array<uint32_t, 32>& slotDword, OnCycle onCycle);
  // The cycles one group of lanes takes (counted, not scheduled).
  uint32_t groupCycles(const LdsBankRequest& req, const LdsLaneGroups& lg, uint32_t firstLane,
                       uint64_t lanes);
  uint32_t bankOf(uint32_t dword) const { return bankMask_ ? dword & bankMask_ : dword % banks_; }
  uint32_t banks_;
  uint32_t bankMask_;  // banks_ - 1 when banks_ is a power of two (then no division)
  // Scratch state of one schedule() or cycles() call, kept to avoid allocating per cycle.
  // bankEpoch_ says which banks the current cycle (schedule) or group (cycles) has touched, so
  // nothing needs clearing.
  std::vector<uint64_t> bankEpoch_;
  std::vector<uint32_t> bankDword_;     // schedule(): the dword a bank serves this cycle
  std::vector<uint32_t> bankDistinct_;  // cycles(): how many distinct dwords a bank is asked for
  std::vector<uint32_t> bankDwords_;    // cycles(): those dwords, 32 places per bank
  // cycles(), one dword per lane: a bit per dword of the first kSeenDwords (all of a 64 KiB
  // LDS and more), set while a group is counted and all clear in between.
  static constexpr uint32_t kSeenDwords = 1u << 16;
  std::vector<uint64_t> seenDwords_;
  uint64_t epoch_ = 0;
};

}  // namespace vgpu
