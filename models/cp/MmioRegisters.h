// The GPU's MMIO register map (32-bit registers, little-endian; 64-bit values as LO/HI pairs
// that may also be accessed with one 8-byte transaction). Documented in docs/register-map.md.
#pragma once

#include <cstdint>

namespace vgpu::mmio {

constexpr uint32_t kIdValue = 0x55504756;  // "VGPU"
constexpr uint32_t kVersionValue = 0x00010000;

enum Register : uint32_t {
  kId = 0x000,            // RO  "VGPU"
  kVersion = 0x004,       // RO  major.minor (16.16)
  kStatus = 0x008,        // RO  bit0 busy, bit1 error (see kErrorCode)
  kErrorCode = 0x00C,     // RO  ErrorCode of the first error since the last IRQ clear
  kIrqStatus = 0x010,     // W1C bit0 packet completed, bit1 error
  kIrqEnable = 0x014,     // RW  same bits
  kComputeUnits = 0x018,  // RO  number of CUs
  kDispatches = 0x01C,    // RO  kernel dispatches completed
  // Queue 0 (one user-mode AQL queue).
  kQueueBaseLo = 0x100,  // RW  ring buffer of 64-byte AQL packets
  kQueueBaseHi = 0x104,
  kQueueSize = 0x108,    // RW  packets, power of two
  kQueueEnable = 0x10C,  // RW  bit0
  kDoorbellLo = 0x110,   // WO  write index (packets written); a write rings the doorbell
  kDoorbellHi = 0x114,
  kReadIndexLo = 0x118,  // RO  packets consumed
  kReadIndexHi = 0x11C,
  kEnd = 0x200,
};

enum IrqBit : uint32_t { kIrqPacketDone = 1u << 0, kIrqError = 1u << 1 };
enum StatusBit : uint32_t { kStatusBusy = 1u << 0, kStatusError = 1u << 1 };

enum ErrorCode : uint32_t {
  kErrorNone = 0,
  kErrorInvalidPacketType = 1,
  kErrorInvalidDimensions = 2,  // setup dimensions not 1..3, zero grid or workgroup size
  kErrorWorkgroupTooLarge = 3,
  kErrorInvalidCodeObject = 4,  // kernel object outside every loaded code object
  kErrorMemory = 5,             // a packet, kernarg or signal could not be read/written
  kErrorKernelFault = 6,        // a wave faulted
  kErrorResources = 7,          // the workgroup can never fit on a CU (LDS, registers)
};

}  // namespace vgpu::mmio
