#include "FakeGpuPort.h"

#include <hsa/amd_hsa_signal.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

// In the GoogleTest suite a misuse of the port fails the test; in the fake libhsa-runtime64
// (FakeRuntime.cpp) it stops the program with the message.
#ifdef VGPU_FAKE_PORT_STANDALONE
namespace {
struct Failure {
  std::ostringstream text;
  template <typename T>
  Failure& operator<<(const T& v) {
    text << v;
    return *this;
  }
  ~Failure() {
    std::fprintf(stderr, "FakeGpuPort: %s\n", text.str().c_str());
    std::abort();
  }
};
}  // namespace
#define ADD_FAILURE() Failure()
#else
#include <gtest/gtest.h>
#endif

namespace vgpu::hsa::test {

std::optional<uint64_t> FakeGpuPort::allocateDevice(uint64_t bytes, uint64_t align) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t in = 0;
  for (const auto& [base, mem] : device_) in += mem.size();
  if (in + bytes > platform_.dram.sizeBytes) return std::nullopt;
  uint64_t base = (nextDevice_ + align - 1) / align * align;
  nextDevice_ = base + bytes;
  device_[base].assign(bytes, 0);
  return base;
}

bool FakeGpuPort::freeDevice(uint64_t address) {
  std::lock_guard<std::mutex> lock(mutex_);
  return device_.erase(address) != 0;
}

uint64_t FakeGpuPort::deviceBytesInUse() const {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t in = 0;
  for (const auto& [base, mem] : device_) in += mem.size();
  return in;
}

uint8_t* FakeGpuPort::deviceBytes(uint64_t address, uint64_t bytes) {
  auto it = device_.upper_bound(address);
  if (it == device_.begin()) return nullptr;
  --it;
  if (address + bytes > it->first + it->second.size()) return nullptr;
  return it->second.data() + (address - it->first);
}

void FakeGpuPort::writeDevice(uint64_t address, const void* data, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint8_t* p = deviceBytes(address, bytes);
  if (p == nullptr) {
    ADD_FAILURE() << "writeDevice outside device memory at 0x" << std::hex << address;
    return;
  }
  std::memcpy(p, data, bytes);
}

void FakeGpuPort::readDevice(uint64_t address, void* data, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint8_t* p = deviceBytes(address, bytes);
  if (p == nullptr) {
    ADD_FAILURE() << "readDevice outside device memory at 0x" << std::hex << address;
    return;
  }
  std::memcpy(data, p, bytes);
}

void FakeGpuPort::exposeSystemMemory(const void* base, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  exposed_[reinterpret_cast<uint64_t>(base)] = bytes;
}

void FakeGpuPort::withdrawSystemMemory(const void* base) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (exposed_.erase(reinterpret_cast<uint64_t>(base)) == 0)
    ADD_FAILURE() << "withdrawSystemMemory of a range never exposed: " << base;
}

bool FakeGpuPort::isExposed(const void* address, uint64_t bytes) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t a = reinterpret_cast<uint64_t>(address);
  for (const auto& [base, size] : exposed_)
    if (a >= base && a + bytes <= base + size) return true;
  return false;
}

bool FakeGpuPort::isDeviceAllocation(uint64_t address) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return device_.count(address) != 0;
}

std::optional<uint32_t> FakeGpuPort::createQueue(void* ring, uint32_t packets) {
  std::lock_guard<std::mutex> lock(mutex_);
  QueueRecord q;
  q.ring = ring;
  q.packets = packets;
  q.live = true;
  queues_.push_back(q);
  return uint32_t(queues_.size() - 1);
}

void FakeGpuPort::destroyQueue(uint32_t queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.at(queue).live = false;
}

void FakeGpuPort::ringDoorbell(uint32_t queue, uint64_t writeIndex) {
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.at(queue).doorbells.push_back(writeIndex);
}

uint64_t FakeGpuPort::readIndex(uint32_t queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  return queues_.at(queue).readIndex;
}

std::string FakeGpuPort::queueError(uint32_t queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  return queues_.at(queue).error;
}

void FakeGpuPort::setQueuePriority(uint32_t queue, uint32_t priority) {
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.at(queue).priority = priority;
}

void FakeGpuPort::setQueueCuMask(uint32_t queue, const std::vector<uint32_t>& words) {
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.at(queue).cuMask = words;
}

void FakeGpuPort::setReadIndex(uint32_t queue, uint64_t index) {
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.at(queue).readIndex = index;
}

void FakeGpuPort::setQueueError(uint32_t queue, const std::string& error,
                                std::optional<uint64_t> faultAddress) {
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.at(queue).faultAddress = faultAddress;
  queues_.at(queue).error = error;
}

