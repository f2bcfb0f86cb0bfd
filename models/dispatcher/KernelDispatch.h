// One kernel dispatch as the dispatcher (SPI) and the compute units see it: decoded from the
// AQL packet and the kernel descriptor by the command processor.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/Isa.h"

namespace vgpu {

struct KernelDispatch {
  std::string kernelName;
  uint64_t entryPc = 0;  // the first instruction (the code is read from memory as waves run)
  // Where the code object holding the kernel was loaded, as host software told the GPU's debug
  // interface (0: unknown): a PC minus this is the offset in the code object that
  // `vgpu-sim disasm` and llvm-objdump print.
  uint64_t codeObjectBase = 0;

  // From the AQL kernel-dispatch packet.
  uint64_t packetAddress = 0;
  uint64_t queueAddress = 0;
  uint64_t kernargAddress = 0;
  uint64_t dispatchId = 0;
  uint64_t completionSignal = 0;
  std::array<uint32_t, 3> gridSize{1, 1, 1};       // work-items per dimension
  std::array<uint32_t, 3> workgroupSize{1, 1, 1};  // work-items per dimension
  uint32_t dimensions = 1;
  // The priority of the queue it came from (mmio::QueuePriority: 0 low, 1 normal, 2 high): the
  // dispatcher places the workgroups of higher-priority dispatches first.
  static constexpr uint32_t kHighestPriority = 2;
  uint32_t priority = 1;
  uint32_t queue = 0;  // the command processor's queue it came from (HW_ID's QUEUE_ID)
  // The CUs its workgroups may use, 32 a word (bit i of word w: CU 32w + i), from its queue's
  // CU mask (QUEUE_CU_MASK_DATA); empty: every CU.
  std::vector<uint32_t> cuMask;
  bool mayUse(uint32_t cu) const {
    return cuMask.empty() || (cu / 32 < cuMask.size() && ((cuMask[cu / 32] >> (cu % 32)) & 1));
  }

  // From the kernel descriptor (raw fields) and the packet's segment sizes.
  uint32_t computePgmRsrc1 = 0, computePgmRsrc2 = 0;
  uint16_t kernelCodeProperties = 0;
  uint32_t groupSegmentBytes = 0;    // LDS per workgroup (fixed + dynamic)
  uint32_t privateSegmentBytes = 0;  // scratch per work-item
  uint32_t vgprsPerWave = 0;
  uint32_t sgprsPerWave = 0;

  // Scratch backing memory for all wave slots of the GPU, and each slot's share.
  uint64_t scratchBase = 0;
  uint64_t scratchBytes = 0;
  uint32_t scratchBytesPerWave = 0;

  // Counts, derived.
  std::array<uint32_t, 3> workgroups() const {
    std::array<uint32_t, 3> n{};
    for (int d = 0; d < 3; ++d) n[d] = (gridSize[d] + workgroupSize[d] - 1) / workgroupSize[d];
    return n;
  }
  uint32_t workItemsPerGroup() const {
    return workgroupSize[0] * workgroupSize[1] * workgroupSize[2];
  }
  uint32_t wavesPerGroup() const { return (workItemsPerGroup() + 63) / 64; }
};

}  // namespace vgpu
