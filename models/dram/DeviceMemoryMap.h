// Which ranges of the device address space are allocated. The DRAM model refuses (with
// TLM_ADDRESS_ERROR_RESPONSE) any access that is not inside one allocation, which is how a
// kernel's out-of-bounds access becomes a reported memory violation instead of silent
// corruption. The runtime allocates and frees through it.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string>

namespace vgpu {

class DeviceMemoryMap {
 public:
  // Device addresses start at 4 GiB so that a null or small integer pointer is never valid.
  static constexpr uint64_t kBase = 0x1'0000'0000ull;

  explicit DeviceMemoryMap(uint64_t capacityBytes) : capacity_(capacityBytes) {
    if (capacity_ > 0) free_[kBase] = capacity_;
  }

  // Returns the base of a new allocation of `bytes` (rounded up to `align`, a power of two),
  // or nothing when the device memory is exhausted.
  std::optional<uint64_t> allocate(uint64_t bytes, uint64_t align = 256, std::string tag = {});
  // Frees the allocation starting at `base`; false if there is none.
  bool release(uint64_t base);

  // True if [addr, addr + bytes) lies inside one allocation.
  bool contains(uint64_t addr, uint64_t bytes) const;
  // True if every byte of [addr, addr + bytes) lies inside some allocation (adjacent
  // allocations together may cover the range).
  bool covers(uint64_t addr, uint64_t bytes) const;
  struct Allocation {
    uint64_t base = 0, size = 0;
    std::string tag;
  };
  // The allocation holding addr, if any.
  const Allocation* find(uint64_t addr) const;
  uint64_t capacity() const { return capacity_; }
  uint64_t bytesAllocated() const { return allocated_; }

 private:
  uint64_t capacity_;
  uint64_t allocated_ = 0;
  std::map<uint64_t, Allocation> allocations_;  // by base
  // The allocation covers() found last (empty: none): accesses come in runs inside one
  // allocation. Only release() can make it stale.
  mutable uint64_t lastBase_ = 0, lastSize_ = 0;
  std::map<uint64_t, uint64_t> free_;  // free ranges: base -> size, never adjacent
};

}  // namespace vgpu
