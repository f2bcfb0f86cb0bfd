// The bytes of device memory: sparse 1 MiB pages created on first write, so a 16 GiB device
// costs only what kernels touch. Reads of never-written bytes return zero.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <unordered_map>

namespace vgpu {

class BackingStore {
 public:
  static constexpr uint64_t kPageBytes = 1u << 20;

  void read(uint64_t addr, uint8_t* out, uint64_t len) const {
    while (len > 0) {
      const uint64_t off = addr % kPageBytes;
      const uint64_t n = std::min(len, kPageBytes - off);
      const uint8_t* p = existingPage(addr / kPageBytes);
      if (p == nullptr)
        std::memset(out, 0, n);
      else
        std::memcpy(out, p + off, n);
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
    const uint64_t index = addr / kPageBytes;
    if (index == lastIndex_) return lastPage_;
    auto& p = pages_[index];
    if (!p) {
      // calloc: a page this large comes zeroed from the system, without a pass over it.
      p.reset(static_cast<uint8_t*>(std::calloc(kPageBytes, 1)));
      if (!p) throw std::bad_alloc();
    }
    lastIndex_ = index, lastPage_ = p.get();
    return p.get();
  }

 private:
  // The page with this index, or null if it was never written.
  uint8_t* existingPage(uint64_t index) const {
    if (index == lastIndex_) return lastPage_;
    auto it = pages_.find(index);
    if (it == pages_.end()) return nullptr;
    lastIndex_ = index, lastPage_ = it->second.get();
    return lastPage_;
  }

  struct FreePage {
    void operator()(uint8_t* page) const { std::free(page); }
  };
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[], FreePage>> pages_;
  // The page used last: accesses come in runs on the same page, and a page, once created,
  // stays where it is until the store is destroyed.
  mutable uint64_t lastIndex_ = ~uint64_t{0};
  mutable uint8_t* lastPage_ = nullptr;
};

}  // namespace vgpu
