// Device memory for a block bench, as host software gets it: an allocator over the aperture
// (runtime/DeviceMemoryAllocator.h), then the range mapped in DRAM (what the GPU's MEM_MAP
// registers do).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "common/WatchedPages.h"
#include "dram/Dram.h"
#include "runtime/DeviceMemoryAllocator.h"

namespace vgpu::test {

inline DeviceMemoryAllocator& allocatorFor(const Dram& dram) {
  static std::map<const Dram*, DeviceMemoryAllocator> allocators;
  return allocators.try_emplace(&dram, uint64_t{1} << 40).first->second;
}

// Allocates and maps `bytes` (rounded up to 256) aligned to `align`; throws when DRAM refuses.
inline uint64_t mapDeviceMemory(Dram& dram, uint64_t bytes, uint64_t align = 256) {
  DeviceMemoryAllocator& a = allocatorFor(dram);
  const auto base = a.allocate(bytes, align);
  if (!base || !dram.map(*base, a.find(*base)->size))
    throw std::runtime_error("the bench's DRAM is too small for its buffers");
  return *base;
}

// Unmaps and frees what mapDeviceMemory() returned.
inline bool unmapDeviceMemory(Dram& dram, uint64_t base) {
  allocatorFor(dram).release(base);
  return dram.unmap(base);
}

// Stands where the instruction decode cache does for a watched page: records the pages
// reported written, in order.
struct RecordedPageWrites : PageWriteListener {
  std::vector<uint64_t> pages;
  void watchedPageWritten(uint64_t page) override { pages.push_back(page); }
};

}  // namespace vgpu::test
