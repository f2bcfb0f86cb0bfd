// A GpuPort without a GPU, for testing the HSA runtime alone: device memory is a map of host
// byte vectors, copies happen at once, queues and doorbells are only recorded. Tests play the
// GPU's part themselves (writing signals and calling gpuWroteSystemMemory()).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/hsa/GpuPort.h"

namespace vgpu::hsa::test {

class FakeGpuPort : public GpuPort {
 public:
  explicit FakeGpuPort(PlatformConfig platform) : platform_(std::move(platform)) {}

  const PlatformConfig& platform() const override { return platform_; }
  std::optional<uint64_t> allocateDevice(uint64_t bytes, uint64_t align) override;
  bool freeDevice(uint64_t address) override;
  uint64_t deviceBytesInUse() const override;
  void writeDevice(uint64_t address, const void* data, uint64_t bytes) override;
  void readDevice(uint64_t address, void* data, uint64_t bytes) override;
  void exposeSystemMemory(const void* base, uint64_t bytes) override;
  void withdrawSystemMemory(const void* base) override;
  std::optional<uint32_t> createQueue(void* ring, uint32_t packets) override;
  void destroyQueue(uint32_t queue) override;
  void ringDoorbell(uint32_t queue, uint64_t writeIndex) override;
  uint64_t readIndex(uint32_t queue) override;
  std::string queueError(uint32_t queue) override;
  std::optional<uint64_t> queueFaultAddress(uint32_t queue) override;
  void setQueuePriority(uint32_t queue, uint32_t priority) override;
  void setQueueCuMask(uint32_t queue, const std::vector<uint32_t>& words) override;
  void asyncCopyRect(const RectCopy& rect, std::vector<uint64_t> dependencies,
                     uint64_t completion) override;
  uint64_t timestampNow() override;
  uint64_t timestampFrequency() const override { return kFrequency; }
  void setSystemMemoryWritten(std::function<void()> callback) override;
  void nameKernel(uint64_t descriptor, const std::string& name) override;
  void codeObjectLoaded(uint64_t base, uint64_t bytes) override;
  void codeObjectUnloaded(uint64_t base) override;

  // --- for tests ---
  static constexpr uint64_t kFrequency = 100'000'000;  // 100 MHz
  static constexpr uint64_t kDeviceBase = 0x7f0000000000ull;
  void gpuWroteSystemMemory();  // the GPU's system-memory-written notification
  bool isExposed(const void* address, uint64_t bytes) const;
  bool isDeviceAllocation(uint64_t address) const;
  void setReadIndex(uint32_t queue, uint64_t index);
  // `faultAddress`: the error is a memory violation at that address.
  void setQueueError(uint32_t queue, const std::string& error,
                     std::optional<uint64_t> faultAddress = std::nullopt);
  struct QueueRecord {
    void* ring = nullptr;
    uint32_t packets = 0;
    bool live = false;
    uint64_t readIndex = 0;
    std::string error;
    std::optional<uint64_t> faultAddress;
    std::vector<uint64_t> doorbells;  // every ringDoorbell() value
    uint32_t priority = 1;            // setQueuePriority(): 0 low, 1 normal, 2 high
    std::vector<uint32_t> cuMask;     // the last setQueueCuMask() (empty: never called)
  };
  QueueRecord queue(uint32_t index) const;
  uint32_t queueCount() const;
  std::map<uint64_t, std::string> kernelNames() const;
  std::map<uint64_t, uint64_t> loadedCodeObjects() const;  // base -> bytes
  uint64_t copies() const;
  RectCopy lastRect() const;  // the last rectangle asyncCopyRect() copied

 private:
  uint8_t* deviceBytes(uint64_t address, uint64_t bytes);
  void copyBytes(uint64_t dst, uint64_t src, uint64_t bytes);

  PlatformConfig platform_;
  mutable std::mutex mutex_;
  std::map<uint64_t, std::vector<uint8_t>> device_;
  uint64_t nextDevice_ = kDeviceBase;
  std::map<uint64_t, uint64_t> exposed_;
  std::vector<QueueRecord> queues_;
  std::function<void()> written_;
  std::map<uint64_t, std::string> kernelNames_;
  std::map<uint64_t, uint64_t> codeObjects_;
  uint64_t now_ = 1000;
  uint64_t copies_ = 0;
  RectCopy lastRect_;
};

}  // namespace vgpu::hsa::test
