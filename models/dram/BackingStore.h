// The bytes of device memory: sparse 1 MiB pages created on first write, so a 16 GiB device
// costs only what kernels touch. Reads of never-written bytes return zero.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

namespace vgpu {

class BackingStore {
 public:
  static constexpr uint64_t kPageBytes = 1u << 20;

  void read(uint64_t addr, uint8_t* out, uint64_t len) const {
    while (len > 0) {
      const uint64_t off = addr % kPageBytes;
      const uint64_t n = std::min(len, kPageBytes - off);
      auto it = pages_.find(addr / kPageBytes);
      if (it == pages_.end())
        std::memset(out, 0, n);
      else
        std::memcpy(out, it->second.get() + off, n);
      addr += n, out += n, len -= n;
    }
  }
  void write(uint64_t addr, const uint8_t* in, uint64_t len) {
    while (len > 0) {
      const uint64_t off = addr % kPageBytes;
      const uint64_t n = std::min(len, kPageBytes - off);
      std::memcpy(page(addr) + off, in, n);
      addr += n, in += n, len -= n;
    }
  }
  // Direct pointer to the page holding addr (created if needed); valid until destruction.
  uint8_t* page(uint64_t addr) {
    auto& p = pages_[addr / kPageBytes];
    if (!p) {
      p.reset(new uint8_t[kPageBytes]);
      std::memset(p.get(), 0, kPageBytes);
    }
    return p.get();
  }

 private:
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
};

}  // namespace vgpu