std::optional<uint64_t> FakeGpuPort::queueFaultAddress(uint32_t queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  return queues_.at(queue).faultAddress;
}

FakeGpuPort::QueueRecord FakeGpuPort::queue(uint32_t index) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queues_.at(index);
}

uint32_t FakeGpuPort::queueCount() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return uint32_t(queues_.size());
}

void FakeGpuPort::copyBytes(uint64_t dst, uint64_t src, uint64_t bytes) {
  std::vector<uint8_t> staging(bytes);
  if (uint8_t* p = deviceBytes(src, bytes)) {
    std::memcpy(staging.data(), p, bytes);
  } else {
    std::memcpy(staging.data(), reinterpret_cast<const void*>(src), bytes);
  }
  if (uint8_t* p = deviceBytes(dst, bytes)) {
    std::memcpy(p, staging.data(), bytes);
  } else {
    std::memcpy(reinterpret_cast<void*>(dst), staging.data(), bytes);
  }
}

void FakeGpuPort::asyncCopyRect(const RectCopy& rect, std::vector<uint64_t> dependencies,
                                uint64_t completion) {
  std::function<void()> written;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (uint64_t d : dependencies) {
      const auto* s = reinterpret_cast<const amd_signal_t*>(d);
      if (__atomic_load_n(&s->value, __ATOMIC_ACQUIRE) != 0)
        ADD_FAILURE() << "asyncCopy: the fake runs copies at once, a dependency is not 0";
    }
    const uint64_t start = now_ += 10;
    for (uint64_t z = 0; z < rect.layers; ++z)
      for (uint64_t y = 0; y < rect.rows; ++y) {
        const uint64_t dst = rect.dst + z * rect.dstSlice + y * rect.dstPitch;
        const uint64_t src = rect.src + z * rect.srcSlice + y * rect.srcPitch;
        for (uint64_t a : {dst, src}) {
          if (deviceBytes(a, rect.width) != nullptr) continue;
          bool exposed = false;
          for (const auto& [base, size] : exposed_)
            if (a >= base && a + rect.width <= base + size) exposed = true;
          if (!exposed) ADD_FAILURE() << "asyncCopy: 0x" << std::hex << a << " is not reachable";
        }
        copyBytes(dst, src, rect.width);
      }
#ifdef VGPU_FAKE_PORT_STANDALONE
    std::fprintf(stderr, "fake gpu: copy of %llu bytes\n",
                 static_cast<unsigned long long>(rect.width * rect.rows * rect.layers));
#endif
    ++copies_;
    lastRect_ = rect;
    const uint64_t end = now_ += 100;
    if (completion != 0) {
      auto* s = reinterpret_cast<amd_signal_t*>(completion);
      s->start_ts = start;
      s->end_ts = end;
      __atomic_fetch_sub(const_cast<int64_t*>(&s->value), 1, __ATOMIC_RELEASE);
    }
    written = written_;
  }
  if (written) written();
}

GpuPort::RectCopy FakeGpuPort::lastRect() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lastRect_;
}

uint64_t FakeGpuPort::copies() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return copies_;
}

uint64_t FakeGpuPort::timestampNow() {
  std::lock_guard<std::mutex> lock(mutex_);
  return ++now_;
}

void FakeGpuPort::setSystemMemoryWritten(std::function<void()> callback) {
  std::lock_guard<std::mutex> lock(mutex_);
  written_ = std::move(callback);
}

void FakeGpuPort::gpuWroteSystemMemory() {
  std::function<void()> written;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    written = written_;
  }
  if (written) written();
}

void FakeGpuPort::nameKernel(uint64_t descriptor, const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  kernelNames_[descriptor] = name;
#ifdef VGPU_FAKE_PORT_STANDALONE
  std::fprintf(stderr, "fake gpu: kernel %s\n", name.c_str());
#endif
}

void FakeGpuPort::codeObjectLoaded(uint64_t base, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  codeObjects_[base] = bytes;
}

void FakeGpuPort::codeObjectUnloaded(uint64_t base) {
  std::lock_guard<std::mutex> lock(mutex_);
  codeObjects_.erase(base);
}

std::map<uint64_t, std::string> FakeGpuPort::kernelNames() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return kernelNames_;
}

std::map<uint64_t, uint64_t> FakeGpuPort::loadedCodeObjects() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return codeObjects_;
}

}  // namespace vgpu::hsa::test

#ifndef VGPU_FAKE_PORT_STANDALONE
namespace vgpu::hsa {

// The tests have no simulated GPU: every test installs a FakeGpuPort factory first.
std::unique_ptr<GpuPort> defaultGpuPort() {
  ADD_FAILURE() << "hsa_init without a FakeGpuPort factory";
  return nullptr;
}

}  // namespace vgpu::hsa
#endif
