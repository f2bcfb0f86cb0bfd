// Decides how many cycles the LDS banks need for one wave's access and which lanes each bank
// serves in each cycle. An interface, so the Verilated RTL arbiter (rtl_cosim/) can stand in
// for the C++ one.
//
// Rules (seed 002; AMD OpenCL optimization guide): 32 banks of 4 bytes, bank = dword address
// mod 32; a wave64 access is resolved per half-wave (32 lanes); lanes reading the same dword are
// served together (broadcast); distinct dwords in one bank are served one per cycle. Wider
// accesses (b64/b96/b128) and read2/write2 take one pass per dword per element.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace vgpu {

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
  uint32_t conflictCycles = 0;  // cycles beyond the conflict-free minimum
  // One entry per cycle: which lanes are served in that cycle (for waveforms and equivalence).
  std::vector<uint64_t> servedLanes;
};

class LdsBankArbiter {
 public:
  virtual ~LdsBankArbiter() = default;
  virtual LdsBankSchedule schedule(const LdsBankRequest& request) = 0;
};

class CppLdsBankArbiter : public LdsBankArbiter {
 public:
  explicit CppLdsBankArbiter(uint32_t banks = 32) : banks_(banks ? banks : 1) {}
  LdsBankSchedule schedule(const LdsBankRequest& request) override;

 private:
  uint32_t banks_;
  // Scratch state of one schedule() call, kept to avoid allocating per cycle.
  std::vector<uint64_t> bankEpoch_;
  std::vector<uint32_t> bankDword_;
  uint64_t epoch_ = 0;
};

}  // namespace vgpu
