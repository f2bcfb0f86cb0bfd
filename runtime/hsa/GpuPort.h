// What vgpu's HSA runtime (libhsa-runtime64.so.1, runtime/hsa/) needs from the simulated GPU,
// and nothing more: the same things a kernel driver gives ROCr on hardware. Device memory is
// reached only through the GPU's host port, queues and signals live in this process's memory,
// which the GPU reaches through its system-memory port, and the GPU is told about both through
// its registers (docs/register-map.md).
//
// Every member may be called from any host thread at any time; the implementation
// (SimulatedGpu) runs SystemC on a thread of its own and hands requests to it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/PlatformConfig.h"

namespace vgpu::hsa {

class GpuPort {
 public:
  virtual ~GpuPort() = default;

  // The platform the GPU was built from (agent, ISA, pool, cache and clock figures).
  virtual const PlatformConfig& platform() const = 0;

  // --- Device memory: the device aperture, not accessible to the CPU ---
  // Allocates `bytes` (rounded up to `align`, a power of two) of device memory and maps it for
  // the GPU; nothing when the device memory is exhausted.
  virtual std::optional<uint64_t> allocateDevice(uint64_t bytes, uint64_t align) = 0;
  // Unmaps and frees an allocation made by allocateDevice(); false if `address` is not one.
  virtual bool freeDevice(uint64_t address) = 0;
  virtual uint64_t deviceBytesInUse() const = 0;
  // Copies through the GPU's host port (blocking; for the code-object loader and tests).
  virtual void writeDevice(uint64_t address, const void* data, uint64_t bytes) = 0;
  virtual void readDevice(uint64_t address, void* data, uint64_t bytes) = 0;

  // --- System memory: ranges of this process the GPU may read, write and use atomics on ---
  // The GPU addresses them by their host addresses (its system-memory port maps them 1:1).
  // An access by the GPU outside every exposed range faults like an unmapped device address.
  virtual void exposeSystemMemory(const void* base, uint64_t bytes) = 0;
  // The same for memory that holds signals: the GPU's writes there are seen by the port (no
  // direct access is granted over it), so it can wake waiters at once (setSystemMemoryWritten)
  // when device code changes a signal, as ockl's host-call path does.
  virtual void exposeSignalMemory(const void* base, uint64_t bytes) {
    exposeSystemMemory(base, bytes);
  }
  virtual void withdrawSystemMemory(const void* base) = 0;

  // --- AQL queues (HSA Platform System Architecture Specification 1.2, 2.8) ---
  // Gives one of the GPU's hardware queues a ring of `packets` (a power of two) 64-byte AQL
  // packets at `ring` (exposed system memory). Returns its index; nothing when all are taken.
  virtual std::optional<uint32_t> createQueue(void* ring, uint32_t packets) = 0;
  virtual void destroyQueue(uint32_t queue) = 0;
  // Packets [read index, writeIndex) are ready: the GPU processes them in order. The port gives
  // the queue the scratch memory the dispatches' private segments need.
  virtual void ringDoorbell(uint32_t queue, uint64_t writeIndex) = 0;
  // Packets the GPU has consumed (processed to completion).
  virtual uint64_t readIndex(uint32_t queue) = 0;
  // The queue's first error since it was created (the GPU's fault report), or "" if none.
  virtual std::string queueError(uint32_t queue) = 0;
  // When that error was a memory violation: the first byte the memory refused (the GPU's
  // FAULT_ADDRESS register), for HSA_AMD_GPU_MEMORY_FAULT_EVENT.
  virtual std::optional<uint64_t> queueFaultAddress(uint32_t queue) {
    (void)queue;
    return std::nullopt;
  }
  // The queue's priority, as hsa_amd_queue_priority_t numbers it: 0 low, 1 normal, 2 high (the
  // GPU's QUEUE_PRIORITIES register). A queue starts normal.
  virtual void setQueuePriority(uint32_t queue, uint32_t priority) = 0;
  // The CUs the queue's workgroups may use, 32 a word (bit i of word w: CU 32w + i; the GPU's
  // QUEUE_CU_MASK registers), one word per 32 CUs of the platform. A queue starts with every CU.
  virtual void setQueueCuMask(uint32_t queue, const std::vector<uint32_t>& words) = 0;

  // --- DMA engine ---
  // A rectangular copy (hsa_amd_memory_async_copy_rect): `layers` layers of `rows` rows of
  // `width` bytes; row y of layer z goes from src + z * srcSlice + y * srcPitch to
  // dst + z * dstSlice + y * dstPitch (each a device or an exposed system address). One copy as
  // the engine sees it: one start, one end, one completion, and the link's latency once, as an
  // SDMA rectangle packet.
  struct RectCopy {
    uint64_t dst = 0, src = 0;
    uint64_t dstPitch = 0, dstSlice = 0, srcPitch = 0, srcSlice = 0;
    uint64_t width = 0, rows = 0, layers = 0;
  };
  // Copies once every signal in `dependencies` (amd_signal_t addresses) has the value 0, then
  // writes the copy's start and end times (timestampNow() units) into `completion` (an
  // amd_signal_t, may be 0) and decrements its value. Returns at once.
  virtual void asyncCopyRect(const RectCopy& rect, std::vector<uint64_t> dependencies,
                             uint64_t completion) = 0;
  // Copies `bytes` from `src` to `dst`: a rectangle of one row.
  void asyncCopy(uint64_t dst, uint64_t src, uint64_t bytes, std::vector<uint64_t> dependencies,
                 uint64_t completion) {
    RectCopy row;
    row.dst = dst, row.src = src, row.width = bytes, row.rows = row.layers = 1;
    asyncCopyRect(row, std::move(dependencies), completion);
  }

  // --- Time ---
  // The GPU's timestamp counter (what it writes into completion signals' start_ts/end_ts):
  // simulated time in ticks of timestampFrequency() Hz.
  virtual uint64_t timestampNow() = 0;
  virtual uint64_t timestampFrequency() const = 0;

  // Called (on the GPU's thread) after the GPU wrote or atomically changed system memory, such
  // as a signal's value: waiters should look at their signals again. Set before any queue.
  virtual void setSystemMemoryWritten(std::function<void()> callback) = 0;

  // --- Debug interface (reports only): kernel names and code-object placement ---
  virtual void nameKernel(uint64_t descriptor, const std::string& name) = 0;
  virtual void codeObjectLoaded(uint64_t base, uint64_t bytes) = 0;
  virtual void codeObjectUnloaded(uint64_t base) = 0;
};

// The simulated GPU of the platform and options given by the VGPU_* environment variables
// (sc_main/CommandLine.h, cli::fromEnvironment()), running on a thread of its own. Throws
// vgpu::InputError on a bad variable.
std::unique_ptr<GpuPort> openSimulatedGpu();

}  // namespace vgpu::hsa
