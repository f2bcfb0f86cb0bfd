// Host software's allocator over the GPU's device aperture, as a driver or HSA runtime keeps
// one: first fit, deterministic. Allocating here only reserves addresses; host software then
// maps the range for the GPU through its MEM_MAP registers (docs/register-map.md), which is
// all the GPU knows about it.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string>

#include "dram/DeviceMemoryMap.h"

namespace vgpu {

class DeviceMemoryAllocator {
 public:
  // Device addresses start at 4 GiB (the GPU's DEVICE_MEMORY_BASE register).
  static constexpr uint64_t kBase = DeviceMemoryMap::kBase;

  explicit DeviceMemoryAllocator(uint64_t capacityBytes, uint64_t base = kBase)
      : capacity_(capacityBytes) {
    if (capacity_ > 0) free_[base] = capacity_;
  }

  // Returns the base of a new allocation of `bytes` (rounded up to `align`, a power of two),
  // or nothing when the device memory is exhausted.
  std::optional<uint64_t> allocate(uint64_t bytes, uint64_t align = 256, std::string tag = {});
  // Frees the allocation starting at `base`; false if there is none.
  bool release(uint64_t base);

  // True if [addr, addr + bytes) lies inside one allocation.
  bool contains(uint64_t addr, uint64_t bytes) const;
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
  std::map<uint64_t, uint64_t> free_;           // free ranges: base -> size, never adjacent
};

}  // namespace vgpu
