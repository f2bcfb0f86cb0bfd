#include "dram/DeviceMemoryMap.h"

namespace vgpu {

namespace {
uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }
}  // namespace

std::optional<uint64_t> DeviceMemoryMap::allocate(uint64_t bytes, uint64_t align, std::string tag) {
  if (align < 256) align = 256;
  if (align & (align - 1)) return std::nullopt;
  const uint64_t size = alignUp(bytes == 0 ? 1 : bytes, 256);
  // Reuse a freed range of exactly the right size first: keeps addresses stable across
  // repeated alloc/free cycles of the same buffers (and deterministic).
  for (auto it = freeRanges_.lower_bound(size); it != freeRanges_.end() && it->first == size; ++it) {
    if ((it->second & (align - 1)) == 0) {
      const uint64_t base = it->second;
      freeRanges_.erase(it);
      allocations_[base] = {base, size, std::move(tag)};
      allocated_ += size;
      return base;
    }
  }
  const uint64_t base = alignUp(next_, align);
  if (base + size > kBase + capacity_ || base + size < base) return std::nullopt;
  next_ = base + size;
  allocations_[base] = {base, size, std::move(tag)};
  allocated_ += size;
  return base;
}

bool DeviceMemoryMap::release(uint64_t base) {
  auto it = allocations_.find(base);
  if (it == allocations_.end()) return false;
  allocated_ -= it->second.size;
  freeRanges_.emplace(it->second.size, base);
  allocations_.erase(it);
  return true;
}

const DeviceMemoryMap::Allocation* DeviceMemoryMap::find(uint64_t addr) const {
  auto it = allocations_.upper_bound(addr);
  if (it == allocations_.begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  return addr - a.base < a.size ? &a : nullptr;
}

bool DeviceMemoryMap::contains(uint64_t addr, uint64_t bytes) const {
  const Allocation* a = find(addr);
  return a != nullptr && bytes <= a->size - (addr - a->base);
}

}  // namespace vgpu
