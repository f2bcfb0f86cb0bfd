// The GPU's MMIO register map (32-bit registers, little-endian; 64-bit values as LO/HI pairs
// that may also be accessed with one 8-byte transaction). Documented in docs/register-map.md.
#pragma once

#include <cstdint>

namespace vgpu::mmio {

constexpr uint32_t kIdValue = 0x55504756;  // "VGPU"
// 2.0: several AQL queues (1.0 had one, at the same offsets as queue 0 now).
// 3.0: device memory mapped by host software (MEM_MAP), scratch per queue given by host
// software (QUEUE_SCRATCH), system memory reachable by the GPU, TIMESTAMP.
// 3.1: FAULT_ADDRESS and FAULT_STATUS (where a memory violation was refused).
// 3.2: QUEUE_PRIORITIES.
// 3.3: QUEUE_CU_MASK_INDEX and QUEUE_CU_MASK_DATA (which CUs a queue's workgroups may use).
constexpr uint32_t kVersionValue = 0x00030003;

// AQL queues served by the command processor, and their register blocks.
constexpr uint32_t kQueues = 8;
constexpr uint32_t kQueueBlockBase = 0x100;
constexpr uint32_t kQueueStride = 0x40;

enum Register : uint32_t {
  kId = 0x000,              // RO  "VGPU"
  kVersion = 0x004,         // RO  major.minor (16.16)
  kStatus = 0x008,          // RO  bit0 busy, bit1 error (see kErrorCode)
  kErrorCode = 0x00C,       // RO  ErrorCode of the first error since the last IRQ clear
  kIrqStatus = 0x010,       // W1C bit0 packet completed, bit1 error
  kIrqEnable = 0x014,       // RW  same bits
  kComputeUnits = 0x018,    // RO  number of CUs
  kDispatches = 0x01C,      // RO  kernel dispatches completed
  kQueueCount = 0x020,      // RO  number of AQL queues (kQueues)
  kQueueStrideReg = 0x024,  // RO  bytes between two queues' register blocks (kQueueStride)
  kQueueErrors = 0x028,     // RO  bit q: queue q has an error (its QUEUE_STATUS bit 1)
  kCapabilities = 0x02C,    // RO  CapabilityBit
  // Device memory: the GPU accepts accesses only inside ranges host software mapped here.
  kMemMapBaseLo = 0x030,  // RW  range base (device address)
  kMemMapBaseHi = 0x034,
  kMemMapSizeLo = 0x038,  // RW  range size in bytes (map only)
  kMemMapSizeHi = 0x03C,
  kMemMapCommand = 0x040,       // WO  MemMapCommand: performed at once
  kMemMapStatus = 0x044,        // RO  0: the last command was done; 1: it was refused
  kDeviceMemoryBaseLo = 0x048,  // RO  the device aperture: where device memory starts
  kDeviceMemoryBaseHi = 0x04C,
  kDeviceMemorySizeLo = 0x050,  // RO  and its size in bytes
  kDeviceMemorySizeHi = 0x054,
  kTimestampLo = 0x058,  // RO  the timestamp counter (ns of simulated time; reading LO latches HI)
  kTimestampHi = 0x05C,
  // The first memory violation since IRQ_STATUS was last cleared: the first byte the memory
  // refused (what a GPU's VM protection-fault address register holds), and FaultStatusBit.
  kFaultAddressLo = 0x060,  // RO
  kFaultAddressHi = 0x064,
  kFaultStatus = 0x068,  // RO  bit0 valid, bits 15:8 the queue whose kernel made the access
  // Bits 2q+1:2q: queue q's priority (QueuePriority); reset: every queue normal (0x5555).
  kQueuePriorities = 0x06C,  // RW
  // Queue q's CU mask, 32 CUs a word: QUEUE_CU_MASK_INDEX selects queue (bits 10:8) and word w
  // (bits 4:0), QUEUE_CU_MASK_DATA reads and writes that word, bit i enabling CU 32w + i for
  // the queue's workgroups (from the next dispatch the queue starts). Reset: every CU enabled.
  kQueueCuMaskIndex = 0x070,  // RW
  kQueueCuMaskData = 0x074,   // RW
  // Queue q's block starts at kQueueBlockBase + q * kQueueStride; offsets below are queue 0's.
  kQueueBaseLo = 0x100,  // RW  ring buffer of 64-byte AQL packets
  kQueueBaseHi = 0x104,
  kQueueSize = 0x108,    // RW  packets, power of two
  kQueueEnable = 0x10C,  // RW  bit0; 0 -> 1 resets the read and write indices (a fresh queue)
  kDoorbellLo = 0x110,   // WO  write index (packets written); a write rings the doorbell
  kDoorbellHi = 0x114,
  kReadIndexLo = 0x118,  // RO  packets consumed (processed to completion)
  kReadIndexHi = 0x11C,
  kQueueStatus = 0x120,         // bit0 busy (RO), bit1 error (W1C), bit2 waiting at a barrier (RO)
  kQueueErrorCode = 0x124,      // RO  ErrorCode of the queue's first error since it was cleared
  kQueueDispatches = 0x128,     // RO  kernel dispatches this queue completed
  kQueueScratchBaseLo = 0x130,  // RW  scratch memory for the queue's dispatches (host-given)
  kQueueScratchBaseHi = 0x134,
  kQueueScratchSizeLo = 0x138,  // RW  its size in bytes (0: none)
  kQueueScratchSizeHi = 0x13C,
  kEnd = kQueueBlockBase + kQueues * kQueueStride,
};

// Offsets inside a queue's block.
enum QueueRegister : uint32_t {
  kQBaseLo = 0x00,
  kQBaseHi = 0x04,
  kQSize = 0x08,
  kQEnable = 0x0C,
  kQDoorbellLo = 0x10,
  kQDoorbellHi = 0x14,
  kQReadIndexLo = 0x18,
  kQReadIndexHi = 0x1C,
  kQStatus = 0x20,
  kQErrorCode = 0x24,
  kQDispatches = 0x28,
  kQScratchBaseLo = 0x30,
  kQScratchBaseHi = 0x34,
  kQScratchSizeLo = 0x38,
  kQScratchSizeHi = 0x3C,
};
enum MemMapCommand : uint32_t { kMemMapMap = 1, kMemMapUnmap = 2 };
// A queue's priority (the values of hsa_amd_queue_priority_t). The command processor serves
// queues with work in order of priority, and the dispatcher places the workgroups of
// higher-priority dispatches first; equal priorities take turns. 3 is taken as high.
enum QueuePriority : uint32_t { kPriorityLow = 0, kPriorityNormal = 1, kPriorityHigh = 2 };
constexpr uint32_t kQueuePrioritiesReset = 0x5555;
// QUEUE_CU_MASK_INDEX's fields, and the words of a queue's mask (1,024 CUs, the most a platform
// may have).
constexpr uint32_t kCuMaskWords = 32;
constexpr uint32_t cuMaskIndex(uint32_t queue, uint32_t word) {
  return (queue & 7) << 8 | (word & 31);
}
constexpr uint32_t queueRegister(uint32_t queue, QueueRegister r) {
  return kQueueBlockBase + queue * kQueueStride + r;
}

enum IrqBit : uint32_t { kIrqPacketDone = 1u << 0, kIrqError = 1u << 1 };
enum StatusBit : uint32_t { kStatusBusy = 1u << 0, kStatusError = 1u << 1 };
enum QueueStatusBit : uint32_t {
  kQueueBusy = 1u << 0,     // packets written (doorbell) and not yet consumed
  kQueueError = 1u << 1,    // an error since the bit was last cleared (write 1 to clear)
  kQueueBarrier = 1u << 2,  // the head packet is a barrier waiting for its dependencies
  // the head packet's header is INVALID: not published yet; the queue waits for a doorbell
  kQueueAwaitingHeader = 1u << 3,
};
enum CapabilityBit : uint32_t {
  kCapKernelDispatch = 1u << 0,
  kCapBarrierAnd = 1u << 1,
  kCapBarrierOr = 1u << 2,
  kCapFences = 1u << 3,              // acquire/release fence scopes honoured
  kCapConcurrentDispatch = 1u << 4,  // dispatches of different queues share the CUs
  kCapSystemMemory = 1u << 5,     // queues, kernargs, signals and buffers may be in system memory
  kCapHostMemoryMap = 1u << 6,    // MEM_MAP, QUEUE_SCRATCH and TIMESTAMP (version 3.0)
  kCapFaultAddress = 1u << 7,     // FAULT_ADDRESS and FAULT_STATUS (version 3.1)
  kCapQueuePriorities = 1u << 8,  // QUEUE_PRIORITIES (version 3.2)
  kCapQueueCuMasks = 1u << 9,     // QUEUE_CU_MASK_INDEX/DATA (version 3.3)
};
enum FaultStatusBit : uint32_t { kFaultValid = 1u << 0 };
constexpr uint32_t kFaultQueueShift = 8;

enum ErrorCode : uint32_t {
  kErrorNone = 0,
  kErrorInvalidPacketType = 1,
  kErrorInvalidDimensions = 2,  // setup dimensions not 1..3, zero grid or workgroup size
  kErrorWorkgroupTooLarge = 3,
  kErrorInvalidCodeObject = 4,  // kernel object: no readable kernel descriptor, bad entry point
  kErrorMemory = 5,             // a packet or signal could not be read/written
  kErrorKernelFault = 6,        // a wave faulted
  kErrorResources = 7,      // the workgroup can never fit on a CU (LDS, registers), or the queue's
                            // scratch is smaller than its private segments need
  kErrorInvalidHeader = 8,  // reserved fence scope (3) in the packet header
  kErrorQueueSetup = 9,     // QUEUE_SIZE is not a power of two
};

}  // namespace vgpu::mmio
