// HSA AQL packet and signal layouts in device memory (HSA Platform System Architecture
// Specification 1.2, "Architected Queuing Language"; ROCr's amd_signal_t for the signal value).
#pragma once

#include <cstdint>

namespace vgpu::aql {

constexpr uint32_t kPacketBytes = 64;

enum PacketType : uint8_t {
  kVendorSpecific = 0,
  kInvalid = 1,
  kKernelDispatch = 2,
  kBarrierAnd = 3,
  kAgentDispatch = 4,
  kBarrierOr = 5,
};

// header: type [7:0], barrier [8], acquire fence scope [10:9], release fence scope [12:11].
constexpr uint16_t kHeaderTypeMask = 0xff;
constexpr int kHeaderBarrierBit = 8;
constexpr int kHeaderAcquireShift = 9;
constexpr int kHeaderReleaseShift = 11;
enum FenceScope : uint16_t { kScopeNone = 0, kScopeAgent = 1, kScopeSystem = 2 };

struct KernelDispatchPacket {
  uint16_t header;
  uint16_t setup;  // dimensions [1:0]
  uint16_t workgroupSizeX, workgroupSizeY, workgroupSizeZ;
  uint16_t reserved0;
  uint32_t gridSizeX, gridSizeY, gridSizeZ;
  uint32_t privateSegmentSize;
  uint32_t groupSegmentSize;
  uint64_t kernelObject;
  uint64_t kernargAddress;
  uint64_t reserved2;
  uint64_t completionSignal;
};
static_assert(sizeof(KernelDispatchPacket) == kPacketBytes, "AQL packets are 64 bytes");

struct BarrierPacket {  // barrier-AND and barrier-OR
  uint16_t header;
  uint16_t reserved0;
  uint32_t reserved1;
  uint64_t depSignal[5];
  uint64_t reserved2;
  uint64_t completionSignal;
};
static_assert(sizeof(BarrierPacket) == kPacketBytes, "AQL packets are 64 bytes");

// A signal object: the 64-bit value sits at offset 8 (amd_signal_t: kind, value, ...).
constexpr uint32_t kSignalBytes = 64;
constexpr uint32_t kSignalValueOffset = 8;
// start_ts and end_ts of amd_signal_t (ROCm's amd_hsa_signal.h): written by the packet
// processor when it completes the signal, read by hsa_amd_profiling_get_dispatch_time.
constexpr uint32_t kSignalStartTimestampOffset = 32;
constexpr uint32_t kSignalEndTimestampOffset = 40;

}  // namespace vgpu::aql
